/* KCIDB I/O v5.3 (KernelCI's common results database; the schema is
 * kcidb-io's schema.LATEST.json) from a result: one test per expectation per
 * run, path "starve.PROFILE.SETTING.LOAD.METRIC", and one for the run as a
 * whole, path "starve.PROFILE". Without a build id, a checkout and a build
 * stand in for the kernel that ran, so the document is complete on its own.
 * ci/kernelci/README.md says what each field holds and how a lab submits it.
 *
 * Statuses: pass PASS, fail FAIL, skip SKIP, undecided ERROR: the test ran
 * but could not trust its own measurement (a run in error, a metric not
 * measured, other tasks on its CPUs, a sampler that fell behind), which is
 * KCIDB's "the test didn't complete due to a failure in its code, and the
 * status of the tested code is unknown". MISS would say it never ran, and
 * would drop the measured value, which KCIDB reads with ERROR but not MISS. */
#ifndef STARVE_KCIDB_H
#define STARVE_KCIDB_H

#include <stdio.h>

#include "reports/formats.h"
#include "reports/result-view.h"
#include "reports/result.h"

#define KCIDB_DEFAULT_ORIGIN "starve"

/* Write V (verdicts applied) to F as a KCIDB document, with P's origin and
 * build id (checked by kcidb_params_check). 0, or -1 on a write error. */
int kcidb_write(const struct result_view *v, const struct report_params *p, FILE *f);

/* Check P's origin ([a-z0-9_]+) and build id ("ORIGIN:anything"), as the
 * schema's patterns say; -1 with an error naming the option printed. */
int kcidb_params_check(const struct report_params *p);

/* "PASS", "FAIL", "SKIP", "ERROR" for a verdict. */
const char *kcidb_status(enum verdict_kind k);

#endif
