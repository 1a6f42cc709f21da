/* Reasons for a dropped option (kconfig-why.h): every Kconfig* file of the
 * tree is read for "config X", and the "depends on" lines of that entry and
 * the "if" blocks open around it are named with their unmet symbols. Kconfig
 * is not parsed whole (menus, choices, "visible if" are not followed): the
 * answer is a pointer for a human, and says so when it finds nothing. */
#include "config.h"
#include "harness/vm/kconfig-why.h"
#include "harness/vm/kconfig.h"

#include <ctype.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WHY_IFS 16	/* nesting of "if" blocks kept per file */

/* The search: one walk's state (nftw's callback takes no argument). */
static struct {
	const char *name;	/* "X", without CONFIG_ */
	const char *config;	/* the .config text */
	char *out;
	size_t len;
	bool found;
} why;

static void why_append(const char *a, const char *b)
{
	size_t n = strlen(why.out);

	snprintf(why.out + n, why.len - n, "%s%s", a, b);
}

/* The symbols of the expression EXPR that the config does not satisfy: a
 * plain one not y or m, one after '!' that is. */
static void why_unmet(const char *expr, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = expr; *p;) {
		size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_abcdefghijklmnopqrstuvwxyz");
		bool negated = p > expr && p[-1] == '!';
		char option[96], value[16];
		const char *v;

		if (!n || !isupper((unsigned char)*p) || (p > expr && p[-1] == '"')) {
			p += n ? n : 1;
			continue;
		}
		snprintf(option, sizeof(option), "CONFIG_%.*s", (int)n, p);
		v = vm_kconfig_get(why.config, option, value, sizeof(value));
		if (negated == (v && (!strcmp(v, "y") || !strcmp(v, "m"))))
			snprintf(out + strlen(out), len - strlen(out), "%s%s%.*s", out[0] ? ", " : "",
				 negated ? "!" : "", (int)n, p);
		p += n;
	}
}

/* "depends on EXPR (unmet: A, B)" for one condition. */
static void why_condition(const char *kind, const char *expr)
{
	char unmet[256], line[512];
	size_t n = strcspn(expr, "#\n");

	while (n && isspace((unsigned char)expr[n - 1]))
		n--;
	snprintf(line, sizeof(line), "%.*s", (int)n, expr);
	why_unmet(line, unmet, sizeof(unmet));
	why_append(why.out[0] ? "; " : "", kind);
	why_append(line, kind[0] == 'i' ? "'" : "");
	if (unmet[0]) {
		why_append(" (unmet: ", unmet);
		why_append(")", "");
	}
}

/* The word after KEYWORD at the start of LINE (after blanks), or NULL. */
static const char *why_after(const char *line, const char *keyword)
{
	size_t k = strlen(keyword);

	line += strspn(line, " \t");
	if (strncmp(line, keyword, k) || !isspace((unsigned char)line[k]))
		return NULL;
	return line + k + strspn(line + k, " \t");
}

static bool why_is_entry(const char *line, const char *name)
{
	const char *w = why_after(line, "config");
	size_t n = strlen(name);

	if (!w)
		w = why_after(line, "menuconfig");
	return w && !strncmp(w, name, n) && (w[n] == '\n' || isspace((unsigned char)w[n]) || !w[n]);
}

/* One Kconfig file: the entry's own "depends on" lines, and the "if"
 * blocks open where it stands. */
static void why_file(FILE *f)
{
	char line[1024], ifs[WHY_IFS][256];
	size_t depth = 0;
	bool inside = false;

	while (fgets(line, sizeof(line), f)) {
		const char *w;

		if ((w = why_after(line, "if")) && depth < WHY_IFS)
			snprintf(ifs[depth++], sizeof(ifs[0]), "%s", w);
		else if (why_after(line, "endif") || !strncmp(line, "endif", 5))
			depth -= depth > 0;
		if (why_is_entry(line, why.name)) {
			inside = why.found = true;
			for (size_t i = 0; i < depth; i++)
				why_condition("inside 'if ", ifs[i]);
			continue;
		}
		if (inside && (w = why_after(line, "depends")) && (w = why_after(w, "on")))
			why_condition("depends on ", w);
		else if (inside && !isspace((unsigned char)line[0]) && line[0] != '\n')
			inside = false;	/* the next entry starts at the margin */
	}
}

static int why_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	FILE *f;

	(void)st;
	if (type == FTW_D && (!strcmp(base, ".git") || !strcmp(base, "Documentation")))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F || strncmp(base, "Kconfig", 7) || !(f = fopen(path, "re")))
		return FTW_CONTINUE;
	why_file(f);
	fclose(f);
	return FTW_CONTINUE;
}

const char *vm_kconfig_why(const char *tree, const char *text, const char *option, char *buf,
			   size_t len)
{
	why.name = option + (strncmp(option, "CONFIG_", 7) ? 0 : 7);
	why.config = text;
	why.out = buf;
	why.len = len;
	why.found = false;
	buf[0] = '\0';
	if (tree && nftw(tree, why_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL) == 0 && !why.found) {
		snprintf(buf, len, "no such option in this tree's Kconfig files (renamed or removed?)");
		return buf;
	}
	if (!buf[0])
		snprintf(buf, len, "check its dependencies (make menuconfig, search /%s)", why.name);
	return buf;
}
