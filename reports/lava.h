/* LAVA test-shell results from a result: a POSIX shell script of
 * `lava-test-set start SETTING`, one `lava-test-case LOAD.METRIC --result
 * pass|fail|skip|unknown --measurement VALUE --units UNIT` per expectation
 * per run, `lava-test-set stop`, and one case for the run as a whole (named
 * after the profile). A lava-test-shell definition (ci/lava/starve.yaml) runs
 * it on the device, so LAVA records starve's own verdicts; outside LAVA it
 * prints the lines instead. Undecided verdicts are "unknown": LAVA's word
 * for a result the test could not establish. Names are those of
 * reports/fleet.h, so they match the KCIDB test paths. */
#ifndef STARVE_LAVA_H
#define STARVE_LAVA_H

#include <stdio.h>

#include "reports/result-view.h"
#include "reports/result.h"

/* Write V (verdicts applied) to F; 0, or -1 on a write error. */
int lava_write(const struct result_view *v, FILE *f);

/* "pass", "fail", "skip", "unknown" for a verdict. */
const char *lava_result(enum verdict_kind k);

/* Write S to F as one single-quoted shell word, newlines as spaces. */
void lava_quote(FILE *f, const char *s);

#endif
