/* Exact mode in a run (harness/run/exact.h). */
#include "config.h"
#include "harness/run/exact.h"
#include "harness/kernel/kfs-mount.h"
#include "harness/trace/trace-metrics.h"
#include "harness/trace/trace-sched.h"
#include "lib/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool exact_available(char *why, size_t len)
{
	/* where tracefs is missing, exact_begin mounts it (root), as trace-cmd does */
	if (trace_built_in() && geteuid() == 0 && !kfs_mounted("tracefs"))
		return kfs_can_mount("tracefs", why, len);
	return trace_available(why, len);
}

int exact_check(void)
{
	char why[256];

	if (exact_available(why, sizeof(why)))
		return 0;
	return error("exact mode (trace: true, --trace) cannot run here: %s", why);
}

struct trace *exact_begin(struct journal *j, const cpu_set_t *cpus, char *why, size_t len)
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

int exact_end(struct journal *j, struct trace *t, int64_t end_ns, char *why, size_t len)
{
	char name[64];
	int ret = trace_stop(t, end_ns, why, len), err;

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

void exact_collect(const struct trace *t, struct load_record *loads, size_t n_loads)
{
	const struct tsched *ts = trace_sched(t);

	for (size_t i = 0; i < n_loads; i++) {
		struct load_record *l = &loads[i];
		pid_t *tids = calloc(l->n_tasks ? l->n_tasks : 1, sizeof(*tids));

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
		trace_load_figures(ts, tids, l->n_tasks, &l->fig, &l->trace);
		l->exact = LOAD_EXACT_TRACE;
		free(tids);
	}
}
