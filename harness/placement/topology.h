/* The machine's CPU topology through hwloc: resolving cpu specs into CPU
 * sets and describing the machine in one line. */
#ifndef STARVE_TOPOLOGY_H
#define STARVE_TOPOLOGY_H

#define _GNU_SOURCE 1
#include <sched.h>
#include <stddef.h>

#include "lib/cpuspec.h"

/* Loaded lazily once per process; all functions return -1 on error with a
 * message printed or in why. */
int topology_resolve(const struct cpuspec *spec, cpu_set_t *out, char *why, size_t why_len);
/* Parse and resolve text in one step (NULL or "" means all). */
int topology_cpus(const char *text, cpu_set_t *out, char *why, size_t why_len);
/* "1 package, 2 cores, 2 PUs, 1 NUMA node, L3 32MB" */
const char *topology_summary(char *buf, size_t len);
int topology_nr_pus(void);
/* Format a set as a list ("0-1,3"). */
const char *cpuset_format(const cpu_set_t *set, char *buf, size_t len);

#endif
