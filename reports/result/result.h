/* result.json: reading and writing the one document a run produces
 * (doc/result-format.md, reports/result/result-schema.json), and the names of its
 * closed vocabularies (a run's status, a verdict, an expectation's op), which
 * the engine writes and the typed view (reports/result/result-view.h) reads.
 * Readers go through the view, never through the tree. */
#ifndef STARVE_RESULT_H
#define STARVE_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RESULT_FORMAT "starve-result"
#define RESULT_FORMAT_VERSION 2
/* The oldest version still read: 1 had "trace" and "bpf" where 2 has one
 * "exact" object (doc/result-format.md "Versions"). */
#define RESULT_FORMAT_OLDEST 1

/* A run's "status". */
enum result_status { RESULT_OK, RESULT_SKIPPED, RESULT_INCOMPLETE, RESULT_ERROR };

/* A verdict, in order of severity: the summary is the worst one (fail >
 * undecided > pass > skip). */
enum verdict_kind { VERDICT_SKIP, VERDICT_PASS, VERDICT_UNDECIDED, VERDICT_FAIL };

/* An expectation's "op": the value must be below or above the threshold. */
enum result_op { RESULT_BELOW, RESULT_ABOVE };

/* "ok", "skipped"...; result_status_parse gives -1 for anything else. */
const char *result_status_name(enum result_status s);
int result_status_parse(const char *name);
/* "pass", "fail"...; "PASS", "FAIL"... for tables; -1 for anything else. */
const char *verdict_name(enum verdict_kind v);
const char *verdict_upper(enum verdict_kind v);
int verdict_parse(const char *name);
/* "below", "above"; -1 for anything else. */
const char *result_op_name(enum result_op op);
int result_op_parse(const char *name);

/* Write RESULT to PATH atomically: PATH.tmp.<pid>, fsync, rename, fsync dir.
 * Returns -1 with an error printed. */
int result_write(const char *path, const json_t *result);

/* Write PATH through FN (which returns -1 on a write error) the same way:
 * PATH.tmp.<pid>, then rename; fsync of the file and its directory when
 * DURABLE. When PATH exists and is not a regular file (/dev/null, a FIFO,
 * a symbolic link like /dev/stdout), FN writes into it directly: a rename
 * would replace the device or the link. Returns
 * -1 with an error printed. The other report files use this too. */
typedef int (*result_writer_fn)(FILE *f, const void *data);
int result_write_with(const char *path, result_writer_fn fn, const void *data, bool durable);

/* Read PATH and check it is a starve result of a version we read. Returns
 * NULL with why filled ("x.json: not a starve result (no \"format\" key)").
 * Only the marker is checked: rv_open() (reports/result/result-view.h) checks the
 * rest against the schema. */
json_t *result_read(const char *path, char *why, size_t why_len);

#endif
