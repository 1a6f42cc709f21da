/* BPF mode in a run (harness/run/bpf-run.h). */
#include "config.h"
#include "harness/run/bpf-run.h"
#include "harness/run/exact.h"
#include "harness/trace/trace-metrics.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bpfsched *bpf_run_begin(bool trace, char *why, size_t len)
{
	const char *env = getenv(BPF_RUN_ENV);

	if (trace) {
		snprintf(why, len, "exact mode was asked for (trace: true, --trace)");
		return NULL;
	}
	if (env && !strcmp(env, "0")) {
		snprintf(why, len, BPF_RUN_ENV "=0");
		return NULL;
	}
	return bpfsched_start(why, len);
}

/* One task's histograms, with the exact longest wait as their bound. */
struct bpf_run_hists {
	struct histogram wait, wakeup;
};

static void bpf_run_task_hists(const struct sb_task *r, struct bpf_run_hists *h)
{
	bpfsched_hist(r->wait_hist, (uint64_t)r->longest_ns, &h->wait);
	bpfsched_hist(r->wakeup_hist, (uint64_t)r->longest_ns, &h->wakeup);
}

/* The load's longest wait: where, when (from FROM_NS) and who held the CPU
 * before the task got it (the task switched out then). */
static json_t *bpf_run_longest(pid_t tid, const struct sb_task *r, int64_t from_ns)
{
	struct tsched_holder h = { .pid = (pid_t)r->instead_pid, .prio = (int)r->instead_prio,
				   .policy = -1 };

	json_t *held;

	snprintf(h.comm, sizeof(h.comm), "%s", r->instead_pid ? r->instead_comm : "<idle>");
	held = trace_holder_json(&h);
	json_object_del(held, "time_s");	/* one moment, not a share of the wait */
	return json_pack("{s:i, s:i, s:f, s:f, s:o}", "tid", (int)tid, "cpu",
			 (int)r->longest_cpu, "wait_s", (double)r->longest_ns / NSEC_PER_SEC,
			 "at_s", (double)((int64_t)r->longest_from - from_ns) / NSEC_PER_SEC,
			 "ran_before", held ? held : json_object());
}

/* Each task object of LOAD gets its own figures. */
static void bpf_run_tasks(const struct bpfsched *b, json_t *load, struct bpf_run_hists *h)
{
	json_t *task;
	size_t i;

	json_array_foreach(json_object_get(load, "tasks"), i, task) {
		pid_t tid = (pid_t)json_integer_value(json_object_get(task, "tid"));
		json_t *m = json_object_get(task, "metrics");
		struct sb_task r;

		if (json_is_object(m) && bpfsched_read(b, tid, &r) == 0) {
			bpf_run_task_hists(&r, h);
			trace_metrics_set(m, (int64_t)r.longest_ns, &h->wait, &h->wakeup);
		}
	}
}

static void bpf_run_load(const struct bpfsched *b, const pid_t *tids, size_t n, int64_t from_ns,
			 json_t *load, struct bpf_run_hists *h)
{
	struct histogram *wait = malloc(2 * sizeof(*wait)), *wakeup = wait + 1;
	struct sb_task r, best = { 0 };
	pid_t best_tid = 0;
	uint64_t stretches = 0;
	json_t *o;

	if (!wait || !json_is_object(json_object_get(load, "metrics"))) {
		free(wait);
		return;
	}
	hist_init(wait);
	hist_init(wakeup);
	for (size_t i = 0; i < n; i++) {
		if (bpfsched_read(b, tids[i], &r) < 0)
			continue;
		stretches += r.stretches;
		bpf_run_task_hists(&r, h);
		hist_merge(wait, &h->wait);
		hist_merge(wakeup, &h->wakeup);
		if (!best_tid || r.longest_ns > best.longest_ns) {
			best = r;
			best_tid = tids[i];
		}
	}
	trace_metrics_set(json_object_get(load, "metrics"), (int64_t)best.longest_ns, wait, wakeup);
	bpf_run_tasks(b, load, h);
	o = json_pack("{s:I}", "stretches", (json_int_t)stretches);
	if (o && best.longest_ns)
		json_object_set_new(o, "longest", bpf_run_longest(best_tid, &best, from_ns));
	json_object_set_new(load, "bpf", o);
	free(wait);
}

void bpf_run_collect(const struct bpfsched *b, const struct sampler *smp, size_t n_loads,
		     int64_t from_ns, json_t *run)
{
	json_t *loads = json_object_get(run, "loads");
	struct bpf_run_hists *h = malloc(sizeof(*h));

	for (size_t i = 0; h && i < n_loads && i < json_array_size(loads); i++) {
		size_t n;
		pid_t *tids = exact_tids(smp, (int)i, &n);

		if (tids)
			bpf_run_load(b, tids, n, from_ns, json_array_get(loads, i), h);
		free(tids);
	}
	free(h);
	json_object_set_new(run, "bpf", json_pack("{s:I, s:I, s:f}", "events",
		(json_int_t)bpfsched_events(b), "lost_tasks", (json_int_t)bpfsched_lost(b),
		"cpu_s", bpfsched_cpu_s(b)));
}

void bpf_run_source(json_t *run, const struct bpfsched *b, bool trace, const char *why)
{
	json_t *o = json_pack("{s:s}", "source", b ? "bpf" : trace ? "trace" : "sampler");

	if (o && !b && why && why[0])
		json_object_set_new(o, "reason", json_string(why));
	json_object_set_new(run, "figures", o);
}
