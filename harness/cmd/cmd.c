/* Command-line parsing by a subcommand's option table (cmd.h): options
 * anywhere among the operands, values typed and range-checked by their
 * lib/options.h rows, one message per mistake. argv is only read. Also the
 * --output folder of the commands that write files, made and checked alike. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMD_MAX_OPTIONS 64	/* rows per table: one bit each in parser.seen */

/* An option found on the command line: a row of the table, or one of MORE. */
struct cmd_found {
	const struct cmd_option *row;
	const struct opt_spec *more;
};

struct cmd_parser {
	const struct cmd *c;
	const struct cmd_more *more;	/* NULL: none */
	void *args;
	int argc;
	char **argv;
	int next;			/* index in argv of the next word */
	uint64_t seen;			/* rows given, for the required ones */
	struct cmd_words *operands;
};

int cmd_usage_error(const struct cmd *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s: %s; see 'starve %s --help'", c->name, msg, c->name);
}

static bool cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

static void *cmd_field(void *args, const struct cmd_option *o)
{
	return (char *)args + o->offset;
}

/* Append WORD, a word of argv, to W (room for CAPACITY words, made at the
 * first). */
static int cmd_push(struct cmd_words *w, const char *word, int capacity)
{
	if (!w->v && !(w->v = calloc((size_t)capacity + 1, sizeof(*w->v))))
		return error("out of memory");
	w->v[w->n++] = (char *)word;	/* argv's own, so not really const */
	return 0;
}

/* A boolean row takes its value only from "=value" or a following true/false
 * word: "--session" alone means true. */
static bool cmd_value_optional(const struct cmd_found *f)
{
	const struct opt_spec *spec = f->more ? f->more : f->row->spec;

	return spec && spec->type == OPT_BOOL;
}

static bool cmd_takes_value(const struct cmd_found *f)
{
	return f->more || (f->row->kind != CMD_OPT_FLAG && f->row->kind != CMD_OPT_SET);
}

/* The value of option F, spelled SPELLED on the command line: INLINE (after
 * "=", or the rest of "-oDIR"), else the next word. NULL with the error
 * printed. */
static const char *cmd_value(struct cmd_parser *p, const struct cmd_found *f,
			     const char *spelled, const char *inline_value)
{
	const char *next = p->next < p->argc ? p->argv[p->next] : NULL;
	union opt_value ignored;

	if (!cmd_takes_value(f)) {
		if (inline_value)
			cmd_usage_error(p->c, "option '%s' takes no value", spelled);
		return inline_value ? NULL : "";
	}
	if (inline_value)
		return inline_value;
	if (cmd_value_optional(f)) {
		if (next && !opt_parse(f->more ? f->more : f->row->spec, next, &ignored, NULL, 0)) {
			p->next++;
			return next;
		}
		return "true";
	}
	if (!next) {
		cmd_usage_error(p->c, "option '%s' needs a value", spelled);
		return NULL;
	}
	p->next++;
	return next;
}

/* Parse TEXT by SPEC; a mistake is named by the option as SPELLED. */
static int cmd_typed(const struct cmd_parser *p, const struct opt_spec *spec, const char *spelled,
		     const char *text, union opt_value *v)
{
	char why[256];

	if (!opt_parse(spec, text, v, why, sizeof(why)))
		return 0;
	return error("%s: %s: %s", p->c->name, spelled, why);
}

/* Store VALUE of the option F: a word of argv, "" for a flag, "true" for a
 * boolean given alone. */
static int cmd_store(struct cmd_parser *p, const struct cmd_found *f, const char *spelled,
		     const char *value)
{
	const struct cmd_option *o = f->row;
	union opt_value v;

	if (f->more) {
		if (cmd_typed(p, f->more, spelled, value, &v))
			return -1;
		return p->more->set(p->args, f->more, &v);
	}
	if (o - p->c->options < CMD_MAX_OPTIONS)
		p->seen |= UINT64_C(1) << (o - p->c->options);
	switch (o->kind) {
	case CMD_OPT_FLAG:
		*(bool *)cmd_field(p->args, o) = true;
		return 0;
	case CMD_OPT_SET:
		*(int *)cmd_field(p->args, o) = o->set_to;
		return 0;
	case CMD_OPT_STRING:
		*(const char **)cmd_field(p->args, o) = value;
		return 0;
	case CMD_OPT_LIST:
		return cmd_push(cmd_field(p->args, o), value, p->argc);
	case CMD_OPT_INT:
		if (cmd_typed(p, o->spec, spelled, value, &v))
			return -1;
		*(int64_t *)cmd_field(p->args, o) = v.i;
		return 0;
	case CMD_OPT_CALL:
		if (cmd_typed(p, o->spec, spelled, value, &v))
			return -1;
		return o->call(p->args, o, &v);
	}
	return -1;
}

/* "did you mean" over every long name the command takes. */
static int cmd_unknown(const struct cmd_parser *p, const char *name, size_t len)
{
	const char *names[CMD_MAX_OPTIONS + 64], *hint;
	char word[64];
	size_t n = 0;

	for (const struct cmd_option *o = p->c->options; o->name && n < CMD_MAX_OPTIONS; o++)
		names[n++] = o->name;
	for (size_t i = 0; p->more && i < p->more->n && n < sizeof(names) / sizeof(*names); i++)
		names[n++] = p->more->table[i].name;
	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	hint = opt_suggest(word, names, n);
	if (hint)
		return cmd_usage_error(p->c, "unknown option '--%s' (did you mean '--%s'?)", word, hint);
	return cmd_usage_error(p->c, "unknown option '--%s'", word);
}

static bool cmd_name_is(const char *name, const char *word, size_t len, bool prefix)
{
	return !strncmp(name, word, len) && (prefix || !name[len]);
}

/* Find NAME (LEN bytes, after "--"): an exact name of a row, then of MORE,
 * then a prefix of exactly one of them (git and getopt_long allow that). */
static int cmd_find_long(const struct cmd_parser *p, const char *name, size_t len,
			 struct cmd_found *f)
{
	size_t matches = 0;

	for (int prefix = 0; prefix <= 1 && !matches; prefix++) {
		for (const struct cmd_option *o = p->c->options; o->name; o++)
			if (cmd_name_is(o->name, name, len, prefix) && matches++ == 0)
				*f = (struct cmd_found){ .row = o };	/* the first; more is ambiguous */
		for (size_t i = 0; p->more && i < p->more->n; i++)
			if (cmd_name_is(p->more->table[i].name, name, len, prefix) && matches++ == 0)
				*f = (struct cmd_found){ .more = &p->more->table[i] };
	}
	if (matches == 1)
		return 0;
	if (matches > 1)
		return cmd_usage_error(p->c, "option '--%.*s' is ambiguous: it begins %zu option names",
				       (int)len, name, matches);
	return cmd_unknown(p, name, len);
}

static const char *cmd_found_name(const struct cmd_found *f)
{
	return f->more ? f->more->name : f->row->name;
}

/* "--name", "--name=value", "--name value". */
static int cmd_long(struct cmd_parser *p, const char *word)
{
	const char *name = word + 2, *eq = strchr(name, '='), *value;
	char spelled[80];
	struct cmd_found f;

	if (cmd_find_long(p, name, eq ? (size_t)(eq - name) : strlen(name), &f))
		return -1;
	snprintf(spelled, sizeof(spelled), "--%s", cmd_found_name(&f));
	value = cmd_value(p, &f, spelled, eq ? eq + 1 : NULL);
	return value ? cmd_store(p, &f, spelled, value) : -1;
}

/* "-q", "-o DIR", "-oDIR", "-qo DIR". */
static int cmd_short(struct cmd_parser *p, const char *word)
{
	for (const char *s = word + 1; *s; s++) {
		const struct cmd_option *o = p->c->options;
		struct cmd_found f;
		char spelled[3] = { '-', *s, '\0' };
		const char *value;

		while (o->name && o->short_name != *s)
			o++;
		if (!o->name)
			return cmd_usage_error(p->c, "unknown option '%s'", spelled);
		f = (struct cmd_found){ .row = o };
		if (!cmd_takes_value(&f)) {
			if (cmd_store(p, &f, spelled, ""))
				return -1;
			continue;
		}
		value = cmd_value(p, &f, spelled, s[1] ? s + 1 : NULL);
		return value ? cmd_store(p, &f, spelled, value) : -1;
	}
	return 0;
}

/* Every word after the command name; an option may take the next one. */
static int cmd_words_all(struct cmd_parser *p)
{
	for (p->next = 1; p->next < p->argc;) {
		const char *word = p->argv[p->next++];
		int ret;

		if (!strcmp(word, "--")) {
			while (p->next < p->argc)
				if (cmd_push(p->operands, p->argv[p->next++], p->argc))
					return -1;
			return 0;
		}
		if (word[0] != '-' || !word[1])	/* "-" is an operand (stdin, stdout) */
			ret = cmd_push(p->operands, word, p->argc);
		else
			ret = word[1] == '-' ? cmd_long(p, word) : cmd_short(p, word);
		if (ret)
			return -1;
	}
	return 0;
}

static int cmd_check_required(const struct cmd_parser *p)
{
	char arg[128];

	for (const struct cmd_option *o = p->c->options; o->name; o++)
		if (o->required && !(p->seen & (UINT64_C(1) << (o - p->c->options))))
			return cmd_usage_error(p->c, "missing --%s %s", o->name,
					       cmd_option_arg(o, arg, sizeof(arg)));
	return 0;
}

bool cmd_parse(const struct cmd *c, int argc, char **argv, void *args,
	       struct cmd_words *operands, int *status)
{
	struct cmd_more more;
	struct cmd_parser p = { .c = c, .args = args, .argc = argc, .argv = argv,
				.operands = operands };

	*operands = (struct cmd_words){ NULL, 0 };
	if (c->more && c->more(args, &more))
		p.more = &more;
	if (cmd_wants_help(argc, argv)) {
		cmd_print_help(c, p.more, stdout);
		*status = EXIT_PASS;
		return false;
	}
	if (!cmd_words_all(&p) && !cmd_check_required(&p)) {
		if (c->operands || !operands->n)
			return true;
		cmd_usage_error(c, "unexpected argument '%s'", operands->v[0]);
	}
	cmd_release(c, args, operands);
	*status = EXIT_USAGE;
	return false;
}

void cmd_release(const struct cmd *c, void *args, struct cmd_words *operands)
{
	for (const struct cmd_option *o = c->options; o->name; o++) {
		if (o->kind == CMD_OPT_LIST) {
			struct cmd_words *w = cmd_field(args, o);

			free(w->v);
			*w = (struct cmd_words){ NULL, 0 };
		}
	}
	free(operands->v);
	*operands = (struct cmd_words){ NULL, 0 };
}

int cmd_output_dir(const char *dir)
{
	struct stat st;

	if (fs_mkdirs(dir) < 0)
		return error_errno("cannot create '%s'", dir);
	/* found now, not after the work: -o /dev/null, a file, read-only */
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("--output '%s' is not a directory", dir);
	if (access(dir, W_OK | X_OK) < 0)
		return error_errno("--output '%s': cannot write into it", dir);
	return 0;
}
