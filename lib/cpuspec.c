/* CPU spec syntax (see cpuspec.h): a small hand-written scanner, so a bad
 * spec is reported with the offset of the character that broke it and the
 * profile parser can point its column there. Resolution against the machine
 * (hwloc) is harness/placement/topology.c's job, not this file's. */
#include "config.h"
#include "cpuspec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Larger indices are surely typos; hwloc numbers objects densely from 0. */
#define CPUSPEC_MAX_INDEX 65535u

struct cs_scan {
	const char *text;
	const char *p;
	struct cpuspec *out;
	size_t *err_offset;
	char *why;
	size_t why_len;
};

static const struct {
	const char *name;
	enum cpuspec_kind kind;
} cs_kinds[] = {
	{ "pu", CPUSPEC_PU }, { "core", CPUSPEC_CORE }, { "numa", CPUSPEC_NUMA },
};

static int __attribute__((format(printf, 3, 4)))
cs_fail(struct cs_scan *s, const char *at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(s->why, s->why_len, "bad cpu spec '%s': %s", s->text, msg);
	if (s->err_offset)
		*s->err_offset = (size_t)(at - s->text);
	return -1;
}

static int cs_add(struct cs_scan *s, const char *at, enum cpuspec_kind kind,
		  unsigned first, unsigned last)
{
	struct cpuspec_term *t;

	if (s->out->n_terms >= CPUSPEC_MAX_TERMS)
		return cs_fail(s, at, "more than %d ranges", CPUSPEC_MAX_TERMS);
	t = &s->out->terms[s->out->n_terms++];
	t->kind = kind;
	t->first = first;
	t->last = last;
	return 0;
}

/* A decimal index; AFTER names what precedes it, for the message. */
static int cs_number(struct cs_scan *s, unsigned *out, const char *after)
{
	unsigned long v = 0;
	const char *start = s->p;

	if (!isdigit((unsigned char)*s->p)) {
		if (*s->p)
			return cs_fail(s, s->p, "expected a number after '%s', not '%c'", after, *s->p);
		return cs_fail(s, s->p, "expected a number after '%s'", after);
	}
	while (isdigit((unsigned char)*s->p)) {
		v = v * 10 + (unsigned long)(*s->p++ - '0');
		if (v > CPUSPEC_MAX_INDEX)
			return cs_fail(s, start, "index too large (at most %u)", CPUSPEC_MAX_INDEX);
	}
	*out = (unsigned)v;
	return 0;
}

/* N or N-M, appended as one term. */
static int cs_range(struct cs_scan *s, enum cpuspec_kind kind, const char *after)
{
	const char *start = s->p;
	unsigned first, last;

	if (cs_number(s, &first, after))
		return -1;
	last = first;
	if (*s->p == '-') {
		s->p++;
		if (cs_number(s, &last, "-"))
			return -1;
		if (last < first)
			return cs_fail(s, start, "range %u-%u is reversed (write %u-%u)",
				       first, last, last, first);
	}
	return cs_add(s, start, kind, first, last);
}

/* "all" or KIND:RANGE[,RANGE...] */
static int cs_term(struct cs_scan *s)
{
	const char *start = s->p;
	size_t len = 0;
	char kind_text[16];

	while (isalpha((unsigned char)s->p[len]))
		len++;
	if (len == 3 && !strncmp(s->p, "all", 3)) {
		s->p += 3;
		return cs_add(s, start, CPUSPEC_ALL, 0, 0);
	}
	for (size_t i = 0; i < sizeof(cs_kinds) / sizeof(cs_kinds[0]); i++) {
		if (strlen(cs_kinds[i].name) != len || strncmp(s->p, cs_kinds[i].name, len))
			continue;
		s->p += len;
		if (*s->p != ':')
			return cs_fail(s, s->p, "expected ':' after '%s'", cs_kinds[i].name);
		s->p++;
		snprintf(kind_text, sizeof(kind_text), "%s:", cs_kinds[i].name);
		if (cs_range(s, cs_kinds[i].kind, kind_text))
			return -1;
		while (*s->p == ',') {
			s->p++;
			if (cs_range(s, cs_kinds[i].kind, ","))
				return -1;
		}
		return 0;
	}
	if (!len)
		return cs_fail(s, start, "expected pu:N, core:N, numa:N or all%s",
			       start > s->text ? " after '+'" : "");
	return cs_fail(s, start, "unknown kind '%.*s' (use pu, core, numa or all)", (int)len, start);
}

int cpuspec_parse(const char *text, struct cpuspec *out, size_t *err_offset,
		  char *why, size_t why_len)
{
	struct cs_scan s = { text, text, out, err_offset, why, why_len };

	memset(out, 0, sizeof(*out));
	if (!*text)
		return cs_fail(&s, text, "empty (write e.g. pu:1, core:0-1 or all)");
	for (;;) {
		if (cs_term(&s))
			return -1;
		if (!*s.p)
			return 0;
		if (*s.p != '+')
			return cs_fail(&s, s.p, "unexpected '%c' (join terms with '+')", *s.p);
		s.p++;
	}
}
