/* Scheduling policies a load can ask for beyond what sched_setscheduler
 * gives: SCHED_DEADLINE through sched_setattr (glibc has no wrapper before
 * 2.41), its parameters checked the way the kernel checks them
 * (__checkparam_dl) so a profile fails at `starve check`, not mid-run, and
 * the kernel's refusals turned into sentences. */
#include "config.h"
#include "loads/load.h"
#include "lib/fsutil.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#define DL_MIN_NS 1024		/* the kernel's 1 << DL_SCALE: shorter is EINVAL */

/* The kernel's struct sched_attr, version 0 (48 bytes). */
struct load_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

bool load_policy_is_realtime(enum load_policy policy)
{
	return policy == POLICY_FIFO || policy == POLICY_RR || policy == POLICY_DEADLINE;
}

int64_t load_dl_deadline(const struct load_spec *spec)
{
	return spec->dl_deadline_ns ? spec->dl_deadline_ns : spec->dl_period_ns;
}

/* What the profile can be told before anything runs. */
int load_check_deadline(const struct load_spec *spec, char *why, size_t why_len)
{
	bool given = spec->dl_runtime_ns || spec->dl_deadline_ns || spec->dl_period_ns;
	int64_t deadline = load_dl_deadline(spec);

	if (spec->policy != POLICY_DEADLINE) {
		if (given)
			snprintf(why, why_len, "dl_runtime, dl_deadline and dl_period need "
				 "policy deadline, not %s", load_policy_names[spec->policy]);
		return given ? -1 : 0;
	}
	if (!spec->dl_runtime_ns || !spec->dl_period_ns) {
		snprintf(why, why_len, "policy deadline needs dl_runtime and dl_period "
			 "(dl_deadline defaults to the period)");
		return -1;
	}
	if (spec->dl_runtime_ns > deadline || deadline > spec->dl_period_ns) {
		snprintf(why, why_len, "SCHED_DEADLINE needs dl_runtime <= dl_deadline <= "
			 "dl_period, not %.6g <= %.6g <= %.6g ms", spec->dl_runtime_ns / 1e6,
			 deadline / 1e6, spec->dl_period_ns / 1e6);
		return -1;
	}
	return 0;
}

/* A kernel.sched_deadline_period_{min,max}_us sysctl, in ns; DEF if unreadable. */
static int64_t load_dl_sysctl_ns(const char *name, int64_t def)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	if (fs_read_small(path, buf, sizeof(buf)) < 0)
		return def;
	return strtoll(buf, NULL, 10) * NSEC_PER_USEC;
}

/* The kernel's errors for sched_setattr(SCHED_DEADLINE), in words. */
static void load_dl_explain(const struct load_spec *spec, int err, char *why, size_t why_len)
{
	double bw = (double)spec->dl_runtime_ns / (double)spec->dl_period_ns;

	switch (err) {
	case EBUSY:	/* short: it must fit a worker record's 128 bytes */
		snprintf(why, why_len, "SCHED_DEADLINE admission refused (EBUSY): %.3g CPU "
			 "per worker exceeds what is left of sched_rt_runtime_us", bw);
		break;
	case EPERM:
		snprintf(why, why_len, "SCHED_DEADLINE refused (EPERM): it needs root or "
			 "CAP_SYS_NICE, and an affinity spanning every CPU of its root domain "
			 "(give the load 'cpus: all', not '%s')", spec->cpus ? spec->cpus : "all");
		break;
	default:
		snprintf(why, why_len, "SCHED_DEADLINE refused: %s", strerror(err));
	}
}

int load_enter_deadline(const struct load_spec *spec, char *why, size_t why_len)
{
	struct load_sched_attr a = {
		.size = sizeof(a), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = (uint64_t)spec->dl_runtime_ns,
		.sched_deadline = (uint64_t)load_dl_deadline(spec),
		.sched_period = (uint64_t)spec->dl_period_ns,
	};
	int64_t lo = load_dl_sysctl_ns("sched_deadline_period_min_us", 100 * NSEC_PER_USEC),
		hi = load_dl_sysctl_ns("sched_deadline_period_max_us", 4194304 * NSEC_PER_USEC);

	if (spec->dl_runtime_ns < DL_MIN_NS || spec->dl_period_ns < lo || spec->dl_period_ns > hi) {
		snprintf(why, why_len, "SCHED_DEADLINE needs dl_runtime of at least 1.024us and "
			 "dl_period within kernel.sched_deadline_period_min_us..max_us here "
			 "(%.6g..%.6g ms)", lo / 1e6, hi / 1e6);
		return -1;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0) == 0)
		return 0;
	load_dl_explain(spec, errno, why, why_len);
	return -1;
}

int load_leave_deadline(void)
{
	struct load_sched_attr a = { .size = sizeof(a), .sched_policy = SCHED_OTHER };

	return (int)syscall(SYS_sched_setattr, 0, &a, 0);
}

/* A fair task's requested slice (sched_attr::sched_runtime for SCHED_OTHER
 * and SCHED_BATCH, 857b158dc5e8, v6.12: EEVDF takes it as the task's
 * request, clamped to 0.1..100 ms). Earlier kernels accept and ignore it,
 * which is what lets a profile compare the two. Keeps the thread's nice. */
int load_set_fair_slice(const struct load_spec *spec, int64_t slice_ns)
{
	struct load_sched_attr a = {
		.size = sizeof(a),
		.sched_policy = spec->policy == POLICY_BATCH ? SCHED_BATCH : SCHED_OTHER,
		.sched_runtime = (uint64_t)slice_ns,
	};

	errno = 0;
	a.sched_nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return -1;
	return (int)syscall(SYS_sched_setattr, 0, &a, 0);
}

/* ---- can this process use a policy? (`starve env`) ---- */

/* The deadline trial's reservation: 1% of a CPU, 10 ms a second. Leaving
 * SCHED_DEADLINE does not give its bandwidth back at once: the kernel keeps
 * it counted in the root domain until the task's 0-lag time, the deadline
 * less the runtime left at the rate reserved (period / runtime times
 * faster). A domain rebuild in between (a cgroup v1 cpuset made or removed,
 * on 6.12 any sched_rt_runtime_us write) recounts the domain without it,
 * and the late subtraction wraps the unsigned count: every later
 * sched_rt_runtime_us write, -1 included, and every fair-server write is
 * refused with EBUSY until the next rebuild (measured in 6.1 guests:
 * doc/kernels.md). With 0.01% (100 us a second) the trial overran its
 * runtime under emulation and the 0-lag time lay seconds ahead; with 1%
 * it is 100 times the time the trial took, and env waits for it. */
#define TRIAL_DL_RUNTIME_NS (10 * NSEC_PER_MSEC)
#define TRIAL_DL_PERIOD_NS NSEC_PER_SEC

static int load_policy_set(enum load_policy p, int64_t *dl_span)
{
	static const int ids[] = { [POLICY_OTHER] = SCHED_OTHER, [POLICY_BATCH] = SCHED_BATCH,
				   [POLICY_IDLE] = SCHED_IDLE, [POLICY_FIFO] = SCHED_FIFO,
				   [POLICY_RR] = SCHED_RR };
	struct load_spec dl = { .policy = POLICY_DEADLINE, .dl_runtime_ns = TRIAL_DL_RUNTIME_NS,
				.dl_period_ns = TRIAL_DL_PERIOD_NS };
	struct sched_param sp = { .sched_priority = p == POLICY_FIFO || p == POLICY_RR };
	char why[200];

	if (p == POLICY_DEADLINE) {
		int64_t t0 = mono_ns();

		if (load_enter_deadline(&dl, why, sizeof(why)))
			return errno;
		/* Leave at once, as spawn.c's trial does: the exit path of a
		 * process can outlast the budget many times over under
		 * emulation, each overrun a throttle to the next 1 s period (a
		 * fresh qemu TCG guest waited in `starve env` for minutes). */
		if (load_leave_deadline())
			return errno;
		dl_span[0] = t0;
		dl_span[1] = mono_ns();
		return 0;
	}
	return sched_setscheduler(0, ids[p], &sp) ? errno : 0;
}

/* After an admitted deadline trial over SPAN (its start and end), wait
 * for its 0-lag time, when the kernel gives its bandwidth back; at most a
 * period (a trial that overran its runtime is given back later still). */
static void load_policy_trial_settle(const int64_t *span)
{
	int64_t lag = (span[1] - span[0]) * (TRIAL_DL_PERIOD_NS / TRIAL_DL_RUNTIME_NS);

	if (span[0] <= 0 || span[1] < span[0])
		return;
	sleep_until_ns(span[0] + (lag < TRIAL_DL_PERIOD_NS ? lag : TRIAL_DL_PERIOD_NS) +
		       NSEC_PER_MSEC);
}

bool load_policy_usable(enum load_policy p, char *why, size_t why_len)
{
	/* the deadline trial's start and end, from the child */
	int64_t *span = mmap(NULL, 2 * sizeof(*span), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = span == MAP_FAILED ? -1 : fork();
	int status = 0;

	if (pid == 0)	/* a child tries it: we keep our own policy */
		_exit(load_policy_set(p, span));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		if (span != MAP_FAILED)
			munmap(span, 2 * sizeof(*span));
		snprintf(why, why_len, "cannot try it (fork)");
		return false;
	}
	if (p == POLICY_DEADLINE && WEXITSTATUS(status) == 0)
		load_policy_trial_settle(span);
	munmap(span, 2 * sizeof(*span));
	if (WEXITSTATUS(status) == 0) {
		snprintf(why, why_len, p == POLICY_DEADLINE ? "admitted (a 1%% trial; loads "
			 "need cpus: all and allow_rt_on_all_cpus)" : "usable");
		return true;
	}
	snprintf(why, why_len, "%s%s", strerror(WEXITSTATUS(status)),
		 WEXITSTATUS(status) == EPERM ? (p == POLICY_DEADLINE ? " (needs root or "
			"CAP_SYS_NICE, and an affinity over the whole root domain)" :
			" (needs root, CAP_SYS_NICE or RLIMIT_RTPRIO)") : "");
	return false;
}
