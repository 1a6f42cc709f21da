/* The watchdog process (see watchdog.h). It owns nothing but a list of
 * process-group ids and a deadline; it never signals anything it was not
 * told about, and it kills by group so grandchildren of an `exec` load
 * (which have no PDEATHSIG of their own) die too. */
#include "config.h"
#include "harness/run/watchdog.h"
#include "harness/run/run-nice.h"
#include "lib/error.h"
#include "lib/pgroups.h"
#include "lib/procstat.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define WD_LEADER_GRACE_NS (300 * NSEC_PER_MSEC)
/* How often it looks at the controller while loads run or a deadline is
 * armed; stopped at two looks in a row, it is caught within 0.2 s. */
#define WD_LOOK_NS (100 * NSEC_PER_MSEC)
#define WD_STOPPED_LOOKS 2

/* Controller to watchdog, and WD_ACTED back (its value a watchdog_news). */
enum wd_op { WD_ADD = 1, WD_REMOVE, WD_DEADLINE, WD_QUIT, WD_ACTED };

struct wd_msg {
	int32_t op;
	int32_t pad;
	int64_t value;
};

struct wd_state {
	pid_t controller;
	pid_t *groups;		/* grows: no load is ever left unwatched */
	size_t n_groups, cap_groups;
	int64_t deadline_ns;
	int stat_fd;		/* the controller's /proc stat, -1 when it cannot be read */
	int stopped_looks;	/* looks in a row that found it stopped */
	bool dying_seen;	/* its loads were killed when it was seen dying */
};

/* What a look at the controller found. */
enum wd_look { WD_RUNNING, WD_STOPPED, WD_DYING };

static volatile sig_atomic_t wd_controller_died;

static void wd_on_parent_death(int sig)
{
	(void)sig;
	wd_controller_died = 1;
}

static void wd_say(const char *msg)
{
	/* stdio is fine here, but a single write keeps lines whole on a shared tty */
	char line[256];
	size_t n = strlen(msg);

	if (n > sizeof(line) - 20)
		n = sizeof(line) - 20;
	memcpy(line, "starve watchdog: ", 17);
	memcpy(line + 17, msg, n);
	line[17 + n] = '\n';
	if (write(STDERR_FILENO, line, 18 + n) < 0)
		return;
}

/* One SIGKILL per group; when WAIT_GONE, repeat until no group has a
 * running member (zombies count as gone: whoever reaps them, the loads no
 * longer run; issue 33 saw both waits run to their limits, 811-820 ms,
 * for loads dead within 24 ms) or half a second passed. */
static void wd_kill_all(struct wd_state *st, int wait_gone)
{
	int64_t until = mono_ns() + 500 * NSEC_PER_MSEC;

	for (;;) {
		for (size_t i = 0; i < st->n_groups; i++)
			kill(-st->groups[i], SIGKILL);
		/* a zombie is gone for the machine: not a reason to wait */
		if (!wait_gone || !pgroups_live(st->groups, st->n_groups) || mono_ns() > until)
			return;
		sleep_until_ns(mono_ns() + 10 * NSEC_PER_MSEC);
	}
}

/* At the controller's death each leader ends its own tree, also what left
 * its group (spawn.c): give them a moment before the group kill cuts that
 * short; a stopped leader is woken so it can. */
static void wd_let_leaders_end(struct wd_state *st)
{
	int64_t until = mono_ns() + WD_LEADER_GRACE_NS;

	for (size_t i = 0; i < st->n_groups; i++)
		kill(-st->groups[i], SIGCONT);
	for (;;) {
		if (!pgroups_live(st->groups, st->n_groups) || mono_ns() > until)
			return;
		sleep_until_ns(mono_ns() + 10 * NSEC_PER_MSEC);
	}
}

/* Stopped by job control (SIGSTOP, Ctrl-Z: state T; a debugger's stop, t,
 * is left to the deadline, so a run under strace goes on), or dying
 * (SIGKILL pending: a controller killed in an fsync on a busy disk took 936
 * ms to exit, issue 33). */
static enum wd_look wd_look_at(const struct wd_state *st)
{
	char buf[1024], state;
	unsigned long long pending;
	ssize_t n = st->stat_fd < 0 ? -1 : pread(st->stat_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return WD_RUNNING;	/* gone: its death is seen as such */
	buf[n] = '\0';
	if (procstat_parse_signal(buf, (size_t)n, &state, &pending) < 0)
		return WD_RUNNING;
	if (pending & (1ULL << (SIGKILL - 1)))
		return WD_DYING;
	return state == 'T' ? WD_STOPPED : WD_RUNNING;
}

/* The run overran its deadline or its controller is stopped: kill the
 * loads, restore the knobs (only what cannot wait), and tell the
 * controller, which finds the run an error when it goes on. */
static void wd_act(struct wd_state *st, int fd, enum watchdog_news why,
		   watchdog_restore_fn restore)
{
	struct wd_msg m = { .op = WD_ACTED, .value = why };

	wd_say(why == WATCHDOG_STOPPED ? "the controller is stopped; killing its loads, restoring" :
	       "a run overran its deadline; killing its loads, restoring");
	wd_kill_all(st, 1);
	if (restore)
		restore(st->controller, false);
	st->deadline_ns = 0;
	st->stopped_looks = 0;
	if (send(fd, &m, sizeof(m), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return;	/* gone or not reading: nothing more to tell */
}

/* Look at the controller while anything is at stake; true when the
 * watchdog acted on a stop. */
static bool wd_look(struct wd_state *st, int fd, watchdog_restore_fn restore)
{
	switch (wd_look_at(st)) {
	case WD_DYING:
		/* its exit may take a while: its loads go now, the restore
		 * waits for the exit (the journal is still its own) */
		if (!st->dying_seen)
			wd_kill_all(st, 0);
		st->dying_seen = true;
		break;
	case WD_STOPPED:
		if (st->deadline_ns && ++st->stopped_looks >= WD_STOPPED_LOOKS) {
			wd_act(st, fd, WATCHDOG_STOPPED, restore);
			return true;
		}
		break;
	case WD_RUNNING:
		st->stopped_looks = 0;
		break;
	}
	return false;
}

static void wd_handle(struct wd_state *st, const struct wd_msg *m)
{
	switch (m->op) {
	case WD_ADD:
		if (m->value <= 1)
			break;
		if (st->n_groups == st->cap_groups) {
			size_t cap = st->cap_groups ? 2 * st->cap_groups : 64;
			pid_t *g = realloc(st->groups, cap * sizeof(*g));

			if (!g) {
				/* never watch less than we were told: kill what we know */
				wd_say("out of memory for a load's group; killing every load");
				wd_kill_all(st, 0);
				kill(-(pid_t)m->value, SIGKILL);
				break;
			}
			st->groups = g;
			st->cap_groups = cap;
		}
		st->groups[st->n_groups++] = (pid_t)m->value;
		break;
	case WD_REMOVE:
		for (size_t i = 0; i < st->n_groups; i++)
			if (st->groups[i] == (pid_t)m->value) {
				st->groups[i] = st->groups[--st->n_groups];
				break;
			}
		break;
	case WD_DEADLINE:
		st->deadline_ns = m->value;
		break;
	case WD_QUIT:
		_exit(0);
	case WD_ACTED:
		break;	/* ours to send, not to receive */
	}
}

/* Read what is queued; returns 0 on EOF (the controller is gone), 1 otherwise. */
static int wd_drain(struct wd_state *st, int fd)
{
	struct wd_msg m;

	for (;;) {
		ssize_t n = recv(fd, &m, sizeof(m), MSG_DONTWAIT);

		if (n == 0)
			return 0;
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 1 : 0;
		if (n == (ssize_t)sizeof(m))
			wd_handle(st, &m);
	}
}

/* Descriptors 3 (the socket), 4.. (KEEP) survive; every other is closed. */
static void wd_keep_fds(int fd, const int *keep, size_t n_keep)
{
	int high[8], n = 0, above;

	for (size_t i = 0; i < n_keep && n < 8; i++)
		n += keep[i] >= 0;
	/* out of the way first (a kept lock may sit on 3 or 4), but low: the
	 * descriptor limit may be small */
	above = 4 + n;
	n = 0;
	for (size_t i = 0; i < n_keep && n < 8; i++)
		if (keep[i] >= 0)
			high[n++] = fcntl(keep[i], F_DUPFD, above);
	fd = fcntl(fd, F_DUPFD, above);
	dup2(fd, 3);
	for (int i = 0; i < n; i++)
		if (high[i] >= 0)
			dup2(high[i], 4 + i);
	close_range((unsigned)(4 + n), ~0u, 0);
}

static void wd_setup(int fd, pid_t controller, const int *keep, size_t n_keep)
{
	struct sigaction sa = { .sa_handler = wd_on_parent_death };
	sigset_t block;
	int null;

	setpgid(0, 0);		/* out of the terminal's foreground group */
	prctl(PR_SET_NAME, "starve-watchdog");
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (getppid() != controller)
		wd_controller_died = 1;
	/* Hold nothing of the controller's: no copy of our own pipe's other
	 * end (we would never see EOF), no stdout a caller may be reading. */
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	wd_keep_fds(fd, keep, n_keep);
}

/* Open the controller's /proc stat, kept: a read after its death fails
 * rather than reading a process that took its pid. */
static int wd_open_stat(pid_t controller)
{
	char path[40];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)controller);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* How long ppoll may sleep: to the deadline, and while anything is at
 * stake (a deadline, loads) to the next look; NULL: until a message. */
static struct timespec *wd_timeout(const struct wd_state *st, int64_t next_look,
				   struct timespec *ts)
{
	int64_t now = mono_ns(), until = INT64_MAX;

	if (st->deadline_ns)
		until = st->deadline_ns;
	if ((st->deadline_ns || st->n_groups) && next_look < until)
		until = next_look;
	if (until == INT64_MAX)
		return NULL;
	*ts = ns_to_ts(until > now ? until - now : 0);
	return ts;
}

static _Noreturn void wd_main(int fd, pid_t controller, watchdog_restore_fn restore,
			       const int *keep, size_t n_keep)
{
	struct wd_state st = { .controller = controller };
	sigset_t unblocked;
	int64_t next_look = 0;

	wd_setup(fd, controller, keep, n_keep);
	run_nice_raise();	/* the loads must not keep it from its deadline */
	fd = 3;
	st.stat_fd = wd_open_stat(controller);
	sigemptyset(&unblocked);
	while (!wd_controller_died) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct timespec ts;
		int64_t now = mono_ns();

		if (st.deadline_ns && now >= st.deadline_ns) {
			/* stopped or hung: the knobs must not stay changed meanwhile */
			wd_act(&st, fd, WATCHDOG_OVERRAN, restore);
			continue;
		}
		if (now >= next_look) {
			next_look = now + WD_LOOK_NS;
			if (wd_look(&st, fd, restore))
				continue;
		}
		if (ppoll(&p, 1, wd_timeout(&st, next_look, &ts), &unblocked) < 0 && errno != EINTR)
			break;
		if (p.revents && !wd_drain(&st, fd))
			break;
	}
	wd_drain(&st, fd);	/* groups registered just before the death */
	wd_let_leaders_end(&st);
	wd_kill_all(&st, 1);
	if (restore)
		restore(controller, true);
	_exit(0);
}

int watchdog_start(struct watchdog *w, watchdog_restore_fn restore, const int *keep,
		   size_t n_keep)
{
	int sv[2];
	pid_t controller = getpid(), pid;

	w->pid = 0;
	w->fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return error_errno("cannot create the watchdog's socket");
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return error_errno("cannot fork the watchdog");
	}
	if (pid == 0) {
		close(sv[1]);
		wd_main(sv[0], controller, restore, keep, n_keep);
	}
	close(sv[0]);
	setpgid(pid, pid);	/* whichever of us runs first */
	w->pid = pid;
	w->fd = sv[1];
	return 0;
}

static int wd_send(struct watchdog *w, enum wd_op op, int64_t value)
{
	struct wd_msg m = { .op = op, .value = value };

	if (w->fd < 0)
		return error("the watchdog is not running");
	if (send(w->fd, &m, sizeof(m), MSG_NOSIGNAL) != (ssize_t)sizeof(m))
		return error_errno("cannot talk to the watchdog (pid %d)", (int)w->pid);
	return 0;
}

enum watchdog_news watchdog_news(struct watchdog *w)
{
	enum watchdog_news news = WATCHDOG_QUIET;
	struct wd_msg m;

	if (w->fd < 0)
		return WATCHDOG_GONE;
	for (;;) {
		ssize_t n = recv(w->fd, &m, sizeof(m), MSG_DONTWAIT);

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return WATCHDOG_GONE;
		if (n < 0)
			return news;
		if (n == (ssize_t)sizeof(m) && m.op == WD_ACTED)
			news = (enum watchdog_news)m.value;
	}
}

int watchdog_add_group(struct watchdog *w, pid_t pgid)
{
	return wd_send(w, WD_ADD, pgid);
}

int watchdog_remove_group(struct watchdog *w, pid_t pgid)
{
	return wd_send(w, WD_REMOVE, pgid);
}

int watchdog_set_deadline(struct watchdog *w, int64_t deadline_ns)
{
	return wd_send(w, WD_DEADLINE, deadline_ns);
}

int watchdog_stop(struct watchdog *w)
{
	int status, ret = 0;

	if (w->fd >= 0) {
		ret = wd_send(w, WD_QUIT, 0);
		close(w->fd);
		w->fd = -1;
	}
	if (w->pid > 0) {
		while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
			;
		w->pid = 0;
	}
	return ret;
}
