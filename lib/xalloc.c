/* Allocation that cannot fail (xalloc.h). */
#include "config.h"
#include "xalloc.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xalloc_check(void *p)
{
	if (!p)
		die(EXIT_RUNTIME, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	/* calloc(0, ...) may return NULL: ask for one element then */
	return xalloc_check(calloc(n ? n : 1, size ? size : 1));
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	return xalloc_check(reallocarray(p, n ? n : 1, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return xalloc_check(strdup(s));
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *out;

	if (vasprintf(&out, fmt, ap) < 0)
		die(EXIT_RUNTIME, "out of memory");
	return out;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *out;

	va_start(ap, fmt);
	out = xvasprintf(fmt, ap);
	va_end(ap);
	return out;
}
