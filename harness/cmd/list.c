/* starve list: load types and their options, the common options, and the
 * shipped profiles; `--man` prints the load types as man(7) roff for the
 * LOAD TYPES section of starve-profile(5). Everything comes from the option
 * tables, so the listing and the man page cannot drift from the code. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "lib/error.h"
#include "loads/load.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#define LIST_MAX_PROFILES 256

static int run_list(int argc, char **argv);

struct list_args {
	bool man;
};

static const struct cmd_option list_options[] = {
	CMD_FLAG("man", struct list_args, man,
		 "print the load types as man(7) roff (the LOAD TYPES of starve-profile(5))"),
	CMD_END
};

const struct cmd cmd_list = {
	.name = "list", .summary = "load types and their options; shipped profiles",
	.options = list_options, .run = run_list,
};

/* ---- text ---- */

/* What an option without a default means: a type's option must be given;
 * a common one (policy, priority) is decided by the load type. */
static const char *list_nodef(const struct opt_spec *table)
{
	return table == load_common_options ? "by type" : "required";
}

static void list_options_text(const struct opt_spec *table, size_t n)
{
	char range[128];

	printf("    %-10s %-9s %-24s %-10s %s\n", "OPTION", "TYPE", "RANGE", "DEFAULT", "HELP");
	for (size_t i = 0; i < n; i++) {
		const struct opt_spec *o = &table[i];

		printf("    %-10s %-9s %-24s %-10s %s\n", o->name, opt_type_name(o->type),
		       opt_format_range(o, range, sizeof(range)), o->def ? o->def : list_nodef(table),
		       o->help);
	}
}

static void list_types_text(void)
{
	printf("Load types:\n");
	for (size_t i = 0; i < load_type_count; i++) {
		const struct load_type *t = load_types[i];

		printf("\n  %s: %s\n", t->name, t->summary);
		if (t->n_options)
			list_options_text(t->options, t->n_options);
	}
	printf("\nCommon options (every load):\n");
	list_options_text(load_common_options, COMMON_NR_OPTIONS);
}

/* ---- profiles ---- */

struct list_profile {
	char name[64];
	char description[256];
	char path[520];
};

/* The first line of the top-level scalar KEY of the mapping MAP, or "". */
static void list_yaml_key(yaml_document_t *doc, const yaml_node_t *map, const char *key,
			  char *out, size_t len)
{
	out[0] = '\0';
	for (const yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		const yaml_node_t *v = yaml_document_get_node(doc, pair->value);

		if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key)) {
			const char *text = (const char *)v->data.scalar.value;

			snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
			return;
		}
	}
}

/* The name and description of the profile at P->path, read with libyaml.
 * Enough for a listing: a file that is not a YAML mapping gives neither,
 * and `starve check` is what says why. */
static void list_profile_read(struct list_profile *p)
{
	FILE *f = fopen(p->path, "rb");
	yaml_parser_t parser;
	yaml_document_t doc;
	struct stat st;

	p->name[0] = p->description[0] = '\0';
	if (!f)
		return;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && yaml_parser_initialize(&parser)) {
		yaml_parser_set_input_file(&parser, f);
		if (yaml_parser_load(&parser, &doc)) {
			const yaml_node_t *root = yaml_document_get_root_node(&doc);

			if (root && root->type == YAML_MAPPING_NODE) {
				list_yaml_key(&doc, root, "name", p->name, sizeof(p->name));
				list_yaml_key(&doc, root, "description", p->description,
					      sizeof(p->description));
			}
			yaml_document_delete(&doc);
		}
		yaml_parser_delete(&parser);
	}
	fclose(f);
}

static bool list_is_profile(const char *file)
{
	size_t n = strlen(file);

	return (n > 5 && !strcmp(file + n - 5, ".yaml")) || (n > 4 && !strcmp(file + n - 4, ".yml"));
}

static size_t list_profiles_in_dir(const char *dir, struct list_profile *out, size_t n,
				   size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return n;
	while ((e = readdir(d)) && n < max) {
		if (!list_is_profile(e->d_name))
			continue;
		snprintf(out[n].path, sizeof(out[n].path), "%.256s%.255s", dir, e->d_name);
		list_profile_read(&out[n]);
		if (!out[n].name[0])
			snprintf(out[n].name, sizeof(out[n].name), "%.*s",
				 (int)strcspn(e->d_name, "."), e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/* The profiles in TOP and its profile_subdirs (known/). */
static size_t list_profiles_in(const char *top, struct list_profile *out, size_t n, size_t max)
{
	for (size_t s = 0; profile_subdirs[s]; s++) {
		char dir[512];

		snprintf(dir, sizeof(dir), "%s/%s", top, profile_subdirs[s]);
		n = list_profiles_in_dir(dir, out, n, max);
	}
	return n;
}

static int list_profile_cmp(const void *a, const void *b)
{
	return strcmp(((const struct list_profile *)a)->path, ((const struct list_profile *)b)->path);
}

static void list_profiles_text(void)
{
	struct list_profile *p = calloc(LIST_MAX_PROFILES, sizeof(*p));
	char shipped[512];
	size_t n;

	if (!p)
		return;
	profile_shipped_dir(shipped, sizeof(shipped));
	n = list_profiles_in(shipped, p, 0, LIST_MAX_PROFILES);
	if (strcmp(shipped, "./profiles"))
		n = list_profiles_in("./profiles", p, n, LIST_MAX_PROFILES);
	qsort(p, n, sizeof(*p), list_profile_cmp);
	printf("\nProfiles (%s, ./profiles):\n", shipped);
	if (!n)
		printf("  (none found)\n");
	for (size_t i = 0; i < n; i++)
		printf("  %-20s %s\n    %s\n", p[i].name, p[i].description, p[i].path);
	free(p);
}

/* ---- man(7) ---- */

/* Roff-escape TEXT: backslashes, and a leading '.' or '\'' that would be
 * read as a request. */
static void list_roff(const char *text)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", stdout);
	for (; *text; text++) {
		if (*text == '\\')
			fputs("\\e", stdout);
		else if (*text == '-')
			fputs("\\-", stdout);
		else
			putchar(*text);
	}
}

static void list_options_man(const struct opt_spec *table, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct opt_spec *o = &table[i];
		char range[128];

		printf(".TP\n.B ");
		list_roff(o->name);
		printf("\n(%s, ", opt_type_name(o->type));
		list_roff(opt_format_range(o, range, sizeof(range)));
		printf(", %s", o->def ? "default " : list_nodef(table));
		if (o->def)
			list_roff(o->def);
		printf(")\n.br\n");
		list_roff(o->help);
		printf("\n");
	}
}

static void list_types_man(void)
{
	printf(".\\\" Generated by 'starve list --man' from the load types' option tables.\n");
	printf(".SH LOAD TYPES\nEvery load takes the common options below, and the options of its type.\n");
	printf(".SS Common options\n");
	list_options_man(load_common_options, COMMON_NR_OPTIONS);
	for (size_t i = 0; i < load_type_count; i++) {
		const struct load_type *t = load_types[i];

		printf(".SS ");
		list_roff(t->name);
		printf("\n");
		list_roff(t->summary);
		printf(".\n");
		if (t->n_options)
			list_options_man(t->options, t->n_options);
	}
}

static int run_list(int argc, char **argv)
{
	struct list_args a = { .man = false };
	struct cmd_words none;
	int status;

	if (!cmd_parse(&cmd_list, argc, argv, &a, &none, &status))
		return status;
	cmd_release(&cmd_list, &a, &none);
	if (a.man) {
		list_types_man();
		return EXIT_PASS;
	}
	list_types_text();
	list_profiles_text();
	return EXIT_PASS;
}
