/* The run engine (run.h): one profile, every repetition and setting, from
 * knobs to each run's report, written once. The order of each run matters:
 * knobs are journaled before they are written, loads are registered with
 * the watchdog as soon as they exist, and knobs are restored only after the
 * loads are gone (an RT hog must not run unthrottled for even a moment
 * longer than measured). */
#include "config.h"
#include "harness/run/engine.h"
#include "harness/run/cgroups.h"
#include "harness/run/controllers.h"
#include "harness/run/deadline.h"
#include "harness/run/exact.h"
#include "harness/run/outcome.h"
#include "harness/run/output.h"
#include "harness/run/plan.h"
#include "harness/run/run-nice.h"
#include "harness/run/window.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/journal-registry.h"
#include "harness/kernel/kernel.h"
#include "harness/kernel/knobs.h"
#include "harness/kernel/machine-lock.h"
#include "harness/sampler/noise.h"
#include "harness/run/progress.h"
#include "harness/run/record-fill.h"
#include "harness/run/result-build.h"
#include "harness/sampler/sampler.h"
#include "harness/run/settings.h"
#include "harness/run/signals.h"
#include "harness/run/spawn.h"
#include "harness/run/status-note.h"
#include "harness/run/strays.h"
#include "harness/run/watchdog.h"
#include "lib/error.h"
#include "lib/timeutil.h"
#include "reports/result/result.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_STOP_GRACE_NS (200 * NSEC_PER_MSEC)
#define RUN_WAIT_SLICE_NS (100 * NSEC_PER_MSEC)

struct run_ctx {
	const struct profile *p;
	const struct run_options *o;
	struct result_doc *result;
	struct journal journal;
	bool journal_open;
	int machine_lock;	/* held while the journal is open, else -1 */
	struct watchdog wd;
	struct progress prog;
	int hz;
	char skip_reason[200];	/* every run is skipped when set (missing privilege) */
	struct run_cgroups cgroups;	/* the current setting's */
	struct run_controller cpuset;	/* cgroup-v2 cpusets: "cpuset" we turned on */
	struct run_deadline deadline;	/* the watchdog's, over the current run */
	bool partial_failed;		/* a partial result could not be written */
	struct status_note note;	/* the current run's status and reason */
	bool applied;			/* ... whether its knobs were written */
	struct exact *exact;		/* started for the next run (run_measure takes it) */
	char exact_why[256];		/* ... why none */
	const struct run_plan *plan;	/* the caller's, else own_plan */
	struct run_plan own_plan;
};

/* Slot I of a load's worker records, for sampler_watch_slots. */
struct run_slots {
	const struct stats_block *stats;
	unsigned first;
};

/* How long before the window opens the sampler takes its baseline. */
#define RUN_WINDOW_LEAD_NS (20 * NSEC_PER_MSEC)
/* How often the controller looks whether every worker is at the gate. */
#define RUN_GATE_POLL_NS (2 * NSEC_PER_MSEC)

/* One run's moving parts. */
struct measure {
	struct spawned_load *sl;
	size_t n_spawned;
	unsigned *first;		/* each load's first record */
	struct run_slots *slots;	/* each load's records, for the sampler */
	struct stats_block *stats;
	struct sampler *smp;
	struct exact *exact;		/* the exact source, NULL without */
	char exact_why[256];		/* ... why none */
	cpu_set_t cpus;			/* the loads' CPUs, for noise and tracing */
	int64_t t0, measure_from, end, sampled_until;	/* t0: every load runs */
	bool strays_left;		/* processes a load left behind would not die */
	struct noise_sample noise_before, noise_after;
	bool noise_ok;
	struct status_note *note;	/* the run's (run_ctx's) */
	struct run_record record;	/* its figures, once collected */
	bool collected;
	bool unsampled;			/* measured, but stopped before the window closed */
};

static bool run_is_rt(const struct load_spec *l)
{
	return load_policy_is_realtime(l->policy);	/* fifo, rr and deadline */
}

/* An RT load we may not start is a missing privilege, which skips the runs
 * (exit 4) rather than failing them. */
static void run_check_privileges(struct run_ctx *c, const struct kernel_info *k)
{
	for (size_t i = 0; i < c->p->n_loads; i++) {
		const struct load_spec *l = &c->p->loads[i];

		if (!run_is_rt(l) || k->is_root || k->cap_sys_nice ||
		    (l->policy != POLICY_DEADLINE &&	/* deadline: root or CAP_SYS_NICE only */
		     (k->rtprio_limit < 0 || k->rtprio_limit >= l->priority)))
			continue;
		if (l->policy == POLICY_DEADLINE)
			snprintf(c->skip_reason, sizeof(c->skip_reason), "load '%s' needs "
				 "SCHED_DEADLINE: run as root or with CAP_SYS_NICE", l->name);
		else
			snprintf(c->skip_reason, sizeof(c->skip_reason),
			 "load '%s' needs SCHED_%s priority %d: run as root, with CAP_SYS_NICE "
			 "or an RLIMIT_RTPRIO of at least %d (it is %ld)", l->name,
			 l->policy == POLICY_FIFO ? "FIFO" : "RR", l->priority, l->priority,
			 k->rtprio_limit);
		return;
	}
}

/* ---- journal: claimed only when a setting writes knobs ---- */

/* A setting is only ever applied when all its knobs are writable (else it
 * is skipped before the journal is touched), so without one writable knob
 * (not root, say) no journal is needed and its directory is not created. */
static bool run_writes_knobs(const struct run_ctx *c)
{
	struct knob_state st;

	for (size_t i = 0; i < c->p->n_settings; i++) {
		const struct setting *s = &c->p->settings[i];

		if (c->o->only && strcmp(c->o->only, s->name))
			continue;
		if (s->n_cgroups)
			return true;	/* its cgroup directories are journaled */
		for (size_t k = 0; k < s->n_knobs; k++)
			if (knob_probe(s->knobs[k].name, &st) == 0 && st.writable)
				return true;
	}
	return false;
}

/* cgroup-v2 cpusets need "cpuset" on in the root's subtree: a change to the
 * machine, journaled (DIR and NAME say where and which). */
static bool run_needs_cpuset_controller(const struct run_ctx *c, char *dir, size_t len,
					const char **name)
{
	return c->p->use_cpuset && confine_controller_needed(dir, len, name);
}

static int run_journal_open(struct run_ctx *c)
{
	static struct journal other;
	const char *name;
	char dir[256];
	int r;

	/* exact mode's tracefs instance is journaled like a knob; the
	 * machine's lock first, so no other run's value is journaled as ours */
	if (run_writes_knobs(c) || c->p->trace ||
	    run_needs_cpuset_controller(c, dir, sizeof(dir), &name)) {
		c->machine_lock = machine_lock_take();
		if (c->machine_lock < 0)
			return -1;
		/* one journal per machine: none unrestored in any state dir */
		if (journal_registry_check(journal_state_dir(), true) == 0 &&
		    journal_open(&c->journal, NULL) == 0) {
			if (journal_registry_add(&c->journal) == 0) {	/* before its first entry */
				c->journal_open = true;
				return 0;
			}
			journal_close(&c->journal);
		}
		machine_lock_release(c->machine_lock);
		c->machine_lock = -1;
		return -1;
	}
	/* Nothing to write, but a crashed run's knobs are still changed: the
	 * numbers would not mean what the profile says. A journal we may not
	 * read is root's: it cannot concern a run that changes nothing, so an
	 * unprivileged run goes on. */
	snprintf(other.file, sizeof(other.file), "%s/journal", journal_state_dir());
	if (journal_registry_check(journal_state_dir(), false) < 0)
		return -1;
	if (access(other.file, R_OK) < 0 && errno == EACCES)
		return 0;
	r = journal_load(&other, NULL);
	if (r < 0)
		return -1;
	if (r > 0 && other.n > 0)
		return journal_refuse(&other, "");
	return 0;
}

/* In the watchdog, after the controller died and its loads were killed:
 * remove the controller's cpusets, and put its knobs back. After a
 * deadline (controller stopped or hung) only the knobs: the controller,
 * resumed, removes its cpusets itself and reports the run as an error. */
static void run_watchdog_restore(pid_t controller, bool controller_dead)
{
	static struct journal j;

	if (controller_dead)
		confine_sweep(controller, 0);
	if (journal_load(&j, NULL) != 1 || j.pid != controller)
		return;
	if (journal_restore_all(&j) == 0)
		journal_remove(&j);
}

/* ---- one run ---- */

static int run_progress(void *data, int64_t now_ns, int64_t starvation_ns)
{
	struct run_ctx *c = data;

	progress_update(&c->prog, now_ns, starvation_ns);
	return signals_caught() != 0;
}

/* Sleep until WHEN, redrawing the progress line; false if a signal came. */
static bool run_wait_until(struct run_ctx *c, int64_t when)
{
	for (;;) {
		int64_t now = mono_ns();

		if (signals_caught())
			return false;
		if (now >= when)
			return true;
		progress_update(&c->prog, now, 0);
		sleep_until_ns(now + RUN_WAIT_SLICE_NS < when ? now + RUN_WAIT_SLICE_NS : when);
	}
}

/* Start one load and register it with the watchdog; -1 with the run's
 * status saying why. */
static int run_start_one(struct run_ctx *c, struct measure *m, size_t i,
			 struct spawn_options *opt)
{
	const struct load_spec *l = &c->p->loads[i];
	char why[200];

	opt->cgroup = cgroups_dir_of(&c->cgroups, l->name);
	opt->cgcpu = &c->cgroups.cg;
	opt->cpus = &c->plan->cpus[i];
	if (spawn_load(&m->sl[i], l, m->stats, m->first[i], opt) < 0) {
		snprintf(why, sizeof(why), "load '%s' could not be started", l->name);
		status_note_set(m->note, RESULT_ERROR, why);
		return -1;
	}
	/* an unwatched load could outlive us: never run one */
	if (watchdog_add_group(&c->wd, m->sl[i].pid) < 0 || signals_add_group(m->sl[i].pid) < 0) {
		snprintf(why, sizeof(why), "load '%s' could not be registered with the watchdog",
			 l->name);
		status_note_set(m->note, RESULT_ERROR, why);
		return -1;
	}
	return 0;
}

/* The start gate (loads/gate.c): every worker registers, then waits; the
 * gate of every load opens once all are there, so a worker starved from its
 * first instant (an RT hog on its CPU) is still watched and its starvation is
 * a verdict. One still unregistered after the set-up time, with nothing yet
 * running to hog its CPU, is a real failure to start: an error. */
static int run_open_gate(struct run_ctx *c, struct measure *m)
{
	char why[200];

	/* a leader that exited (its error ends the run) leaves records unused */
	while (!stats_gate_ready(m->stats) && !signals_caught() &&
	       spawn_poll(m->sl, m->n_spawned) == m->n_spawned) {
		if (!deadline_setup_left(&c->deadline)) {
			snprintf(why, sizeof(why), "loads not started within the %.1f s set-up "
				 "time: a worker never registered",
				 (double)c->deadline.setup_ns / NSEC_PER_SEC);
			status_note_set(m->note, RESULT_ERROR, why);
			return -1;
		}
		sleep_until_ns(mono_ns() + RUN_GATE_POLL_NS);
	}
	stats_gate_open(m->stats);
	return 0;
}

/* The run's clock starts once every load runs: start-up never eats into the
 * window (run_window_open opens it at the warm-up's end, or later). */
static int run_start_clock(struct run_ctx *c, struct measure *m)
{
	const struct profile *p = c->p;
	int armed;

	m->t0 = mono_ns();
	m->measure_from = m->t0 + p->warmup_ns;
	m->end = m->measure_from + p->duration_ns;
	/* The loads' own end stays where stats_create put it, past the set-up
	 * time and a whole run, until run_window_open brings it in: brought
	 * in here, a controller held up longer than the warm-up (600 threads
	 * on 2 CPUs starve it for seconds) opened the window after the loads
	 * had ended themselves, and measured nothing. */
	armed = deadline_arm_run(&c->deadline, m->end, p->warmup_ns + p->duration_ns);
	if (armed < 0) {
		status_note_set(m->note, RESULT_ERROR, armed == DEADLINE_LATE ? DEADLINE_SETUP_WHY :
			       DEADLINE_UNARMED_WHY);
		return -1;
	}
	return 0;
}

/* The exact source stops once the window has closed: tracefs drains what
 * is left and removes its instance (figures are clipped to the window). */
static int run_exact_stop(struct measure *m)
{
	char why[256];

	return exact_stop(m->exact, m->end, why, sizeof(why)) < 0 ?
	       error("exact source: %s", why) : 0;
}

static int run_start_loads(struct run_ctx *c, struct measure *m)
{
	const struct profile *p = c->p;
	int64_t run_ns = p->warmup_ns + p->duration_ns;
	struct spawn_options opt = { .run_ns = run_ns, .use_cpuset = p->use_cpuset,
				     .watchdog = c->wd.pid };
	unsigned n_rec = 0;
	char why[200];
	size_t started = 0;

	m->sl = calloc(p->n_loads ? p->n_loads : 1, sizeof(*m->sl));
	m->first = calloc(p->n_loads ? p->n_loads : 1, sizeof(*m->first));
	m->slots = calloc(p->n_loads ? p->n_loads : 1, sizeof(*m->slots));
	if (!m->sl || !m->first || !m->slots)
		return error("out of memory");
	m->cpus = c->plan->all;
	for (size_t i = 0; i < p->n_loads; i++) {
		m->first[i] = n_rec;
		n_rec += load_records_needed(&p->loads[i]);
	}
	/* started before the run's cgroups exist (run_setting), so every
	 * stretch in the window has a known start */
	m->exact = c->exact;
	c->exact = NULL;
	snprintf(m->exact_why, sizeof(m->exact_why), "%s", c->exact_why);
	/* nothing counts until run_window_open; the loads' own end is far
	 * enough for any set-up (run_start_clock brings it in) */
	m->stats = stats_create(n_rec, c->deadline.setup_until + NSEC_PER_SEC + run_ns + NSEC_PER_SEC);
	if (!m->stats)
		return -1;
	m->stats->measure_from_ns = INT64_MAX;
	stats_gate_close(m->stats);
	if (deadline_passed(&c->deadline)) {	/* stopped while applying the setting */
		status_note_set(m->note, RESULT_ERROR, DEADLINE_SETUP_WHY);
		return -1;
	}
	/* RT loads start last, once every other load has finished its set-up:
	 * an RT hog already running on a CPU could keep them from ever getting
	 * there (on kernels without the fair server). Loads not started keep
	 * pid 0, which the stopping code skips. */
	m->n_spawned = p->n_loads;
	for (int rt_pass = 0; rt_pass < 2; rt_pass++)
		for (size_t i = 0; i < p->n_loads; i++) {
			if (run_is_rt(&p->loads[i]) != (rt_pass == 1))
				continue;
			if (!deadline_setup_left(&c->deadline)) {
				snprintf(why, sizeof(why), "only %zu of %zu loads started within the "
					 "%.1f s set-up time: too many for this machine", started,
					 p->n_loads, (double)c->deadline.setup_ns / NSEC_PER_SEC);
				status_note_set(m->note, RESULT_ERROR, why);
				return -1;
			}
			if (run_start_one(c, m, i, &opt) < 0)
				return -1;
			started++;
		}
	return run_open_gate(c, m) < 0 ? -1 : run_start_clock(c, m);
}

/* A load that runs a command (LOAD_TRACK_PGROUP): sample every process of
 * its process group, which the command and its children stay in, but not
 * the leader and the workers: they only wait for the command, and would
 * add near-idle tasks to its starvation and wait figures. */
static void run_watch_pgroup(struct measure *m, size_t i, unsigned n)
{
	sampler_skip_process(m->smp, m->sl[i].pid);
	for (unsigned r = m->first[i]; r < m->first[i] + n; r++)
		if (m->stats->rec[r].pid > 0)
			sampler_skip_process(m->smp, m->stats->rec[r].pid);
	sampler_watch_pgroup(m->smp, m->sl[i].pid, (int)i);
}

static bool run_record_slot(void *data, size_t i, pid_t *pid, pid_t *tid)
{
	const struct run_slots *rs = data;
	const volatile struct worker_record *rec = &rs->stats->rec[rs->first + i];

	*pid = rec->pid;
	*tid = rec->tid;
	return *tid > 0 && *pid > 0;
}

/* Sample the workers named in the records (threads or processes alike), as
 * each names itself, even after sampling began: never the leader, whose
 * main thread only waits for them and would skew per-load fairness. */
static void run_watch_workers(struct run_ctx *c, struct measure *m)
{
	for (size_t i = 0; i < m->n_spawned; i++) {
		unsigned n = load_records_needed(&c->p->loads[i]);

		if (c->p->loads[i].type->flags & LOAD_TRACK_PGROUP) {
			run_watch_pgroup(m, i, n);
			continue;
		}
		m->slots[i] = (struct run_slots){ .stats = m->stats, .first = m->first[i] };
		sampler_watch_slots(m->smp, run_record_slot, &m->slots[i], n, (int)i);
	}
}

/* Open the measured window, one time origin for every source (in-band,
 * sampler, exact mode): at the warm-up's end, or, when the set-up took
 * longer, RUN_WINDOW_LEAD_NS from now, so the sampler's first tick (its
 * baseline, taken right after) and the trace precede it even when the
 * controller is preempted for a while; it lasts the run's duration. */
static int run_window_open(struct run_ctx *c, struct measure *m)
{
	int64_t from, shift;
	int armed;

	deadline_test_stop_at("window-open");
	from = mono_ns() + RUN_WINDOW_LEAD_NS;
	shift = from - m->measure_from;

	if (shift > 0) {
		m->measure_from += shift;
		m->end += shift;
		/* the watchdog's deadline follows */
		armed = deadline_arm_run(&c->deadline, m->end, c->p->warmup_ns + c->p->duration_ns);
		/* not moved, the deadline would fall inside the window (or, the
		 * watchdog gone, there is none): stop, restore, exit 3 */
		if (armed < 0) {
			status_note_set(m->note, RESULT_ERROR, armed == DEADLINE_LATE ?
				       DEADLINE_PASSED_WHY : DEADLINE_UNARMED_WHY);
			return -1;
		}
	}
	if (from >= m->stats->deadline_ns) {
		status_note_set(m->note, RESULT_ERROR, "the controller was held up until after the "
			       "loads' own end: nothing to measure (an overloaded machine?)");
		return -1;
	}
	/* loads end themselves a little after the window, if we cannot stop them */
	*(volatile int64_t *)&m->stats->deadline_ns = m->end + NSEC_PER_SEC;
	exact_set_window(m->exact, m->measure_from, m->end);
	m->stats->measure_until_ns = m->end;
	m->stats->measure_from_ns = m->measure_from;
	return 0;
}

static int run_sample(struct run_ctx *c, struct measure *m)
{
	const struct profile *p = c->p;
	int64_t setup_until;
	int ret;

	m->smp = sampler_new(c->hz);
	if (!m->smp)
		return error("out of memory for the sampler");
	sampler_avoid_cpus(m->smp, &m->cpus);
	if (p->sampler_priority && sampler_set_priority(m->smp, p->sampler_priority) < 0)
		return -1;
	for (size_t k = 0; k < p->n_attach; k++)
		if (sampler_watch_process(m->smp, p->attach[k].pid, (int)(p->n_loads + k)) < 0)
			warning("attach '%s': pid %d does not exist", p->attach[k].name,
				(int)p->attach[k].pid);
	/* where the exact source measures the waits, the sampler steps back */
	for (size_t i = 0; exact_covers_loads(m->exact) && i < p->n_loads; i++)
		sampler_cover_group(m->smp, (int)i);
	for (size_t k = 0; exact_covers_attached(m->exact) && k < p->n_attach; k++) {
		if (exact_watch(m->exact, p->attach[k].pid) < 0)
			warning("attach '%s': the exact source has no room for it", p->attach[k].name);
		else
			sampler_cover_group(m->smp, (int)(p->n_loads + k));
	}
	/* without a warm-up, give workers a moment to fill in their records */
	setup_until = m->measure_from > m->t0 + 100 * NSEC_PER_MSEC ? m->measure_from :
		      m->t0 + 100 * NSEC_PER_MSEC;
	if (!run_wait_until(c, setup_until - RUN_WINDOW_LEAD_NS))
		return 0;
	run_watch_workers(c, m);
	m->noise_ok = noise_sample(&m->cpus, &m->noise_before) == 0;
	if (cgroups_watch_begin(&c->cgroups, c->hz) < 0)
		return -1;
	if (run_window_open(c, m) < 0) {
		cgroups_watch_end(&c->cgroups);
		return -1;
	}
	ret = sampler_run(m->smp, m->end, run_progress, c);
	m->sampled_until = mono_ns();
	cgroups_watch_end(&c->cgroups);
	if (run_exact_stop(m) < 0)
		ret = -1;
	if (ret < 0)
		return -1;
	m->noise_ok = m->noise_ok && noise_sample(&m->cpus, &m->noise_after) == 0;
	return 0;
}

static void run_stop_loads(struct run_ctx *c, struct measure *m)
{
	if (m->n_spawned)
		spawn_stop_all(m->sl, m->n_spawned, m->stats, RUN_STOP_GRACE_NS);
	m->strays_left = strays_end(c->wd.pid) < 0;
	for (size_t i = 0; i < m->n_spawned; i++) {
		watchdog_remove_group(&c->wd, m->sl[i].pid);
		signals_remove_group(m->sl[i].pid);
	}
}

/* The run's records from what it measured (record-fill.h), the exact
 * source's figures added: kept in M until the run is written. */
static void run_collect(struct run_ctx *c, struct measure *m)
{
	const struct profile *p = c->p;
	int64_t until = m->sampled_until < m->end ? m->sampled_until : m->end;
	int64_t wall = until - m->measure_from, ours = 0;
	struct record_source src = { .sl = m->sl, .stats = m->stats, .first = m->first,
				     .wall_ns = wall, .cgroups = &c->cgroups };
	struct run_record *r = &m->record;

	*r = (struct run_record){ .smp = m->smp, .exact_why = m->exact_why,
				  .duration_s = wall > 0 ? (double)wall / NSEC_PER_SEC : 0 };
	if (record_loads(r, p, m->n_spawned, &src) < 0)
		warning("out of memory for the run's figures");
	exact_stats(m->exact, &r->exact);
	window_measure(&r->window, m->measure_from, until, m->smp, &r->exact);
	for (size_t t = 0; t < sampler_n_tasks(m->smp); t++) {
		const struct sampler_task_result *tr = sampler_task(m->smp, t);

		if (tr->group >= 0 && (size_t)tr->group < p->n_loads)
			ours += tr->cpu_ns;
	}
	for (unsigned k = 0; k < m->stats->n_records; k++)	/* reaped jobs (kernel-build) */
		ours += (int64_t)m->stats->rec[k].child_cpu_ns;
	if (m->noise_ok) {
		r->noise = true;
		r->other_cpu_share = noise_other_share(&m->noise_before, &m->noise_after, ours);
		r->steal_share = noise_steal_share(&m->noise_before, &m->noise_after);
	}
	if (r->loads)	/* tracefs sees attached processes only on the loads' CPUs */
		exact_collect(m->exact, r->loads,
			      exact_covers_attached(m->exact) ? r->n_loads : m->n_spawned);
	m->collected = true;
}

/* Partial figures are an error, never a verdict (outcome.h). */
static void run_check_outcome(struct run_ctx *c, struct measure *m)
{
	struct run_outcome o = { .p = c->p, .sl = m->sl, .first = m->first, .stats = m->stats,
				 .smp = m->sampled_until ? m->smp : NULL,
				 .measure_from = m->measure_from, .sampled_until = m->sampled_until,
				 .interrupted = m->note->status != RESULT_OK };
	char why[320];

	if (outcome_error(&o, why, sizeof(why)))
		status_note_set(m->note, RESULT_ERROR, why);
}

/* Start, sample and stop the loads; their figures stay in M (run_collect)
 * until the run is written, then run_measure_free. */
static void run_measure(struct run_ctx *c, struct measure *m)
{
	char why[64];
	int ret;

	ret = run_start_loads(c, m);
	if (ret == 0)
		ret = run_sample(c, m);
	run_stop_loads(c, m);
	if (ret < 0)	/* kept only when nothing said why */
		status_note_set(m->note, RESULT_ERROR, "the run could not be measured (see messages)");
	if (ret == 0) {
		if (signals_caught()) {
			snprintf(why, sizeof(why), "interrupted by SIG%s", sigabbrev_np(signals_caught()));
			status_note_set(m->note, RESULT_INCOMPLETE, why);
		}
		if (m->sampled_until)
			run_collect(c, m);
		else
			m->unsampled = true;
		run_check_outcome(c, m);
	}
	if (m->strays_left)
		status_note_set(m->note, RESULT_ERROR, "processes a load left behind could not be "
				"ended (see messages)");
	if (!m->sampled_until)
		run_exact_stop(m);	/* stopped before the window closed */
}

static void run_measure_free(struct measure *m)
{
	if (m->collected)
		record_free(&m->record);
	if (m->smp)
		sampler_free(m->smp);
	exact_free(m->exact);
	if (m->stats)
		stats_destroy(m->stats);
	free(m->sl);
	free(m->first);
	free(m->slots);
}

/* A setting that was not applied (its knobs or cgroups): no knobs_applied. */
static void run_unapplied(struct run_ctx *c, enum result_status st, const char *reason)
{
	c->applied = false;
	status_note_set(&c->note, st, reason);
}

/* Make S's cgroups; 0 when made, 1 when the run was skipped or failed
 * (its status says why). */
static int run_cgroups_apply(struct run_ctx *c, const struct setting *s)
{
	char reason[256] = "";
	enum settings_status st = cgroups_apply(&c->journal, s, &c->cgroups, reason,
						sizeof(reason));

	if (st == SETTINGS_APPLIED)
		return 0;
	run_unapplied(c, st == SETTINGS_SKIPPED ? RESULT_SKIPPED : RESULT_ERROR, reason);
	return 1;
}

/* Apply, measure (into M), restore. Returns -1 only when knobs could not
 * be restored: going on would measure the wrong kernel. */
static int run_setting(struct run_ctx *c, const struct setting *s, struct measure *m)
{
	bool measured = false;
	char reason[256];

	if (s->n_knobs) {
		enum settings_status st = settings_apply(&c->journal, s, reason, sizeof(reason));

		if (st != SETTINGS_APPLIED) {
			run_unapplied(c, st == SETTINGS_SKIPPED ? RESULT_SKIPPED : RESULT_ERROR,
				      reason);
			return 0;
		}
	}
	deadline_test_stop_at("knobs-written");
	/* the exact source starts (BPF: BTF, relocations, 0.1-0.5 s) before
	 * the cgroups and loads exist, so neither waits empty for it */
	if (exact_start(&c->exact, &c->journal, c->p->trace, &c->plan->all, c->exact_why,
			sizeof(c->exact_why)) < 0) {
		error("exact mode: %s", c->exact_why);
		status_note_set(&c->note, RESULT_ERROR, "exact mode could not start (see messages)");
	} else if (run_cgroups_apply(c, s) == 0) {
		measured = true;
		run_measure(c, m);
		deadline_test_stop_at("loads-stopped");
	}
	exact_free(c->exact);	/* not taken: the run never started its loads */
	c->exact = NULL;
	if (!measured)
		return s->n_knobs && settings_restore(&c->journal) != 0 ?
		       error("setting '%s': knobs could not be restored; run 'starve restore'",
			     s->name) : 0;
	if (cgroups_remove(&c->journal, &c->cgroups) != 0 &&
	    journal_restore_all(&c->journal) != 0) {
		status_note_restore_failed(&c->note, "its cgroups could not be removed");
		return error("setting '%s': cgroups could not be removed; run 'starve restore'",
			     s->name);
	}
	if (s->n_knobs && settings_restore(&c->journal) != 0) {
		status_note_restore_failed(&c->note, "its knobs could not be restored");
		return error("setting '%s': knobs could not be restored; run 'starve restore'",
			     s->name);
	}
	return 0;
}

/* The run as it ended, written once (result-build.h). */
static void run_write(struct run_ctx *c, const struct setting *s, int rep, time_t started,
		      const struct measure *m)
{
	struct run_report r = { .setting = s, .repetition = rep, .started = started,
				.applied = c->applied, .status = c->note.status,
				.reason = c->note.status == RESULT_OK ? NULL : c->note.reason,
				.record = m->collected ? &m->record : NULL,
				.unsampled_hz = m->unsampled ? c->hz : 0 };

	result_doc_add_run(c->result, &r);
}

/* One setting's run under the watchdog's deadline, from before its first
 * write to after its last restore: a stop anywhere in between cannot keep
 * a knob changed longer than the deadline. */
static int run_one(struct run_ctx *c, const struct setting *s, int rep)
{
	time_t started = time(NULL);
	struct measure m = { .note = &c->note };
	const char *why;
	int ret = 0;

	progress_run(&c->prog, s->name, rep, c->p->repeat);
	status_note_reset(&c->note);
	c->applied = true;
	if (c->skip_reason[0]) {
		run_unapplied(c, RESULT_SKIPPED, c->skip_reason);
	} else if (deadline_arm_setup(&c->deadline, &c->wd, c->p->n_loads) < 0) {
		status_note_set(&c->note, RESULT_ERROR, "the watchdog is not answering");
		ret = -1;
	} else {
		ret = run_setting(c, s, &m);
		why = deadline_why(&c->deadline);	/* passed, or the controller stopped */
		if (why)	/* kept only when nothing said why before */
			status_note_set(&c->note, RESULT_ERROR, why);
		deadline_disarm(&c->deadline);
	}
	run_write(c, s, rep, started, &m);
	run_measure_free(&m);
	return ret;
}

static void run_write_partial(struct run_ctx *c)
{
	if (c->o->result_path)
		output_partial(c->o->result_path, c->result, &c->partial_failed);
}

/* How many runs: settings (or --only's) times repetitions. */
static size_t run_count(const struct run_ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->p->n_settings; i++)
		if (!c->o->only || !strcmp(c->o->only, c->p->settings[i].name))
			n++;
	return n * (size_t)c->p->repeat;
}

static int64_t run_total_ns(const struct run_ctx *c)
{
	return (int64_t)run_count(c) * (c->p->warmup_ns + c->p->duration_ns);
}

static struct result_doc *run_header(struct run_ctx *c)
{
	struct kernel_info k;

	kernel_probe(&k);
	c->hz = c->p->sample_hz > 0 ? c->p->sample_hz : k.hz;
	run_check_privileges(c, &k);
	/* The backend every load is confined with: the chosen one when the
	 * profile asks for cpusets, else plain affinity. */
	return result_doc_new(c->o->argc, c->o->argv, &k,
			      c->p->use_cpuset ? confine_probe(NULL, 0, NULL) : "affinity", c->p,
			      c->hz);
}

static enum run_status run_all(struct run_ctx *c)
{
	/* the header is written (run_output_check): a second signal (no time
	 * to write anything) or a kill still leaves a partial result */
	signals_arm_second(true);
	if (signals_caught())
		return RUN_INTERRUPTED;
	for (int rep = 0; rep < c->p->repeat; rep++)
		for (size_t i = 0; i < c->p->n_settings; i++) {
			const struct setting *s = &c->p->settings[i];

			if (c->o->only && strcmp(c->o->only, s->name))
				continue;
			if (run_one(c, s, rep) < 0)
				return RUN_FAILED;
			progress_clear(&c->prog);
			run_write_partial(c);
			if (signals_caught())
				return RUN_INTERRUPTED;
		}
	return RUN_DONE;
}

/* Once the watchdog runs (it restores after a crash), before any load. */
static int run_cpuset_controller_on(struct run_ctx *c)
{
	const char *name;
	char dir[256];

	if (!run_needs_cpuset_controller(c, dir, sizeof(dir), &name))
		return 0;
	return controller_enable(&c->journal, &c->cpuset, dir, name);
}

/* The header, written, and room for the whole result, before anything on
 * the machine changes; else the run is refused (its journal and lock let go). */
static int run_output_check(struct run_ctx *c)
{
	c->result = run_header(c);
	if (!c->result) {
		error("out of memory for the result");
	} else if (!c->o->result_path ||
	    output_check(c->o->result_path, c->result, run_count(c),
			 c->p->n_loads + c->p->n_attach) == 0) {
		return 0;
	}
	result_doc_free(c->result);
	c->result = NULL;
	if (c->journal_open)
		journal_close(&c->journal);
	machine_lock_release(c->machine_lock);
	return -1;
}

/* The plan the caller resolved, else one resolved here: every load's CPUs
 * exist and RT loads leave a CPU free before anything is written. */
static int run_plan_take(struct run_ctx *c)
{
	if (c->o->plan) {
		c->plan = c->o->plan;
		return 0;
	}
	if (run_plan_build(&c->own_plan, c->p, c->o->allow_rt_on_all_cpus) < 0)
		return -1;
	c->plan = &c->own_plan;
	return 0;
}

static enum run_status run_profile_with(struct run_ctx *c, const struct profile *p,
					const struct run_options *o, struct result_doc **result)
{
	enum run_status st;
	int nice_before;

	c->machine_lock = -1;
	c->p = p;
	c->o = o;
	if (run_plan_take(c) < 0 || (p->trace && exact_check() < 0) || run_journal_open(c) < 0)
		return RUN_REFUSED;
	if (run_output_check(c) < 0)
		return RUN_REFUSED;
	/* the controller takes precedence over what it measures from its
	 * first change to its last restore: an attached population (4,096
	 * threads taking 1.9 of 2 CPUs) held a nice-0 controller 30 s in a 4 s
	 * run. Its loads set their own nice (spawn.c) and do not inherit it. */
	nice_before = run_nice_raise();
	*result = c->result;
	signals_install(c->journal_open ? &c->journal : NULL);
	/* the watchdog keeps both locks until it is done restoring */
	if (watchdog_start(&c->wd, run_watchdog_restore,
			   (const int[]){ c->machine_lock, c->journal.dir_lock }, 2) < 0) {
		st = RUN_FAILED;
	} else if (run_cpuset_controller_on(c) < 0) {
		st = RUN_FAILED;
	} else {
		signals_spare(c->wd.pid);	/* a second signal must not kill who restores */
		progress_init(&c->prog, !o->quiet, run_total_ns(c));
		st = run_all(c);
		progress_clear(&c->prog);
		if (controller_release(&c->journal, &c->cpuset) < 0 && st == RUN_DONE)
			st = RUN_FAILED;
	}
	if (c->journal_open && journal_close(&c->journal) < 0)
		st = RUN_FAILED;
	watchdog_stop(&c->wd);
	machine_lock_release(c->machine_lock);
	run_nice_restore(nice_before);
	/* nothing left to kill or restore: a signal now only waits for the
	 * result to be written (the command uninstalls the handlers) */
	signals_install(NULL);
	signals_arm_second(false);
	return st;
}

enum run_status run_profile(const struct profile *p, const struct run_options *o,
			    struct result_doc **result)
{
	static bool running;	/* one at a time: see engine.h */
	struct run_ctx *c;
	enum run_status st;

	*result = NULL;
	if (running) {
		error("a run is already in progress in this process");
		return RUN_REFUSED;
	}
	/* on the heap: the journal is large, and the handler keeps a pointer
	 * to it until signals_install(NULL) below */
	if (!(c = calloc(1, sizeof(*c)))) {
		error("out of memory");
		return RUN_REFUSED;
	}
	running = true;
	st = run_profile_with(c, p, o, result);
	run_plan_free(&c->own_plan);
	free(c);
	running = false;
	return st;
}
