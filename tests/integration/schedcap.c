/* An independent capture of the scheduler's events, to judge exact mode by:
 * it shares no code with starve (libc only, tracefs read as text).
 *
 *   schedcap record NAME OUT   create tracefs instance NAME (mono clock),
 *                              enable sched_switch and sched_wakeup(_new),
 *                              print "ready", and on SIGTERM/SIGINT copy the
 *                              instance's trace to OUT and remove it; exit 3
 *                              when the kernel dropped events
 *   schedcap longest OUT PID FROM_NS UNTIL_NS
 *                              the longest runnable-but-not-running stretch
 *                              of PID clipped to [FROM_NS, UNTIL_NS]
 *                              (CLOCK_MONOTONIC): "<ns> <start_ns>"
 *
 * A stretch runs from a wakeup (of a task not running) or from a switch-out
 * with prev_state R (preempted) to the task's next switch-in. The text
 * trace has microsecond timestamps: figures are within 1 us. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int put(const char *dir, const char *file, const char *value)
{
	char path[512];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		fprintf(stderr, "schedcap: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	if (!ok)
		fprintf(stderr, "schedcap: cannot write %s to %s\n", value, path);
	return ok ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in < 0 || out < 0 || n < 0 ? -1 : 0;
}

/* Events the kernel dropped on any CPU (per_cpu/cpuN/stats "overrun:"). */
static long long dropped(const char *dir)
{
	long long total = 0;

	for (int c = 0; c < 4096; c++) {
		char path[600], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, c);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "overrun: ", 9) || !strncmp(line, "dropped events: ", 16))
				total += atoll(strchr(line, ':') + 1);
		fclose(f);
	}
	return total;
}

static int record(const char *name, const char *out)
{
	static const char *const events[] = { "sched_switch", "sched_wakeup", "sched_wakeup_new" };
	char dir[512], path[600];
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;
	long long lost;
	int ret = 0;

	snprintf(dir, sizeof(dir), TRACEFS "/instances/%s", name);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (mkdir(dir, 0755) < 0) {
		fprintf(stderr, "schedcap: cannot create %s: %s\n", dir, strerror(errno));
		return 2;
	}
	if (put(dir, "trace_clock", "mono") < 0 || put(dir, "buffer_size_kb", "16384") < 0)
		ret = 2;
	for (size_t i = 0; !ret && i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), "events/sched/%s/enable", events[i]);
		if (put(dir, path, "1") < 0)
			ret = 2;
	}
	if (!ret && put(dir, "tracing_on", "1") == 0) {
		printf("ready\n");
		fflush(stdout);
		while (!stop)
			sigsuspend(&old);
		put(dir, "tracing_on", "0");
		snprintf(path, sizeof(path), "%s/trace", dir);
		if (copy_file(path, out) < 0) {
			fprintf(stderr, "schedcap: cannot copy %s to %s\n", path, out);
			ret = 2;
		}
		lost = dropped(dir);
		if (!ret && lost) {
			fprintf(stderr, "schedcap: the kernel dropped %lld events\n", lost);
			ret = 3;
		}
	}
	if (rmdir(dir) < 0)
		fprintf(stderr, "schedcap: cannot remove %s: %s\n", dir, strerror(errno));
	return ret;
}

/* ---- the longest stretch ---- */

/* The event's name after the timestamp ("sched_switch"), its timestamp in
 * ns, or NULL for a line that is no event. */
static const char *parse_event(const char *line, int64_t *ts)
{
	const char *p = strstr(line, ": sched_"), *q;
	long long sec = 0, usec = 0;

	if (!p)
		return NULL;
	for (q = p; q > line && q[-1] != ' '; q--)
		;
	if (sscanf(q, "%lld.%lld:", &sec, &usec) != 2)
		return NULL;
	*ts = (int64_t)sec * 1000000000 + (int64_t)usec * 1000;
	return p + 2;
}

static long field(const char *ev, const char *key)
{
	const char *p = strstr(ev, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

struct stretch {
	bool on_cpu, runnable;
	int64_t since, longest, longest_at;
	int64_t from, until;
};

static void close_stretch(struct stretch *s, int64_t ts)
{
	int64_t a = s->since > s->from ? s->since : s->from;
	int64_t b = ts < s->until ? ts : s->until;

	if (s->runnable && b - a > s->longest) {
		s->longest = b - a;
		s->longest_at = a;
	}
	s->runnable = false;
}

static void feed(struct stretch *s, const char *ev, int64_t ts, long pid)
{
	if (!strncmp(ev, "sched_switch:", 13)) {
		const char *state = strstr(ev, " prev_state=");

		if (field(ev, " prev_pid=") == pid) {
			s->on_cpu = false;
			if (state && state[12] == 'R') {
				s->runnable = true;
				s->since = ts;
			}
		}
		if (field(ev, " next_pid=") == pid) {
			close_stretch(s, ts);
			s->on_cpu = true;
		}
	} else if (field(ev, " pid=") == pid && !s->on_cpu && !s->runnable) {
		s->runnable = true;	/* sched_wakeup, sched_wakeup_new */
		s->since = ts;
	}
}

static int longest(const char *file, long pid, int64_t from, int64_t until)
{
	struct stretch s = { .from = from, .until = until };
	char line[1024];
	FILE *f = fopen(file, "r");
	int64_t ts;

	if (!f) {
		fprintf(stderr, "schedcap: %s: %s\n", file, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *ev = parse_event(line, &ts);

		if (ev)
			feed(&s, ev, ts, pid);
	}
	fclose(f);
	close_stretch(&s, until);
	printf("%" PRId64 " %" PRId64 "\n", s.longest, s.longest_at);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "record"))
		return record(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "longest"))
		return longest(argv[2], atol(argv[3]), atoll(argv[4]), atoll(argv[5]));
	fprintf(stderr, "usage: schedcap record NAME OUT | longest OUT PID FROM_NS UNTIL_NS\n");
	return 2;
}
