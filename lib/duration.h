/* Durations with units ("5s", "1.5ms", "250us", "100ns", "2min") parsed into
 * nanoseconds, and formatted back for humans. A bare number is an error:
 * units are required so a profile never means milliseconds by accident. */
#ifndef STARVE_DURATION_H
#define STARVE_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* Parse TEXT into *ns. On error returns -1 and writes a message such as
 * "bad unit 'sec' in duration '5sec' (use ns, us, ms, s or min)" to why. */
int duration_parse(const char *text, int64_t *ns, char *why, size_t why_len);

/* Format NS with the largest unit that keeps it readable: "1.5s", "250us". */
const char *duration_format(int64_t ns, char *buf, size_t len);

#endif
