/* Error reporting in git's style: error() prints "starve: message" and returns
 * -1 so callers can write `return error(...)`; die() exits with a status.
 * Profile errors carry a position and use error_at() ("file:line:col: msg"). */
#ifndef STARVE_ERROR_H
#define STARVE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* Exit codes, kselftest-compatible (doc/design.md "Exit codes"). */
enum starve_exit {
	EXIT_PASS = 0,
	EXIT_VERDICT_FAIL = 1,	/* a verdict failed, or compare found a regression */
	EXIT_USAGE = 2,		/* usage or profile error */
	EXIT_RUNTIME = 3,	/* runtime error (including "not implemented yet") */
	/* no verdict: everything skipped (kselftest's skip), or a comparison,
	 * vm or bisect that the data could not decide */
	EXIT_ALL_SKIPPED = 4,
	EXIT_UNDECIDED = 4,
};

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int error_at(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int verror_at(const char *file, int line, int col, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* For functions that explain a failure in a caller's buffer instead of
 * printing it: format into WHY (when not NULL) and return -1. */
int error_why(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Unit tests capture messages instead of printing them: when set, every
 * message (without the "starve: " prefix, without newline) goes here. */
typedef void (*error_sink_fn)(const char *msg, void *data);
void error_set_sink(error_sink_fn fn, void *data);

#endif
