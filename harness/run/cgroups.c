/* A setting's cgroups for its runs (cgroups.h). */
#include "config.h"
#include "harness/run/cgroups.h"
#include "lib/error.h"
#include "lib/metric.h"
#include "lib/timeutil.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Journal DIR, then make it; -1 with a message. */
static int cgroups_make(struct journal *j, struct run_cgroups *rc, const char *dir, bool parent)
{
	if (journal_record_cgroup(j, dir) < 0)
		return error("cgroup %s: cannot journal it before creating it", dir);
	if (cgcpu_make(&rc->cg, dir, parent) < 0) {
		journal_forget(j, JOURNAL_CGROUP, dir);
		return -1;
	}
	return 0;
}

/* A knob this machine lacks skips the setting, like a missing sysctl. */
static bool cgroups_supported(const struct run_cgroups *rc, const struct setting *s,
			      char *reason, size_t len)
{
	for (size_t i = 0; i < s->n_cgroups; i++) {
		const struct cgcpu_knobs *k = &s->cgroups[i].knobs;
		const char *missing = NULL;

		if (k->quota_us && !rc->cg.bandwidth)
			missing = "cpu.max: no CPU bandwidth control here (CONFIG_CFS_BANDWIDTH)";
		else if ((k->uclamp_min >= 0 || k->uclamp_max >= 0) && !rc->cg.uclamp)
			missing = "cpu.uclamp: no utilization clamping for cgroups here "
				  "(CONFIG_UCLAMP_TASK_GROUP)";
		else if (k->weight && !rc->cg.weight)
			missing = "cpu.weight: no cpu.weight or cpu.shares here";
		if (missing) {
			snprintf(reason, len, "cgroup '%s': %s", s->cgroups[i].name, missing);
			return false;
		}
	}
	return true;
}

enum settings_status cgroups_apply(struct journal *j, const struct setting *s,
				   struct run_cgroups *rc, char *reason, size_t len)
{
	memset(rc, 0, sizeof(*rc));
	if (!s->n_cgroups)
		return SETTINGS_APPLIED;
	if (s->n_cgroups > CGROUPS_MAX) {
		snprintf(reason, len, "more than %d cgroups in one setting", CGROUPS_MAX);
		return SETTINGS_FAILED;
	}
	if (!cgcpu_probe(&rc->cg, reason, len) || !cgroups_supported(rc, s, reason, len))
		return SETTINGS_SKIPPED;
	if (rc->cg.version == 2 && rc->cg.v2_enable &&
	    controller_enable(j, &rc->cpu, rc->cg.root, "cpu") < 0)
		goto fail;
	if (cgcpu_parent(&rc->cg, rc->parent, sizeof(rc->parent)) < 0 ||
	    cgroups_make(j, rc, rc->parent, true) < 0)
		goto fail;
	rc->parent_made = true;
	for (size_t i = 0; i < s->n_cgroups; i++) {
		struct run_cgroup *g = &rc->g[rc->n++];

		g->set = &s->cgroups[i];
		snprintf(g->dir, sizeof(g->dir), "%s/%s", rc->parent, g->set->name);
		if (cgroups_make(j, rc, g->dir, false) < 0)
			goto fail;
		g->made = true;
		if (cgcpu_set(&rc->cg, g->dir, &g->set->knobs) < 0)
			goto fail;
	}
	return SETTINGS_APPLIED;
fail:
	snprintf(reason, len, "its cgroups could not be set up (see messages)");
	cgroups_remove(j, rc);
	return SETTINGS_FAILED;
}

const char *cgroups_dir_of(const struct run_cgroups *rc, const char *name)
{
	for (size_t i = 0; i < rc->n; i++)
		for (size_t k = 0; k < rc->g[i].set->n_loads; k++)
			if (!strcmp(rc->g[i].set->loads[k], name))
				return rc->g[i].made ? rc->g[i].dir : NULL;
	return NULL;
}

/* cpu.stat's throttled time grows when a stretch ends (at unthrottling), by
 * the stretch's length: each increase between two reads is one stretch
 * (stretches of several CPUs ending within one interval add up). */
static void cgroups_poll_one(struct run_cgroups *rc, struct run_cgroup *g, int64_t now)
{
	struct cgcpu_stat st;
	int64_t grew;

	if (cgcpu_read_stat(&rc->cg, g->dir, &st) < 0)
		return;
	grew = (int64_t)(st.throttled_ns - g->last.throttled_ns);
	g->last = st;
	if (grew <= 0)
		return;
	if (grew > g->stretch_max_ns)
		g->stretch_max_ns = grew;
	if (g->n_stretches < CGROUPS_STRETCHES) {
		g->stretch_end[g->n_stretches] = now;
		g->stretch_ns[g->n_stretches++] = grew;
	}
}

static void *cgroups_poller(void *arg)
{
	struct run_cgroups *rc = arg;
	int64_t next = mono_ns();

	while (!rc->stop) {
		next += rc->interval_ns;
		sleep_until_ns(next);
		for (size_t i = 0; i < rc->n; i++)
			cgroups_poll_one(rc, &rc->g[i], mono_ns());
	}
	return NULL;
}

int cgroups_watch_begin(struct run_cgroups *rc, int hz)
{
	sigset_t all, old;
	int err;

	if (!rc->n)
		return 0;
	for (size_t i = 0; i < rc->n; i++) {
		cgcpu_read_stat(&rc->cg, rc->g[i].dir, &rc->g[i].before);
		rc->g[i].last = rc->g[i].before;
	}
	rc->interval_ns = NSEC_PER_SEC / (hz > 0 ? hz : 250);
	rc->stop = 0;
	/* signals stay with the main thread, whose handlers stop the run */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&rc->poller, NULL, cgroups_poller, rc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return error("cannot start the cgroup watcher: %s", strerror(err));
	rc->polling = true;
	return 0;
}

void cgroups_watch_end(struct run_cgroups *rc)
{
	if (!rc->polling)
		return;
	rc->stop = 1;
	pthread_join(rc->poller, NULL);
	rc->polling = false;
	for (size_t i = 0; i < rc->n; i++) {
		cgroups_poll_one(rc, &rc->g[i], mono_ns());
		rc->g[i].after = rc->g[i].last;
	}
}

static const struct run_cgroup *cgroups_of(const struct run_cgroups *rc, const char *name)
{
	for (size_t i = 0; i < rc->n; i++)
		for (size_t k = 0; k < rc->g[i].set->n_loads; k++)
			if (!strcmp(rc->g[i].set->loads[k], name))
				return &rc->g[i];
	return NULL;
}

/* How much of [from, to] the cgroup spent in the throttled stretches seen. */
static int64_t cgroups_overlap(const struct run_cgroup *g, int64_t from, int64_t to)
{
	int64_t sum = 0;

	for (size_t i = 0; i < g->n_stretches; i++) {
		int64_t a = g->stretch_end[i] - g->stretch_ns[i], b = g->stretch_end[i];

		if (a < from)
			a = from;
		if (b > to)
			b = to;
		if (b > a)
			sum += b - a;
	}
	return sum < to - from ? sum : to - from;
}

/* Metric ID of a load's cgroup as V in F. */
static void cgroups_set(struct figures *f, enum metric_id id, double v)
{
	figures_put(f, METRIC_FROM_CGROUP, id, v);
}

/* The longest in-band gap of the load's records, split into quota and CPU. */
static void cgroups_split_gap(const struct run_cgroup *g, const struct stats_block *stats,
			      unsigned first, unsigned n, struct figures *f)
{
	const struct worker_record *longest = NULL;
	int64_t quota;

	for (unsigned r = first; r < first + n; r++)
		if (stats->rec[r].gap_max_end_ns &&
		    (!longest || stats->rec[r].gap_max_ns > longest->gap_max_ns))
			longest = &stats->rec[r];
	if (!longest)
		return;
	quota = cgroups_overlap(g, (int64_t)(longest->gap_max_end_ns - longest->gap_max_ns),
				(int64_t)longest->gap_max_end_ns);
	cgroups_set(f, MET_THROTTLED_MAX_INBAND, (double)quota / NSEC_PER_SEC);
	cgroups_set(f, MET_STARVATION_MAX_INBAND_CPU,
		    (double)((int64_t)longest->gap_max_ns - quota) / NSEC_PER_SEC);
}

void cgroups_load_metrics(const struct run_cgroups *rc, const char *name,
			  const struct stats_block *stats, unsigned first, unsigned n,
			  int64_t wall_ns, struct figures *f)
{
	const struct run_cgroup *g = cgroups_of(rc, name);
	uint64_t periods, throttled;

	if (!g || !g->made)
		return;
	periods = g->after.nr_periods - g->before.nr_periods;
	throttled = g->after.nr_throttled - g->before.nr_throttled;
	cgroups_set(f, MET_THROTTLED_PERIODS, (double)throttled);
	if (periods)
		cgroups_set(f, MET_THROTTLED_RATIO, (double)throttled / (double)periods);
	cgroups_set(f, MET_THROTTLED_TIME,
		    (double)(g->after.throttled_ns - g->before.throttled_ns) / NSEC_PER_SEC);
	cgroups_set(f, MET_THROTTLED_MAX, (double)g->stretch_max_ns / NSEC_PER_SEC);
	if (wall_ns > 0)
		cgroups_set(f, MET_QUOTA_WAIT_SHARE,
			    (double)(g->after.throttled_ns - g->before.throttled_ns) /
			    (double)wall_ns);
	if (g->set->knobs.quota_us > 0)
		cgroups_split_gap(g, stats, first, n, f);
}

int cgroups_remove(struct journal *j, struct run_cgroups *rc)
{
	int failed = 0;

	cgroups_watch_end(rc);
	for (size_t i = rc->n; i-- > 0;) {
		struct run_cgroup *g = &rc->g[i];

		if (!g->made)
			continue;
		if (cgcpu_remove(&rc->cg, g->dir) < 0) {
			failed++;
			continue;
		}
		g->made = false;
		journal_forget(j, JOURNAL_CGROUP, g->dir);
	}
	if (rc->parent_made && !failed) {
		if (cgcpu_remove(&rc->cg, rc->parent) < 0) {
			failed++;
		} else {
			rc->parent_made = false;
			journal_forget(j, JOURNAL_CGROUP, rc->parent);
		}
	}
	if (!rc->parent_made && controller_release(j, &rc->cpu) < 0)
		failed++;
	if (!failed)
		rc->n = 0;	/* the next setting starts with none */
	return failed;
}
