/* Profiles: YAML loaded with the libyaml document API, then walked node by
 * node into struct profile (profile.h). This file holds the top-level keys,
 * settings and the public API; loads, expectations and node helpers live in
 * profile-loads.c, profile-expect.c and profile-node.c. Every error found is
 * reported with its position and parsing goes on, so one `starve check`
 * shows them all. */
#include "config.h"
#include "harness/profile/profile.h"
#include "harness/kernel/knob-write.h"
#include "harness/kernel/knobs.h"
#include "harness/profile/profile-node.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROFILE_MAX_BYTES (1 << 20)
#define PROFILE_MAX_DEPTH 32	/* nesting; a profile needs about 5 */
#define PROFILE_NAME_MAX 64
#define SETTING_NAME_MAX 32

const struct opt_spec profile_keys[PROFILE_KEY_NR] = {
	[PROFILE_KEY_NAME] = { "name", OPT_STRING, NULL, 0, 0, NULL, "name of the profile", NULL },
	[PROFILE_KEY_DESCRIPTION] = { "description", OPT_STRING, NULL, 0, 0, "",
		"what the profile reproduces", NULL },
	[PROFILE_KEY_DURATION] = { "duration", OPT_DURATION, "ns", 10e6, 86400e9, NULL,
		"length of each run, after warm-up", NULL },
	[PROFILE_KEY_WARMUP] = { "warmup", OPT_DURATION, "ns", 0, 3600e9, "1s",
		"time the loads run before measuring", NULL },
	[PROFILE_KEY_REPEAT] = { "repeat", OPT_INT, NULL, 1, 1000, "1",
		"repetitions of every setting", NULL },
	[PROFILE_KEY_SAMPLER_PRIORITY] = { "sampler_priority", OPT_INT, NULL, 0, 99, "0",
		"SCHED_FIFO priority of the sampler; 0 runs it SCHED_OTHER", NULL },
	[PROFILE_KEY_ALLOW_RT] = { "allow_rt_on_all_cpus", OPT_BOOL, NULL, 0, 0, "false",
		"let fifo/rr loads run on every CPU (can lock up the machine)", NULL },
	[PROFILE_KEY_CPUSET] = { "cpuset", OPT_BOOL, NULL, 0, 0, "false",
		"confine each load in a cpuset of the chosen backend, not affinity only", NULL },
	[PROFILE_KEY_TRACE] = { "trace", OPT_BOOL, NULL, 0, 0, "false",
		"exact mode: also read the scheduler's events (tracefs), for exact stretches "
		"and who ran instead", NULL },
};

static const char *const top_keys[] = {
	"name", "description", "duration", "warmup", "repeat", "sample_hz", "sampler_priority",
	"allow_rt_on_all_cpus", "cpuset", "trace", "loads", "attach", "settings", "expect", "compare",
};

static void pp_top_options(struct pctx *c, const yaml_node_t *root)
{
	union opt_value v[PROFILE_KEY_NR];
	struct profile *p = c->p;
	char why[256];

	memset(v, 0, sizeof(v));
	for (size_t i = 0; i < PROFILE_KEY_NR; i++) {
		const yaml_node_t *node = pn_get(c, root, profile_keys[i].name);

		if (node)
			pn_opt(c, node, &profile_keys[i], &v[i]);
		else if (!profile_keys[i].def)
			pn_error(c, root, "missing required key '%s'", profile_keys[i].name);
		else if (opt_parse(&profile_keys[i], profile_keys[i].def, &v[i], why, sizeof(why)))
			pn_error(c, root, "bad default: %s", why);	/* a bug, caught by tests */
	}
	p->name = v[PROFILE_KEY_NAME].s;
	p->description = v[PROFILE_KEY_DESCRIPTION].s;
	p->duration_ns = v[PROFILE_KEY_DURATION].i;
	p->warmup_ns = v[PROFILE_KEY_WARMUP].i;
	p->repeat = (int)v[PROFILE_KEY_REPEAT].i;
	p->sampler_priority = (int)v[PROFILE_KEY_SAMPLER_PRIORITY].i;
	p->allow_rt_on_all_cpus = v[PROFILE_KEY_ALLOW_RT].b;
	p->use_cpuset = v[PROFILE_KEY_CPUSET].b;
	p->trace = v[PROFILE_KEY_TRACE].b;
	if (p->name)
		pn_check_name(c, pn_get(c, root, "name"), p->name, PROFILE_NAME_MAX, "profile");
}

/* "kernel" (0: follow the kernel's HZ) or a rate in Hz. */
static void pp_sample_hz(struct pctx *c, const yaml_node_t *node)
{
	static const struct opt_spec spec = { "sample_hz", OPT_INT, "Hz", 1, 10000, NULL, NULL, NULL };
	const char *text = pn_scalar(c, node, "sample_hz");
	union opt_value v;
	char why[128];

	if (!text || !strcmp(text, "kernel"))
		return;
	if (opt_parse(&spec, text, &v, why, sizeof(why)))
		pn_error(c, node, "'sample_hz' must be 'kernel' or a rate of 1..10000, not '%s'", text);
	else
		c->p->sample_hz = (int)v.i;
}

/* A value is written verbatim as one line: a newline would write a
 * second value ("-1\n950000": the kernel took -1, then EIO), and the knob
 * writer takes KNOB_LINE_MAX bytes with the newline. */
static void pp_knob_value(struct pctx *c, const yaml_node_t *node, const char *name,
			  const char *value)
{
	size_t len = strlen(value), at = 0;

	while (at < len && (unsigned char)value[at] >= ' ' && value[at] != 0x7f)
		at++;
	if (at < len)
		pn_error_in(c, node, at, "knob '%s': the value holds a control character "
			    "(a newline?); a knob takes one line", name);
	else if (len > KNOB_LINE_MAX - 1)
		pn_error(c, node, "knob '%s': the value is %zu characters; a knob takes at most %d",
			 name, len, KNOB_LINE_MAX - 1);
}

static void pp_knobs(struct pctx *c, const yaml_node_t *map, struct setting *s)
{
	size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	char why[256];

	if (n > PROFILE_MAX_KNOBS) {
		pn_error(c, map, "a setting of %zu knobs; starve journals at most %d (each is "
			 "restored after the setting)", n, PROFILE_MAX_KNOBS);
		return;
	}
	pn_check_keys(c, map, NULL, 0, "'knobs'");
	s->knobs = calloc(n ? n : 1, sizeof(*s->knobs));
	if (!s->knobs) {
		pn_error(c, map, "out of memory");
		return;
	}
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *name = pn_key(c, pair);
		struct knob_value *k;

		if (!pn_is_first(c, map, pair))
			continue;
		k = &s->knobs[s->n_knobs++];
		k->pos = pn_pos(c, pn_node(c, pair->key));
		k->name = strdup(name);
		if (knob_name_check(name, why, sizeof(why)))
			pn_error(c, pn_node(c, pair->key), "%s", why);
		k->value = pn_strdup(c, pn_node(c, pair->value), name);
		if (k->value)
			pp_knob_value(c, pn_node(c, pair->value), name, k->value);
	}
}

static void pp_setting(struct pctx *c, const yaml_node_t *map, void *slot)
{
	struct setting *s = slot;
	static const char *const keys[] = { "name", "knobs", "cgroups" };
	const yaml_node_t *name = pn_require(c, map, "name"), *knobs = pn_get(c, map, "knobs"),
			  *cgroups = pn_get(c, map, "cgroups");
	const struct profile *p = c->p;

	s->pos = pn_pos(c, map);
	pn_check_keys(c, map, keys, 3, "a setting");
	if (name && (s->name = pn_strdup(c, name, "name")) &&
	    !pn_check_name(c, name, s->name, SETTING_NAME_MAX, "setting")) {
		for (const struct setting *o = p->settings; o < s; o++)
			if (o->name && !strcmp(o->name, s->name)) {
				pn_error(c, name, "duplicate setting name '%s' (first used at line %d); "
					 "names must be unique", s->name, o->pos.line);
				break;
			}
	}
	if (knobs && !pn_want(c, knobs, YAML_MAPPING_NODE, "knobs"))
		pp_knobs(c, knobs, s);
	if (cgroups && !pn_want(c, cgroups, YAML_SEQUENCE_NODE, "cgroups"))
		profile_parse_cgroups(c, cgroups, s);
}

static void pp_settings(struct pctx *c, const yaml_node_t *seq)
{
	struct profile *p = c->p;

	if (seq->data.sequence.items.top == seq->data.sequence.items.start) {
		pn_error(c, seq, "'settings' is empty; remove it (one default setting) or add one");
		return;
	}
	if (pn_check_count(c, seq, PROFILE_MAX_SETTINGS, "settings", "each runs every load "
			   "for the whole duration"))
		return;
	p->settings = pn_alloc_entries(c, seq, sizeof(*p->settings));
	if (p->settings)
		pn_each_entry(c, seq, "settings", "name, knobs and cgroups",
			      p->settings, &p->n_settings, sizeof(*p->settings), pp_setting);
}

static void pp_default_setting(struct pctx *c, const yaml_node_t *root)
{
	struct profile *p = c->p;

	p->settings = calloc(1, sizeof(*p->settings));
	if (!p->settings || !(p->settings[0].name = strdup("default"))) {
		pn_error(c, root, "out of memory");
		return;
	}
	p->settings[0].pos = pn_pos(c, root);
	p->n_settings = 1;
}

/* KEY's node when present and of TYPE; NULL when absent or after an error. */
static const yaml_node_t *pp_section(struct pctx *c, const yaml_node_t *root, const char *key,
				     yaml_node_type_t type)
{
	const yaml_node_t *node = pn_get(c, root, key);

	if (!node || pn_want(c, node, type, key))
		return NULL;
	return node;
}

static void pp_root(struct pctx *c, const yaml_node_t *root)
{
	const yaml_node_t *node;

	pn_check_keys(c, root, top_keys, sizeof(top_keys) / sizeof(top_keys[0]), "the profile");
	pp_top_options(c, root);
	if ((node = pn_get(c, root, "sample_hz")))
		pp_sample_hz(c, node);
	if (!pn_get(c, root, "loads") && !pn_get(c, root, "attach"))
		pn_error(c, root, "missing required key 'loads' (or 'attach' to sample running "
			 "processes)");
	if ((node = pp_section(c, root, "loads", YAML_SEQUENCE_NODE)))
		profile_parse_loads(c, node);
	if ((node = pp_section(c, root, "attach", YAML_SEQUENCE_NODE)))
		profile_parse_attach(c, node);
	if ((node = pn_get(c, root, "settings"))) {
		if (!pn_want(c, node, YAML_SEQUENCE_NODE, "settings"))
			pp_settings(c, node);
	} else {
		pp_default_setting(c, root);
	}
	if ((node = pp_section(c, root, "expect", YAML_SEQUENCE_NODE)))
		profile_parse_expect(c, node);
	if ((node = pp_section(c, root, "compare", YAML_MAPPING_NODE)))
		profile_parse_compare(c, node);
}

/* A tab is the most common cause of "cannot start any token": say so. */
static const char *pp_yaml_hint(const yaml_parser_t *parser, const char *text, size_t len)
{
	size_t at = parser->problem_mark.index;

	if (text && at < len && text[at] == '\t')
		return "; indent with spaces, not tabs";
	return "";
}

static void pp_yaml_error(struct pctx *c, const yaml_parser_t *parser, const char *text,
			  size_t len)
{
	const yaml_mark_t *m = &parser->problem_mark;
	int line = (int)m->line + 1, col = (int)m->column + 1;

	if (parser->error == YAML_READER_ERROR) {
		/* libyaml gives only a byte offset here: count lines ourselves. */
		line = col = 1;
		for (size_t i = 0; text && i < parser->problem_offset && i < len; i++, col++) {
			if (text[i] == '\n') {
				line++;
				col = 0;
			}
		}
		pn_report(c, line, col, "cannot read yaml: %s at byte %zu (save the file as UTF-8)",
			  parser->problem, parser->problem_offset);
	} else if (parser->context)
		pn_report(c, line, col, "yaml syntax error: %s (%s at line %d)%s", parser->problem,
			  parser->context, (int)parser->context_mark.line + 1,
			  pp_yaml_hint(parser, text, len));
	else
		pn_report(c, line, col, "yaml syntax error: %s%s",
			  parser->problem ? parser->problem : "unknown problem",
			  pp_yaml_hint(parser, text, len));
}

/* The stream must hold exactly one document. */
static void pp_load(struct pctx *c, yaml_parser_t *parser)
{
	yaml_document_t extra;
	const yaml_node_t *root = yaml_document_get_root_node(c->doc);

	if (!root) {
		pn_report(c, 1, 1, "the profile is empty; it needs at least 'name', 'duration' "
			  "and 'loads'");
		return;
	}
	if (root->type != YAML_MAPPING_NODE)
		pn_error(c, root, "a profile must be a mapping of keys (name, duration, loads...), "
			 "not %s", pn_kind_name(root));
	else
		pp_root(c, root);
	if (!yaml_parser_load(parser, &extra)) {
		pp_yaml_error(c, parser, NULL, 0);
		return;
	}
	if (yaml_document_get_root_node(&extra))
		pn_report(c, (int)extra.start_mark.line + 1, (int)extra.start_mark.column + 1,
			  "a profile file holds one yaml document; remove this second one");
	yaml_document_delete(&extra);
}

/* Nesting deeper than any profile needs is refused before libyaml builds
 * the document (100k nested '[' took it 25 s); events only, stopping at the
 * first too deep. Returns 0, or -1 with the error reported. */
static int pp_check_depth(struct pctx *c, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, ret = 0;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (yaml_parser_parse(&parser, &ev)) {
		yaml_event_type_t t = ev.type;

		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
			depth++;
		else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
			depth--;
		if (depth > PROFILE_MAX_DEPTH) {
			ret = pn_report(c, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
					"nested more than %d levels deep; a profile needs a few",
					PROFILE_MAX_DEPTH);
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&parser);
	return ret;	/* a syntax error is reported by the real parse */
}

/* Checks on every node before the sections are parsed: a NUL byte in a
 * scalar ("\0" in double quotes) would cut the string short where C reads
 * it, and a truncated knob name could be written; a mapping's keys are
 * checked against each other, so a mapping of 100k keys would take hours. */
static void pp_check_nodes(struct pctx *c)
{
	for (yaml_node_t *n = c->doc->nodes.start; n < c->doc->nodes.top; n++) {
		size_t keys = n->type == YAML_MAPPING_NODE ?
			(size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) : 0;

		if (n->type == YAML_SCALAR_NODE &&
		    memchr(n->data.scalar.value, '\0', n->data.scalar.length))
			pn_error(c, n, "holds a NUL byte ('\\0'), which no name or value may");
		if (keys > PN_MAX_KEYS)
			pn_error(c, n, "a mapping of %zu keys; a profile's mappings have at most %d",
				 keys, PN_MAX_KEYS);
	}
}

struct profile *profile_parse(const char *path, const char *text, size_t len, unsigned *n_errors)
{
	struct profile *p = calloc(1, sizeof(*p));
	yaml_parser_t parser;
	yaml_document_t doc;
	struct pctx c = { .file = path, .doc = &doc, .p = p };

	if (!p || !(p->file = strdup(path))) {
		free(p);
		*n_errors = 1;
		error("out of memory");
		return NULL;
	}
	c.file = p->file;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (pp_check_depth(&c, text, len) < 0) {
		/* reported */
	} else if (yaml_parser_load(&parser, &doc)) {
		pp_check_nodes(&c);
		if (!c.n_errors)
			pp_load(&c, &parser);
		yaml_document_delete(&doc);
	} else {
		pp_yaml_error(&c, &parser, text, len);
	}
	yaml_parser_delete(&parser);
	pn_flush(&c);
	*n_errors = c.n_errors;
	if (c.n_errors) {
		profile_free(p);
		return NULL;
	}
	return p;
}

struct profile *profile_load(const char *arg, unsigned *n_errors)
{
	char found[PATH_MAX];
	const char *path = profile_find(arg, found, sizeof(found));
	/* O_NONBLOCK: a FIFO must not block us at open; only files are read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct profile *p;
	struct stat st;
	char *text;
	size_t len;
	FILE *f;

	*n_errors = 1;
	if (fd < 0)
		return profile_find_error(arg, path), NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("profile '%s' is not a regular file", path), NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return error_errno("cannot open profile '%s'", path), NULL;
	}
	text = malloc(PROFILE_MAX_BYTES + 1);
	len = text ? fread(text, 1, PROFILE_MAX_BYTES + 1, f) : 0;
	if (!text || ferror(f)) {
		error_errno("cannot read profile '%s'", path);
		p = NULL;
	} else if (len > PROFILE_MAX_BYTES) {
		error("profile '%s' is larger than %d bytes; is it really a profile?", path,
		      PROFILE_MAX_BYTES);
		p = NULL;
	} else {
		p = profile_parse(path, text, len, n_errors);
	}
	free(text);
	fclose(f);
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_loads; i++)
		load_spec_free(&p->loads[i]);
	for (size_t i = 0; i < p->n_attach; i++)
		free(p->attach[i].name);
	for (size_t i = 0; i < p->n_settings; i++) {
		for (size_t k = 0; k < p->settings[i].n_knobs; k++) {
			free(p->settings[i].knobs[k].name);
			free(p->settings[i].knobs[k].value);
		}
		free(p->settings[i].knobs);
		profile_free_cgroups(&p->settings[i]);
		free(p->settings[i].name);
	}
	for (size_t i = 0; i < p->n_expect; i++) {
		free(p->expect[i].load);
		free(p->expect[i].metric);
		free(p->expect[i].threshold_text);
		free(p->expect[i].setting);
	}
	for (size_t i = 0; i < p->n_compare; i++)
		free(p->compare[i].metric);
	for (size_t i = 0; i < p->n_compare_gate; i++)
		free(p->compare_gate[i]);
	free(p->compare_gate);
	free(p->loads);
	free(p->attach);
	free(p->settings);
	free(p->expect);
	free(p->compare);
	free(p->name);
	free(p->description);
	free(p->file);
	free(p);
}

const struct load_spec *profile_find_load(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_loads; i++)
		if (p->loads[i].name && !strcmp(p->loads[i].name, name))
			return &p->loads[i];
	return NULL;
}

const struct cgroup_setting *profile_load_cgroup(const struct setting *s, const char *name)
{
	for (size_t i = 0; i < s->n_cgroups; i++)
		for (size_t k = 0; k < s->cgroups[i].n_loads; k++)
			if (!strcmp(s->cgroups[i].loads[k], name))
				return &s->cgroups[i];
	return NULL;
}
