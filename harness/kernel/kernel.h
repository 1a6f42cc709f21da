/* Facts about the running kernel that decide what a run can measure and
 * how to read its numbers: release, tick rate, preemption model, schedstat
 * availability and the privileges this process has. */
#ifndef STARVE_KERNEL_H
#define STARVE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

struct kernel_info {
	char release[65];		/* uname -r */
	char version[65];		/* uname -v: "#1 SMP PREEMPT_DYNAMIC ..." */
	char config_source[128];		/* "/proc/config.gz", "/boot/config-<release>" or "" */
	int hz;				/* ticks per second */
	const char *hz_source;		/* "config" (CONFIG_HZ) or "measured" (coarse clock) */
	/* Preemption: the model in effect ("none", "voluntary", "full",
	 * "lazy", "rt" or "unknown"), whether it can change at boot or run
	 * time (CONFIG_PREEMPT_DYNAMIC), and where the model was learned:
	 * "debugfs" (sched/preempt), "cmdline" (preempt=), "config" or "uname". */
	const char *preempt;
	bool preempt_dynamic;
	const char *preempt_source;
	/* On a PREEMPT_RT kernel that is also dynamic (6.12-rt), the dynamic
	 * mode in effect ("full", "lazy"...) when debugfs tells; else NULL. */
	const char *preempt_rt_mode;
	/* The tick when idle, from the config: "periodic" (CONFIG_HZ_PERIODIC),
	 * "idle" (CONFIG_NO_HZ_IDLE), "full" (CONFIG_NO_HZ_FULL) or "unknown". */
	const char *nohz;
	bool schedstat_global;		/* /proc/schedstat exists */
	bool schedstat_task;		/* /proc/self/schedstat is readable */
	/* What the kernel offers beyond the basics, so a user sees why a feature
	 * is skipped: sched_ext (/sys/kernel/sched_ext, and its state: "disabled",
	 * "enabled"...), BTF (/sys/kernel/btf/vmlinux, which BPF mode needs), the
	 * sched tracepoints in tracefs (exact mode), the schedstats switch. */
	bool sched_ext, btf, sched_events, schedstats;
	char sched_ext_state[32];
	bool is_root;			/* effective uid 0 */
	bool cap_sys_nice;		/* CAP_SYS_NICE in the effective set */
	long rtprio_limit;		/* RLIMIT_RTPRIO soft limit; -1 for unlimited */
};

/* Fill INFO; never fails as a whole: what cannot be learned is "unknown". */
void kernel_probe(struct kernel_info *info);
/* "full (dynamic)", "none", "rt", "rt (dynamic: lazy)"... into buf. */
const char *kernel_preempt_text(const struct kernel_info *info, char *buf, size_t len);
/* The current model marked in debugfs sched/preempt TEXT, e.g. "full" in
 * "none voluntary (full) lazy" or "lazy" in "full (lazy)"; NULL if none. */
const char *kernel_preempt_parse(const char *text);

#endif
