/* Text from the subcommands' option tables (cmd.h): `starve C --help`, the
 * one-line synopsis, and the SYNOPSIS section of starve(1) in roff. Ranges
 * are printed from the rows that check them, so help cannot promise what
 * parsing refuses. */
#include "config.h"
#include "harness/cmd/cmd.h"

#include <stdio.h>
#include <string.h>

#define CMD_WIDTH 80		/* of --help's lines */
#define CMD_FLAG_COLUMN 28	/* widest "-o, --output DIR" that keeps its help beside it */

/* The value's name from its type, for rows that give none. */
static const char *cmd_spec_arg(const struct opt_spec *spec, char *buf, size_t len)
{
	static const char *const names[] = {
		[OPT_INT] = "N", [OPT_DOUBLE] = "X", [OPT_DURATION] = "T",
		[OPT_BOOL] = "[BOOL]", [OPT_STRING] = "TEXT",	/* a boolean's value is optional */
	};

	if (spec->type == OPT_ENUM)
		return opt_format_range(spec, buf, len);
	snprintf(buf, len, "%s", names[spec->type]);
	return buf;
}

const char *cmd_option_arg(const struct cmd_option *o, char *buf, size_t len)
{
	if (o->arg)
		snprintf(buf, len, "%s", o->arg);
	else if (o->spec)
		cmd_spec_arg(o->spec, buf, len);
	else
		buf[0] = '\0';
	return buf;
}

static bool cmd_is_flag(const struct cmd_option *o)
{
	return o->kind == CMD_OPT_FLAG || o->kind == CMD_OPT_SET ||
	       (o->spec && o->spec->type == OPT_BOOL);	/* its value is optional */
}

/* "[--output DIR]", "[--label L]...", "--duration T" (required), "[--quiet]":
 * long names, which say what they do (--help lists the short ones); SP
 * between an option and its value. */
static const char *cmd_synopsis_item(const struct cmd_option *o, char sp, char *buf, size_t len)
{
	char arg[128], between[2] = { sp, '\0' };

	if (cmd_is_flag(o))
		arg[0] = '\0';
	else
		cmd_option_arg(o, arg, sizeof(arg));
	snprintf(buf, len, "%s--%s%s%s%s%s", o->required ? "" : "[", o->name, arg[0] ? between : "",
		 arg, o->required ? "" : "]", o->kind == CMD_OPT_LIST ? "..." : "");
	return buf;
}

/* The synopsis with SP as the space inside an item ("[-o DIR]") and inside
 * the operands' brackets ("[--OPTION VALUE]"). */
static const char *cmd_synopsis_sp(const struct cmd *c, char sp, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "starve %s%s", c->name, c->operands ? " " : "");
	char item[256];
	int depth = 0;

	for (const char *s = c->operands; s && *s && used + 1 < len; s++) {
		depth += (*s == '[') - (*s == ']');
		buf[used++] = *s == ' ' && depth > 0 ? sp : *s;
	}
	buf[used] = '\0';
	for (const struct cmd_option *o = c->options; o->name && used < len; o++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
					 cmd_synopsis_item(o, sp, item, sizeof(item)));
	return buf;
}

const char *cmd_synopsis(const struct cmd *c, char *buf, size_t len)
{
	return cmd_synopsis_sp(c, ' ', buf, len);
}

/* Print TEXT's words from column COL on, wrapping at CMD_WIDTH to column
 * INDENT. A '\1' in TEXT is a space that does not break. */
static void cmd_wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	size_t start = col;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col > start && col + 1 + n > CMD_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = start = indent;
		} else if (col > start) {
			fputc(' ', out);
			col++;
		}
		for (size_t i = 0; i < n; i++)
			fputc(text[i] == '\1' ? ' ' : text[i], out);
		col += n;
		text += n + strspn(text + n, " ");
	}
	fputc('\n', out);
}

static void cmd_print_usage(const struct cmd *c, FILE *out)
{
	char line[4096];

	cmd_synopsis_sp(c, '\1', line, sizeof(line));
	fprintf(out, "usage: ");
	cmd_wrap(out, line, strlen("usage: "), strlen("usage: starve ") + strlen(c->name) + 1);
}

/* One option of the help: "  -o, --output DIR" and its help, wrapped. */
static void cmd_print_option(FILE *out, char short_name, const char *name, const char *arg,
			     const char *help, size_t column)
{
	char flag[160];
	int n;

	n = snprintf(flag, sizeof(flag), "  %c%c%s--%s%s%s", short_name ? '-' : ' ',
		     short_name ? short_name : ' ', short_name ? ", " : "  ", name,
		     arg[0] ? " " : "", arg);
	if ((size_t)n + 2 > column) {
		fprintf(out, "%s\n%*s", flag, (int)column, "");
	} else {
		fprintf(out, "%-*s", (int)column, flag);
	}
	cmd_wrap(out, help, column, column);
}

/* Whether a row of TYPE has a range worth printing. */
static bool cmd_ranged(enum opt_type type)
{
	return type == OPT_INT || type == OPT_DOUBLE || type == OPT_DURATION;
}

/* The help of row O (its spec's when it gives none), the range appended:
 * "repetitions of every setting, overriding the profile (1..1000)". */
static const char *cmd_row_help(const struct cmd_option *o, char *buf, size_t len)
{
	const char *help = o->help ? o->help : o->spec->help;
	char range[128];

	if (o->spec && cmd_ranged(o->spec->type))
		snprintf(buf, len, "%s (%s)", help, opt_format_range(o->spec, range, sizeof(range)));
	else
		snprintf(buf, len, "%s", help);
	return buf;
}

/* The help of a MORE option: its range and default, as `starve list` shows. */
static const char *cmd_more_help(const struct opt_spec *spec, char *buf, size_t len)
{
	char range[128];
	bool ranged = cmd_ranged(spec->type);

	snprintf(buf, len, "%s (%s%s%s%s)", spec->help,
		 ranged ? opt_format_range(spec, range, sizeof(range)) : "", ranged ? "; " : "",
		 spec->def ? "default " : "required", spec->def ? spec->def : "");
	return buf;
}

static size_t cmd_help_column(const struct cmd *c, const struct cmd_more *more)
{
	size_t widest = 0, n;
	char arg[128];

	for (const struct cmd_option *o = c->options; o->name; o++) {
		n = 8 + strlen(o->name) + 1 + strlen(cmd_option_arg(o, arg, sizeof(arg)));
		widest = n > widest ? n : widest;
	}
	for (size_t i = 0; more && i < more->n; i++) {
		n = 8 + strlen(more->table[i].name) + 1 +
		    strlen(cmd_spec_arg(&more->table[i], arg, sizeof(arg)));
		widest = n > widest ? n : widest;
	}
	return widest + 2 < CMD_FLAG_COLUMN ? widest + 2 : CMD_FLAG_COLUMN;
}

void cmd_print_help(const struct cmd *c, const struct cmd_more *more, FILE *out)
{
	size_t column = cmd_help_column(c, more);
	char arg[128], help[1024];

	cmd_print_usage(c, out);
	fprintf(out, "\n%s\n", c->summary);
	if (c->options[0].name)
		fprintf(out, "\noptions:\n");
	for (const struct cmd_option *o = c->options; o->name; o++)
		cmd_print_option(out, o->short_name, o->name, cmd_option_arg(o, arg, sizeof(arg)),
				 cmd_row_help(o, help, sizeof(help)), column);
	if (more && more->n)
		fprintf(out, "\n%s:\n", more->title);
	for (size_t i = 0; more && i < more->n; i++)
		cmd_print_option(out, 0, more->table[i].name,
				 cmd_spec_arg(&more->table[i], arg, sizeof(arg)),
				 cmd_more_help(&more->table[i], help, sizeof(help)), column);
	if (c->notes)
		fprintf(out, "\n%s", c->notes);
}

/* ---- starve(1) ---- */

/* TEXT with roff's specials escaped: "-" is a minus (an option's dash, never
 * a place to break), "\\" an escape. */
static void cmd_roff(FILE *out, const char *text, size_t n)
{
	for (size_t i = 0; i < n && text[i]; i++) {
		if (text[i] == '-')
			fputs("\\-", out);
		else if (text[i] == '\\')
			fputs("\\e", out);
		else
			fputc(text[i], out);
	}
}

/* A word of the synopsis: a leading option name bold ("--label", the "--"
 * of "--OPTION"), the rest (a value's name) italic. */
static void cmd_roff_word(FILE *out, const char *s, size_t n)
{
	size_t bold = *s == '-' ? strspn(s, "-abcdefghijklmnopqrstuvwxyz0123456789") : 0;

	bold = bold < n ? bold : n;
	if (bold) {
		fputs("\\fB", out);
		cmd_roff(out, s, bold);
		fputs("\\fP", out);
	}
	if (bold < n) {
		fputs("\\fI", out);
		cmd_roff(out, s + bold, n - bold);
		fputs("\\fP", out);
	}
}

/* One synopsis item (N bytes, '\1' inside) as a roff line: brackets, '|'
 * and "..." roman, an unbreakable space where the item has one. */
static void cmd_roff_item(FILE *out, const char *item, size_t n)
{
	for (size_t i = 0, w; i < n; i += w) {
		const char *s = item + i;

		if (!strncmp(s, "...", 3)) {
			fputs("...", out);
			w = 3;
		} else if (*s == '\1') {
			fputs("\\~", out);
			w = 1;
		} else if (strchr("[]|", *s)) {
			fputc(*s, out);
			w = 1;
		} else {
			for (w = 0; i + w < n && !strchr("[]|\1", s[w]) && strncmp(s + w, "...", 3); w++)
				;
			cmd_roff_word(out, s, w);
		}
	}
	fputc('\n', out);
}

void cmd_print_man_synopsis(const struct cmd *const *cmds, size_t n, FILE *out)
{
	char line[4096];

	fprintf(out, ".\\\" Generated by 'starve --man' from the subcommands' option tables\n");
	for (size_t i = 0; i < n; i++) {
		const char *s = cmd_synopsis_sp(cmds[i], '\1', line, sizeof(line));

		fprintf(out, ".SY \"starve %s\"\n", cmds[i]->name);
		s += strlen("starve ") + strlen(cmds[i]->name);
		for (s += strspn(s, " "); *s; s += strspn(s, " ")) {
			size_t item = strcspn(s, " ");

			cmd_roff_item(out, s, item);
			s += item;
		}
		fprintf(out, ".YS\n");
	}
}
