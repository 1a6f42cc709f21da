/* Error reporting: one place that formats and prints every diagnostic, so
 * tests can capture them and the prefix stays consistent. */
#include "config.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static error_sink_fn sink;
static void *sink_data;

void error_set_sink(error_sink_fn fn, void *data)
{
	sink = fn;
	sink_data = data;
}

__attribute__((format(printf, 2, 0)))
static void emit(const char *prefix, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (sink) {
		sink(msg, sink_data);
		return;
	}
	fprintf(stderr, "%s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("starve: error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_why(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int error_errno(const char *fmt, ...)
{
	char buf[768];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	errno = saved;
	return error("%s: %s", buf, strerror(saved));
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("starve: warning: ", fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("starve: fatal: ", fmt, ap);
	va_end(ap);
	exit(status);
}

int verror_at(const char *file, int line, int col, const char *fmt, va_list ap)
{
	char msg[900];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (sink) {
		char full[1100];

		snprintf(full, sizeof(full), "%s:%d:%d: %s", file, line, col, msg);
		sink(full, sink_data);
	} else {
		fprintf(stderr, "%s:%d:%d: %s\n", file, line, col, msg);
	}
	return -1;
}

int error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}
