/* The typed view of a result (result-view.h): checking against the shipped
 * schema, the arena, the header and the profile, what the reports derive
 * (setting order, repetitions), and the lookups. Runs are read in
 * result-view-run.c. The check applies the schema itself rather than rules
 * written into these readers, so there is one statement of a valid result
 * and no second list to drift from it (doc/result-format.md). The schema
 * is compiled in (the build turns reports/result/result-schema.json into a C
 * string), so the check needs no file at run time. */
#include "config.h"
#include "reports/result/result-view.h"
#include "reports/result/json-schema.h"
#include "reports/result/result-view-build.h"
#include "lib/keyindex.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rv_schema_text_built_in[] =
#include "reports/result/result-schema.inc"
	;

/* ---- the arena: every array of a view, freed at once ---- */

#define RV_BLOCK (64 * 1024)

struct rv_arena {
	struct rv_arena *next;
	size_t used, size;
	max_align_t data[];
};

void *rvb_alloc(struct rvb *b, size_t n, size_t size)
{
	static max_align_t empty;
	struct rv_arena *a = b->v->arena;
	size_t need, align = sizeof(max_align_t);
	void *p;

	if (n == 0)
		return &empty;
	if (size && n > SIZE_MAX / size / 2) {
		rvb_fail(b, "", "out of memory");
		return NULL;
	}
	need = (n * size + align - 1) / align * align;
	if (!a || a->size - a->used < need) {
		size_t bytes = need > RV_BLOCK ? need : RV_BLOCK;

		a = malloc(sizeof(*a) + bytes);
		if (!a) {
			rvb_fail(b, "", "out of memory");
			return NULL;
		}
		*a = (struct rv_arena){ .next = b->v->arena, .size = bytes };
		b->v->arena = a;
	}
	p = (char *)a->data + a->used;
	a->used += need;
	return memset(p, 0, n * size);
}

int rvb_fail(struct rvb *b, const char *where, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(b->why, b->why_len, "%s: %s%s%s", b->v->file, where, *where ? ": " : "", msg);
	return -1;
}

/* ---- reading values: the one place keys are looked up ---- */

const char *rvb_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

double rvb_num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

long rvb_int(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_integer(v))
		return (long)json_integer_value(v);
	/* the schema's "integer" admits 2.0 */
	return json_is_real(v) && fabs(json_real_value(v)) < 9e18 ? (long)json_real_value(v) :
	       RV_NONE;
}

int rvb_bool(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

uint64_t rvb_u64(const json_t *v)
{
	if (json_is_integer(v))
		return json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
	return json_is_real(v) && json_real_value(v) > 0 && json_real_value(v) < 1.8e19 ?
	       (uint64_t)json_real_value(v) : 0;
}

/* A value as text: strings as they are, anything else as compact JSON kept
 * in the arena. */
static const char *rvb_text(struct rvb *b, const json_t *value)
{
	char *dump, *copy;

	if (json_is_string(value))
		return json_string_value(value);
	dump = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
	if (!dump) {
		rvb_fail(b, "", "out of memory");
		return NULL;
	}
	copy = rvb_alloc(b, strlen(dump) + 1, 1);
	if (copy)
		strcpy(copy, dump);
	free(dump);
	return copy;
}

int rvb_pairs(struct rvb *b, const json_t *obj, const struct rv_pair **out, size_t *n)
{
	struct rv_pair *pairs = rvb_alloc(b, json_object_size(obj), sizeof(*pairs));
	const char *key;
	json_t *value;
	size_t i = 0;

	if (!pairs)
		return -1;
	json_object_foreach((json_t *)obj, key, value) {
		pairs[i] = (struct rv_pair){ key, rvb_text(b, value) };
		if (!pairs[i++].value)
			return -1;
	}
	*out = pairs;
	*n = i;
	return 0;
}

int rvb_metrics(struct rvb *b, const json_t *obj, const struct rv_metric **out, size_t *n)
{
	struct rv_metric *m = rvb_alloc(b, json_object_size(obj), sizeof(*m));
	const char *key;
	json_t *value;
	size_t i = 0;

	if (!m)
		return -1;
	json_object_foreach((json_t *)obj, key, value)
		if (json_is_number(value))
			m[i++] = (struct rv_metric){ key, json_number_value(value) };
	*out = m;
	*n = i;
	return 0;
}

/* ---- the header ---- */

static int rvb_tool(struct rvb *b, const json_t *tool)
{
	const json_t *cmdline = json_object_get(tool, "command_line");
	const char **args = rvb_alloc(b, json_array_size(cmdline), sizeof(*args));
	size_t i;
	json_t *arg;

	if (!args)
		return -1;
	json_array_foreach(cmdline, i, arg)
		args[i] = json_is_string(arg) ? json_string_value(arg) : "?";
	b->v->tool = (struct rv_tool){ .name = rvb_str(tool, "name"),
				       .version = rvb_str(tool, "version"),
				       .command_line = args, .n_command_line = i };
	return 0;
}

static int rvb_header(struct rvb *b, const json_t *r)
{
	const json_t *host = json_object_get(r, "host"), *kernel = json_object_get(r, "kernel");
	const json_t *conf = json_object_get(r, "confounders");
	struct result_view *v = b->v;

	v->started = rvb_str(r, "started");
	v->ended = rvb_str(r, "ended");
	v->complete = rvb_bool(r, "complete") != 0;
	v->cpuset_backend = rvb_str(r, "cpuset_backend");
	v->host = (struct rv_host){ .hostname = rvb_str(host, "hostname"),
				    .topology = rvb_str(host, "topology"),
				    .nr_cpus = rvb_int(host, "nr_cpus") };
	v->kernel = (struct rv_kernel){ .release = rvb_str(kernel, "release"),
					.version = rvb_str(kernel, "version"),
					.hz_source = rvb_str(kernel, "hz_source"),
					.preempt = rvb_str(kernel, "preempt"),
					.hz = rvb_int(kernel, "hz"),
					.schedstat_global = rvb_bool(kernel, "schedstat_global"),
					.schedstat_task = rvb_bool(kernel, "schedstat_task") };
	v->confounders = (struct rv_confounders){ .present = json_is_object(conf),
		.clocksource = rvb_str(conf, "clocksource"), .nohz = rvb_str(conf, "nohz"),
		.nohz_full = rvb_str(conf, "nohz_full"), .cmdline = rvb_str(conf, "cmdline"),
		.cpu_model = rvb_str(conf, "cpu_model"), .governor = rvb_str(conf, "governor"),
		.hypervisor = rvb_str(conf, "hypervisor"), .cpus = rvb_int(conf, "cpus"),
		.virtualised = rvb_bool(conf, "virtualised"), .emulated = rvb_bool(conf, "emulated"),
		.steal_share = rvb_num(conf, "steal_share") };
	if (rvb_pairs(b, json_object_get(conf, "mitigations"), &v->confounders.mitigations,
		       &v->confounders.n_mitigations))
		return -1;
	return rvb_tool(b, json_object_get(r, "tool")) ||
	       rvb_pairs(b, json_object_get(r, "knobs_before"), &v->knobs_before,
			 &v->n_knobs_before);
}

static void rvb_summary(struct rvb *b, const json_t *s)
{
	int kind = verdict_parse(rvb_str(s, "verdict"));

	b->v->summary = (struct rv_summary){
		.verdict = kind < 0 ? VERDICT_UNDECIDED : (enum verdict_kind)kind,
		.pass = rvb_int(s, "pass"), .fail = rvb_int(s, "fail"),
		.skip = rvb_int(s, "skip"), .undecided = rvb_int(s, "undecided"),
		.exit_code = (int)rvb_int(s, "exit_code"),
		.undecided_fails = rvb_bool(s, "undecided_fails") == 1,
		.warning = rvb_str(s, "warning"),
	};
}

/* ---- the profile as run ---- */

static int rvb_load_specs(struct rvb *b, const json_t *loads, struct rv_profile *p)
{
	struct rv_load_spec *specs = rvb_alloc(b, json_array_size(loads), sizeof(*specs));
	const json_t *l;
	size_t i;

	if (!specs)
		return -1;
	json_array_foreach(loads, i, l) {
		specs[i] = (struct rv_load_spec){
			.name = rvb_str(l, "name"), .type = rvb_str(l, "type"),
			.mode = rvb_str(l, "mode"), .cpus = rvb_str(l, "cpus"),
			.policy = rvb_str(l, "policy"), .count = rvb_int(l, "count"),
			.nice = rvb_int(l, "nice"), .priority = rvb_int(l, "priority"),
			.session = rvb_bool(l, "session"),
		};
		if (rvb_pairs(b, json_object_get(l, "options"), &specs[i].options,
			      &specs[i].n_options) < 0)
			return -1;
	}
	p->loads = specs;
	p->n_loads = i;
	return 0;
}

static int rvb_settings(struct rvb *b, const json_t *settings, struct rv_profile *p)
{
	struct rv_setting *s = rvb_alloc(b, json_array_size(settings), sizeof(*s));
	const json_t *x;
	size_t i;

	if (!s)
		return -1;
	json_array_foreach(settings, i, x) {
		s[i].name = rvb_str(x, "name");
		if (rvb_pairs(b, json_object_get(x, "knobs"), &s[i].knobs, &s[i].n_knobs) < 0)
			return -1;
	}
	p->settings = s;
	p->n_settings = i;
	return 0;
}

static int rvb_expects(struct rvb *b, const json_t *expects, struct rv_profile *p)
{
	struct rv_expect *e = rvb_alloc(b, json_array_size(expects), sizeof(*e));
	const json_t *x;
	size_t i;

	if (!e)
		return -1;
	json_array_foreach(expects, i, x) {
		rvb_rule(x, &e[i].rule);
		e[i].setting = rvb_str(x, "setting");
	}
	p->expect = e;
	p->n_expect = i;
	return 0;
}

static int rvb_compare_gate(struct rvb *b, const json_t *gate, struct rv_profile *p)
{
	const char **loads;
	const json_t *x;
	size_t i;

	p->compare_gate_all = json_is_string(gate);
	if (!json_is_array(gate))
		return 0;
	if (!(loads = rvb_alloc(b, json_array_size(gate), sizeof(*loads))))
		return -1;
	json_array_foreach(gate, i, x)
		loads[i] = json_string_value(x);
	p->compare_gate = loads;
	p->n_compare_gate = i;
	return 0;
}

static int rvb_attach_and_thresholds(struct rvb *b, const json_t *prof, struct rv_profile *p)
{
	const json_t *attach = json_object_get(prof, "attach");
	const json_t *thresholds = json_object_get(prof, "compare_thresholds"), *x;
	struct rv_attach *a = rvb_alloc(b, json_array_size(attach), sizeof(*a));
	struct rv_threshold *t = rvb_alloc(b, json_object_size(thresholds), sizeof(*t));
	const char *metric;
	size_t i;

	if (!a || !t)
		return -1;
	json_array_foreach(attach, i, x)
		a[i] = (struct rv_attach){ rvb_str(x, "name"), rvb_int(x, "pid") };
	p->attach = a;
	p->n_attach = i;
	i = 0;
	json_object_foreach((json_t *)thresholds, metric, x)
		if (json_is_number(x))
			t[i++] = (struct rv_threshold){ metric, json_number_value(x) };
	p->compare_thresholds = t;
	p->n_compare_thresholds = i;
	return rvb_compare_gate(b, json_object_get(prof, "compare_gate"), p);
}

static int rvb_profile(struct rvb *b, const json_t *prof)
{
	struct rv_profile *p = &b->v->profile;

	*p = (struct rv_profile){
		.file = rvb_str(prof, "file"), .name = rvb_str(prof, "name"),
		.description = rvb_str(prof, "description"),
		.duration_s = rvb_num(prof, "duration_s"), .warmup_s = rvb_num(prof, "warmup_s"),
		.repeat = rvb_int(prof, "repeat"), .sample_hz = rvb_int(prof, "sample_hz"),
	};
	return rvb_load_specs(b, json_object_get(prof, "loads"), p) ||
	       rvb_settings(b, json_object_get(prof, "settings"), p) ||
	       rvb_expects(b, json_object_get(prof, "expect"), p) ||
	       rvb_attach_and_thresholds(b, prof, p) ? -1 : 0;
}

/* ---- derived: the order of settings, the repetitions ---- */

/* The profile's settings in order, then any other a run names (a result
 * of an older profile, or one edited by hand); each run's index into them. */
static int rvb_setting_order(struct rvb *b)
{
	struct result_view *v = b->v;
	const char **names = rvb_alloc(b, v->profile.n_settings + v->n_runs, sizeof(*names));
	struct keyindex index = { 0 };	/* 100k runs of distinct settings: no n^2 scan */
	size_t n = 0;

	if (!names)
		return -1;
	for (size_t i = 0; i < v->profile.n_settings + v->n_runs; i++) {
		const char *name = i < v->profile.n_settings ? v->profile.settings[i].name :
			v->runs[i - v->profile.n_settings].setting;
		long k = keyindex_add(&index, name, strlen(name));

		if (k < 0) {
			keyindex_free(&index);
			return rvb_fail(b, "", "out of memory");
		}
		if ((size_t)k == n)
			names[n++] = name;
		if (i >= v->profile.n_settings)
			b->runs[i - v->profile.n_settings].setting_index = (size_t)k;
	}
	keyindex_free(&index);
	v->setting_names = names;
	v->n_setting_names = n;
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].repetition + 1 > v->repetitions)
			v->repetitions = (int)v->runs[i].repetition + 1;
	return 0;
}

/* ---- building, opening, freeing ---- */

/* The schema check: 0, or -1 with WHY "FILE: place: what". */
static int rv_check(struct rvb *b, const json_t *tree)
{
	char msg[1024];
	struct jschema *schema = jschema_new(rv_schema_text_built_in, msg, sizeof(msg));
	int ret;

	if (!schema)
		return rvb_fail(b, "", "cannot check it: the compiled-in %s", msg);
	ret = jschema_validate(schema, tree, msg, sizeof(msg));
	jschema_free(schema);
	return ret < 0 ? rvb_fail(b, "", "%s", msg) : 0;
}

/* Read TREE into a new view; check it against the schema first if CHECK. */
static struct result_view *rv_read(json_t *tree, const char *name, bool check, char *why,
				   size_t why_len)
{
	struct result_view *v = calloc(1, sizeof(*v) + strlen(name) + 1);
	struct rvb b = { v, why, why_len, NULL };

	if (!v) {
		snprintf(why, why_len, "%s: out of memory", name);
		return NULL;
	}
	v->file = strcpy((char *)(v + 1), name);
	v->tree = json_incref(tree);
	if ((!check || rv_check(&b, tree) == 0) && rvb_header(&b, tree) == 0 &&
	    rvb_profile(&b, json_object_get(tree, "profile")) == 0 &&
	    rvb_runs(&b, json_object_get(tree, "runs")) == 0 && rvb_setting_order(&b) == 0) {
		rvb_summary(&b, json_object_get(tree, "summary"));
		return v;
	}
	rv_free(v);
	return NULL;
}

struct result_view *rv_build(json_t *tree, const char *name, char *why, size_t why_len)
{
	return rv_read(tree, name, true, why, why_len);
}

struct result_view *rv_reread(struct result_view *v, char *why, size_t why_len)
{
	struct result_view *again = rv_read((json_t *)v->tree, v->file, false, why, why_len);

	rv_free(v);
	return again;
}

struct result_view *rv_open(const char *path, char *why, size_t why_len)
{
	json_t *tree = result_read(path, why, why_len);
	struct result_view *v;

	if (!tree)
		return NULL;
	v = rv_build(tree, path, why, why_len);
	json_decref(tree);
	return v;
}

void rv_free(struct result_view *v)
{
	if (!v)
		return;
	while (v->arena) {
		struct rv_arena *next = v->arena->next;

		free(v->arena);
		v->arena = next;
	}
	json_decref((json_t *)v->tree);
	free(v);
}

const char *rv_schema_text(void)
{
	return rv_schema_text_built_in;
}

/* ---- lookups ---- */

const struct rv_load *rv_run_load(const struct rv_run *run, const char *name)
{
	for (size_t i = 0; run && i < run->n_loads; i++)
		if (!strcmp(run->loads[i].name, name))
			return &run->loads[i];
	return NULL;
}

double rv_load_metric(const struct rv_load *load, const char *metric)
{
	for (size_t i = 0; load && i < load->n_metrics; i++)
		if (!strcmp(load->metrics[i].name, metric))
			return load->metrics[i].value;
	return NAN;
}

const struct rv_histogram *rv_load_histogram(const struct rv_load *load, const char *name)
{
	for (size_t i = 0; load && i < load->n_histograms; i++)
		if (!strcmp(load->histograms[i].name, name))
			return &load->histograms[i];
	return NULL;
}

const struct rv_series *rv_load_series(const struct rv_load *load, const char *name)
{
	for (size_t i = 0; load && i < load->n_series; i++)
		if (!strcmp(load->series[i].name, name))
			return &load->series[i];
	return NULL;
}

void rv_histogram_rebuild(const struct rv_histogram *h, struct histogram *out)
{
	hist_init(out);
	for (size_t i = 0; i < h->n_buckets; i++) {
		const struct rv_bucket *k = &h->buckets[i];
		unsigned idx = hist_bucket_of(k->lower_ns);

		out->buckets[idx] += k->count;
		out->count += k->count;
		out->sum += k->count * k->lower_ns;
		if (out->min > k->lower_ns)
			out->min = k->lower_ns;
		if (out->max < hist_bucket_upper(idx))
			out->max = hist_bucket_upper(idx);
	}
	/* min, max and sum are exact where given; the buckets only bound them */
	if (out->count && !isnan(h->min_ns))
		out->min = (uint64_t)h->min_ns;
	if (out->count && !isnan(h->max_ns))
		out->max = (uint64_t)h->max_ns;
	if (!isnan(h->sum_ns))
		out->sum = (uint64_t)h->sum_ns;
}

const char *rv_pair_get(const struct rv_pair *pairs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pairs[i].name, name))
			return pairs[i].value;
	return NULL;
}

const struct rv_setting *rv_profile_setting(const struct result_view *v, const char *name)
{
	for (size_t i = 0; i < v->profile.n_settings; i++)
		if (!strcmp(v->profile.settings[i].name, name))
			return &v->profile.settings[i];
	return NULL;
}

bool rv_expect_applies(const struct rv_expect *e, const char *setting)
{
	return !e->setting || (setting && !strcmp(e->setting, setting));
}

bool rv_rule_same(const struct rv_rule *a, const struct rv_rule *b)
{
	return !strcmp(a->load, b->load) && !strcmp(a->metric, b->metric) && a->op == b->op &&
	       a->threshold == b->threshold;
}
