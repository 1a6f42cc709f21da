/* Building result.json's tree (result-build.h). Shapes and key names follow
 * doc/result-format.md and reports/result/result-schema.json exactly; metric
 * values are in canonical units (seconds, ratios, per second). */
#include "config.h"
#include "harness/run/result-build.h"
#include "harness/kernel/confounders.h"
#include "harness/run/settings.h"
#include "harness/placement/topology.h"
#include "harness/trace/trace-metrics.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

static json_t *rb_string_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/* Keys (stable; add, never rename): clocksource, clocksources_available [names],
 * nohz, nohz_full (CPU list or null), cmdline, cpu_model, cpus, governor (null
 * without cpufreq), mitigations {name: text}, steal_share (since boot; null
 * unknown), virtualised, emulated, hypervisor (CPUID signature or null),
 * dmi_vendor (or null). */
json_t *result_build_confounders(const struct confounders *c)
{
	json_t *mit = json_object(), *avail = json_array();
	char copy[sizeof(c->clocksources)], *tok, *save;

	for (size_t i = 0; i < c->n_mitigations; i++)
		json_object_set_new(mit, c->mitigations[i].name,
				    json_string(c->mitigations[i].text));
	snprintf(copy, sizeof(copy), "%s", c->clocksources);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		json_array_append_new(avail, json_string(tok));
	return json_pack("{s:o, s:o, s:s, s:o, s:s, s:o, s:i, s:o, s:o, s:o, s:b, s:b, s:o, s:o}",
			 "clocksource", rb_string_or_null(c->clocksource),
			 "clocksources_available", avail, "nohz", c->nohz,
			 "nohz_full", rb_string_or_null(c->nohz_full), "cmdline", c->cmdline,
			 "cpu_model", rb_string_or_null(c->cpu_model), "cpus", c->cpus,
			 "governor", rb_string_or_null(c->governor), "mitigations", mit,
			 "steal_share", c->steal_share < 0 ? json_null() : json_real(c->steal_share),
			 "virtualised", c->virtualised, "emulated", c->emulated,
			 "hypervisor", rb_string_or_null(c->hypervisor),
			 "dmi_vendor", rb_string_or_null(c->dmi_vendor));
}

/* What else shapes the numbers, for compare (harness/kernel/confounders.h). */
static json_t *rb_confounders(const struct kernel_info *k)
{
	struct confounders c;

	confounders_probe(&c, k);
	return result_build_confounders(&c);
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

static void rb_knob_before(const char *name, const char *value, void *knobs)
{
	json_object_set_new(knobs, name, json_string(value));
}

void result_build_before(json_t *result, const struct profile *p, int sample_hz)
{
	json_t *knobs = json_object();

	knobs_snapshot(rb_knob_before, knobs);
	json_object_set_new(result, "knobs_before", knobs);
	json_object_set_new(result, "profile", result_build_profile(p, sample_hz));
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

/* The figure of metric ID: the first source in the registry's order that
 * gave one (metric_source_order); where exact mode gave figures, the
 * sampler's that the registry keeps under a name of their own are not. */
static double rb_pick(const struct figures *f, enum metric_id id)
{
	bool exact = figures_from(f, METRIC_FROM_EXACT);

	for (size_t i = 0; i < METRIC_SOURCES; i++) {
		enum metric_source s = metric_source_order[i];
		double v;

		if (s == METRIC_FROM_SAMPLER && exact && metric_sampler_kept_as(id) != METRIC_N)
			continue;
		v = figures_get(f, s, id);
		if (!isnan(v))
			return v;
	}
	return NAN;
}

/* Metric ID into M once, as its picked figure. */
static void rb_metric(json_t *m, bool *done, const struct figures *f, enum metric_id id)
{
	double v;

	if (done[id])
		return;
	done[id] = true;
	v = rb_pick(f, id);
	if (!isnan(v))
		json_object_set_new(m, metric_name(id), json_real(v));
}

/* Every metric of SOURCE in F in the order it gave them. */
static void rb_metrics_of(json_t *m, bool *done, const struct figures *f,
			  enum metric_source source)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->f[i].source == source)
			rb_metric(m, done, f, f->f[i].id);
}

json_t *result_build_metrics(const struct figures *f)
{
	bool done[METRIC_N] = { false };
	json_t *m = json_object();

	rb_metrics_of(m, done, f, METRIC_FROM_INBAND);
	rb_metrics_of(m, done, f, METRIC_FROM_SAMPLER);
	rb_metrics_of(m, done, f, METRIC_FROM_CGROUP);
	for (int id = 0; figures_from(f, METRIC_FROM_EXACT) && id < METRIC_N; id++) {
		enum metric_id kept = metric_sampler_kept_as((enum metric_id)id);
		double v = figures_get(f, METRIC_FROM_SAMPLER, (enum metric_id)id);

		if (kept != METRIC_N && !isnan(v) && !done[kept]) {
			done[kept] = true;
			json_object_set_new(m, metric_name(kept), json_real(v));
		}
	}
	rb_metrics_of(m, done, f, METRIC_FROM_EXACT);
	return m;
}

static double rb_seconds(int64_t ns)
{
	return (double)ns / NSEC_PER_SEC;
}

static json_t *rb_task(const struct task_record *k)
{
	const struct sampler_task_result *t = k->t;

	return json_pack("{s:i, s:i, s:s, s:b, s:o}", "tid", (int)t->tid, "pid", (int)t->pid,
			 "comm", t->comm, "exited", t->exited,
			 "metrics", result_build_metrics(&k->fig));
}

static json_t *rb_series(const struct sampler *s, int group)
{
	struct sampler_series ser;
	json_t *share, *waiting;

	if (sampler_group_series(s, group, &ser) < 0)
		return NULL;
	share = json_array();
	waiting = json_array();
	for (size_t i = 0; i < ser.n; i++) {
		json_array_append_new(share, json_real(ser.cpu_share[i]));
		json_array_append_new(waiting, json_real(ser.runnable_waiting[i]));
	}
	return json_pack("{s:f, s:o, s:o}", "interval_s", rb_seconds(ser.interval_ns),
			 "cpu_share", share, "runnable_waiting", waiting);
}

/* One holder of the CPU: pid, comm, policy, priority (RT) or nice, and
 * the time it held it (TIMED: a share of a stretch, not one moment). */
static json_t *rb_holder(const struct tsched_holder *h, bool timed)
{
	const char *policy = trace_policy_name(h->policy, h->prio);
	json_t *o = json_pack("{s:i, s:s, s:s}", "pid", (int)h->pid, "comm", h->comm,
			      "policy", policy);

	if (!o)
		return NULL;
	if (timed)
		json_object_set_new(o, "time_s", json_real(rb_seconds(h->ns)));
	if (h->prio >= 0 && h->prio < 100)
		json_object_set_new(o, "priority", json_integer(99 - h->prio));
	else if (h->prio >= 100)
		json_object_set_new(o, "nice", json_integer(h->prio - 120));
	return o;
}

/* The exact source's part of a load: stretches, and its longest wait with
 * who held the CPU: every holder meanwhile, timed (tracefs: "ran_instead"),
 * or the one switched out when it ended (BPF: "ran_before"). */
static json_t *rb_exact_load(const struct load_exact *x, int64_t from_ns)
{
	json_t *o = json_pack("{s:I, s:I}", "stretches", (json_int_t)x->stretches,
			      "unknown_starts", (json_int_t)x->unknown_starts), *lg, *held;

	if (!o || !x->tid || x->wait_ns <= 0)
		return o;
	lg = json_pack("{s:i, s:i, s:f, s:f}", "tid", (int)x->tid, "cpu", x->cpu,
		       "wait_s", rb_seconds(x->wait_ns), "at_s", rb_seconds(x->from_ns - from_ns));
	if (!lg)
		return o;
	if (x->comm[0])
		json_object_set_new(lg, "comm", json_string(x->comm));
	if (x->holders_timed) {
		held = json_array();
		for (size_t i = 0; held && i < x->n_holders; i++)
			json_array_append_new(held, rb_holder(&x->holders[i], true));
		json_object_set_new(lg, "ran_instead", held ? held : json_array());
		json_object_set_new(lg, "others_s", json_real(rb_seconds(x->others_ns)));
		json_object_set_new(lg, "partial", json_boolean(x->partial));
	} else if (x->n_holders) {
		json_object_set_new(lg, "ran_before", rb_holder(&x->holders[0], false));
	}
	json_object_set_new(o, "longest", lg);
	return o;
}

static json_t *rb_load(const struct load_record *l, const struct run_record *r)
{
	json_t *load = json_pack("{s:s, s:s, s:o}", "name", l->name, "type", l->type,
				 "metrics", result_build_metrics(&l->fig)), *tasks, *series;

	if (l->hist_name && l->hist.count)
		json_object_set_new(load, "histograms", json_pack("{s:o}", l->hist_name,
								 result_build_histogram(&l->hist)));
	if (l->sampled) {
		tasks = json_array();
		for (size_t i = 0; i < l->n_tasks; i++)
			json_array_append_new(tasks, rb_task(&l->tasks[i]));
		json_object_set_new(load, "tasks_seen", json_integer((json_int_t)l->n_tasks));
		json_object_set_new(load, "tasks", tasks);
		series = rb_series(r->smp, l->group);
		if (series)
			json_object_set_new(load, "timeseries", series);
	}
	if (l->exact.present)
		json_object_set_new(load, "exact", rb_exact_load(&l->exact, r->window.from_ns));
	return load;
}

static json_t *rb_sampler(const struct sampler *s)
{
	struct sampler_quality q;
	json_t *o;

	sampler_quality(s, &q);
	o = json_pack("{s:i, s:f, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:I, s:f, s:i}",
		      "target_hz", q.target_hz, "achieved_hz", q.achieved_hz,
		      "ticks", (json_int_t)q.ticks, "late_ticks", (json_int_t)q.late_ticks,
		      "missed_ticks", (json_int_t)q.missed_ticks, "tasks", (json_int_t)q.tasks,
		      "tasks_unsampled", (json_int_t)q.tasks_unsampled, "cpu_s", q.cpu_s,
		      "cost_us_per_task_tick", q.cost_us_per_task_tick,
		      "reads_per_task_tick", q.reads_per_task_tick,
		      "cpu_clock_jumps", (json_int_t)q.cpu_clock_jumps,
		      "cpu_clock_jump_s", q.cpu_clock_jump_s, "priority", q.priority);
	if (o && q.covered_tasks) {	/* the exact source measured them: read less often */
		json_object_set_new(o, "covered_tasks", json_integer((json_int_t)q.covered_tasks));
		json_object_set_new(o, "covered_hz", json_real(q.covered_hz));
	}
	return o;
}

static json_t *rb_span(int64_t from_ns, int64_t a_ns, int64_t b_ns)
{
	return json_pack("[f, f]", rb_seconds(a_ns - from_ns), rb_seconds(b_ns - from_ns));
}

static json_t *rb_window(const struct run_window *w)
{
	json_t *o = json_pack("{s:s, s:I, s:I}", "clock", "CLOCK_MONOTONIC", "from_ns",
			      (json_int_t)w->from_ns, "until_ns", (json_int_t)w->until_ns);

	if (o && w->sampled)
		json_object_set_new(o, "sampler", rb_span(w->from_ns, w->sampler_first_ns,
							  w->sampler_last_ns));
	if (o && w->exact)
		json_object_set_new(o, "exact", rb_span(w->from_ns, w->exact_on_ns,
							w->exact_off_ns));
	return o;
}

/* Where the figures came from: the exact source, or the sampler and why. */
static json_t *rb_source(const struct run_record *r)
{
	json_t *o = json_pack("{s:s}", "source", r->exact.present ? r->exact.source : "sampler");

	if (o && !r->exact.present && r->exact_why && r->exact_why[0])
		json_object_set_new(o, "reason", json_string(r->exact_why));
	return o;
}

/* The exact source: which, what it read and lost, what it cost. */
static json_t *rb_exact(const struct run_exact *x)
{
	json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:f}", "source", x->source,
			      "events", (json_int_t)x->events,
			      "lost_events", (json_int_t)x->lost_events,
			      "lost_tasks", (json_int_t)x->lost_tasks, "cpu_s", x->cpu_s);

	if (o && x->instance[0])
		json_object_set_new(o, "instance", json_string(x->instance));
	return o;
}

/* A measured run's records into RUN: each load (name, type, metrics,
 * histograms, tasks_seen, tasks, timeseries, exact), then the run's
 * sampler, window, duration_s, noise, exact and figures objects. */
static void rb_measured(json_t *run, const struct run_record *r)
{
	json_t *loads = json_object_get(run, "loads");

	for (size_t i = 0; i < r->n_loads; i++)
		json_array_append_new(loads, rb_load(&r->loads[i], r));
	json_object_set_new(run, "sampler", rb_sampler(r->smp));
	json_object_set_new(run, "window", rb_window(&r->window));
	json_object_set_new(run, "duration_s", json_real(r->duration_s));
	if (r->noise)
		json_object_set_new(run, "noise", json_pack("{s:f, s:f}", "other_cpu_share",
			r->other_cpu_share, "steal_share", r->steal_share));
	if (r->exact.present)
		json_object_set_new(run, "exact", rb_exact(&r->exact));
	json_object_set_new(run, "figures", rb_source(r));
}

/* A run stopped before its window closed: its sampler's target only. */
static void rb_unsampled(json_t *run, int hz)
{
	json_object_set_new(run, "sampler", json_pack("{s:i, s:i}", "target_hz", hz,
						      "achieved_hz", 0));
}

json_t *result_build_run(const struct run_report *r)
{
	char when[32];
	json_t *run = json_pack("{s:s, s:i, s:s, s:o, s:o, s:s, s:[], s:[]}", "setting",
				r->setting->name, "repetition", r->repetition, "status",
				result_status_name(r->status), "reason",
				r->reason ? json_string(r->reason) : json_null(), "knobs_applied",
				rb_knobs(r->setting), "started",
				result_time_text(r->started, when, sizeof(when)), "loads",
				"verdicts");

	if (!run)
		return NULL;
	if (!r->applied)
		json_object_del(run, "knobs_applied");
	if (r->record)
		rb_measured(run, r->record);
	else if (r->unsampled_hz)
		rb_unsampled(run, r->unsampled_hz);
	return run;
}

struct result_doc {
	json_t *tree;
};

struct result_doc *result_doc_new(int argc, char **argv, const struct kernel_info *kernel,
				  const char *cpuset_backend, const struct profile *p,
				  int sample_hz)
{
	struct result_doc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->tree = result_build_new(argc, argv, kernel, cpuset_backend);
	if (!d->tree) {
		free(d);
		return NULL;
	}
	result_build_before(d->tree, p, sample_hz);
	return d;
}

void result_doc_add_run(struct result_doc *d, const struct run_report *r)
{
	json_t *run = result_build_run(r);

	if (run)
		json_array_append_new(json_object_get(d->tree, "runs"), run);
}

json_t *result_doc_tree(const struct result_doc *d)
{
	return d->tree;
}

void result_doc_free(struct result_doc *d)
{
	if (!d)
		return;
	json_decref(d->tree);
	free(d);
}

void result_build_finish(json_t *result, bool complete)
{
	json_object_set_new(result, "ended", rb_now());
	json_object_set_new(result, "complete", json_boolean(complete));
}
