/* Machine noise during a run: how much of the loads' CPUs other tasks used
 * while we measured. From /proc/stat: busy time (user, nice, system, irq,
 * softirq, steal) of those CPUs over the window, minus our loads' own CPU
 * time, over the CPUs' total time; and the share of it the hypervisor stole
 * (steal). A noisy run's verdicts are undecided. */
#ifndef STARVE_NOISE_H
#define STARVE_NOISE_H

#define _GNU_SOURCE 1
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct noise_sample {
	uint64_t busy_ticks;	/* summed over the CPUs asked for, USER_HZ ticks */
	uint64_t total_ticks;	/* busy + idle + iowait */
	uint64_t steal_ticks;	/* time the hypervisor ran something else (in busy) */
	unsigned cpus;		/* how many of them /proc/stat listed */
};

/* Parse /proc/stat's text for the CPUs in CPUS. Returns -1 when no line matched. */
int noise_parse(const char *text, const cpu_set_t *cpus, struct noise_sample *out);
/* Read /proc/stat now. */
int noise_sample(const cpu_set_t *cpus, struct noise_sample *out);
/* Share in [0, 1] of the CPUs' time used by others: (busy delta - OURS_NS)
 * / total delta; 0 when the window is empty. */
double noise_other_share(const struct noise_sample *before, const struct noise_sample *after,
			 int64_t ours_ns);
/* Share in [0, 1] of the CPUs' time stolen by the hypervisor: on a VM,
 * CPU time that vanishes (and may reappear at once in a task's clock). */
double noise_steal_share(const struct noise_sample *before, const struct noise_sample *after);

#endif
