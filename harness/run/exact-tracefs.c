/* The tracefs exact source (harness/run/exact.h; exact mode): the instance
 * journaled before it exists (and a tracefs mount the run makes), tracing
 * from before the first load to after the window, the instance removed and
 * dropped from the journal once tracing stops. */
#include "config.h"
#include "harness/run/exact-backend.h"
#include "harness/kernel/kfs-mount.h"
#include "harness/trace/trace-metrics.h"
#include "harness/trace/trace.h"
#include "lib/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool tracefs_probe(char *why, size_t len)
{
	/* where tracefs is missing, start mounts it (root), as trace-cmd does */
	if (geteuid() == 0 && !kfs_mounted("tracefs"))
		return kfs_can_mount("tracefs", why, len);
	return trace_available(why, len);
}

static void *tracefs_start(struct journal *j, const cpu_set_t *cpus, char *why, size_t len)
{
	char name[64];
	struct trace *t;

	if (kfs_mount(j, "tracefs", why, len) < 0)
		return NULL;
	trace_instance_name(name, sizeof(name));
	if (journal_record_tracefs(j, name) < 0) {
		snprintf(why, len, "cannot journal tracefs instance %s", name);
		return NULL;
	}
	why[0] = '\0';
	t = trace_start(cpus, why, len);
	if (!t) {
		journal_forget(j, JOURNAL_TRACEFS, name);
		kfs_unmount(j, "tracefs");
	}
	return t;
}

static void tracefs_set_window(void *impl, int64_t from_ns, int64_t until_ns)
{
	trace_set_window(impl, from_ns, until_ns);
}

static int tracefs_stop(void *impl, struct journal *j, int64_t end_ns, char *why, size_t len)
{
	char name[64];
	int ret = trace_stop(impl, end_ns, why, len), err;

	/* trace_stop removed the instance unless someone holds one of its
	 * files open (EBUSY): then it stays journaled for 'starve restore' */
	trace_instance_name(name, sizeof(name));
	err = journal_undo_one(j, JOURNAL_TRACEFS, name);
	if (err)
		warning("tracefs instance %s cannot be removed: %s (a reader holds one of its "
			"files open?); it stays in the journal %s for 'starve restore'", name,
			strerror(err), j->file);
	else
		kfs_unmount(j, "tracefs");	/* a failure is printed; the journal keeps it */
	return ret;
}

/* A load's longest stretch as the trace kept it: every task that held the
 * CPU meanwhile, each with its time. */
static void tracefs_longest(const struct trace_load *tl, struct load_exact *x)
{
	const struct tsched_task *k = tl->longest;
	const struct tsched_longest *lg;

	x->present = true;
	x->stretches = tl->stretches;
	x->unknown_starts = tl->unknown_starts;
	x->holders_timed = true;
	if (!k || k->longest.ns <= 0)
		return;
	lg = &k->longest;
	x->tid = k->pid;
	snprintf(x->comm, sizeof(x->comm), "%s", k->comm);
	x->cpu = lg->cpu;
	x->wait_ns = lg->ns;
	x->from_ns = lg->from_ns;
	x->n_holders = lg->n_holders;
	memcpy(x->holders, lg->holders, lg->n_holders * sizeof(x->holders[0]));
	x->others_ns = lg->others_ns;
	x->partial = lg->partial;
}

static void tracefs_collect(const void *impl, struct load_record *loads, size_t n_loads)
{
	const struct tsched *ts = trace_sched(impl);

	for (size_t i = 0; i < n_loads; i++) {
		struct load_record *l = &loads[i];
		pid_t *tids = calloc(l->n_tasks ? l->n_tasks : 1, sizeof(*tids));
		struct trace_load tl;

		if (!l->sampled || !tids) {
			free(tids);
			continue;
		}
		for (size_t k = 0; k < l->n_tasks; k++) {
			const struct tsched_task *task = tsched_find(ts, l->tasks[k].t->tid);

			tids[k] = l->tasks[k].t->tid;
			if (task && task->wait)
				trace_figures(&l->tasks[k].fig, task->longest.ns, task->wait,
					      task->wakeup);
		}
		trace_load_figures(ts, tids, l->n_tasks, &l->fig, &tl);
		tracefs_longest(&tl, &l->exact);
		free(tids);
	}
}

static void tracefs_stats(const void *impl, struct run_exact *out)
{
	trace_instance_name(out->instance, sizeof(out->instance));
	out->events = trace_events(impl);
	out->lost_events = trace_lost(impl);
	out->cpu_s = trace_cpu_s(impl);
	trace_covered(impl, &out->on_ns, &out->off_ns);
}

static void tracefs_free(void *impl)
{
	trace_free(impl);
}

const struct exact_backend exact_tracefs = {
	.name = "trace",
	.covers_attached = false,	/* only the loads' CPUs are traced */
	.probe = tracefs_probe,
	.start = tracefs_start,
	.watch = NULL,		/* it sees every task on the loads' CPUs, no other */
	.set_window = tracefs_set_window,
	.stop = tracefs_stop,
	.collect = tracefs_collect,
	.stats = tracefs_stats,
	.free = tracefs_free,
};
