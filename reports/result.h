/* result.json: reading and writing the one document a run produces
 * (doc/result-format.md, reports/result-schema.json). Everything downstream
 * (verdicts, reports, compare) works on the jansson tree. */
#ifndef STARVE_RESULT_H
#define STARVE_RESULT_H

#include <jansson.h>
#include <stddef.h>

#define RESULT_FORMAT "starve-result"
#define RESULT_FORMAT_VERSION 1

/* Write RESULT to PATH atomically: PATH.tmp.<pid>, fsync, rename, fsync dir.
 * Returns -1 with an error printed. */
int result_write(const char *path, const json_t *result);

/* Read PATH and check it is a starve result of a version we read. Returns
 * NULL with why filled ("x.json: not a starve result (no \"format\" key)"). */
json_t *result_read(const char *path, char *why, size_t why_len);

#endif
