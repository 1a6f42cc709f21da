/* The runs of a result's view (result-view.h): status, knobs, sampler and
 * noise, each load's metrics, histograms, tasks and time series, and the
 * verdicts. Histograms are checked beyond the schema: their buckets must
 * add up to their count. A bucket bound need not be one of lib/histogram.h's
 * (hand-written results round them): it counts in the bucket holding it. */
#include "config.h"
#include "reports/result/result-view-build.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void rvb_rule(const json_t *obj, struct rv_rule *out)
{
	int op = result_op_parse(rvb_str(obj, "op"));

	*out = (struct rv_rule){ .load = rvb_str(obj, "load"), .metric = rvb_str(obj, "metric"),
				 .op = op < 0 ? RESULT_BELOW : (enum result_op)op,
				 .threshold = rvb_num(obj, "threshold"),
				 .threshold_text = rvb_str(obj, "threshold_text") };
}

static int rvb_histogram(struct rvb *b, const char *where, const char *name, const json_t *h,
			 struct rv_histogram *out)
{
	const json_t *buckets = json_object_get(h, "buckets"), *x;
	struct rv_bucket *k = rvb_alloc(b, json_array_size(buckets), sizeof(*k));
	uint64_t total = 0;
	size_t i;

	if (!k)
		return -1;
	*out = (struct rv_histogram){ .name = name, .count = rvb_u64(json_object_get(h, "count")),
				      .min_ns = rvb_num(h, "min"), .max_ns = rvb_num(h, "max"),
				      .sum_ns = rvb_num(h, "sum"), .buckets = k };
	json_array_foreach(buckets, i, x) {
		k[i].lower_ns = rvb_u64(json_array_get(x, 0));
		k[i].count = rvb_u64(json_array_get(x, 1));
		total += k[i].count;
	}
	out->n_buckets = i;
	if (total != out->count)
		return rvb_fail(b, where, "histogram \"%s\": count %" PRIu64 " but the buckets hold "
				"%" PRIu64, name, out->count, total);
	return 0;
}

static int rvb_histograms(struct rvb *b, const char *where, const json_t *hists,
			  struct rv_load *l)
{
	struct rv_histogram *h = rvb_alloc(b, json_object_size(hists), sizeof(*h));
	const char *name;
	json_t *x;
	size_t i = 0;

	if (!h)
		return -1;
	json_object_foreach((json_t *)hists, name, x)
		if (rvb_histogram(b, where, name, x, &h[i++]) < 0)
			return -1;
	l->histograms = h;
	l->n_histograms = i;
	return 0;
}

/* Every array of "timeseries" but "interval_s" is a series. */
static int rvb_series(struct rvb *b, const json_t *ts, struct rv_load *l)
{
	struct rv_series *s = rvb_alloc(b, json_object_size(ts), sizeof(*s));
	const char *name;
	json_t *x, *v;
	size_t n = 0, i;

	if (!s)
		return -1;
	l->interval_s = rvb_num(ts, "interval_s");
	json_object_foreach((json_t *)ts, name, x) {
		double *values;

		if (!json_is_array(x))
			continue;	/* interval_s */
		values = rvb_alloc(b, json_array_size(x), sizeof(*values));
		if (!values)
			return -1;
		json_array_foreach(x, i, v)
			values[i] = json_is_number(v) ? json_number_value(v) : NAN;
		s[n++] = (struct rv_series){ name, values, i };
	}
	l->series = s;
	l->n_series = n;
	return 0;
}

static int rvb_tasks(struct rvb *b, const json_t *tasks, struct rv_load *l)
{
	struct rv_task *t = rvb_alloc(b, json_array_size(tasks), sizeof(*t));
	const json_t *x;
	size_t i;

	if (!t)
		return -1;
	json_array_foreach(tasks, i, x) {
		t[i] = (struct rv_task){ .tid = rvb_int(x, "tid"), .pid = rvb_int(x, "pid"),
					 .comm = rvb_str(x, "comm"), .exited = rvb_bool(x, "exited") };
		if (rvb_metrics(b, json_object_get(x, "metrics"), &t[i].metrics,
				&t[i].n_metrics) < 0)
			return -1;
	}
	l->tasks = t;
	l->n_tasks = i;
	return 0;
}

static long rvb_int_or_none(const json_t *o, const char *key)
{
	return json_is_integer(json_object_get(o, key)) ? rvb_int(o, key) : RV_NONE;
}

static struct rv_holder rvb_holder(const json_t *y)
{
	return (struct rv_holder){ .pid = rvb_int(y, "pid"), .comm = rvb_str(y, "comm"),
				   .policy = rvb_str(y, "policy"),
				   .priority = rvb_int_or_none(y, "priority"),
				   .nice = rvb_int_or_none(y, "nice"), .time_s = rvb_num(y, "time_s") };
}

/* The exact source's object of a load, when there is one: "exact", or in a
 * format_version 1 result "trace" or "bpf" (the same keys inside). */
static int rvb_load_exact(struct rvb *b, const json_t *load, struct rv_load_exact *t)
{
	const json_t *x = json_object_get(load, "exact"), *lg, *timed, *before, *y;
	struct rv_holder *h;
	size_t i, n;

	if (!x)
		x = json_object_get(load, "trace");
	if (!x)
		x = json_object_get(load, "bpf");
	*t = (struct rv_load_exact){ .present = json_is_object(x) };
	if (!t->present)
		return 0;
	lg = json_object_get(x, "longest");
	timed = json_object_get(lg, "ran_instead");
	before = json_object_get(lg, "ran_before");
	t->stretches = rvb_int(x, "stretches");
	t->unknown_starts = rvb_int(x, "unknown_starts");
	t->longest_present = json_is_object(lg);
	if (!t->longest_present)
		return 0;
	t->tid = rvb_int(lg, "tid");
	t->cpu = rvb_int(lg, "cpu");
	t->comm = rvb_str(lg, "comm");
	t->wait_s = rvb_num(lg, "wait_s");
	t->at_s = rvb_num(lg, "at_s");
	t->others_s = rvb_num(lg, "others_s");
	t->partial = json_is_true(json_object_get(lg, "partial"));
	t->holders_timed = json_is_array(timed);
	n = t->holders_timed ? json_array_size(timed) : json_is_object(before) ? 1 : 0;
	h = rvb_alloc(b, n, sizeof(*h));
	if (!h)
		return -1;
	if (t->holders_timed)
		json_array_foreach(timed, i, y)
			h[i] = rvb_holder(y);
	else if (n)
		h[0] = rvb_holder(before);
	t->holders = h;
	t->n_holders = n;
	return 0;
}

/* The run's exact source: "exact", or in a format_version 1 result "trace"
 * (exact mode) or "bpf". */
static void rvb_exact(const json_t *run, struct rv_exact *out)
{
	const json_t *x = json_object_get(run, "exact");
	const char *source = rvb_str(x, "source");

	if (!x && (x = json_object_get(run, "trace")))
		source = "trace";
	else if (!x && (x = json_object_get(run, "bpf")))
		source = "bpf";
	*out = (struct rv_exact){ .present = json_is_object(x), .source = source,
				  .events = rvb_int(x, "events"),
				  .lost_events = rvb_int(x, "lost_events"),
				  .lost_tasks = rvb_int(x, "lost_tasks"), .cpu_s = rvb_num(x, "cpu_s") };
}

static int rvb_loads(struct rvb *b, size_t run, const json_t *loads, struct rv_run *r)
{
	struct rv_load *l = rvb_alloc(b, json_array_size(loads), sizeof(*l));
	char where[64];
	const json_t *x;
	size_t i;

	if (!l)
		return -1;
	json_array_foreach(loads, i, x) {
		snprintf(where, sizeof(where), "runs[%zu].loads[%zu]", run, i);
		l[i] = (struct rv_load){ .name = rvb_str(x, "name"), .type = rvb_str(x, "type"),
					 .tasks_seen = rvb_int(x, "tasks_seen") };
		if (rvb_metrics(b, json_object_get(x, "metrics"), &l[i].metrics,
				&l[i].n_metrics) < 0 ||
		    rvb_histograms(b, where, json_object_get(x, "histograms"), &l[i]) < 0 ||
		    rvb_tasks(b, json_object_get(x, "tasks"), &l[i]) < 0 ||
		    rvb_series(b, json_object_get(x, "timeseries"), &l[i]) < 0 ||
		    rvb_load_exact(b, x, &l[i].exact) < 0)
			return -1;
	}
	r->loads = l;
	r->n_loads = i;
	return 0;
}

static int rvb_verdicts(struct rvb *b, const json_t *verdicts, struct rv_run *r)
{
	struct rv_verdict *v = rvb_alloc(b, json_array_size(verdicts), sizeof(*v));
	const json_t *x;
	size_t i;

	if (!v)
		return -1;
	json_array_foreach(verdicts, i, x) {
		int kind = verdict_parse(rvb_str(x, "verdict"));

		rvb_rule(x, &v[i].rule);
		v[i].kind = kind < 0 ? VERDICT_UNDECIDED : (enum verdict_kind)kind;
		v[i].value = rvb_num(x, "value");
		v[i].reason = rvb_str(x, "reason");
		v[i].setting = rvb_str(x, "setting");
		v[i].repetition = rvb_int(x, "repetition");
	}
	r->verdicts = v;
	r->n_verdicts = i;
	return 0;
}

static void rvb_sampler(const json_t *s, struct rv_sampler *out)
{
	*out = (struct rv_sampler){
		.present = json_is_object(s),
		.target_hz = rvb_num(s, "target_hz"), .achieved_hz = rvb_num(s, "achieved_hz"),
		.cpu_s = rvb_num(s, "cpu_s"),
		.cost_us_per_task_tick = rvb_num(s, "cost_us_per_task_tick"),
		.ticks = rvb_int(s, "ticks"), .late_ticks = rvb_int(s, "late_ticks"),
		.missed_ticks = rvb_int(s, "missed_ticks"), .tasks = rvb_int(s, "tasks"),
		.priority = rvb_int(s, "priority"),
		.cpu_clock_jumps = json_is_integer(json_object_get(s, "cpu_clock_jumps")) ?
				   rvb_int(s, "cpu_clock_jumps") : 0,
		.cpu_clock_jump_s = rvb_num(s, "cpu_clock_jump_s"),
	};
}

static int rvb_run(struct rvb *b, size_t i, const json_t *x, struct rv_run *r)
{
	int status = result_status_parse(rvb_str(x, "status"));

	*r = (struct rv_run){
		.setting = rvb_str(x, "setting"), .repetition = rvb_int(x, "repetition"),
		.status = status < 0 ? RESULT_ERROR : (enum result_status)status,
		.reason = rvb_str(x, "reason"), .started = rvb_str(x, "started"),
		.duration_s = rvb_num(x, "duration_s"),
		.other_cpu_share = rvb_num(json_object_get(x, "noise"), "other_cpu_share"),
		.steal_share = rvb_num(json_object_get(x, "noise"), "steal_share"),
	};
	rvb_exact(x, &r->exact);
	rvb_sampler(json_object_get(x, "sampler"), &r->sampler);
	return rvb_pairs(b, json_object_get(x, "knobs_applied"), &r->knobs_applied,
			 &r->n_knobs_applied) ||
	       rvb_loads(b, i, json_object_get(x, "loads"), r) ||
	       rvb_verdicts(b, json_object_get(x, "verdicts"), r) ? -1 : 0;
}

int rvb_runs(struct rvb *b, const json_t *runs)
{
	const json_t *x;
	size_t i;

	b->runs = rvb_alloc(b, json_array_size(runs), sizeof(*b->runs));
	if (!b->runs)
		return -1;
	json_array_foreach(runs, i, x)
		if (rvb_run(b, i, x, &b->runs[i]) < 0)
			return -1;
	b->v->runs = b->runs;
	b->v->n_runs = i;
	return 0;
}
