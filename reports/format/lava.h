/* LAVA test-shell results from a result: a POSIX shell script of
 * `lava-test-set start SETTING`, one `lava-test-case LOAD.METRIC --result
 * pass|fail|skip --measurement VALUE --units UNIT` per expectation
 * per run, `lava-test-set stop`, and one case for the run as a whole (named
 * after the profile). A lava-test-shell definition (ci/lava/starve.yaml) runs
 * it on the device, so LAVA records starve's own verdicts; outside LAVA it
 * prints the lines instead. Results follow reports/result/outcome.h, as every report
 * does: an undecided verdict is "skip" (its echoed reason says undecided),
 * or "fail" under --strict; the run's case is the exit status. Names are those of
 * reports/format/fleet.h, so they match the KCIDB test paths. */
#ifndef STARVE_LAVA_H
#define STARVE_LAVA_H

#include <stdio.h>

#include "reports/result/outcome.h"
#include "reports/result/result-view.h"
#include "reports/result/result.h"

/* Write V (verdicts applied) to F; 0, or -1 on a write error. */
int lava_write(const struct result_view *v, FILE *f);

/* "pass", "fail", "skip" for an outcome. */
const char *lava_result(enum outcome o);

/* Write S to F as one single-quoted shell word, newlines as spaces. */
void lava_quote(FILE *f, const char *s);

#endif
