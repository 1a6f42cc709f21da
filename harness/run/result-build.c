/* Building result.json's tree (result-build.h). Shapes and key names follow
 * doc/result-format.md and reports/result/result-schema.json exactly; metric
 * values are in canonical units (seconds, ratios, per second). */
#include "config.h"
#include "harness/run/result-build.h"
#include "harness/kernel/confounders.h"
#include "harness/sampler/oob-metrics.h"
#include "harness/placement/topology.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *result_time_text(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static json_t *rb_now(void)
{
	char buf[32];

	return json_string(result_time_text(time(NULL), buf, sizeof(buf)));
}

static json_t *rb_host(void)
{
	char name[256] = "", topo[160];
	json_t *host = json_object();

	if (gethostname(name, sizeof(name) - 1) == 0)
		json_object_set_new(host, "hostname", json_string(name));
	json_object_set_new(host, "nr_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	if (topology_summary(topo, sizeof(topo)))
		json_object_set_new(host, "topology", json_string(topo));
	return host;
}

static json_t *rb_kernel(const struct kernel_info *k)
{
	char preempt[64];

	return json_pack("{s:s, s:s, s:i, s:s, s:s, s:b, s:b}",
			 "release", k->release, "version", k->version, "hz", k->hz,
			 "hz_source", k->hz_source ? k->hz_source : "unknown",
			 "preempt", kernel_preempt_text(k, preempt, sizeof(preempt)),
			 "schedstat_global", k->schedstat_global,
			 "schedstat_task", k->schedstat_task);
}

/* What else shapes the numbers, for compare (harness/kernel/confounders.h). */
static json_t *rb_confounders(const struct kernel_info *k)
{
	struct confounders c;

	confounders_probe(&c, k);
	return confounders_json(&c);
}

json_t *result_build_new(int argc, char **argv, const struct kernel_info *kernel,
			 const char *cpuset_backend)
{
	json_t *r = json_object(), *cmdline = json_array();

	json_array_append_new(cmdline, json_string("starve"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmdline, json_string(argv[i]));
	json_object_set_new(r, "format", json_string(RESULT_FORMAT));
	json_object_set_new(r, "format_version", json_integer(RESULT_FORMAT_VERSION));
	json_object_set_new(r, "tool", json_pack("{s:s, s:s, s:o}", "name", "starve",
						 "version", PACKAGE_VERSION, "command_line", cmdline));
	json_object_set_new(r, "started", rb_now());
	json_object_set_new(r, "ended", json_null());
	json_object_set_new(r, "complete", json_false());
	json_object_set_new(r, "host", rb_host());
	if (kernel)
		json_object_set_new(r, "kernel", rb_kernel(kernel));
	if (kernel)
		json_object_set_new(r, "confounders", rb_confounders(kernel));
	if (cpuset_backend)
		json_object_set_new(r, "cpuset_backend", json_string(cpuset_backend));
	json_object_set_new(r, "runs", json_array());
	/* replaced by verdicts_apply(); valid on its own for a partial result */
	json_object_set_new(r, "summary", json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}",
						    "verdict", "skip", "pass", 0, "fail", 0,
						    "skip", 0, "undecided", 0, "exit_code", 4));
	return r;
}

/* A setting's cgroups as the profile gave them (v2 names, cpu.max as text). */
static json_t *rb_cgroups(const struct setting *s)
{
	json_t *list = json_array();
	char max[64];

	for (size_t i = 0; i < s->n_cgroups; i++) {
		const struct cgroup_setting *g = &s->cgroups[i];
		const struct cgcpu_knobs *k = &g->knobs;
		json_t *loads = json_array(), *o = json_pack("{s:s}", "name", g->name);

		for (size_t l = 0; l < g->n_loads; l++)
			json_array_append_new(loads, json_string(g->loads[l]));
		json_object_set_new(o, "loads", loads);
		if (k->quota_us) {
			if (k->quota_us < 0)
				snprintf(max, sizeof(max), "max %lld", (long long)k->period_us);
			else
				snprintf(max, sizeof(max), "%lld %lld", (long long)k->quota_us,
					 (long long)k->period_us);
			json_object_set_new(o, "cpu.max", json_string(max));
		}
		if (k->weight)
			json_object_set_new(o, "cpu.weight", json_integer(k->weight));
		if (k->uclamp_min >= 0)
			json_object_set_new(o, "cpu.uclamp.min", json_real(k->uclamp_min));
		if (k->uclamp_max >= 0)
			json_object_set_new(o, "cpu.uclamp.max", json_real(k->uclamp_max));
		json_array_append_new(list, o);
	}
	return list;
}

static json_t *rb_knobs(const struct setting *s)
{
	json_t *knobs = json_object();

	for (size_t i = 0; i < s->n_knobs; i++)
		json_object_set_new(knobs, s->knobs[i].name, json_string(s->knobs[i].value));
	return knobs;
}

static json_t *rb_load_spec(const struct load_spec *l)
{
	json_t *opts = json_object();
	char buf[256];

	for (size_t i = 0; i < l->type->n_options; i++) {
		const struct opt_spec *o = &l->type->options[i];

		json_object_set_new(opts, o->name,
				    json_string(opt_format_value(o, &l->opts[i], buf, sizeof(buf))));
	}
	return json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:b, s:o}",
			 "name", l->name, "type", l->type->name, "count", l->count,
			 "mode", load_mode_names[l->mode], "cpus", l->cpus ? l->cpus : "all",
			 "nice", l->nice, "policy", load_policy_names[l->policy],
			 "priority", l->priority, "session", l->session, "options", opts);
}

static json_t *rb_expect(const struct expectation *e)
{
	return json_pack("{s:s, s:s, s:s, s:f, s:s, s:o}", "load", e->load, "metric", e->metric,
			 "op", e->op == EXPECT_BELOW ? "below" : "above", "threshold", e->threshold,
			 "threshold_text", e->threshold_text ? e->threshold_text : "",
			 "setting", e->setting ? json_string(e->setting) : json_null());
}

/* The profile's compare gate: "all", the loads, or NULL (left out) for the default. */
static json_t *rb_compare_gate(const struct profile *p)
{
	json_t *loads;

	if (p->compare_gate_all)
		return json_string("all");
	if (!p->n_compare_gate)
		return NULL;
	loads = json_array();
	for (size_t i = 0; i < p->n_compare_gate; i++)
		json_array_append_new(loads, json_string(p->compare_gate[i]));
	return loads;
}

json_t *result_build_profile(const struct profile *p, int sample_hz)
{
	json_t *loads = json_array(), *attach = json_array(), *settings = json_array();
	json_t *expect = json_array(), *cmp = json_object();

	for (size_t i = 0; i < p->n_loads; i++)
		json_array_append_new(loads, rb_load_spec(&p->loads[i]));
	for (size_t i = 0; i < p->n_attach; i++)
		json_array_append_new(attach, json_pack("{s:s, s:i}", "name", p->attach[i].name,
							"pid", (int)p->attach[i].pid));
	for (size_t i = 0; i < p->n_settings; i++) {
		json_t *set = json_pack("{s:s, s:o}", "name", p->settings[i].name,
					"knobs", rb_knobs(&p->settings[i]));

		if (p->settings[i].n_cgroups)
			json_object_set_new(set, "cgroups", rb_cgroups(&p->settings[i]));
		json_array_append_new(settings, set);
	}
	for (size_t i = 0; i < p->n_expect; i++)
		json_array_append_new(expect, rb_expect(&p->expect[i]));
	for (size_t i = 0; i < p->n_compare; i++)
		json_object_set_new(cmp, p->compare[i].metric, json_real(p->compare[i].percent));
	return json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:o*}",
			 "file", p->file ? p->file : "", "name", p->name,
			 "description", p->description ? p->description : "",
			 "duration_s", (double)p->duration_ns / NSEC_PER_SEC,
			 "warmup_s", (double)p->warmup_ns / NSEC_PER_SEC, "repeat", p->repeat,
			 "sample_hz", sample_hz, "trace", p->trace, "loads", loads, "attach", attach,
			 "settings", settings, "expect", expect, "compare_thresholds", cmp,
			 "compare_gate", rb_compare_gate(p));
}

json_t *result_build_run(const struct setting *s, int repetition)
{
	return json_pack("{s:s, s:i, s:s, s:n, s:o, s:o, s:[], s:[]}", "setting", s->name,
			 "repetition", repetition, "status", "ok", "reason",
			 "knobs_applied", rb_knobs(s), "started", rb_now(), "loads", "verdicts");
}

void result_run_status(json_t *run, enum result_status status, const char *reason)
{
	json_object_set_new(run, "status", json_string(result_status_name(status)));
	json_object_set_new(run, "reason", reason ? json_string(reason) : json_null());
}

static json_t *rb_buckets(const struct histogram *h)
{
	json_t *arr = json_array();

	for (unsigned i = 0; arr && i < HIST_BUCKETS; i++)
		if (h->buckets[i])
			json_array_append_new(arr, json_pack("[II]", (json_int_t)hist_bucket_lower(i),
							     (json_int_t)h->buckets[i]));
	return arr;
}

json_t *result_build_histogram(const struct histogram *h)
{
	static const struct {
		const char *key;
		double p;
	} pct[] = { { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p999", 99.9 } };
	json_t *obj = json_pack("{s:s, s:I, s:I}", "unit", "ns", "count", (json_int_t)h->count,
				"sum", (json_int_t)h->sum);

	if (!obj)
		return NULL;
	if (h->count) {
		json_object_set_new(obj, "min", json_integer((json_int_t)h->min));
		json_object_set_new(obj, "max", json_integer((json_int_t)h->max));
		for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
			json_object_set_new(obj, pct[i].key,
					    json_integer((json_int_t)hist_percentile(h, pct[i].p)));
	}
	json_object_set_new(obj, "buckets", rb_buckets(h));
	return obj;
}

void result_build_inband(const struct load_type *type, const struct inband_summary *sum,
			 json_t *metrics, json_t *histograms)
{
	struct inband_metric m[INBAND_MAX_METRICS];
	size_t n = inband_metrics(type, sum, m);
	const char *hname = inband_hist_name(type->hist);

	for (size_t i = 0; i < n; i++)
		json_object_set_new(metrics, m[i].name, json_real(m[i].value));
	if (hname && sum->hist.count && histograms)
		json_object_set_new(histograms, hname, result_build_histogram(&sum->hist));
}

json_t *result_build_load(const struct load_spec *spec, const struct stats_block *stats,
			  unsigned first, unsigned n, int64_t wall_ns,
			  const struct sampler *smp, int group)
{
	json_t *metrics = json_object(), *hists = json_object();
	struct inband_summary sum;
	json_t *load;

	inband_summarize(spec->type, stats, first, n, wall_ns, &sum);
	result_build_inband(spec->type, &sum, metrics, hists);
	load = json_pack("{s:s, s:s, s:o}", "name", spec->name, "type", spec->type->name,
			 "metrics", metrics);
	if (json_object_size(hists))
		json_object_set_new(load, "histograms", hists);
	else
		json_decref(hists);
	/* in-band keys are kept; oob adds starvation_max, wait_ratio, tasks...
	 * A pgroup load's tasks are its command's processes (run.c). */
	if (smp && (spec->type->flags & LOAD_TRACK_PGROUP ?
		    oob_load_metrics_copies(smp, group, load_records_needed(spec), load) :
		    oob_load_metrics(smp, group, load)) < 0)
		warning("load '%s': out of memory for its out-of-band metrics", spec->name);
	return load;
}

json_t *result_build_attach(const struct attach_spec *a, const struct sampler *smp, int group)
{
	json_t *load = json_pack("{s:s, s:s, s:{}}", "name", a->name, "type", "attach", "metrics");

	if (smp && oob_load_metrics(smp, group, load) < 0)
		warning("attach '%s': out of memory for its metrics", a->name);
	return load;
}

void result_build_finish(json_t *result, bool complete)
{
	json_object_set_new(result, "ended", rb_now());
	json_object_set_new(result, "complete", json_boolean(complete));
}
