/* Allocation that cannot fail, for code that has changed nothing on the
 * machine and runs no child (compare, report, vm's planning): out of memory
 * there ends starve at once (exit 3), as git's xmalloc does. The run path
 * (knobs journaled, loads alive) never uses these: it returns error() so the
 * caller restores the machine first (CONTRIBUTING.md "Errors"). */
#ifndef STARVE_XALLOC_H
#define STARVE_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
