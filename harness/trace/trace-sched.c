/* Exact runnable stretches from scheduler events (harness/trace/trace-sched.h):
 * a task table (pid -> task, open addressing), per-CPU rings of who ran
 * when, and the stretch bookkeeping of each event. */
#include "config.h"
#include "harness/trace/trace-sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "PID started running at TS" on one CPU; it ran until the next entry. */
struct tsched_run {
	int64_t ts_ns;
	pid_t pid;
};

struct tsched_ring {
	struct tsched_run *runs;
	size_t head, n;			/* next slot, entries held */
};

struct tsched {
	int nr_cpus;
	int64_t from_ns, until_ns;	/* the window (tsched_set_window) */
	size_t ring_size;
	struct tsched_ring *rings;
	struct tsched_task *tasks;
	size_t n_tasks, cap_tasks;
	size_t *index, index_size;	/* pid -> task index + 1 */
	uint64_t events;
	int (*policy_of)(void *data, pid_t pid);
	void *policy_data;
};

struct tsched *tsched_new(int nr_cpus, size_t ring)
{
	struct tsched *t = calloc(1, sizeof(*t));

	if (!t || nr_cpus <= 0 || !ring)
		goto fail;
	t->nr_cpus = nr_cpus;
	t->until_ns = INT64_MAX;
	t->ring_size = ring;
	t->rings = calloc((size_t)nr_cpus, sizeof(*t->rings));
	if (!t->rings)
		goto fail;
	for (int c = 0; c < nr_cpus; c++)
		if (!(t->rings[c].runs = calloc(ring, sizeof(struct tsched_run))))
			goto fail;
	return t;
fail:
	tsched_free(t);
	return NULL;
}

void tsched_free(struct tsched *t)
{
	if (!t)
		return;
	for (int c = 0; t->rings && c < t->nr_cpus; c++)
		free(t->rings[c].runs);
	for (size_t i = 0; i < t->n_tasks; i++) {
		free(t->tasks[i].wait);
		free(t->tasks[i].wakeup);
	}
	free(t->rings);
	free(t->tasks);
	free(t->index);
	free(t);
}

void tsched_set_window(struct tsched *t, int64_t from_ns, int64_t until_ns)
{
	t->from_ns = from_ns;
	t->until_ns = until_ns;
}

void tsched_set_policy_fn(struct tsched *t, int (*policy_of)(void *data, pid_t pid), void *data)
{
	t->policy_of = policy_of;
	t->policy_data = data;
}

/* ---- the task table ---- */

static size_t tsched_slot(const struct tsched *t, pid_t pid)
{
	size_t mask = t->index_size - 1, i = ((size_t)pid * 2654435761u) & mask;

	while (t->index[i] && t->tasks[t->index[i] - 1].pid != pid)
		i = (i + 1) & mask;
	return i;
}

static int tsched_grow(struct tsched *t)
{
	if (t->n_tasks == t->cap_tasks) {
		size_t cap = t->cap_tasks ? 2 * t->cap_tasks : 256;
		struct tsched_task *tasks = realloc(t->tasks, cap * sizeof(*tasks));

		if (!tasks)
			return -1;
		t->tasks = tasks;
		t->cap_tasks = cap;
	}
	if (2 * (t->n_tasks + 1) > t->index_size) {
		size_t size = t->index_size ? 2 * t->index_size : 512;
		size_t *index = calloc(size, sizeof(*index));

		if (!index)
			return -1;
		free(t->index);
		t->index = index;
		t->index_size = size;
		for (size_t i = 0; i < t->n_tasks; i++)
			t->index[tsched_slot(t, t->tasks[i].pid)] = i + 1;
	}
	return 0;
}

/* The task PID, added when new; NULL for the idle task or out of memory. */
static struct tsched_task *tsched_get(struct tsched *t, pid_t pid, int prio, const char *comm)
{
	struct tsched_task *k;
	size_t slot;

	if (pid <= 0)
		return NULL;
	if (t->index_size) {
		slot = tsched_slot(t, pid);
		if (t->index[slot]) {
			k = &t->tasks[t->index[slot] - 1];
			goto found;
		}
	}
	if (tsched_grow(t) < 0)
		return NULL;
	k = &t->tasks[t->n_tasks];
	memset(k, 0, sizeof(*k));
	k->pid = pid;
	k->cpu = -1;
	t->index[tsched_slot(t, pid)] = ++t->n_tasks;
found:
	if (comm) {
		strncpy(k->comm, comm, TSCHED_COMM_LEN - 1);
		k->comm[TSCHED_COMM_LEN - 1] = '\0';
	}
	if (prio >= -1)
		k->prio = prio;
	return k;
}

const struct tsched_task *tsched_find(const struct tsched *t, pid_t pid)
{
	size_t slot;

	if (!t->index_size || pid <= 0)
		return NULL;
	slot = tsched_slot(t, pid);
	return t->index[slot] ? &t->tasks[t->index[slot] - 1] : NULL;
}

uint64_t tsched_events(const struct tsched *t)
{
	return t->events;
}

/* ---- who ran instead ---- */

static void tsched_ring_push(struct tsched *t, int cpu, int64_t ts, pid_t pid)
{
	struct tsched_ring *r = &t->rings[cpu];

	r->runs[r->head] = (struct tsched_run){ .ts_ns = ts, .pid = pid };
	r->head = (r->head + 1) % t->ring_size;
	if (r->n < t->ring_size)
		r->n++;
}

/* Add NS of PID to L's holders, keeping the largest TSCHED_MAX_INSTEAD. */
static void tsched_hold(struct tsched_longest *l, pid_t pid, int64_t ns)
{
	size_t i;

	for (i = 0; i < l->n_holders; i++)
		if (l->holders[i].pid == pid) {
			l->holders[i].ns += ns;
			return;
		}
	if (l->n_holders < TSCHED_MAX_INSTEAD) {
		l->holders[l->n_holders++] = (struct tsched_holder){ .pid = pid, .ns = ns };
		return;
	}
	l->others_ns += ns;
}

static int tsched_holder_cmp(const void *a, const void *b)
{
	const struct tsched_holder *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* Who ran on CPU over [FROM, TO], from its ring (newest first). */
static void tsched_holders(struct tsched *t, struct tsched_longest *l, int cpu, int64_t from,
			   int64_t to)
{
	const struct tsched_ring *r = &t->rings[cpu];
	int64_t end = to;
	size_t i;

	l->n_holders = 0;
	l->others_ns = 0;
	l->partial = true;
	for (i = 0; i < r->n; i++) {
		const struct tsched_run *run = &r->runs[(r->head + t->ring_size - 1 - i) % t->ring_size];
		int64_t start = run->ts_ns > from ? run->ts_ns : from;

		if (run->ts_ns < to && end > start)
			tsched_hold(l, run->pid, end - start);
		if (run->ts_ns <= from) {
			l->partial = false;
			break;
		}
		if (run->ts_ns < end)
			end = run->ts_ns;
	}
	for (i = 0; i < l->n_holders; i++) {
		struct tsched_holder *h = &l->holders[i];
		const struct tsched_task *k = tsched_find(t, h->pid);

		snprintf(h->comm, sizeof(h->comm), "%s", h->pid ? (k ? k->comm : "?") : "<idle>");
		h->prio = k ? k->prio : 120;
		h->policy = h->pid && t->policy_of ? t->policy_of(t->policy_data, h->pid) : -1;
	}
	qsort(l->holders, l->n_holders, sizeof(l->holders[0]), tsched_holder_cmp);
}

/* ---- stretches ---- */

/* K's stretch ends at TS (it runs, or the window ends): only its part
 * inside the window counts, and one wholly outside it not at all. */
static void tsched_close(struct tsched *t, struct tsched_task *k, int64_t ts)
{
	int64_t from = k->since_ns > t->from_ns ? k->since_ns : t->from_ns;
	int64_t to = ts < t->until_ns ? ts : t->until_ns, ns = to - from;

	if (ns < 0)
		return;
	if (!k->wait) {
		k->wait = malloc(sizeof(*k->wait));
		k->wakeup = malloc(sizeof(*k->wakeup));
		if (!k->wait || !k->wakeup) {
			free(k->wait);
			free(k->wakeup);
			k->wait = k->wakeup = NULL;
			return;
		}
		hist_init(k->wait);
		hist_init(k->wakeup);
	}
	k->stretches++;
	hist_record(k->wait, (uint64_t)ns);
	if (k->woken)
		hist_record(k->wakeup, (uint64_t)ns);
	if (ns > k->longest.ns && k->cpu >= 0 && k->cpu < t->nr_cpus) {
		int64_t on_cpu = k->cpu_since_ns > from ? k->cpu_since_ns : from;

		k->longest.ns = ns;
		k->longest.from_ns = from;
		k->longest.to_ns = to;
		k->longest.cpu = k->cpu;
		tsched_holders(t, &k->longest, k->cpu, on_cpu, to);
	}
}

static void tsched_wait_from(struct tsched_task *k, int64_t ts, int cpu, bool woken)
{
	k->runnable = k->start_known = true;
	k->woken = woken;
	k->since_ns = k->cpu_since_ns = ts;
	k->cpu = cpu;
}

void tsched_switch(struct tsched *t, int64_t ts_ns, int cpu, pid_t prev, int prev_prio,
		   bool prev_runnable, const char *prev_comm, pid_t next, int next_prio,
		   const char *next_comm)
{
	struct tsched_task *k;

	t->events++;
	if (cpu < 0 || cpu >= t->nr_cpus)
		return;
	tsched_ring_push(t, cpu, ts_ns, next);
	k = tsched_get(t, prev, prev_prio, prev_comm);
	if (k) {
		k->on_cpu = false;
		k->seen_off = true;
		k->runnable = false;
		if (prev_runnable)
			tsched_wait_from(k, ts_ns, cpu, false);
	}
	k = tsched_get(t, next, next_prio, next_comm);
	if (!k)
		return;
	if (k->runnable && k->start_known) {
		k->cpu = cpu;
		tsched_close(t, k, ts_ns);
	} else if (k->seen_off && ts_ns >= t->from_ns && ts_ns <= t->until_ns) {
		k->unknown_starts++;	/* woken where the events were not traced */
	}
	k->on_cpu = true;
	k->runnable = false;
	k->cpu = cpu;
}

void tsched_wakeup(struct tsched *t, int64_t ts_ns, pid_t pid, int prio, int target_cpu,
		   const char *comm)
{
	struct tsched_task *k;

	t->events++;
	k = tsched_get(t, pid, prio, comm);
	/* Running still (it woke before it slept), or waiting already. */
	if (!k || k->on_cpu || k->runnable)
		return;
	tsched_wait_from(k, ts_ns, target_cpu, true);
}

void tsched_migrate(struct tsched *t, int64_t ts_ns, pid_t pid, int dest_cpu)
{
	struct tsched_task *k;

	t->events++;
	k = tsched_get(t, pid, -2, NULL);
	if (!k)
		return;
	k->cpu = dest_cpu;
	k->cpu_since_ns = ts_ns;
}

void tsched_finish(struct tsched *t, int64_t end_ns)
{
	for (size_t i = 0; i < t->n_tasks; i++) {
		struct tsched_task *k = &t->tasks[i];

		if (k->runnable && k->start_known && !k->on_cpu) {
			tsched_close(t, k, end_ns);
			k->runnable = false;
		}
	}
}
