/* The control-character filter (textsafe.h), a fopencookie() stream. */
#include "config.h"
#include "lib/textsafe.h"

#include <stdbool.h>
#include <stdlib.h>

struct textsafe {
	FILE *out;
	bool held_c2;	/* a write ended on 0xc2: is a C1 next? */
};

static ssize_t textsafe_write(void *cookie, const char *buf, size_t len)
{
	struct textsafe *t = cookie;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (t->held_c2) {
			t->held_c2 = false;
			fputs(c >= 0x80 && c <= 0x9f ? "??" : "\xc2", t->out);
			if (c >= 0x80 && c <= 0x9f)
				continue;
		}
		if (c == 0xc2)
			t->held_c2 = true;
		else
			fputc((c < ' ' && c != '\n' && c != '\t') || c == 0x7f ? '?' : c, t->out);
	}
	return ferror(t->out) ? -1 : (ssize_t)len;
}

static int textsafe_close(void *cookie)
{
	struct textsafe *t = cookie;
	int ret;

	if (t->held_c2)
		fputc(0xc2, t->out);
	ret = fflush(t->out) == EOF || ferror(t->out) ? -1 : 0;
	free(t);
	return ret;
}

FILE *textsafe_open(FILE *f)
{
	struct textsafe *t = calloc(1, sizeof(*t));
	FILE *s;

	if (!t)
		return NULL;
	t->out = f;
	s = fopencookie(t, "w", (cookie_io_functions_t){ .write = textsafe_write,
							 .close = textsafe_close });
	if (!s)
		free(t);
	return s;
}
