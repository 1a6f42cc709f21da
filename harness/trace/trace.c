/* Exact mode's ftrace plumbing (harness/trace/trace.h): the tracefs instance,
 * the events, the draining thread, and the decoding of each record into a
 * call of trace-sched.h. Events drained from the per-CPU buffers arrive
 * sorted within one read but a later read may bring older events of another
 * CPU, so each read's events wait in a pending list until they are older
 * than the start of the read (on the CLOCK_MONOTONIC trace clock): every
 * event before that moment has been read by then. */
#include "config.h"
#include "harness/trace/trace.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>

/* Events written while a read runs may land in the next read: wait this
 * much past a read's start before events are final. */
#define TRACE_SETTLE_NS (2 * NSEC_PER_MSEC)

enum trace_kind { TRACE_SWITCH, TRACE_WAKEUP, TRACE_MIGRATE, TRACE_NR_KINDS };

/* One decoded event, waiting for its turn. */
struct trace_ev {
	int64_t ts;
	int kind, cpu;
	pid_t a, b;			/* prev/next; the wakee; the migrated */
	int prio_a, prio_b, arg;	/* arg: prev runnable; target CPU; dest CPU */
	char comm_a[TSCHED_COMM_LEN], comm_b[TSCHED_COMM_LEN];
};

/* The fields each event kind is read by. */
#define TRACE_MAX_FIELDS 7
struct trace_fields {
	int id;
	struct tep_format_field *f[TRACE_MAX_FIELDS];
};

struct trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	cpu_set_t cpus;
	struct trace_fields kinds[TRACE_NR_KINDS], wakeup_new;
	struct tsched *sched;
	struct trace_ev *pending;
	size_t n_pending, cap_pending;
	pthread_t thread;
	bool thread_running;
	atomic_bool stop;
	_Atomic int64_t from_ns, until_ns;	/* the window, for trace-sched */
	int64_t drain_cpu_ns;
	uint64_t lost, events;
	int64_t on_ns, off_ns;		/* tracing was on from, until */
	bool failed;
};

void trace_instance_name(char *buf, size_t len)
{
	snprintf(buf, len, "starve-%d", (int)getpid());
}

bool trace_available(char *why, size_t len)
{
	const char *dir = NULL;
	char path[512];

	why[0] = '\0';
	if (geteuid() != 0) {
		snprintf(why, len, "exact mode needs root (it creates a tracefs instance)");
		return false;
	}
	/* libtracefs would mount tracefs where it is missing (trace-cmd and
	 * rtla let it); on a live, shared machine starve mounts nothing it
	 * would then have to unmount behind someone else's back. */
	if (!tracefs_tracing_dir_is_mounted(false, &dir) || !dir) {
		snprintf(why, len, "tracefs is not mounted (mount -t tracefs nodev "
			 "/sys/kernel/tracing, then run again)");
		return false;
	}
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	if (access(path, R_OK) < 0) {
		snprintf(why, len, "%s has no sched events (a kernel without CONFIG_TRACING?)", dir);
		return false;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK) < 0) {
		snprintf(why, len, "cannot create tracefs instances in %s: %s", path, strerror(errno));
		return false;
	}
	return true;
}

/* ---- decoding ---- */

static int trace_find_fields(struct trace *t, struct trace_fields *tf, const char *event,
			     const char *const names[TRACE_MAX_FIELDS])
{
	struct tep_event *e = tep_find_event_by_name(t->tep, "sched", event);

	if (!e)
		return -1;
	tf->id = e->id;
	for (int i = 0; i < TRACE_MAX_FIELDS && names[i]; i++)
		if (!(tf->f[i] = tep_find_field(e, names[i])))
			return -1;
	return 0;
}

static int trace_setup_fields(struct trace *t)
{
	static const char *const sw[TRACE_MAX_FIELDS] = { "prev_pid", "prev_prio", "prev_state",
							  "next_pid", "next_prio", "prev_comm",
							  "next_comm" };
	static const char *const wk[TRACE_MAX_FIELDS] = { "pid", "prio", "target_cpu", "comm" };
	static const char *const mg[TRACE_MAX_FIELDS] = { "pid", "dest_cpu" };

	if (trace_find_fields(t, &t->kinds[TRACE_SWITCH], "sched_switch", sw) < 0 ||
	    trace_find_fields(t, &t->kinds[TRACE_WAKEUP], "sched_wakeup", wk) < 0 ||
	    trace_find_fields(t, &t->kinds[TRACE_MIGRATE], "sched_migrate_task", mg) < 0)
		return -1;
	/* sched_wakeup_new has sched_wakeup's fields: a new task is runnable */
	return trace_find_fields(t, &t->wakeup_new, "sched_wakeup_new", wk);
}

static long long trace_num(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field(f, r->data, &v);
	return (long long)v;
}

static void trace_comm(char *out, struct tep_format_field *f, struct tep_record *r)
{
	size_t n = f && f->size < TSCHED_COMM_LEN ? (size_t)f->size : TSCHED_COMM_LEN - 1;

	if (!f || f->offset + (int)n > r->size) {
		out[0] = '\0';
		return;
	}
	memcpy(out, (const char *)r->data + f->offset, n);
	out[n] = '\0';
}

static int trace_decode(struct trace *t, struct tep_record *r, int id, struct trace_ev *ev)
{
	struct trace_fields *k;

	memset(ev, 0, sizeof(*ev));
	ev->ts = (int64_t)r->ts;
	ev->cpu = r->cpu;
	if (id == t->kinds[TRACE_SWITCH].id) {
		k = &t->kinds[TRACE_SWITCH];
		ev->kind = TRACE_SWITCH;
		ev->a = (pid_t)trace_num(k->f[0], r);
		ev->prio_a = (int)trace_num(k->f[1], r);
		/* TASK_RUNNING is 0; preemption sets a bit above the states */
		ev->arg = (trace_num(k->f[2], r) & 0xff) == 0;
		ev->b = (pid_t)trace_num(k->f[3], r);
		ev->prio_b = (int)trace_num(k->f[4], r);
		trace_comm(ev->comm_a, k->f[5], r);
		trace_comm(ev->comm_b, k->f[6], r);
		return 0;
	}
	k = id == t->kinds[TRACE_WAKEUP].id ? &t->kinds[TRACE_WAKEUP] :
	    id == t->wakeup_new.id ? &t->wakeup_new : NULL;
	if (k) {
		ev->kind = TRACE_WAKEUP;
		ev->a = (pid_t)trace_num(k->f[0], r);
		ev->prio_a = (int)trace_num(k->f[1], r);
		ev->arg = (int)trace_num(k->f[2], r);
		trace_comm(ev->comm_a, k->f[3], r);
		return 0;
	}
	if (id == t->kinds[TRACE_MIGRATE].id) {
		k = &t->kinds[TRACE_MIGRATE];
		ev->kind = TRACE_MIGRATE;
		ev->a = (pid_t)trace_num(k->f[0], r);
		ev->arg = (int)trace_num(k->f[1], r);
		return 0;
	}
	return -1;
}

static int trace_on_record(struct tep_event *e, struct tep_record *r, int cpu, void *data)
{
	struct trace *t = data;
	struct trace_ev ev;

	(void)cpu;
	if (r->missed_events > 0)
		t->lost += (uint64_t)r->missed_events;
	if (trace_decode(t, r, e->id, &ev) < 0)
		return 0;
	if (t->n_pending == t->cap_pending) {
		size_t cap = t->cap_pending ? 2 * t->cap_pending : 4096;
		struct trace_ev *p = realloc(t->pending, cap * sizeof(*p));

		if (!p) {
			t->failed = true;
			return 1;
		}
		t->pending = p;
		t->cap_pending = cap;
	}
	t->pending[t->n_pending++] = ev;
	t->events++;
	return 0;
}

static int trace_ev_cmp(const void *a, const void *b)
{
	const struct trace_ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : 0;
}

static void trace_feed(struct trace *t, const struct trace_ev *ev)
{
	tsched_set_window(t->sched, atomic_load(&t->from_ns), atomic_load(&t->until_ns));
	if (ev->kind == TRACE_SWITCH)
		tsched_switch(t->sched, ev->ts, ev->cpu, ev->a, ev->prio_a, ev->arg, ev->comm_a,
			      ev->b, ev->prio_b, ev->comm_b);
	else if (ev->kind == TRACE_WAKEUP)
		tsched_wakeup(t->sched, ev->ts, ev->a, ev->prio_a, ev->arg, ev->comm_a);
	else
		tsched_migrate(t->sched, ev->ts, ev->a, ev->arg);
}

/* Read what the buffers hold; feed the events older than UNTIL_NS (all of
 * them when UNTIL_NS is INT64_MAX). */
static void trace_drain(struct trace *t, int64_t until_ns)
{
	size_t i, kept = 0;

	tracefs_iterate_raw_events(t->tep, t->inst, &t->cpus, sizeof(t->cpus), trace_on_record, t);
	qsort(t->pending, t->n_pending, sizeof(*t->pending), trace_ev_cmp);
	for (i = 0; i < t->n_pending && t->pending[i].ts < until_ns; i++)
		trace_feed(t, &t->pending[i]);
	for (; i < t->n_pending; i++)
		t->pending[kept++] = t->pending[i];
	t->n_pending = kept;
}

static void *trace_thread(void *arg)
{
	struct trace *t = arg;
	int64_t cpu0 = thread_cpu_ns();

	while (!atomic_load(&t->stop)) {
		int64_t start = mono_ns();

		trace_drain(t, start - TRACE_SETTLE_NS);
		sleep_until_ns(start + TRACE_DRAIN_NS);
	}
	t->drain_cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

/* ---- the instance ---- */

static int trace_policy_of(void *data, pid_t pid)
{
	(void)data;
	return sched_getscheduler(pid);
}

static int trace_setup(struct trace *t, const char *name, char *why, size_t len)
{
	static const char *const events[] = { "sched_switch", "sched_wakeup", "sched_wakeup_new",
					      "sched_migrate_task" };
	const char *systems[] = { "sched", NULL };

	if (!trace_available(why, len))
		return -1;
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		snprintf(why, len, "cannot create tracefs instance %s: %s", name, strerror(errno));
		return -1;
	}
	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep || trace_setup_fields(t) < 0) {
		snprintf(why, len, "cannot read the sched events' formats");
		return -1;
	}
	if (tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_set_buffer_size(t->inst, TRACE_BUFFER_KB, -1) < 0 ||
	    tracefs_instance_set_affinity_set(t->inst, &t->cpus, sizeof(t->cpus)) < 0) {
		snprintf(why, len, "cannot set up tracefs instance %s (clock, buffer, CPUs)", name);
		return -1;
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (tracefs_event_enable(t->inst, "sched", events[i]) < 0) {
			snprintf(why, len, "cannot enable sched:%s in %s", events[i], name);
			return -1;
		}
	return 0;
}

/* One more than the highest CPU in CPUS: the rings trace-sched keeps. */
static int trace_nr_cpus(const cpu_set_t *cpus)
{
	int n = 1;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, cpus))
			n = c + 1;
	return n;
}

struct trace *trace_start(const cpu_set_t *cpus, char *why, size_t len)
{
	struct trace *t = calloc(1, sizeof(*t));
	char name[64];

	if (!t) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	t->cpus = *cpus;
	trace_instance_name(name, sizeof(name));
	t->sched = tsched_new(trace_nr_cpus(cpus), TRACE_RING);
	if (!t->sched) {
		snprintf(why, len, "out of memory");
		trace_free(t);
		return NULL;
	}
	tsched_set_policy_fn(t->sched, trace_policy_of, NULL);
	atomic_store(&t->from_ns, INT64_MAX);	/* nothing counts before trace_set_window */
	atomic_store(&t->until_ns, INT64_MAX);
	if (trace_setup(t, name, why, len) < 0 || tracefs_trace_on(t->inst) < 0 ||
	    pthread_create(&t->thread, NULL, trace_thread, t) != 0) {
		if (!why[0])
			snprintf(why, len, "cannot start tracing in %s", name);
		trace_free(t);
		return NULL;
	}
	t->on_ns = mono_ns();	/* tracing_on is set: every event from here is kept */
	t->thread_running = true;
	return t;
}

void trace_set_window(struct trace *t, int64_t from_ns, int64_t until_ns)
{
	atomic_store(&t->until_ns, until_ns);
	atomic_store(&t->from_ns, from_ns);
}

void trace_covered(const struct trace *t, int64_t *on_ns, int64_t *off_ns)
{
	*on_ns = t->on_ns;
	*off_ns = t->off_ns;
}

/* Dropped and overrun events of each traced CPU, from per_cpu/cpuN/stats. */
static uint64_t trace_dropped(struct trace *t)
{
	uint64_t total = 0;
	char file[64];

	for (int c = 0; c < CPU_SETSIZE; c++) {
		char *text, *p;

		if (!CPU_ISSET(c, &t->cpus))
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c);
		text = tracefs_instance_file_read(t->inst, file, NULL);
		if (!text)
			continue;
		if ((p = strstr(text, "\noverrun: ")))
			total += strtoull(p + 10, NULL, 10);
		if ((p = strstr(text, "\ndropped events: ")))
			total += strtoull(p + 17, NULL, 10);
		free(text);
	}
	return total;
}

static void trace_remove(struct trace *t)
{
	if (!t->inst)
		return;
	tracefs_trace_off(t->inst);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
}

int trace_stop(struct trace *t, int64_t end_ns, char *why, size_t len)
{
	int64_t cpu0;
	uint64_t dropped;

	t->off_ns = mono_ns();
	tracefs_trace_off(t->inst);
	atomic_store(&t->stop, true);
	if (t->thread_running)
		pthread_join(t->thread, NULL);
	t->thread_running = false;
	cpu0 = thread_cpu_ns();
	trace_drain(t, INT64_MAX);
	t->drain_cpu_ns += thread_cpu_ns() - cpu0;
	dropped = trace_dropped(t);
	if (dropped > t->lost)
		t->lost = dropped;
	tsched_finish(t->sched, end_ns);
	trace_remove(t);
	if (t->failed) {
		snprintf(why, len, "out of memory while reading the events");
		return -1;
	}
	return 0;
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	if (t->thread_running) {
		atomic_store(&t->stop, true);
		pthread_join(t->thread, NULL);
	}
	trace_remove(t);
	if (t->tep)
		tep_free(t->tep);
	tsched_free(t->sched);
	free(t->pending);
	free(t);
}

const struct tsched *trace_sched(const struct trace *t)
{
	return t->sched;
}

uint64_t trace_lost(const struct trace *t)
{
	return t->lost;
}

uint64_t trace_events(const struct trace *t)
{
	return t->events;
}

double trace_cpu_s(const struct trace *t)
{
	return (double)t->drain_cpu_ns / NSEC_PER_SEC;
}
