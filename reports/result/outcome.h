/* What a verdict is to a consumer of the reports: the one table
 * (doc/ci-gating.md, "What each verdict is where") that JUnit, KTAP, KCIDB
 * and LAVA follow, so every CI system reads the run the way the exit status
 * does. An undecided verdict is a skip, or a failure when the result was
 * judged with --strict (summary.undecided_fails); "not measured" is an
 * undecided verdict. The result as a whole is its exit status. */
#ifndef STARVE_OUTCOME_H
#define STARVE_OUTCOME_H

#include "reports/result/result-view.h"

enum outcome { OUTCOME_PASS, OUTCOME_FAIL, OUTCOME_SKIP };

/* A verdict of kind K in V. */
enum outcome outcome_of(const struct result_view *v, enum verdict_kind k);
/* V as a whole, from its exit code: 0 pass, 1 fail, 4 skip. */
enum outcome outcome_of_result(const struct result_view *v);
/* "undecided: " before an undecided verdict's reason, "" before others, so
 * a skip or failure says which kind it was. */
const char *outcome_reason_prefix(enum verdict_kind k);

#endif
