/* The HZ sampler (harness/sampler/sampler.h): the tick loop and per-task
 * bookkeeping; finding the tasks is sampler-discover.c. The hot path, sampler_tick(), does pread into stack
 * buffers on descriptors kept open, hand parsing (taskstat.c), no stdio and
 * no allocation; a vanished task (ESRCH/ENOENT, or a zombie) is an ordinary
 * event that closes its descriptors and keeps its numbers. */
#include "config.h"
#include "harness/sampler/sampler.h"
#include "harness/sampler/sampler-internal.h"
#include "harness/sampler/taskstat.h"
#include "lib/error.h"
#include "lib/procstat.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* An RT sampler blocks every tick; this only stops a runaway one. */
#define SAMPLER_RTTIME_US 200000
/* ... even when it is behind its ticks: RLIMIT_RTTIME counts the CPU time
 * between two blocks, and at its soft limit the kernel sends SIGXCPU, which
 * would end the controller. A sleep this long blocks. */
#define SAMPLER_RT_BREATHER_NS (50 * NSEC_PER_USEC)

/* Many threads need two descriptors each: lift the soft limit to the hard one. */
static void sampler_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct sampler *sampler_new(int hz)
{
	struct sampler *s;

	if (hz <= 0) {
		error("sampler rate must be positive (got %d)", hz);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		error("out of memory");
		return NULL;
	}
	s->hz = hz;
	s->period_ns = NSEC_PER_SEC / hz;
	s->bucket_ns = SAMPLER_BUCKET_NS;
	sampler_raise_nofile();
	return s;
}

static void sampler_close_task(struct sampler_task *t)
{
	if (t->fd_sched >= 0)
		close(t->fd_sched);
	if (t->fd_stat >= 0)
		close(t->fd_stat);
	t->fd_sched = t->fd_stat = -1;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_tasks; i++)
		sampler_close_task(&s->tasks[i]);
	free(s->tasks);
	free(s->index);
	sampler_free_discovery(s);
	free(s->groups);
	free(s);
}

int sampler_set_priority(struct sampler *s, int prio)
{
	int max = sched_get_priority_max(SCHED_FIFO);

	if (prio < 0 || prio > max)
		return error("sampler priority %d is out of range (0: normal, 1-%d: SCHED_FIFO)",
			     prio, max);
	s->prio = prio;
	return 0;
}

void sampler_set_bucket_ns(struct sampler *s, int64_t ns)
{
	s->bucket_ns = ns > 0 ? ns : SAMPLER_BUCKET_NS;
	for (size_t i = 0; i < s->n_groups; i++)
		s->groups[i].interval_ns = s->bucket_ns;
}

void sampler_set_naive(struct sampler *s, bool naive)
{
	s->naive = naive;
}

void sampler_avoid_cpus(struct sampler *s, const cpu_set_t *cpus)
{
	s->avoid = *cpus;
}

struct sampler_group *sampler_group_get(struct sampler *s, int group)
{
	if ((size_t)group >= s->n_groups) {
		size_t n = (size_t)group + 1;
		struct sampler_group *g = realloc(s->groups, n * sizeof(*g));

		if (!g)
			return NULL;
		memset(g + s->n_groups, 0, (n - s->n_groups) * sizeof(*g));
		s->groups = g;
		s->n_groups = n;
	}
	s->groups[group].used = true;
	if (!s->groups[group].interval_ns)
		s->groups[group].interval_ns = s->bucket_ns;
	return &s->groups[group];
}

static int sampler_open_file(pid_t pid, pid_t tid, const char *file)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid, (int)tid, file);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Read a /proc file of a task into BUF (NUL-terminated); the naive mode
 * opens and closes it each time. <= 0 when the task is gone. */
static ssize_t sampler_read(const struct sampler *s, const struct sampler_task *t, int fd,
			    const char *file, char *buf, size_t len)
{
	ssize_t n;

	((struct sampler *)s)->reads++;
	if (s->naive) {
		fd = sampler_open_file(t->r.pid, t->r.tid, file);
		if (fd < 0)
			return -1;
		n = read(fd, buf, len - 1);
		close(fd);
	} else {
		n = pread(fd, buf, len - 1, 0);
	}
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* A tid -> task lookup, so rescans stay cheap with thousands of threads:
 * open addressing over a power-of-two table of task indices + 1 (0: empty),
 * at most half full. */
static size_t sampler_slot(const struct sampler *s, pid_t tid)
{
	size_t mask = s->index_size - 1, i = ((size_t)tid * 2654435761u) & mask;

	while (s->index[i] && s->tasks[s->index[i] - 1].r.tid != tid)
		i = (i + 1) & mask;
	return i;
}

/* Whether TID is sampled already. A tid whose task exited may be reused
 * by a new thread: that one is a new task. */
bool sampler_has_task(const struct sampler *s, pid_t tid)
{
	size_t slot;

	if (!s->index_size)
		return false;
	slot = sampler_slot(s, tid);
	return s->index[slot] && !s->tasks[s->index[slot] - 1].r.exited;
}

/* Room for one more task in the array and the index. */
static int sampler_grow(struct sampler *s)
{
	if (s->n_tasks == s->cap_tasks) {
		size_t cap = s->cap_tasks ? s->cap_tasks * 2 : 64;
		struct sampler_task *t = realloc(s->tasks, cap * sizeof(*t));

		if (!t)
			return -1;
		s->tasks = t;
		s->cap_tasks = cap;
	}
	if (2 * (s->n_tasks + 1) > s->index_size) {
		size_t size = s->index_size ? s->index_size * 2 : 128;
		size_t *index = calloc(size, sizeof(*index));

		if (!index)
			return -1;
		free(s->index);
		s->index = index;
		s->index_size = size;
		for (size_t i = 0; i < s->n_tasks; i++)
			s->index[sampler_slot(s, s->tasks[i].r.tid)] = i + 1;
	}
	return 0;
}

/* Open T's two files. A task already gone is not worth a message; running
 * out of descriptors is said once, not at every rescan. */
static int sampler_open_task(struct sampler *s, struct sampler_task *t)
{
	int err;

	t->fd_sched = sampler_open_file(t->r.pid, t->r.tid, "schedstat");
	t->fd_stat = t->fd_sched < 0 ? -1 : sampler_open_file(t->r.pid, t->r.tid, "stat");
	if (t->fd_stat >= 0) {
		sampler_note_unsampled(s, t->r.tid, false);
		return 0;
	}
	err = errno;
	sampler_close_task(t);
	if (err == ENOENT || err == ESRCH)
		return -1;
	sampler_note_unsampled(s, t->r.tid, true);
	if (s->open_failed)
		return -1;
	s->open_failed = true;
	warning("cannot open /proc/%d/task/%d: %s%s; some tasks will not be sampled",
		(int)t->r.pid, (int)t->r.tid, strerror(err),
		err == EMFILE || err == ENFILE ? " (raise 'ulimit -n')" : "");
	return -1;
}

/* Whether the task of stat line BUF started after the first tick (by its
 * start time, in clock ticks of CLOCK_BOOTTIME): then none of its CPU time
 * or delay came before the window, and all of it counts, though it was
 * found only at a rescan (a command's short-lived children). A task started
 * within a clock tick of the first one counts from its first sample. */
static bool sampler_born_late(const struct sampler *s, struct sampler_task *t,
			      const char *buf, size_t len)
{
	unsigned long long ticks;
	long hz = sysconf(_SC_CLK_TCK);
	double born;

	if (!s->first_boot_ns || hz <= 0 || procstat_parse_starttime(buf, len, &ticks) < 0)
		return false;
	born = (double)ticks * ((double)NSEC_PER_SEC / (double)hz);
	t->born_ns = s->first_ns + (int64_t)born - s->first_boot_ns;
	return born > (double)s->first_boot_ns;
}

int sampler_add_task(struct sampler *s, pid_t pid, pid_t tid, int group)
{
	struct sampler_task *t;
	char buf[512], state;
	ssize_t n;

	if (group < 0)
		return error("sampler group %d is negative", group);
	if (sampler_has_task(s, tid))
		return 0;
	if (sampler_grow(s) < 0 || !sampler_group_get(s, group))
		return error("out of memory");
	t = &s->tasks[s->n_tasks];
	memset(t, 0, sizeof(*t));
	t->r.pid = pid;
	t->r.tid = tid;
	t->r.group = group;
	t->track.period_ns = s->period_ns;
	t->track.phase = (unsigned)tid * 2654435761u >> 16;
	if (sampler_open_task(s, t) < 0)
		return -1;
	n = pread(t->fd_stat, buf, sizeof(buf) - 1, 0);
	/* A zombie is no thread to sample; adding it at every rescan would
	 * count it again and again. */
	if (n > 0 && procstat_parse_stat(buf, (size_t)n, &state, t->r.comm,
					 sizeof(t->r.comm)) == 0 && (state == 'Z' || state == 'X')) {
		sampler_close_task(t);
		return -1;
	}
	t->born_late = n > 0 && sampler_born_late(s, t, buf, (size_t)n);
	s->index[sampler_slot(s, tid)] = ++s->n_tasks;
	return 0;
}

static void sampler_note_max(struct sampler_task *t)
{
	t->r.starvation_max_ns = t->track.max_ns;
	t->r.starvation_max_upper_ns = t->track.max_upper_ns;
}

static void sampler_task_gone(struct sampler_task *t)
{
	taskstat_track_finish(&t->track);
	sampler_note_max(t);
	t->r.exited = true;
	sampler_close_task(t);
}

/* Add T's CPU time DELTA, used over [FROM, NOW], to its group's series,
 * which spreads it by time (group-series.c). More CPU time than wall time is
 * a CPU clock that jumped (steal on a VM: the time reappears at once):
 * clamped, and counted past the kernel tick's slack. */
static void sampler_add_cpu(struct sampler *s, const struct sampler_task *t, int64_t from,
			    int64_t now, int64_t delta)
{
	struct sampler_group *g = &s->groups[t->r.group];
	int64_t wall = now - from;

	if (wall <= 0)
		return;
	if (delta > wall) {
		if (delta > wall + 2 * s->period_ns) {
			s->cpu_jumps++;
			g->jump_ns += delta - wall;
		}
		delta = wall;
	}
	group_series_add_cpu(g, from, now, s->prev_tick_ns, delta);
}

void sampler_cover_group(struct sampler *s, int group)
{
	struct sampler_group *g = sampler_group_get(s, group);

	if (g)
		g->covered = true;
}

/* Whether covered task T is read at this tick: every covered_stride-th,
 * each at its own phase so the reads spread over the ticks. */
static bool sampler_covered_due(const struct sampler *s, const struct sampler_task *t, bool final)
{
	return final || !t->track.have_prev || s->covered_stride <= 1 ||
	       (s->ticks + t->track.phase) % s->covered_stride == 0;
}

/* The stride that keeps the reads of the covered tasks alive at the last
 * tick within SAMPLER_COVERED_READS_PER_S. */
static void sampler_covered_pace(struct sampler *s)
{
	uint64_t want = (uint64_t)s->covered_live * (uint64_t)s->hz;

	s->covered_stride = (unsigned)((want + SAMPLER_COVERED_READS_PER_S - 1) /
				       SAMPLER_COVERED_READS_PER_S);
	if (s->covered_stride < 1)
		s->covered_stride = 1;
	if (s->covered_live) {
		s->covered_rate_sum += 1.0 / s->covered_stride;
		s->covered_ticks++;
	}
	if (s->covered_live > s->covered_max)
		s->covered_max = s->covered_live;
	s->covered_live = 0;
}

/* One task at one tick: schedstat, and stat only when schedstat shows no
 * progress and the state is not known (taskstat.h says why that is enough). */
static void sampler_sample_task(struct sampler *s, struct sampler_task *t, int64_t now,
				bool final)
{
	char buf[512], state = 0;
	struct taskstat_sched ss;
	bool progressed;
	ssize_t n;

	s->task_ticks++;
	s->groups[t->r.group].tick_tasks++;
	if (s->groups[t->r.group].covered) {
		s->covered_live++;
		if (!s->naive && !sampler_covered_due(s, t, final)) {
			taskstat_track_skip(&t->track);
			return;
		}
	}
	if (!s->naive && !taskstat_track_due(&t->track, s->ticks, final)) {
		taskstat_track_skip(&t->track);
		return;
	}
	n = sampler_read(s, t, t->fd_sched, "schedstat", buf, sizeof(buf));
	if (n <= 0 || taskstat_parse_schedstat(buf, (size_t)n, &ss) < 0) {
		sampler_task_gone(t);
		return;
	}
	progressed = taskstat_track_progressed(&t->track, &ss);
	if (s->naive || taskstat_track_wants_stat(&t->track, progressed)) {
		n = sampler_read(s, t, t->fd_stat, "stat", buf, sizeof(buf));
		if (n <= 0 || procstat_parse_stat(buf, (size_t)n, &state, t->r.comm,
						  sizeof(t->r.comm)) < 0) {
			sampler_task_gone(t);
			return;
		}
		if (progressed)
			state = 0;	/* it ran: the naive mode read it anyway */
	}
	if (!t->track.have_prev) {
		if (t->born_late)
			sampler_add_cpu(s, t, t->born_ns, now, (int64_t)ss.cpu_ns);
		else
			t->base = ss;
		t->r.first_ns = now;
	} else {
		sampler_add_cpu(s, t, t->track.prev_ns, now,
				(int64_t)(ss.cpu_ns - t->track.prev.cpu_ns));
	}
	taskstat_track_sample(&t->track, now, &ss, state);
	s->groups[t->r.group].tick_waiting += t->track.waiting;
	t->r.cpu_ns = (int64_t)(ss.cpu_ns - t->base.cpu_ns);
	t->r.run_delay_ns = (int64_t)(ss.run_delay_ns - t->base.run_delay_ns);
	t->r.last_ns = now;
	t->r.samples++;
	sampler_note_max(t);
	if (state == 'Z' || state == 'X')
		sampler_task_gone(t);
}

/* Fold this tick's per-group sums into the time series. */
static void sampler_tick_series(struct sampler *s, int64_t now, bool final)
{
	for (size_t i = 0; i < s->n_groups; i++)
		if (s->groups[i].used)
			group_series_tick(&s->groups[i], s->first_ns, s->prev_tick_ns, now, final);
}

static void sampler_tick(struct sampler *s, int64_t now, bool final)
{
	if (!s->first_ns) {
		s->first_ns = now;
		for (size_t i = 0; i < s->n_groups; i++)
			group_series_start(&s->groups[i], now);
		s->first_boot_ns = clock_ns(CLOCK_BOOTTIME);
	}
	if (now >= s->next_scan_ns) {
		sampler_rescan(s);
		s->next_scan_ns = now + SAMPLER_SCAN_NS;
	}
	sampler_covered_pace(s);
	for (size_t i = 0; i < s->n_tasks; i++)
		if (s->tasks[i].fd_sched >= 0)
			sampler_sample_task(s, &s->tasks[i], now, final);
	sampler_tick_series(s, now, final);
	s->ticks++;
	s->prev_tick_ns = s->last_ns = now;
}

static int64_t sampler_worst(const struct sampler *s)
{
	int64_t worst = 0;

	for (size_t i = 0; i < s->n_tasks; i++) {
		int64_t m = taskstat_track_current_max(&s->tasks[i].track);

		if (m > worst)
			worst = m;
	}
	return worst;
}

/* Close open stretches, and take each live task's comm once more: loads
 * name their threads after they start, and busy ones are never read again. */
static void sampler_finish_tasks(struct sampler *s)
{
	char buf[512], state;

	for (size_t i = 0; i < s->n_tasks; i++) {
		struct sampler_task *t = &s->tasks[i];
		ssize_t n;

		taskstat_track_finish(&t->track);
		sampler_note_max(t);
		if (t->fd_stat < 0)
			continue;
		n = pread(t->fd_stat, buf, sizeof(buf) - 1, 0);
		if (n > 0)
			procstat_parse_stat(buf, (size_t)n, &state, t->r.comm, sizeof(t->r.comm));
	}
}

/* The sampler thread's place while it runs: off the loads' CPUs when it can
 * be (sampler_avoid_cpus), and with no timer slack (50 us by default for
 * SCHED_OTHER), so its ticks are not late by design. SAVED: what to put back. */
struct sampler_place {
	cpu_set_t cpus;
	bool moved;
	int slack_ns;
};

static void sampler_enter_place(struct sampler *s, struct sampler_place *saved)
{
	cpu_set_t keep;

	saved->moved = false;
	saved->slack_ns = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	if (CPU_COUNT(&s->avoid) == 0 ||
	    pthread_getaffinity_np(pthread_self(), sizeof(saved->cpus), &saved->cpus) != 0)
		return;
	CPU_XOR(&keep, &saved->cpus, &s->avoid);
	CPU_AND(&keep, &keep, &saved->cpus);
	if (CPU_COUNT(&keep) > 0)
		saved->moved = pthread_setaffinity_np(pthread_self(), sizeof(keep), &keep) == 0;
}

static void sampler_leave_place(const struct sampler_place *saved)
{
	if (saved->slack_ns > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)saved->slack_ns, 0, 0, 0);
	if (saved->moved)
		pthread_setaffinity_np(pthread_self(), sizeof(saved->cpus), &saved->cpus);
}

/* SCHED_FIFO for the calling thread, bounded by RLIMIT_RTTIME. */
static void sampler_enter_rt(struct sampler *s, struct rlimit *saved)
{
	struct sched_param sp = { .sched_priority = s->prio };
	struct rlimit rl;
	int err;

	getrlimit(RLIMIT_RTTIME, saved);
	if (!s->prio)
		return;
	rl = *saved;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > SAMPLER_RTTIME_US)
		rl.rlim_cur = SAMPLER_RTTIME_US;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_RTTIME, &rl);
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err) {
		warning("sampler runs at normal priority: cannot use SCHED_FIFO %d: %s",
			s->prio, strerror(err));
		setrlimit(RLIMIT_RTTIME, saved);
		return;
	}
	s->applied_prio = s->prio;
}

static void sampler_leave_rt(struct sampler *s, const struct rlimit *saved)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (!s->applied_prio)
		return;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	setrlimit(RLIMIT_RTTIME, saved);
}

/* Sleep to NEXT; count a late tick, or skip the periods missed entirely
 * (only those before END_NS: a run does not miss ticks after its end). */
static int64_t sampler_wait(struct sampler *s, int64_t *next, int64_t end_ns)
{
	int64_t now, lag;

	if (s->applied_prio) {
		now = mono_ns();
		if (*next - now < SAMPLER_RT_BREATHER_NS)
			sleep_until_ns(now + SAMPLER_RT_BREATHER_NS);
	}
	sleep_until_ns(*next);
	now = mono_ns();
	lag = now - *next;
	if (lag >= s->period_ns) {
		int64_t room = end_ns - *next;
		int64_t skipped = (lag < room ? lag : room) / s->period_ns;

		s->missed += (uint64_t)(skipped > 0 ? skipped : 0);
		*next += (skipped > 0 ? skipped : 0) * s->period_ns;
	} else if (lag > s->period_ns / 2) {
		s->late++;
	}
	return now;
}

int sampler_run(struct sampler *s, int64_t end_ns, sampler_progress_fn progress, void *data)
{
	int64_t cpu0, now = mono_ns(), next = now, next_progress = now + SAMPLER_PROGRESS_NS;
	struct rlimit saved;
	int stopped = 0;
	struct sampler_place place;

	if (s->ran)
		return error("a sampler runs once; make a new one");
	s->ran = true;
	sampler_enter_place(s, &place);
	sampler_enter_rt(s, &saved);
	cpu0 = thread_cpu_ns();
	for (;;) {
		/* the last tick is the first at or after END_NS: the ticks bracket
		 * the window, whose start the caller puts after the first tick */
		bool final = next >= end_ns || stopped;

		sampler_tick(s, now, final);
		if (final)
			break;
		if (progress && now >= next_progress) {
			next_progress = now + SAMPLER_PROGRESS_NS;
			stopped = progress(data, now, sampler_worst(s)) != 0;
		}
		next += s->period_ns;
		now = sampler_wait(s, &next, end_ns);
	}
	s->cpu_ns = thread_cpu_ns() - cpu0;
	sampler_finish_tasks(s);
	sampler_leave_rt(s, &saved);
	sampler_leave_place(&place);
	return stopped;
}

size_t sampler_n_tasks(const struct sampler *s)
{
	return s->n_tasks;
}

const struct sampler_task_result *sampler_task(const struct sampler *s, size_t i)
{
	return i < s->n_tasks ? &s->tasks[i].r : NULL;
}

void sampler_quality(const struct sampler *s, struct sampler_quality *q)
{
	memset(q, 0, sizeof(*q));
	q->target_hz = s->hz;
	q->ticks = s->ticks;
	q->late_ticks = s->late;
	q->missed_ticks = s->missed;
	q->tasks = s->n_tasks;
	q->priority = s->applied_prio;
	q->window_ns = s->last_ns - s->first_ns;
	q->first_ns = s->first_ns;
	q->last_ns = s->last_ns;
	if (q->window_ns > 0 && s->ticks > 1)
		q->achieved_hz = (double)(s->ticks - 1) * NSEC_PER_SEC / (double)q->window_ns;
	q->cpu_s = (double)s->cpu_ns / NSEC_PER_SEC;
	q->cpu_clock_jumps = s->cpu_jumps;
	/* the load whose clocks jumped most: a CPU's clock running ahead shows
	 * in every task it runs, so summing the loads would count it twice */
	for (size_t i = 0; i < s->n_groups; i++)
		if ((double)s->groups[i].jump_ns / NSEC_PER_SEC > q->cpu_clock_jump_s)
			q->cpu_clock_jump_s = (double)s->groups[i].jump_ns / NSEC_PER_SEC;
	q->tasks_unsampled = s->n_unsampled;
	q->covered_tasks = s->covered_max;
	if (s->covered_ticks)
		q->covered_hz = s->hz * s->covered_rate_sum / (double)s->covered_ticks;
	q->reads_per_task_tick = s->task_ticks ? (double)s->reads / (double)s->task_ticks : 0;
	if (s->task_ticks)
		q->cost_us_per_task_tick = (double)s->cpu_ns / NSEC_PER_USEC /
					   (double)s->task_ticks;
}

int sampler_group_series(const struct sampler *s, int group, struct sampler_series *out)
{
	const struct sampler_group *g;

	if (group < 0 || (size_t)group >= s->n_groups || !s->groups[group].used)
		return -1;
	g = &s->groups[group];
	out->interval_ns = g->interval_ns;
	out->n = g->n;
	out->cpu_share = g->cpu_share;
	out->runnable_waiting = g->waiting;
	return 0;
}
