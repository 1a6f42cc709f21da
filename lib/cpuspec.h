/* CPU specs as profiles write them, hwloc-style: "pu:1", "pu:0-3",
 * "pu:0,2", "core:0", "core:0-1", "numa:0", "all", and lists joined with
 * '+' ("pu:0+pu:3"). Parsing here is syntax only and needs no hwloc;
 * harness/placement/topology.c resolves a spec against the machine. */
#ifndef STARVE_CPUSPEC_H
#define STARVE_CPUSPEC_H

#include <stddef.h>

enum cpuspec_kind { CPUSPEC_ALL, CPUSPEC_PU, CPUSPEC_CORE, CPUSPEC_NUMA };

#define CPUSPEC_MAX_TERMS 16

struct cpuspec_term {
	enum cpuspec_kind kind;
	unsigned first, last;		/* inclusive range of indices */
};

struct cpuspec {
	struct cpuspec_term terms[CPUSPEC_MAX_TERMS];
	size_t n_terms;
};

/* Returns -1 with why filled ("bad cpu spec 'pu:x': expected a number after
 * 'pu:'") and *err_offset set to the offending character's offset. */
int cpuspec_parse(const char *text, struct cpuspec *out, size_t *err_offset,
		  char *why, size_t why_len);

#endif
