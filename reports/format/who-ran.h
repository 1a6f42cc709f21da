/* The exact source's "who ran instead", one line per load and run, for the
 * table, Markdown and HTML reports alike: "victim waited 950ms on CPU 1:
 * starve-hog FIFO 50 950ms, kworker/1:0 51us" (tracefs), or "victim waited
 * 950ms on CPU 1: it took the CPU from starve-hog FIFO 50" (BPF). */
#ifndef STARVE_WHO_RAN_H
#define STARVE_WHO_RAN_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/result/result-view.h"

/* LOAD's line into BUF; false when LOAD has no exact longest stretch. */
bool who_ran_text(const struct rv_load *load, char *buf, size_t len);
/* Whether any run of V has such a line. */
bool who_ran_any(const struct result_view *v);
/* Call EACH(DATA, run, label, line) for every such line of V, in run order;
 * LABEL is "setting" or "setting rep N" when there are repetitions. */
void who_ran_each(const struct result_view *v,
		  void (*each)(void *data, const struct rv_run *run, const char *label,
			       const char *line), void *data);

#endif
