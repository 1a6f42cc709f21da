/* BPF mode in a run (harness/run/bpf-run.h). */
#include "config.h"
#include "harness/run/bpf-run.h"
#include "harness/trace/trace-metrics.h"

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

/* Each task of L gets its own figures. */
static void bpf_run_tasks(const struct bpfsched *b, struct load_record *l,
			  struct bpf_run_hists *h)
{
	struct sb_task r;

	for (size_t i = 0; i < l->n_tasks; i++)
		if (bpfsched_read(b, l->tasks[i].t->tid, &r) == 0) {
			bpf_run_task_hists(&r, h);
			trace_figures(&l->tasks[i].fig, (int64_t)r.longest_ns, &h->wait, &h->wakeup);
		}
}

/* L's figures and longest wait, over its tasks' merged histograms. */
static void bpf_run_load(const struct bpfsched *b, struct load_record *l,
			 struct bpf_run_hists *h)
{
	struct histogram *wait = malloc(2 * sizeof(*wait)), *wakeup = wait + 1;
	struct sb_task r;

	if (!wait || !l->sampled) {
		free(wait);
		return;
	}
	hist_init(wait);
	hist_init(wakeup);
	l->bpf = (struct load_bpf){ 0 };
	for (size_t i = 0; i < l->n_tasks; i++) {
		if (bpfsched_read(b, l->tasks[i].t->tid, &r) < 0)
			continue;
		l->bpf.stretches += r.stretches;
		bpf_run_task_hists(&r, h);
		hist_merge(wait, &h->wait);
		hist_merge(wakeup, &h->wakeup);
		if (!l->bpf.tid || r.longest_ns > l->bpf.longest.longest_ns) {
			l->bpf.longest = r;
			l->bpf.tid = l->tasks[i].t->tid;
		}
	}
	trace_figures(&l->fig, (int64_t)l->bpf.longest.longest_ns, wait, wakeup);
	bpf_run_tasks(b, l, h);
	l->exact = LOAD_EXACT_BPF;
	free(wait);
}

void bpf_run_collect(const struct bpfsched *b, struct load_record *loads, size_t n_loads)
{
	struct bpf_run_hists *h = malloc(sizeof(*h));

	for (size_t i = 0; h && i < n_loads; i++)
		bpf_run_load(b, &loads[i], h);
	free(h);
}
