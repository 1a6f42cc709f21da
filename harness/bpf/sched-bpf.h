/* What the BPF program (sched.bpf.c) and the controller (bpf-sched.c) share:
 * the per-task record the program keeps in its `tasks` map, and merged per
 * load (group) in `exited` for the tasks that exited. Plain types
 * only, so it compiles both with vmlinux.h (clang -target bpf) and with the
 * C library's headers. */
#ifndef STARVE_SCHED_BPF_H
#define STARVE_SCHED_BPF_H

/* Waits in ns, log-linear: values below 4 get a bucket each; above, every
 * power of two 2^k (k >= 2) is split in 4: bucket 4(k - 1) + the two bits
 * after the leading one, so a bucket is at most 25% of its value wide. */
#define SB_SUB_BITS 2
#define SB_MAX_LOG2 40		/* 2^40 ns, 18 minutes: longer waits share the last bucket */
#define SB_BUCKETS (4 * SB_MAX_LOG2)
/* The bucket of a wait of V ns. */
static inline unsigned int sb_bucket(unsigned long long v)
{
	unsigned long long x = v;
	unsigned int k = 0, b;

	if (v < 4)
		return (unsigned int)v;
	for (int i = 32; i > 0; i /= 2)
		if (x >> i) {
			x >>= i;
			k += (unsigned int)i;
		}
	b = 4 * (k - 1) + (unsigned int)((v >> (k - SB_SUB_BITS)) & 3);
	return b < SB_BUCKETS ? b : SB_BUCKETS - 1;
}

#define SB_MAX_TASKS 8192	/* live tasks the map holds; more are counted as lost */
#define SB_MAX_GROUPS 1024	/* loads and attached processes whose exited tasks are kept */
#define SB_COMM_LEN 16

#define SB_RUNNABLE 0x1		/* waiting for a CPU since wait_since */
#define SB_ON_CPU 0x2		/* running since on_since */
#define SB_WOKEN 0x4		/* the open stretch began with a wakeup */

struct sb_task {
	unsigned long long wait_since, on_since;	/* CLOCK_MONOTONIC ns */
	unsigned long long run_ns, wait_ns;		/* inside the window */
	unsigned long long stretches, wakeups;
	unsigned long long longest_ns, longest_from;	/* the longest stretch, clipped */
	unsigned int longest_cpu, instead_pid;		/* where; who was on the CPU before it */
	unsigned int instead_prio, flags;		/* the holder's prio (kernel's), SB_* */
	unsigned int tid, group;			/* whose (the longest's, merged); its load */
	char instead_comm[SB_COMM_LEN];
	unsigned int wait_hist[SB_BUCKETS];		/* every stretch */
	unsigned int wakeup_hist[SB_BUCKETS];		/* stretches that began with a wakeup */
};

/* T's figures added to E, a record of many tasks (a load's exited ones, or
 * the CPUs' parts of it): E's longest wait is the longest of all, with
 * whose it was in E->tid. Both sides merge with it. */
static inline void sb_merge(struct sb_task *e, const struct sb_task *t)
{
	e->run_ns += t->run_ns;
	e->wait_ns += t->wait_ns;
	e->stretches += t->stretches;
	e->wakeups += t->wakeups;
	for (int i = 0; i < SB_BUCKETS; i++) {
		e->wait_hist[i] += t->wait_hist[i];
		e->wakeup_hist[i] += t->wakeup_hist[i];
	}
	if (!t->stretches || (e->tid && t->longest_ns <= e->longest_ns))
		return;
	e->longest_ns = t->longest_ns;
	e->longest_from = t->longest_from;
	e->longest_cpu = t->longest_cpu;
	e->instead_pid = t->instead_pid;
	e->instead_prio = t->instead_prio;
	__builtin_memcpy(e->instead_comm, t->instead_comm, sizeof(e->instead_comm));
	e->tid = t->tid;
}

#endif
