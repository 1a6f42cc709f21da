/* Config fragments (fragment.h): read line by line, checked the way
 * merge_config.sh reads them, and compared with the .config olddefconfig
 * left, naming each option that did not survive and why. */
#include "config.h"
#include "harness/vm/fragment.h"
#include "harness/vm/kconfig.h"
#include "harness/vm/kconfig-why.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char vm_fragment_builtin[] =
#include "harness/vm/fragment.inc"
	;

#define SYMBOL_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* A value Kconfig can hold: y, m, n, a decimal or hex number, a string. */
static bool fragment_value_ok(const char *v, size_t n)
{
	size_t digits;

	if (n == 1 && strchr("ymn", *v))
		return true;
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		return true;
	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		return strspn(v + 2, "0123456789abcdefABCDEF") == n - 2;
	digits = strspn(v + (*v == '-'), "0123456789");
	return digits && digits + (*v == '-') == n;
}

/* One line (without its newline) into O. 1 for an option, 0 for a comment
 * or a blank line, -1 with the error printed. */
static int fragment_line(const char *src, unsigned no, const char *line, size_t len,
			 struct vm_fragment_option *o)
{
	const char *name = line, *eq;
	size_t n;

	if (strspn(line, " \t") == len)
		return 0;
	if (!strncmp(line, "# CONFIG_", 9)) {
		name = line + 2;
		n = strspn(name, SYMBOL_CHARS);
		if (len != 2 + n + 11 || strncmp(name + n, " is not set", 11))
			return error_at(src, (int)no, (int)(n + 3), "expected '# %.*s is not set'",
					(int)n, name);
		snprintf(o->name, sizeof(o->name), "%.*s", (int)n, name);
		o->value[0] = '\0';
		return 1;
	}
	if (line[0] == '#')
		return 0;
	n = strspn(line, SYMBOL_CHARS);
	eq = line + n;
	if (strncmp(line, "CONFIG_", 7) || n == 7 || *eq != '=')
		return error_at(src, (int)no, (int)(n ? n + 1 : 1), "expected CONFIG_NAME=value, "
				"'# CONFIG_NAME is not set' or a comment");
	if (n >= sizeof(o->name) || !fragment_value_ok(eq + 1, len - n - 1) ||
	    len - n - 1 >= sizeof(o->value))
		return error_at(src, (int)no, (int)(n + 2), "%.*s: value '%.*s' is not y, m, n, a "
				"number or a \"string\"", (int)n, line, (int)(len - n - 1), eq + 1);
	snprintf(o->name, sizeof(o->name), "%.*s", (int)n, line);
	snprintf(o->value, sizeof(o->value), "%.*s", (int)(len - n - 1), eq + 1);
	if (!strcmp(o->value, "n"))
		o->value[0] = '\0';
	return 1;
}

static int fragment_parse(struct vm_fragment *f)
{
	unsigned no = 0, bad = 0;
	size_t cap = 0;

	for (const char *line = f->text; *line;) {
		size_t len = strcspn(line, "\n");
		struct vm_fragment_option o = { .line = ++no };
		int rc = fragment_line(f->source, no, line, len, &o);

		bad += rc < 0;
		if (rc > 0) {
			if (f->n == cap)
				f->options = xreallocarray(f->options, cap = cap ? 2 * cap : 64,
							   sizeof(*f->options));
			f->options[f->n++] = o;
		}
		line += len + (line[len] == '\n');
	}
	if (bad) {
		vm_fragment_free(f);
		return -1;
	}
	return 0;
}

static char *fragment_read(const char *path)
{
	FILE *fp = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0, n = 0, got;

	if (!fp)
		return NULL;
	do {
		if (cap - n < 4096)
			text = xreallocarray(text, cap = cap + 65536, 1);
		got = fread(text + n, 1, cap - n - 1, fp);
		n += got;
	} while (got);
	text[n] = '\0';
	fclose(fp);
	return text;
}

int vm_fragment_load(const char *path, struct vm_fragment *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->source, sizeof(f->source), "%s", path ? path : "starve.config (built in)");
	f->text = path ? fragment_read(path) : xstrdup(vm_fragment_builtin);
	if (!f->text)
		return error("cannot read the config fragment %s: %s", path, strerror(errno));
	return fragment_parse(f);
}

void vm_fragment_free(struct vm_fragment *f)
{
	free(f->text);
	free(f->options);
	f->text = NULL;
	f->options = NULL;
	f->n = 0;
}

/* What olddefconfig made of O: "not set", "m", "250"; NULL when kept. */
static const char *fragment_became(const char *config, const struct vm_fragment_option *o,
				   char *buf, size_t len)
{
	const char *got = vm_kconfig_get(config, o->name, buf, len);

	if (!o->value[0])
		return got && strcmp(got, "n") ? got : NULL;
	if (got && !strcmp(got, o->value))
		return NULL;
	return got ? got : "not set";
}

int vm_fragment_check(const struct vm_fragment *f, const char *config, const char *tree,
		      char *report, size_t len)
{
	static char text[VM_KCONFIG_MAX];
	int lost = 0;

	report[0] = '\0';
	if (vm_kconfig_read(config, text, sizeof(text), report, len) < 0)
		return -1;
	for (size_t i = 0; i < f->n; i++) {
		const struct vm_fragment_option *o = &f->options[i];
		char value[128], why[1024], asked[200], became[160];
		const char *now = fragment_became(text, o, value, sizeof(value));
		size_t used = strlen(report);

		if (!now)
			continue;
		if (o->value[0])
			snprintf(asked, sizeof(asked), "%s=%s", o->name, o->value);
		else
			snprintf(asked, sizeof(asked), "# %s is not set", o->name);
		if (o->value[0])
			vm_kconfig_why(tree, text, o->name, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "another option selects it (make menuconfig, "
				 "search /%s)", o->name + 7);
		if (!strcmp(now, "not set"))
			snprintf(became, sizeof(became), "dropped by olddefconfig");
		else
			snprintf(became, sizeof(became), "is %s after olddefconfig", now);
		snprintf(report + used, len - used, "  %s (%s:%u): %s; %s\n", asked, f->source,
			 o->line, became, why);
		lost++;
	}
	return lost;
}
