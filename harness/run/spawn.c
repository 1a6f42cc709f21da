/* Starting and stopping loads (spawn.h). The leader is forked, sets itself
 * up (process group, death signal, CPUs, nice, policy, RLIMIT_RTTIME, name,
 * its guard) and reports a setup failure through a pipe, so spawn_load()
 * returns only once the load is fully in place or fully gone. Stopping kills process
 * groups while their leaders are still unreaped zombies, so a group id can
 * never have been reused by someone else's process. */
#include "config.h"
#include "harness/run/spawn.h"
#include "harness/placement/topology.h"
#include "harness/run/plan.h"
#include "lib/descendants.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPAWN_POLL_NS (2 * NSEC_PER_MSEC)
#define SPAWN_SETUP_TIMEOUT_NS (5 * NSEC_PER_SEC)	/* a leader's set-up takes microseconds */
#define SPAWN_GROUP_WAIT_NS (1 * NSEC_PER_SEC)	/* for killed group members to vanish */
#define SPAWN_RTTIME_HARD_EXTRA_US 500000	/* SIGXCPU first, SIGKILL half a second later */

struct spawn_req {
	const struct load_spec *spec;
	struct stats_block *stats;
	unsigned first, n;
	cpu_set_t cpus;
	struct confine_handle *cpuset;	/* NULL: affinity only */
	const struct spawn_options *opt;
	pid_t parent;
	int report_fd;			/* write end of the setup pipe */
};

static bool spawn_is_rt(const struct load_spec *spec)
{
	return load_policy_is_realtime(spec->policy);
}

/* In the leader, before setup ends: error() messages go to the parent. */
static void spawn_sink(const char *msg, void *data)
{
	int fd = *(int *)data;
	ssize_t unused = write(fd, msg, strlen(msg));

	(void)unused;	/* the parent sees EOF and a failed leader either way */
}

/* Every descriptor above 2 but KEEP. */
static void spawn_close_fds(int keep)
{
	if ((keep == 3 || syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u) == 0) &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0)
		return;
	for (int fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

/* The kernel counts RLIMIT_RTTIME for fifo and rr only: a deadline load
 * also gets RLIMIT_CPU, its workers' run length plus two seconds of CPU
 * in all (SIGXCPU, then SIGKILL a second later), besides the runtime
 * enforcement of the class itself and its own deadline. */
static int spawn_set_cpu_limit(const struct spawn_req *rq)
{
	struct rlimit rl;

	rl.rlim_cur = (rlim_t)((rq->opt->run_ns / NSEC_PER_SEC + 2) * rq->n);
	rl.rlim_max = rl.rlim_cur + 1;
	if (setrlimit(RLIMIT_CPU, &rl))
		return error_errno("cannot set RLIMIT_CPU");
	return 0;
}

/* RLIMIT_RTTIME: the type's "rttime" option when set, else the run length
 * plus a second; SIGXCPU at the soft limit ends the load. */
static int spawn_set_rttime(const struct spawn_req *rq)
{
	const struct load_type *t = rq->spec->type;
	const struct opt_spec *o = opt_find(t->options, t->n_options, "rttime");
	int64_t ns = rq->opt->run_ns + NSEC_PER_SEC;
	struct rlimit rl;

	if (o && rq->spec->opts[o - t->options].i > 0)
		ns = rq->spec->opts[o - t->options].i;
	rl.rlim_cur = (rlim_t)(ns / NSEC_PER_USEC);
	rl.rlim_max = rl.rlim_cur + SPAWN_RTTIME_HARD_EXTRA_US;
	if (setrlimit(RLIMIT_RTTIME, &rl))
		return error_errno("cannot set RLIMIT_RTTIME");
	return rq->spec->policy == POLICY_DEADLINE ? spawn_set_cpu_limit(rq) : 0;
}

/* Enter SCHED_DEADLINE and leave it: a refusal (admission, affinity) is
 * reported now, through the setup pipe, rather than by the workers mid-run. */
static int spawn_try_deadline(const struct load_spec *spec)
{
	char why[400];

	if (load_enter_deadline(spec, why, sizeof(why)))
		return error("%s", why);
	if (load_leave_deadline())
		return error_errno("cannot leave SCHED_DEADLINE after the trial admission");
	return 0;
}

static int spawn_set_policy(const struct spawn_req *rq)
{
	static const int policies[] = {
		[POLICY_OTHER] = SCHED_OTHER, [POLICY_BATCH] = SCHED_BATCH,
		[POLICY_IDLE] = SCHED_IDLE, [POLICY_FIFO] = SCHED_FIFO, [POLICY_RR] = SCHED_RR,
	};
	const struct load_spec *spec = rq->spec;
	struct sched_param sp = { .sched_priority = spawn_is_rt(spec) ? spec->priority : 0 };

	/* Always: a profile's nice 0 must not become the caller's nice 10
	 * (`nice -n 10 starve run`), which would change the experiment. */
	if (setpriority(PRIO_PROCESS, 0, spec->nice))
		return error_errno("cannot set nice %d%s", spec->nice,
				   " (below the nice starve was started at needs root)");
	if (spawn_is_rt(spec) && spawn_set_rttime(rq))
		return -1;
	/* A deadline task cannot fork: the leader stays SCHED_OTHER and each
	 * worker enters the class (worker_begin), after a trial once pinned. */
	if (spec->policy == POLICY_DEADLINE)
		return 0;
	/* No SCHED_RESET_ON_FORK: the workers must inherit the policy. */
	if (spec->policy != POLICY_OTHER && sched_setscheduler(0, policies[spec->policy], &sp))
		return error_errno("cannot set policy %s%s", load_policy_names[spec->policy],
				   spawn_is_rt(spec) ? " (fifo and rr need root or RLIMIT_RTPRIO)" : "");
	/* Wait above the workers, so the death signal runs (loads/guard.c);
	 * without the privilege the workers' pidfd check still ends them. */
	if (spawn_is_rt(spec))
		load_guard_raise(policies[spec->policy], spec->priority);
	return 0;
}

/* The leader's death signal: the whole process group goes, not just the
 * leader, so the grandchildren of an `exec` load (a shell's `sleep 120 &`,
 * which has no death signal of its own) die with the controller even when
 * the watchdog was killed too; and before it every descendant that left
 * the group (setsid, a daemon: the leader is their subreaper). Async-signal-safe;
 * also the guard's (loads/guard.c), at the watchdog's or the controller's exit. */
static void spawn_end_load(void)
{
	descendants_kill(0);
	kill(0, SIGKILL);
}

static void spawn_on_controller_death(int sig)
{
	(void)sig;
	spawn_end_load();
}

static int spawn_setup(const struct spawn_req *rq)
{
	const struct load_spec *spec = rq->spec;
	struct sigaction sa = { .sa_handler = spawn_on_controller_death };
	char comm[16];

	if (spec->session ? setsid() < 0 : setpgid(0, 0) < 0)
		return error_errno("cannot start a new %s", spec->session ? "session" : "process group");
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN, &sa, NULL) < 0 || prctl(PR_SET_PDEATHSIG, SIGRTMIN) < 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* the leader at least */
	/* What the command moves out of the group stays in our tree when its
	 * parent dies, for spawn_on_controller_death to find. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (getppid() != rq->parent)
		return error("the controller exited during setup");
	/* The policy first: an RT load that moved to its CPUs while still
	 * SCHED_OTHER could wait there forever behind an RT load already
	 * running (on kernels without the fair server). */
	if (spawn_set_policy(rq))
		return -1;
	if (rq->cpuset) {
		if (confine_attach(rq->cpuset, getpid()))
			return -1;
	} else if (sched_setaffinity(0, sizeof(rq->cpus), &rq->cpus)) {
		return error_errno("cannot pin to cpus '%s'", spec->cpus);
	}
	/* Into its cgroup before it has workers: they inherit it. */
	if (rq->opt->cgroup && cgcpu_attach(rq->opt->cgcpu, rq->opt->cgroup, getpid()))
		return -1;
	if (spec->policy == POLICY_DEADLINE && spawn_try_deadline(spec))
		return -1;
	snprintf(comm, sizeof(comm), "starve-%s", spec->name);
	prctl(PR_SET_NAME, comm);
	return 0;
}

static _Noreturn void spawn_leader(const struct spawn_req *rq)
{
	struct load_ctx ctx = { rq->spec, rq->stats, rq->first, rq->n, topology_cpus };
	int fd = rq->report_fd;

	error_set_sink(spawn_sink, &fd);
	if (spawn_setup(rq))
		_exit(EXIT_RUNTIME);
	spawn_close_fds(fd);
	/* at the load's policy (or FIFO 99 above it): its guard thread inherits it */
	if (load_guard_watch(rq->parent, rq->opt->watchdog, spawn_is_rt(rq->spec), spawn_end_load))
		_exit(EXIT_RUNTIME);
	error_set_sink(NULL, NULL);
	close(fd);	/* the parent reads EOF: set up */
	exit(rq->spec->type->run(&ctx));
}

/* Wait for the leader's setup: EOF alone means success. */
static int spawn_wait_setup(struct spawned_load *sl, int fd)
{
	char msg[512];
	size_t len = 0;
	ssize_t got;

	int64_t until = mono_ns() + SPAWN_SETUP_TIMEOUT_NS;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (len < sizeof(msg) - 1) {
		int left_ms = (int)((until - mono_ns()) / NSEC_PER_MSEC);

		if (left_ms <= 0 || poll(&pfd, 1, left_ms) == 0) {
			close(fd);
			kill(-sl->pid, SIGKILL);	/* our own group, its leader not reaped yet */
			while (waitpid(sl->pid, &sl->status, 0) < 0 && errno == EINTR)
				;
			sl->exited = sl->reaped = true;
			return error("load '%s' did not finish its set-up within %llds: is a "
				     "real-time load starving its CPUs?", sl->spec->name,
				     (long long)(SPAWN_SETUP_TIMEOUT_NS / NSEC_PER_SEC));
		}
		got = read(fd, msg + len, sizeof(msg) - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (len == 0)
		return 0;
	msg[len] = '\0';
	while (waitpid(sl->pid, &sl->status, 0) < 0 && errno == EINTR)
		;
	sl->exited = sl->reaped = true;
	return error("load '%s': %s", sl->spec->name, msg);
}

/* SPEC's CPUs into CPUS: the run plan's, else a plan of this one load
 * (`starve load`), which checks the RT rule the same way. */
static int spawn_cpus(const struct load_spec *spec, const struct spawn_options *opt,
		      cpu_set_t *cpus)
{
	struct run_plan plan;

	if (opt->cpus) {
		*cpus = *opt->cpus;
		return 0;
	}
	if (run_plan_loads(&plan, spec, 1, opt->allow_rt_on_all_cpus) < 0)
		return -1;
	*cpus = plan.cpus[0];
	run_plan_free(&plan);
	return 0;
}

static int spawn_check(const struct load_spec *spec, struct stats_block *stats, unsigned first,
		       unsigned n, const struct spawn_options *opt, cpu_set_t *cpus)
{
	if ((uint64_t)first + n > stats->n_records)
		return error("load '%s' needs records %u..%u but the block has %u", spec->name,
			     first, first + n - 1, stats->n_records);
	return spawn_cpus(spec, opt, cpus);
}

int spawn_load(struct spawned_load *sl, const struct load_spec *spec, struct stats_block *stats,
	       unsigned first_record, const struct spawn_options *opt)
{
	struct spawn_req rq = { .spec = spec, .stats = stats, .first = first_record,
				.n = load_records_needed(spec), .opt = opt, .parent = getpid() };
	int fds[2];

	/* Processes a load orphans (a shell's children) come back to us rather
	 * than to init, so they can be reaped once their group is killed. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	memset(sl, 0, sizeof(*sl));
	sl->spec = spec;
	sl->first_record = first_record;
	sl->n_records = rq.n;
	if (spawn_check(spec, stats, first_record, rq.n, opt, &rq.cpus))
		return -1;
	if (opt->use_cpuset) {
		char name[64];

		snprintf(name, sizeof(name), "starve-%d-%s", (int)getpid(), spec->name);
		if (confine_create(&sl->cpuset, name, &rq.cpus))
			return -1;
		sl->has_cpuset = true;
		rq.cpuset = &sl->cpuset;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		error_errno("cannot create a pipe");
		goto fail;
	}
	rq.report_fd = fds[1];
	fflush(NULL);	/* else the leader would print our buffered output again */
	sl->pid = fork();
	if (sl->pid < 0) {
		error_errno("cannot fork load '%s'", spec->name);
		close(fds[0]);
		close(fds[1]);
		goto fail;
	}
	if (sl->pid == 0)
		spawn_leader(&rq);
	close(fds[1]);
	if (!spec->session)
		setpgid(sl->pid, sl->pid);	/* both sides set it: no window without it */
	if (spawn_wait_setup(sl, fds[0]))
		goto fail;
	return 0;
fail:
	if (sl->has_cpuset)
		confine_destroy(&sl->cpuset);
	sl->has_cpuset = false;
	return -1;
}

/* The wait status waitpid() would give, from waitid()'s siginfo. */
static int spawn_status(const siginfo_t *si)
{
	if (si->si_code == CLD_EXITED)
		return (si->si_status & 0xff) << 8;
	return (si->si_status & 0x7f) | (si->si_code == CLD_DUMPED ? 0x80 : 0);
}

size_t spawn_poll(struct spawned_load *loads, size_t n)
{
	size_t alive = 0;

	for (size_t i = 0; i < n; i++) {
		struct spawned_load *sl = &loads[i];
		siginfo_t si;

		if (sl->exited || sl->pid <= 0)
			continue;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)sl->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == sl->pid) {
			sl->exited = true;
			sl->status = spawn_status(&si);
		} else {
			alive++;
		}
	}
	return alive;
}

/* After the leader is reaped, wait a little for killed members of its group
 * to vanish, so its cpuset can be removed; orphans of the group came to us
 * (we are a subreaper), so we reap them too. */
static void spawn_wait_group(pid_t pgid)
{
	int64_t until = mono_ns() + SPAWN_GROUP_WAIT_NS;

	for (;;) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;
		if (kill(-pgid, 0) < 0 || mono_ns() >= until)
			return;
		sleep_until_ns(mono_ns() + SPAWN_POLL_NS);
	}
}

static void spawn_reap(struct spawned_load *sl)
{
	int status;

	if (sl->reaped || sl->pid <= 0)
		return;
	kill(-sl->pid, SIGKILL);	/* our group: its leader is unreaped, so the id is ours */
	while (waitpid(sl->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!sl->exited)
		sl->status = status;
	sl->exited = sl->reaped = true;
	spawn_wait_group(sl->pid);
	if (sl->has_cpuset && confine_destroy(&sl->cpuset) == 0)
		sl->has_cpuset = false;
}

void spawn_stop_all(struct spawned_load *loads, size_t n, struct stats_block *stats,
		    int64_t grace_ns)
{
	int64_t until = mono_ns() + grace_ns;

	if (stats)
		*(volatile int32_t *)&stats->stop = 1;
	while (spawn_poll(loads, n) > 0 && mono_ns() < until)
		sleep_until_ns(mono_ns() + SPAWN_POLL_NS);
	for (size_t i = 0; i < n; i++)
		spawn_reap(&loads[i]);
}
