/* What besides the kernel's scheduler shapes a run's numbers: the clock
 * source (a clock-polling loop runs 16 times slower on the HPET than on the
 * TSC), the tick, the command line, the CPU and its governor, the
 * speculation mitigations, steal and whether the machine is virtual or
 * emulated. `starve env` prints them and result.json keeps them under
 * "confounders", so `starve compare` can say which differ between sides. */
#ifndef STARVE_CONFOUNDERS_H
#define STARVE_CONFOUNDERS_H

#include "harness/kernel/kernel.h"

#include <stdbool.h>
#include <stddef.h>

#define CONFOUNDERS_MAX_MITIGATIONS 32

struct confounder_mitigation {
	char name[48];			/* the file in /sys/devices/system/cpu/vulnerabilities */
	char text[160];			/* "Not affected", "Mitigation: ...", "Vulnerable" */
};

struct confounders {
	char clocksource[32];		/* current_clocksource, or "" unknown */
	char clocksources[192];		/* available_clocksource, space-separated */
	const char *nohz;		/* from the kernel config: kernel_info.nohz */
	char nohz_full[64];		/* the nohz_full= CPU list, "" none */
	char cmdline[1024];		/* /proc/cmdline without its newline */
	char cpu_model[96];		/* /proc/cpuinfo model name */
	int cpus;			/* online CPUs */
	char governor[32];		/* cpu0's scaling_governor, "" without cpufreq */
	struct confounder_mitigation mitigations[CONFOUNDERS_MAX_MITIGATIONS];
	size_t n_mitigations;
	double steal_share;		/* of all CPU time since boot (/proc/stat); -1 unknown */
	char hypervisor[16];		/* CPUID 0x40000000 signature ("KVMKVMKVM", "TCGTCGTCGTCG"), "" */
	char dmi_vendor[64];		/* /sys/class/dmi/id/sys_vendor, "" */
	bool virtualised;		/* CPUID's hypervisor bit */
	bool emulated;			/* an emulator (qemu TCG), not hardware virtualisation */
};

/* Fill C; never fails: what cannot be read stays empty. */
void confounders_probe(struct confounders *c, const struct kernel_info *kernel);
/* The text lines of `starve env`. */
void confounders_print(const struct confounders *c);

#endif
