/* BPF mode in a run (harness/bpf/bpf-sched.h): the default source of the
 * exact figures where the kernel allows it, unless the profile asks for
 * exact mode (trace: true, --trace) or STARVE_BPF=0 is set. The program is
 * loaded before the first load starts (so every process the controller
 * forks is watched from birth), counts only inside the window, and its
 * figures replace the sampler's the way exact mode's do; the run's
 * "figures" object says which source gave them, and why not BPF. */
#ifndef STARVE_RUN_BPF_RUN_H
#define STARVE_RUN_BPF_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/bpf/bpf-sched.h"
#include "harness/sampler/sampler.h"

#define BPF_RUN_ENV "STARVE_BPF"

/* Start BPF mode unless TRACE (exact mode asked for) or $STARVE_BPF is 0;
 * NULL with WHY saying why not (never an error: the run falls back). */
struct bpfsched *bpf_run_begin(bool trace, char *why, size_t len);

/* The figures into RUN: each of its first N_LOADS loads (group i of SMP)
 * and the run's "bpf" object; FROM_NS: the window's start. */
void bpf_run_collect(const struct bpfsched *b, const struct sampler *smp, size_t n_loads,
		     int64_t from_ns, json_t *run);

/* RUN's "figures": {"source": "bpf" | "trace" | "sampler", "reason": why not
 * BPF (absent when BPF)}. */
void bpf_run_source(json_t *run, const struct bpfsched *b, bool trace, const char *why);

#endif
