/* Exact mode in a run (harness/run/exact.h). */
#include "config.h"
#include "harness/run/exact.h"
#include "harness/kernel/kfs-mount.h"
#include "harness/trace/trace-metrics.h"
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

pid_t *exact_tids(const struct sampler *smp, int group, size_t *n)
{
	size_t total = sampler_n_tasks(smp);
	pid_t *tids = calloc(total ? total : 1, sizeof(*tids));

	*n = 0;
	for (size_t i = 0; tids && i < total; i++)
		if (sampler_task(smp, i)->group == group)
			tids[(*n)++] = sampler_task(smp, i)->tid;
	return tids;
}

void exact_collect(const struct trace *t, const struct sampler *smp, size_t n_loads,
		   int64_t from_ns, json_t *run)
{
	json_t *loads = json_object_get(run, "loads");
	char name[64];

	for (size_t i = 0; i < n_loads && i < json_array_size(loads); i++) {
		size_t n;
		pid_t *tids = exact_tids(smp, (int)i, &n);

		if (tids)
			trace_load_metrics(trace_sched(t), tids, n, from_ns,
					   json_array_get(loads, i));
		free(tids);
	}
	trace_instance_name(name, sizeof(name));
	json_object_set_new(run, "trace", json_pack("{s:s, s:I, s:I, s:f}", "instance", name,
		"events", (json_int_t)trace_events(t), "lost_events", (json_int_t)trace_lost(t),
		"cpu_s", trace_cpu_s(t)));
}
