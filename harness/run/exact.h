/* Exact mode in a run (profile key trace, starve run --trace): the engine's
 * side of harness/trace/trace.h. The tracefs instance is journaled before it
 * is created and dropped from the journal once removed; its figures go into
 * the run's load records (their sampler tasks name the tids); the serialiser
 * writes them and a "trace" object (doc/result-format.md "Exact mode"). Where tracefs is not
 * mounted, the run mounts it (journaled; harness/kernel/kfs-mount.h) and
 * unmounts it when tracing ends. */
#ifndef STARVE_RUN_EXACT_H
#define STARVE_RUN_EXACT_H

#define _GNU_SOURCE 1
#include <stdbool.h>
#include <sched.h>
#include <stdint.h>

#include "harness/kernel/journal.h"
#include "harness/run/record.h"
#include "harness/sampler/sampler.h"
#include "harness/trace/trace.h"

/* Whether exact mode can run here: trace_available(), or tracefs is not
 * mounted but a run (as root) can mount it. WHY says why not. */
bool exact_available(char *why, size_t len);
/* -1 (message printed, nothing changed) when exact mode is asked for but
 * cannot run here. */
int exact_check(void);

/* Journal the instance in J (open), then start tracing CPUS. NULL with WHY
 * filled when it could not start (the journal entry dropped again). */
struct trace *exact_begin(struct journal *j, const cpu_set_t *cpus, char *why, size_t len);
/* Stop T at END_NS, remove its instance and drop it from J. -1 with WHY
 * filled when its events could not all be read. */
int exact_end(struct journal *j, struct trace *t, int64_t end_ns, char *why, size_t len);

/* The exact figures of T into each of the N_LOADS LOADS (their sampled
 * tasks name the tids) and their tasks. */
void exact_collect(const struct trace *t, struct load_record *loads, size_t n_loads);

#endif
