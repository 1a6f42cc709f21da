/* KTAP version 1 (Documentation/dev-tools/ktap.rst) from a result: one test
 * per setting, each with a nested subtest per expectation and repetition,
 * "# SKIP reason" for skipped and undecided ones. Plain TAP readers such as
 * prove see the settings as the tests (nested lines are indented). */
#ifndef STARVE_KTAP_H
#define STARVE_KTAP_H

#include <stdio.h>

#include "reports/result/result-view.h"

/* Write V (verdicts applied) to F; 0, or -1 on a write error. */
int ktap_write(const struct result_view *v, FILE *f);

/* Write S to F as a KTAP description: '#' would start a directive and a
 * newline would end the line, so both become '_' and ' '. */
void ktap_escape(FILE *f, const char *s);

#endif
