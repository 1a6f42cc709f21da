/* BPF aggregation mode: a BPF program on the scheduler's tracepoints
 * (harness/bpf/sched.bpf.c: sched_wakeup, sched_wakeup_new, sched_switch)
 * keeps every watched task's running and runnable time, its waits in a
 * histogram and its longest wait with where it began and who held the CPU,
 * in maps the controller reads when it wants: the cost follows scheduler
 * events, not the number of tasks, so it scales where /proc polling cannot.
 *
 * Built only when configure finds clang, bpftool, libbpf and the kernel's
 * BTF; it runs where the kernel allows (root or CAP_BPF + CAP_PERFMON,
 * CONFIG_BPF_SYSCALL, BTF at /sys/kernel/btf/vmlinux). Nothing on the machine
 * changes: the program and its maps go away with the process (run-time
 * statistics are enabled through a descriptor, never the sysctl). */
#ifndef STARVE_BPF_SCHED_H
#define STARVE_BPF_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/bpf/sched-bpf.h"
#include "lib/histogram.h"

struct bpfsched;

/* Whether BPF mode can run here; when not, WHY says why. */
bool bpfsched_available(char *why, size_t len);

/* Load and attach the program. NULL with WHY filled when it cannot. Every
 * process this one forks from now on, and their children, is watched;
 * nothing counts until bpfsched_set_window. */
struct bpfsched *bpfsched_start(char *why, size_t len);
void bpfsched_free(struct bpfsched *b);

/* Watch every thread of process TGID, and the processes it forks, as one
 * group named TGID. -1 when the map is full. */
int bpfsched_watch(struct bpfsched *b, pid_t tgid);
/* Count only inside [FROM_NS, UNTIL_NS] (CLOCK_MONOTONIC): a wait or a
 * run crossing an end counts its part inside. */
void bpfsched_set_window(struct bpfsched *b, int64_t from_ns, int64_t until_ns);

/* TID's record as the program keeps it, a wait still open counted up to
 * the window's end; -1 when it was never seen. */
int bpfsched_read(const struct bpfsched *b, pid_t tid, struct sb_task *out);
/* The merged record of GROUP's tasks that exited inside the window (their
 * entries freed then); -1 when none did. */
int bpfsched_read_exited(const struct bpfsched *b, pid_t group, struct sb_task *out);
/* A record's histogram in the project's layout (each bucket's count at
 * the middle of its range, none above MAX_NS: the exact longest wait). */
void bpfsched_hist(const unsigned int buckets[SB_BUCKETS], uint64_t max_ns,
		   struct histogram *out);

/* The lowest wait in bucket I (sb_bucket's inverse). */
uint64_t bpfsched_bucket_lower(unsigned i);

/* Scheduler events the program handled, tasks it had no room for, and the
 * CPU time its programs took (from the kernel's run-time statistics, 0 when
 * those could not be enabled). */
uint64_t bpfsched_events(const struct bpfsched *b);
uint64_t bpfsched_lost(const struct bpfsched *b);
double bpfsched_cpu_s(const struct bpfsched *b);

#endif
