/* The sched features knob (harness/kernel/knob-features.h): finding a feature's
 * current state in the features list, and writing token lists one feature
 * per write. Parsing works on fixed buffers; the writer is signal-safe. */
#include "config.h"
#include "harness/kernel/knob-features.h"
#include "harness/kernel/knob-write.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KFEAT_NO "NO_"
#define KFEAT_TOKEN_MAX 64	/* feature names are short upper-case words */
#define KFEAT_FILE_MAX 4096	/* the list is about 700 bytes on 6.x kernels */

bool kfeat_is_knob(const char *knob)
{
	return knob && !strcmp(knob, KFEAT_KNOB);
}

/* The next space-separated token of *S as [start, start+len); advances *S.
 * Returns false at the end. */
static bool kfeat_next(const char **s, const char **start, size_t *len)
{
	*s += strspn(*s, " \t\n");
	if (!**s)
		return false;
	*start = *s;
	*len = strcspn(*s, " \t\n");
	*s += *len;
	return true;
}

/* A feature name: [A-Z0-9_]+, as the kernel's sched_feat_names are. */
static bool kfeat_valid_name(const char *name, size_t len)
{
	if (!len || len >= KFEAT_TOKEN_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '_'))
			return false;
	return true;
}

static bool kfeat_has_no(const char *tok, size_t len)
{
	return len > strlen(KFEAT_NO) && !strncmp(tok, KFEAT_NO, strlen(KFEAT_NO));
}

/* The token of LIST that gives feature NAME's state ("NAME" or "NO_NAME"),
 * whole-token matches only, so PLACE_LAG is never found inside NO_PLACE_LAG's
 * neighbours. */
static bool kfeat_find(const char *list, const char *name, size_t nlen,
		       const char **found, size_t *flen)
{
	const char *s = list, *tok;
	size_t len;

	while (kfeat_next(&s, &tok, &len)) {
		const char *bare = tok;
		size_t blen = len;

		if (kfeat_has_no(tok, len)) {
			bare += strlen(KFEAT_NO);
			blen -= strlen(KFEAT_NO);
		}
		if (blen == nlen && !strncmp(bare, name, nlen)) {
			*found = tok;
			*flen = len;
			return true;
		}
	}
	return false;
}

int kfeat_restore_value(const char *list, const char *value, char *out, size_t len,
			char *why, size_t why_len)
{
	const char *s = value, *tok, *name, *cur;
	size_t tlen, nlen, clen, o = 0;

	if (!len)
		return error_why(why, why_len, "no room for the restore value");
	out[0] = '\0';
	while (kfeat_next(&s, &tok, &tlen)) {
		name = tok;
		nlen = tlen;
		if (kfeat_has_no(tok, tlen)) {
			name += strlen(KFEAT_NO);
			nlen -= strlen(KFEAT_NO);
		}
		if (!kfeat_valid_name(name, nlen))
			return error_why(why, why_len, "'%.*s' is not a feature token "
					 "(write X or NO_X, X in [A-Z0-9_])", (int)tlen, tok);
		if (!kfeat_find(list, name, nlen, &cur, &clen))
			return error_why(why, why_len, "no sched feature %.*s on this kernel",
					 (int)nlen, name);
		if (o + (o ? 1 : 0) + clen >= len)
			return error_why(why, why_len, "too many features to journal in one setting");
		if (o)
			out[o++] = ' ';
		memcpy(out + o, cur, clen);
		o += clen;
		out[o] = '\0';
	}
	if (!o)
		return error_why(why, why_len, "no feature given (write X or NO_X)");
	return 0;
}

int kfeat_restore_value_at(const char *path, const char *value, char *out, size_t len,
			   char *why, size_t why_len)
{
	char list[KFEAT_FILE_MAX];
	size_t got = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_why(why, why_len, "cannot read %s: %s", path, strerror(errno));
	while (got + 1 < sizeof(list) && (r = read(fd, list + got, sizeof(list) - 1 - got))) {
		if (r < 0) {
			int err = errno;

			close(fd);
			return error_why(why, why_len, "cannot read %s: %s", path, strerror(err));
		}
		got += (size_t)r;
	}
	close(fd);
	list[got] = '\0';
	return kfeat_restore_value(list, value, out, len, why, why_len);
}

int kfeat_write_tokens(const char *path, const char *value)
{
	const char *s = value, *tok;
	size_t len;
	int first = 0, n = 0;

	while (kfeat_next(&s, &tok, &len)) {
		/* O_APPEND changes nothing for the debugfs file, and lets a
		 * test's plain stand-in file keep every write. */
		int err = knob_write_line(path, tok, len, O_APPEND, NULL);

		if (err && !first)
			first = err;
		n++;
	}
	return n ? first : EINVAL;
}
