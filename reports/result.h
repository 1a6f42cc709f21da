/* result.json: reading and writing the one document a run produces
 * (doc/result-format.md, reports/result-schema.json). Everything downstream
 * (verdicts, reports, compare) works on the jansson tree. */
#ifndef STARVE_RESULT_H
#define STARVE_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RESULT_FORMAT "starve-result"
#define RESULT_FORMAT_VERSION 1

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
 * NULL with why filled ("x.json: not a starve result (no \"format\" key)"). */
json_t *result_read(const char *path, char *why, size_t why_len);

#endif
