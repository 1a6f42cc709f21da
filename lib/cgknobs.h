/* The knobs a profile setting gives a cgroup of the cpu controller, named
 * as in cgroup v2 (harness/placement/cgroup-cpu.c translates them for v1),
 * and the parsing of cpu.max's text, shared by the profile parser and the
 * cgroup code. */
#ifndef STARVE_CGKNOBS_H
#define STARVE_CGKNOBS_H

#include <stddef.h>
#include <stdint.h>

/* The knobs of one cgroup; a field not given keeps the kernel's default. */
struct cgcpu_knobs {
	int64_t quota_us;	/* cpu.max quota; -1 "max"; 0 not given */
	int64_t period_us;	/* cpu.max period; 0 not given (100000) */
	int weight;		/* cpu.weight 1..10000; 0 not given */
	double uclamp_min, uclamp_max;	/* percent 0..100; < 0 not given */
};

/* Parse cpu.max's text as v2 writes it ("QUOTA PERIOD", "max PERIOD",
 * "QUOTA"), in microseconds, with the kernel's limits (quota >= 1 ms, period
 * 1 ms..1 s). -1 with why and *at the offending character. */
int cgcpu_parse_max(const char *text, struct cgcpu_knobs *k, size_t *at, char *why,
		    size_t why_len);

#endif
