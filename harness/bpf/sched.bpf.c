/* BPF aggregation mode, the in-kernel part: on sched_wakeup(_new) and
 * sched_switch (BTF-enabled tracepoints, CO-RE) it keeps, per task of the
 * run (tgids in `watched`), running and runnable time, every runnable
 * stretch in log-linear histograms, and the longest with its start and the task
 * it waited behind, all clipped to the measured window the controller sets
 * in window_from/window_until (CLOCK_MONOTONIC, bpf_ktime_get_ns). Its cost
 * follows scheduler events, not tasks: the controller reads the `tasks` map
 * at its rate. Children of the controller (root_tgid) and of watched
 * processes are watched from their birth (sched_process_fork), each in the
 * group of the load it belongs to: the controller's child that leads it.
 * A task that exits inside the window is merged into its group's record in
 * `exited` and its entry freed, so a load that forks without end never
 * fills the map (sched_process_exit). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sched-bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING 0

/* Set by the controller; until then nothing counts (from is all ones). */
__u64 window_from = ~0ULL, window_until = ~0ULL;
/* The controller: every process it forks, and theirs, is watched (not it). */
__u32 root_tgid;
/* Tasks the maps had no room for. */
__u64 lost;

/* Scheduler events seen, per CPU: one counter every CPU bumped on every
 * switch bounced its cache line between them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} events SEC(".maps");

static __always_inline void count_event(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&events, &zero);

	if (n)
		(*n)++;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SB_MAX_TASKS);
	__type(key, __u32);		/* tgid */
	__type(value, __u32);		/* its group: the tgid of the load's leader */
} watched SEC(".maps");

/* Per CPU, so two tasks of one load exiting at once never race (the
 * controller adds the CPUs' records up). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, SB_MAX_GROUPS);
	__type(key, __u32);		/* group */
	__type(value, struct sb_task);
} exited SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SB_MAX_TASKS);
	__type(key, __u32);		/* tid */
	__type(value, struct sb_task);
} tasks SEC(".maps");

/* task_struct's state was renamed __state in 5.14: read whichever exists. */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *p)
{
	if (bpf_core_field_exists(p->__state))
		return BPF_CORE_READ(p, __state);
	return BPF_CORE_READ((struct task_struct___pre514 *)p, state);
}

/* P's record when its process is watched (made on first sight), else NULL.
 * The record is looked up first: most events of a busy run are its own
 * tasks', which then cost one lookup, not two. A tid the window saw exit
 * is freed (sb_exit), so a record is never another task's. */
static __always_inline struct sb_task *task_of(struct task_struct *p)
{
	__u32 tgid, tid = BPF_CORE_READ(p, pid), *group;
	static const struct sb_task zero;
	struct sb_task *t;

	if (!tid)
		return NULL;
	t = bpf_map_lookup_elem(&tasks, &tid);
	if (t)
		return t;
	tgid = BPF_CORE_READ(p, tgid);
	group = bpf_map_lookup_elem(&watched, &tgid);
	if (!group)
		return NULL;
	if (bpf_map_update_elem(&tasks, &tid, &zero, BPF_NOEXIST) && !bpf_map_lookup_elem(&tasks, &tid)) {
		__sync_fetch_and_add(&lost, 1);
		return NULL;
	}
	t = bpf_map_lookup_elem(&tasks, &tid);
	if (t && !t->tid) {
		t->tid = tid;
		t->group = *group;
	}
	return t;
}

/* A child of the controller or of a watched process is watched from its
 * birth, before its first wakeup: loads, their workers, their commands. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(sb_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), tgid = BPF_CORE_READ(child, tgid);
	__u32 *pgroup, group;

	if (tgid == ptgid)
		return 0;	/* a thread: its process is watched already, or not */
	pgroup = bpf_map_lookup_elem(&watched, &ptgid);
	if (ptgid == root_tgid)
		group = tgid;	/* a load's leader leads its group */
	else if (pgroup)
		group = *pgroup;
	else
		return 0;
	if (bpf_map_update_elem(&watched, &tgid, &group, BPF_ANY))
		__sync_fetch_and_add(&lost, 1);
	return 0;
}

/* The part of [a, b] inside the window, or -1 when none. */
static __always_inline __s64 clipped(__u64 a, __u64 b, __u64 *from)
{
	__u64 lo = a > window_from ? a : window_from, hi = b < window_until ? b : window_until;

	*from = lo;
	return hi >= lo ? (__s64)(hi - lo) : -1;
}

static __always_inline void wait_from(struct sb_task *t, __u64 now, bool woken)
{
	t->wait_since = now;
	t->flags = (t->flags & ~SB_WOKEN) | SB_RUNNABLE | (woken ? SB_WOKEN : 0);
}

/* T's stretch ends at NOW: the CPU goes to it after PREV held it. */
static __always_inline void stretch_end(struct sb_task *t, __u64 now, struct task_struct *prev)
{
	__u64 from;
	__s64 ns = clipped(t->wait_since, now, &from);
	unsigned int b;

	if (ns < 0)
		return;
	b = sb_bucket((__u64)ns);
	t->stretches++;
	t->wait_ns += ns;
	if (b < SB_BUCKETS) {	/* sb_bucket keeps it so; the verifier wants to see it */
		t->wait_hist[b]++;
		if (t->flags & SB_WOKEN)
			t->wakeup_hist[b]++;
	}
	if (t->stretches > 1 && (__u64)ns <= t->longest_ns)
		return;
	t->longest_ns = ns;
	t->longest_from = from;
	t->longest_cpu = bpf_get_smp_processor_id();
	t->instead_pid = BPF_CORE_READ(prev, pid);
	t->instead_prio = BPF_CORE_READ(prev, prio);
	bpf_probe_read_kernel_str(t->instead_comm, sizeof(t->instead_comm), prev->comm);
}

static __always_inline int on_wakeup(struct task_struct *p)
{
	struct sb_task *t;

	count_event();
	t = task_of(p);
	/* running still (it woke before it slept), or waiting already */
	if (t && !(t->flags & (SB_ON_CPU | SB_RUNNABLE))) {
		wait_from(t, bpf_ktime_get_ns(), true);
		t->wakeups++;
	}
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sb_wakeup, struct task_struct *p)
{
	return on_wakeup(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sb_wakeup_new, struct task_struct *p)
{
	return on_wakeup(p);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sb_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns(), from;
	struct sb_task *t;
	__s64 ns;

	count_event();
	t = task_of(prev);
	if (t) {
		ns = t->flags & SB_ON_CPU ? clipped(t->on_since, now, &from) : -1;
		if (ns > 0)
			t->run_ns += ns;
		t->flags &= ~(SB_ON_CPU | SB_RUNNABLE);
		if (preempt || task_state(prev) == TASK_RUNNING)
			wait_from(t, now, false);	/* preempted: still runnable */
	}
	t = task_of(next);
	if (t) {
		if (t->flags & SB_RUNNABLE)
			stretch_end(t, now, prev);
		t->flags = (t->flags & ~SB_RUNNABLE) | SB_ON_CPU;
		t->on_since = now;
	}
	return 0;
}

/* A task that exits before the window closes goes into its group's record
 * and frees its entry; one that exits after keeps it (its figures are final,
 * and the controller reads each task's own). A process whose last thread
 * exits frees its watch. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(sb_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid), tid = BPF_CORE_READ(p, pid);
	static const struct sb_task zero;
	struct sb_task *t, *e;

	t = bpf_map_lookup_elem(&tasks, &tid);
	if (t && bpf_ktime_get_ns() < window_until) {
		e = bpf_map_lookup_elem(&exited, &t->group);
		if (!e) {
			bpf_map_update_elem(&exited, &t->group, &zero, BPF_NOEXIST);
			e = bpf_map_lookup_elem(&exited, &t->group);
		}
		if (e)
			sb_merge(e, t);
		else
			__sync_fetch_and_add(&lost, 1);
		bpf_map_delete_elem(&tasks, &tid);
	}
	/* signal->live is already down when the event fires: 0 is the last thread */
	if (!BPF_CORE_READ(p, signal, live.counter))
		bpf_map_delete_elem(&watched, &tgid);
	return 0;
}
