/* `starve --completion bash`: a bash completion script written from the
 * tables --help and the man page come from (the subcommands, their option
 * rows, enum choices, the report formats, the load types and their
 * options), so completion cannot drift from what parsing accepts. Profile
 * names are listed when the user presses TAB, from ./profiles and the
 * shipped directory and their known/ folders, as `starve run NAME` finds
 * them (profile-find.c); files and folders complete as bash completes files.
 * make installs the script under bash-completion's completionsdir. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "loads/load.h"
#include "reports/formats.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The words of an option's value a user may type, in WORDS ("" when the
 * value is free text, a number or a duration); a row's kind of value that
 * the shell completes by itself goes to *SHELL ("-d" directories, "-f"
 * files). */
static void completion_values(const struct cmd_option *o, char *words, size_t len,
			      const char **shell)
{
	char arg[256], *save = NULL;
	size_t used = 0;

	words[0] = '\0';
	*shell = NULL;
	if (o->spec && o->spec->type == OPT_ENUM) {
		for (const char *const *c = o->spec->choices; *c && used < len; c++)
			used += (size_t)snprintf(words + used, len - used, "%s ", *c);
		return;
	}
	if (!strcmp(o->name, "format")) {
		for (size_t i = 0; i < report_format_count && used < len; i++)
			used += (size_t)snprintf(words + used, len - used, "%s ",
						 report_formats[i].name);
		return;
	}
	cmd_option_arg(o, arg, sizeof(arg));
	if (!strcmp(arg, "DIR"))
		*shell = "-d";
	else if (!strcmp(arg, "F") || !strcmp(arg, "FILE") || strstr(arg, ".json") ||
		 strstr(arg, ".yaml"))
		*shell = "-f";
	if (!strchr(arg, '|'))
		return;
	/* "expect|all|LOAD,...": the lower-case words are literal choices */
	for (char *w = strtok_r(arg, "|", &save); w && used < len; w = strtok_r(NULL, "|", &save))
		if (islower((unsigned char)w[0]))
			used += (size_t)snprintf(words + used, len - used, "%s ", w);
}

/* "--output -o --repeat ..." of C's rows, "--help" last. */
static void completion_option_words(const struct cmd *c, FILE *out)
{
	for (const struct cmd_option *o = c->options; o && o->name; o++) {
		fprintf(out, "--%s ", o->name);
		if (o->short_name)
			fprintf(out, "-%c ", o->short_name);
	}
	fputs("--help", out);
}

/* The case arms that complete the value of the option before the cursor. */
static void completion_option_values(const struct cmd *c, FILE *out)
{
	for (const struct cmd_option *o = c->options; o && o->name; o++) {
		char words[1024];
		const char *shell;

		if (o->kind == CMD_OPT_FLAG || o->kind == CMD_OPT_SET ||
		    (o->spec && o->spec->type == OPT_BOOL))
			continue;
		completion_values(o, words, sizeof(words), &shell);
		fprintf(out, "\t\t--%s", o->name);
		if (o->short_name)
			fprintf(out, "|-%c", o->short_name);
		if (words[0])
			fprintf(out, ") _starve_words '%s'; return ;;\n", words);
		else if (shell)
			fprintf(out, ") _starve_files %s; return ;;\n", shell);
		else
			fputs(") return ;;\n", out);	/* a number, a duration, free text */
	}
}

/* `starve load TYPE --OPTION`: each type's own options. */
static void completion_load_types(FILE *out)
{
	fputs("_starve_load_options() {\n\tcase $1 in\n", out);
	for (size_t i = 0; i < load_type_count; i++) {
		const struct load_type *t = load_types[i];

		fprintf(out, "\t%s) echo '", t->name);
		for (size_t j = 0; j < t->n_options; j++)
			fprintf(out, "%s--%s", j ? " " : "", t->options[j].name);
		fputs("' ;;\n", out);
	}
	fputs("\tesac\n}\n_starve_load_types='", out);
	for (size_t i = 0; i < load_type_count; i++)
		fprintf(out, "%s%s", i ? " " : "", load_types[i]->name);
	fputs("'\n", out);
}

/* The operands of C: profiles by name or file, load types, results;
 * nothing for a command without operands. */
static void completion_operands(const struct cmd *c, FILE *out)
{
	const char *ops = c->operands ? c->operands : "";

	if (strstr(ops, "PROFILE"))
		fputs("\t\t_starve_profiles\n", out);
	else if (strstr(ops, "TYPE"))
		fputs("\t\t[ -n \"$2\" ] || _starve_words \"$_starve_load_types\"\n", out);
	else if (strstr(ops, ".json"))
		fputs("\t\t_starve_files -f\n", out);
}

static void completion_command(const struct cmd *c, FILE *out)
{
	fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
	completion_option_values(c, out);
	fprintf(out, "\t\tesac\n\t\tcase $cur in -*) _starve_words \"");
	completion_option_words(c, out);
	if (c->operands && strstr(c->operands, "TYPE"))
		fputs(" $(_starve_load_options \"$2\")", out);	/* the type's own */
	fprintf(out, "\"; return ;; esac\n");
	completion_operands(c, out);
	fputs("\t\t;;\n", out);
}

/* The helpers every command's arm uses. */
static void completion_helpers(FILE *out)
{
	char dir[512];

	/* the shipped directory this starve was built for, not a staged one */
	snprintf(dir, sizeof(dir), "%s/profiles", STARVE_DATADIR);
	fputs("# _starve_words WORDS: complete $cur from WORDS; a comma-separated list\n"
	      "# (--format) completes its last item\n"
	      "_starve_words() {\n"
	      "\tlocal pre=\n"
	      "\tcase $cur in *,*) pre=${cur%,*},; esac\n"
	      "\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"${cur##*,}\"))\n"
	      "}\n"
	      "# _starve_files -f|-d: files or directories, shown as file completion shows\n"
	      "# them: a directory takes a / and no space, so TAB goes on into it\n"
	      "_starve_files() {\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n"
	      "}\n", out);
	/* the folders a name is looked up in (profile-find.c), "known/" too */
	fputs("# profiles by name as `starve run NAME` finds them (./profiles, the shipped\n"
	      "# ones, their known/), .yaml files, and the folders on the way to one: a\n"
	      "# .yaml at most three levels down (tests/profiles/run/x.yaml from tests),\n"
	      "# hidden ones only when $cur asks for them (not .git, m4 or autom4te.cache)\n"
	      "_starve_profiles() {\n"
	      "\tlocal d s f names= dirs=\n"
	      "\tfor d in ./profiles \"${STARVE_DATADIR:+$STARVE_DATADIR/profiles}\" ", out);
	fprintf(out, "'%s'; do\n\t\tfor s in", dir);
	for (size_t i = 0; profile_subdirs[i]; i++)
		fprintf(out, " '%s'", profile_subdirs[i]);
	fputs("; do\n"
	      "\t\t\tfor f in \"$d/$s\"*.yaml; do [ -e \"$f\" ] && f=${f##*/} && names=\"$names ${f%.yaml}\"; done\n"
	      "\t\tdone\n"
	      "\tdone\n"
	      "\tfor d in $(compgen -d -- \"$cur\"); do\n"
	      "\t\tcase ${cur##*/}:${d##*/} in :.*|[!.]*:.*) continue ;; esac\n"
	      "\t\t[ -n \"$(find -H \"$d\" -maxdepth 3 -name '*.yaml' -print -quit 2>/dev/null)\" ] &&\n"
	      "\t\t\tdirs=\"$dirs $d\"\n"
	      "\tdone\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY=($(compgen -W \"$names\" -- \"$cur\") $(compgen -f -X '!*.yaml' -- \"$cur\") $dirs)\n"
	      "}\n", out);
}

void cmd_print_bash_completion(const struct cmd *const *cmds, size_t n, FILE *out)
{
	fputs("# bash completion for starve(1), generated by `starve --completion bash`\n"
	      "# from its option tables: do not edit.\n", out);
	completion_helpers(out);
	completion_load_types(out);
	fputs("_starve() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= arg= i\n"
	      "\t# the command, and its first operand (starve load TYPE)\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in -*) continue ;; esac\n"
	      "\t\tif [ -z \"$cmd\" ]; then cmd=${COMP_WORDS[i]}; elif [ -z \"$arg\" ]; then arg=${COMP_WORDS[i]}; fi\n"
	      "\tdone\n"
	      "\tif [ -z \"$cmd\" ]; then\n\t\t_starve_words '", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s ", cmds[i]->name);
	fputs("--help --version'\n\t\treturn\n\tfi\n\tset -- \"$cmd\" \"$arg\"\n\tcase $cmd in\n", out);
	for (size_t i = 0; i < n; i++)
		completion_command(cmds[i], out);
	fputs("\tesac\n}\ncomplete -F _starve starve\n", out);
}
