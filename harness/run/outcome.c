/* Whether a measured run is an error (outcome.h). */
#include "config.h"
#include "harness/run/outcome.h"
#include "lib/timeutil.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* A failed worker, in its own words. */
static bool outcome_worker_failed(const struct run_outcome *o, char *why, size_t len)
{
	for (size_t i = 0; i < o->p->n_loads; i++) {
		unsigned n = load_records_needed(&o->p->loads[i]);

		for (unsigned r = o->first[i]; r < o->first[i] + n; r++)
			if (o->stats->rec[r].state == RECORD_FAILED) {
				snprintf(why, len, "load '%s': %.200s", o->p->loads[i].name,
					 o->stats->rec[r].error);
				return true;
			}
	}
	return false;
}

/* A leader that exited with an error status (it could not start its
 * workers, say), even if no record says why. SIGKILL is ours (the stop),
 * SIGXCPU a load's own RLIMIT_RTTIME end. */
static bool outcome_leader_failed(const struct run_outcome *o, char *why, size_t len)
{
	for (size_t i = 0; i < o->p->n_loads; i++) {
		int st = o->sl[i].status;

		if (o->sl[i].pid <= 0 || !o->sl[i].exited)
			continue;
		if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
			snprintf(why, len, "load '%s': its leader exited with status %d (see its "
				 "messages)", o->p->loads[i].name, WEXITSTATUS(st));
			return true;
		}
		if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL && WTERMSIG(st) != SIGXCPU) {
			snprintf(why, len, "load '%s': its leader was killed by SIG%s",
				 o->p->loads[i].name, sigabbrev_np(WTERMSIG(st)));
			return true;
		}
	}
	return false;
}

/* Tasks found but never opened (out of descriptors): partial figures. */
static bool outcome_unsampled(const struct run_outcome *o, char *why, size_t len)
{
	struct sampler_quality q;

	sampler_quality(o->smp, &q);
	if (!q.tasks_unsampled)
		return false;
	snprintf(why, len, "the sampler could not watch %zu of %zu tasks (cannot open their "
		 "/proc files: out of descriptors? raise 'ulimit -n')", q.tasks_unsampled,
		 q.tasks_unsampled + q.tasks);
	return true;
}

static size_t outcome_tasks_of(const struct sampler *smp, size_t load)
{
	size_t n = 0;

	for (size_t t = 0; t < sampler_n_tasks(smp); t++)
		n += sampler_task(smp, t)->group == (int)load;
	return n;
}

/* Every worker ran and was watched, over the whole window. Loads measured
 * by their command's processes (exec) are left out: a command may end
 * before the window does. */
static bool outcome_unwatched(const struct run_outcome *o, char *why, size_t len)
{
	int64_t window = o->sampled_until - o->measure_from;

	if (window < o->p->duration_ns - o->p->duration_ns / 10) {
		snprintf(why, len, "the window was cut short: %.2f s measured of %.2f s",
			 (double)window / NSEC_PER_SEC, (double)o->p->duration_ns / NSEC_PER_SEC);
		return true;
	}
	for (size_t i = 0; i < o->p->n_loads; i++) {
		const struct load_spec *l = &o->p->loads[i];
		unsigned n = load_records_needed(l), never = 0;
		size_t watched;

		if (l->type->flags & LOAD_TRACK_PGROUP)
			continue;
		for (unsigned r = o->first[i]; r < o->first[i] + n; r++)
			never += o->stats->rec[r].state == RECORD_UNUSED;
		if (never) {
			snprintf(why, len, "load '%s': %u of its %u workers never ran in the "
				 "window (too many tasks for this machine?)", l->name, never, n);
			return true;
		}
		/* one task a worker: a worker not watched leaves its figures out */
		watched = outcome_tasks_of(o->smp, i);
		if (watched < n) {
			snprintf(why, len, "load '%s': %zu of its %u workers were watched in the "
				 "window (the sampler starved on an overloaded machine?)", l->name,
				 watched, n);
			return true;
		}
	}
	return false;
}

bool outcome_error(const struct run_outcome *o, char *why, size_t len)
{
	if (outcome_worker_failed(o, why, len))
		return true;
	if (o->interrupted)
		return false;
	if (outcome_leader_failed(o, why, len))
		return true;
	return o->smp && (outcome_unsampled(o, why, len) || outcome_unwatched(o, why, len));
}
