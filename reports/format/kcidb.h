/* KCIDB I/O v5.3 (KernelCI's common results database; the schema is
 * kcidb-io's schema.LATEST.json) from a result: one test per expectation per
 * run, path "starve.PROFILE.SETTING.LOAD.METRIC", and one for the run as a
 * whole, path "starve.PROFILE". Without a build id, a checkout and a build
 * stand in for the kernel that ran, so the document is complete on its own.
 * ci/kernelci/README.md says what each field holds and how a lab submits it.
 *
 * Statuses follow reports/result/outcome.h, as every report does: PASS, FAIL, or
 * SKIP; an undecided verdict is SKIP, or FAIL under --strict (its misc
 * says "starve_verdict": "undecided" and its log_excerpt why), and the run
 * as a whole is what the exit status says. ERROR would fail a KCIDB
 * consumer's run that starve passes. */
#ifndef STARVE_KCIDB_H
#define STARVE_KCIDB_H

#include <stdio.h>

#include "reports/result/outcome.h"
#include "reports/format/report-params.h"
#include "reports/result/result-view.h"
#include "reports/result/result.h"

#define KCIDB_DEFAULT_ORIGIN "starve"

/* Write V (verdicts applied) to F as a KCIDB document, with P's origin and
 * build id (checked by kcidb_params_check). 0, or -1 on a write error. */
int kcidb_write(const struct result_view *v, const struct report_params *p, FILE *f);

/* Check P's origin ([a-z0-9_]+) and build id ("ORIGIN:anything"), as the
 * schema's patterns say; -1 with an error naming the option printed. */
int kcidb_params_check(const struct report_params *p);

/* "PASS", "FAIL", "SKIP" for an outcome. */
const char *kcidb_status(enum outcome o);

#endif
