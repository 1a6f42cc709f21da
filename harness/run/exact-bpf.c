/* The BPF exact source (harness/run/exact.h): the program counts every task
 * the controller forks from the moment it is loaded, and each attached
 * process from exact_watch; a task that exits inside the window is merged
 * into its load's record by the program, so forking loads never fill it. */
#include "config.h"
#include "harness/run/exact-backend.h"
#include "harness/bpf/bpf-sched.h"
#include "harness/trace/trace-metrics.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct exact_bpf {
	struct bpfsched *b;
	int64_t on_ns, off_ns;
	/* the programs' events and run time when the window opened, and when
	 * it was stopped: what the window cost, not the set-up before it */
	uint64_t events_from, events_until;
	double cpu_from_s, cpu_until_s;
};

static bool bpf_probe(char *why, size_t len)
{
	return bpfsched_available(why, len);
}

static void *bpf_start(struct journal *j, const cpu_set_t *cpus, char *why, size_t len)
{
	struct exact_bpf *x = calloc(1, sizeof(*x));

	(void)j;	/* nothing on the machine changes: the program dies with us */
	(void)cpus;	/* it counts its tasks wherever they run */
	if (!x) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	x->b = bpfsched_start(why, len);
	if (!x->b) {
		free(x);
		return NULL;
	}
	x->on_ns = mono_ns();
	return x;
}

static int bpf_watch(void *impl, pid_t tgid)
{
	struct exact_bpf *x = impl;

	return bpfsched_watch(x->b, tgid);
}

static void bpf_set_window(void *impl, int64_t from_ns, int64_t until_ns)
{
	struct exact_bpf *x = impl;

	bpfsched_set_window(x->b, from_ns, until_ns);
	x->events_from = bpfsched_events(x->b);
	x->cpu_from_s = bpfsched_cpu_s(x->b);
}

/* The program counts only inside the window: past it, nothing to stop. */
static int bpf_stop(void *impl, struct journal *j, int64_t end_ns, char *why, size_t len)
{
	struct exact_bpf *x = impl;

	(void)j;
	(void)why;
	(void)len;
	x->off_ns = end_ns;
	x->events_until = bpfsched_events(x->b);
	x->cpu_until_s = bpfsched_cpu_s(x->b);
	return 0;
}

/* R's histograms as figures, the exact longest wait their bound. */
static void bpf_figures(const struct sb_task *r, struct histogram *h, struct figures *f)
{
	bpfsched_hist(r->wait_hist, r->longest_ns, &h[0]);
	bpfsched_hist(r->wakeup_hist, r->longest_ns, &h[1]);
	trace_figures(f, (int64_t)r->longest_ns, &h[0], &h[1]);
}

/* L's longest wait and who was on the CPU before it ended. */
static void bpf_longest(const struct sb_task *r, struct load_record *l)
{
	struct load_exact *x = &l->exact;

	*x = (struct load_exact){ .present = true, .stretches = r->stretches };
	if (!r->stretches || !r->longest_ns)
		return;
	x->tid = (pid_t)r->tid;
	x->cpu = (int)r->longest_cpu;
	x->wait_ns = (int64_t)r->longest_ns;
	x->from_ns = (int64_t)r->longest_from;
	for (size_t k = 0; k < l->n_tasks; k++)
		if (l->tasks[k].t->tid == x->tid)
			snprintf(x->comm, sizeof(x->comm), "%s", l->tasks[k].t->comm);
	x->n_holders = 1;
	x->holders[0] = (struct tsched_holder){ .pid = (pid_t)r->instead_pid,
						.prio = (int)r->instead_prio, .policy = -1 };
	snprintf(x->holders[0].comm, sizeof(x->holders[0].comm), "%s",
		 r->instead_pid ? r->instead_comm : "<idle>");
}

/* A load's figures are its sampled tasks' and those of every task of its
 * group that exited inside the window (forked and gone between the
 * sampler's looks, or not); its leader's own threads, which only wait for
 * its workers or its command, are left out as the sampler leaves them. */
static void bpf_collect(const void *impl, struct load_record *loads, size_t n_loads)
{
	const struct exact_bpf *x = impl;
	struct sb_task *merged = malloc(sizeof(*merged)), r;
	struct histogram *h = malloc(2 * sizeof(*h));

	for (size_t i = 0; merged && h && i < n_loads; i++) {
		struct load_record *l = &loads[i];

		if (!l->sampled)
			continue;
		if (bpfsched_read_exited(x->b, l->leader, merged) < 0)
			memset(merged, 0, sizeof(*merged));
		for (size_t k = 0; k < l->n_tasks; k++)
			if (bpfsched_read(x->b, l->tasks[k].t->tid, &r) == 0) {
				sb_merge(merged, &r);
				bpf_figures(&r, h, &l->tasks[k].fig);
			}
		bpf_figures(merged, h, &l->fig);
		bpf_longest(merged, l);
	}
	free(merged);
	free(h);
}

static void bpf_stats(const void *impl, struct run_exact *out)
{
	const struct exact_bpf *x = impl;

	out->events = x->events_until - x->events_from;
	out->lost_tasks = bpfsched_lost(x->b);
	out->cpu_s = x->cpu_until_s - x->cpu_from_s;
	out->on_ns = x->on_ns;
	out->off_ns = x->off_ns;
}

static void bpf_free(void *impl)
{
	struct exact_bpf *x = impl;

	bpfsched_free(x->b);
	free(x);
}

const struct exact_backend exact_bpf = {
	.name = "bpf",
	.covers_attached = true,	/* watched wherever they run */
	.probe = bpf_probe,
	.start = bpf_start,
	.watch = bpf_watch,
	.set_window = bpf_set_window,
	.stop = bpf_stop,
	.collect = bpf_collect,
	.stats = bpf_stats,
	.free = bpf_free,
};
