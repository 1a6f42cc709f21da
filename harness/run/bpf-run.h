/* BPF mode in a run (harness/bpf/bpf-sched.h): the default source of the
 * exact figures where the kernel allows it, unless the profile asks for
 * exact mode (trace: true, --trace) or STARVE_BPF=0 is set. The program is
 * loaded before the first load starts (so every process the controller
 * forks is watched from birth), counts only inside the window, and its
 * figures go into the run's load records as exact mode's do; the run's
 * "figures" object says which source gave them, and why not BPF. */
#ifndef STARVE_RUN_BPF_RUN_H
#define STARVE_RUN_BPF_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/bpf/bpf-sched.h"
#include "harness/run/record.h"
#include "harness/sampler/sampler.h"

#define BPF_RUN_ENV "STARVE_BPF"

/* Start BPF mode unless TRACE (exact mode asked for) or $STARVE_BPF is 0;
 * NULL with WHY saying why not (never an error: the run falls back). */
struct bpfsched *bpf_run_begin(bool trace, char *why, size_t len);

/* The figures of B into each of the N_LOADS LOADS (their sampled tasks name
 * the tids) and their tasks, with each load's longest wait. */
void bpf_run_collect(const struct bpfsched *b, struct load_record *loads, size_t n_loads);

#endif
