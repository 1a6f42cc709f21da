/* The names a result's parts go by in kernel CI fleets, shared by the KCIDB
 * report (test paths) and the LAVA report (test sets and cases) so a lab's
 * LAVA results and its KCIDB submission name an expectation the same way.
 * Both systems split names at dots and spaces, so each part is one word of
 * [A-Za-z0-9_-] (what a KCIDB path component allows). */
#ifndef STARVE_FLEET_H
#define STARVE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/result/result-view.h"

#define FLEET_NAME_MAX 512

/* S as one word: every byte outside [A-Za-z0-9_-] becomes '_'; "_" for an
 * empty or NULL S. Returns BUF. */
const char *fleet_word(const char *s, char *buf, size_t len);

/* The name of verdict VD of RUN: "LOAD.METRIC", then ".below" or ".above"
 * when another verdict of RUN asks about the same metric of the same load
 * (and "-2", "-3"... when that op appears twice), then ".repN" (N from 1)
 * when WITH_REPETITION and the result repeats its settings. Returns BUF. */
const char *fleet_case_name(const struct result_view *v, const struct rv_run *run,
			    const struct rv_verdict *vd, bool with_repetition, char *buf,
			    size_t len);

/* "starve PROFILE: 3 pass, 1 fail, 0 skip, 0 undecided" and, for a partial
 * result, " (interrupted: a partial result)". Returns BUF. */
const char *fleet_run_summary(const struct result_view *v, char *buf, size_t len);

#endif
