/* The run's output, made safe against a full disk: before the machine is
 * changed, the header is written as the result and a test file of the size
 * the whole result is expected to reach is written and removed, so a run
 * that could not keep its result never starts; when the final write fails
 * all the same, the result is kept in the state directory instead. */
#ifndef STARVE_RUN_OUTPUT_H
#define STARVE_RUN_OUTPUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/run/result-build.h"

/* Write DOC (its header) to PATH and check room for a result of N_RUNS
 * runs of N_TASKS loads each beside it. -1 with a message naming PATH and
 * the room needed. */
int output_check(const char *path, const struct result_doc *doc, size_t n_runs,
		 size_t n_tasks);

/* The partial result DOC after each run at PATH. One that cannot be
 * written (the disk filled) is said once and not tried again (*FAILED
 * set): the final write keeps the result elsewhere. */
void output_partial(const char *path, const struct result_doc *doc, bool *failed);

/* RESULT could not be written where asked: keep it in the state directory
 * ($STARVE_STATE_DIR) as result-<pid>.json; its path into KEPT (LEN bytes).
 * -1 (message printed) when that fails too. */
int output_keep(const json_t *result, char *kept, size_t len);

/* The final RESULT at PATH, as result_write() does, but a signal stops it
 * within a few KiB: OUTPUT_INTERRUPTED, and PATH keeps what it held (the
 * partial result of the last run). -1 with a message when it fails. */
enum { OUTPUT_INTERRUPTED = -2 };
int output_final(const char *path, const json_t *result);

#endif
