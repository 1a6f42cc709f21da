/* JUnit XML from a result (Jenkins/GitLab test reports): one <testsuite> per
 * setting named PROFILE/SETTING, one <testcase> per expectation and
 * repetition; fail -> <failure>, skip -> <skipped>, undecided -> <skipped
 * message="undecided: ...">. Validates against the xunit plugin's
 * junit-10.xsd. */
#ifndef STARVE_JUNIT_H
#define STARVE_JUNIT_H

#include <stdio.h>

#include "reports/result/result-view.h"

/* Write V (verdicts already applied) to F. Returns 0, or -1 on a write
 * error (nothing printed: the caller names the file). */
int junit_write(const struct result_view *v, FILE *f);

#endif
