/* Option-table parsing, defaults, hints and formatting (see options.h). */
#include "config.h"
#include "options.h"
#include "duration.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *opt_type_name(enum opt_type type)
{
	static const char *const names[] = {
		[OPT_INT] = "integer", [OPT_DOUBLE] = "number", [OPT_DURATION] = "duration",
		[OPT_BOOL] = "boolean", [OPT_STRING] = "string", [OPT_ENUM] = "choice",
	};
	return names[type];
}

static int parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(text, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(text, no[i]))
			return *out = false, 0;
	}
	return -1;
}

static int check_range(const struct opt_spec *spec, double v, const char *text,
		       char *why, size_t why_len)
{
	char range[96];

	if (v >= spec->min && v <= spec->max)
		return 0;
	snprintf(why, why_len, "value %s is out of range for '%s' (%s)", text, spec->name,
		 opt_format_range(spec, range, sizeof(range)));
	return -1;
}

static int parse_number(const struct opt_spec *spec, const char *text, union opt_value *out,
			char *why, size_t why_len)
{
	char *end;

	errno = 0;
	if (spec->type == OPT_INT) {
		long long v = strtoll(text, &end, 10);

		if (end == text || *end || errno) {
			snprintf(why, why_len, "'%s' expects an integer, not '%s'", spec->name, text);
			return -1;
		}
		out->i = v;
		return check_range(spec, (double)v, text, why, why_len);
	}
	out->d = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(out->d)) {
		snprintf(why, why_len, "'%s' expects a number, not '%s'", spec->name, text);
		return -1;
	}
	return check_range(spec, out->d, text, why, why_len);
}

int opt_parse(const struct opt_spec *spec, const char *text, union opt_value *out,
	      char *why, size_t why_len)
{
	char inner[160];

	switch (spec->type) {
	case OPT_INT:
	case OPT_DOUBLE:
		return parse_number(spec, text, out, why, why_len);
	case OPT_DURATION:
		if (duration_parse(text, &out->i, inner, sizeof(inner))) {
			snprintf(why, why_len, "'%s': %s", spec->name, inner);
			return -1;
		}
		return check_range(spec, (double)out->i, text, why, why_len);
	case OPT_BOOL:
		if (parse_bool(text, &out->b)) {
			snprintf(why, why_len, "'%s' expects true or false, not '%s'", spec->name, text);
			return -1;
		}
		return 0;
	case OPT_STRING:
		out->s = strdup(text);
		return out->s ? 0 : -1;
	case OPT_ENUM:
		for (size_t i = 0; spec->choices[i]; i++) {
			if (!strcmp(text, spec->choices[i])) {
				out->i = (int64_t)i;
				return 0;
			}
		}
		snprintf(why, why_len, "'%s' must be one of %s, not '%s'", spec->name,
			 opt_format_range(spec, inner, sizeof(inner)), text);
		return -1;
	}
	return -1;
}

const struct opt_spec *opt_find(const struct opt_spec *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned d[64][64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;	/* transposition */
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *opt_suggest(const char *name, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	unsigned best_d = ~0u, limit = (unsigned)strlen(name) / 3;

	if (limit < 1)
		limit = 1;
	if (limit > 2)
		limit = 2;
	for (size_t i = 0; i < n; i++) {
		unsigned d = edit_distance(name, candidates[i]);

		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

int opt_fill_defaults(const struct opt_spec *table, size_t n, union opt_value *values,
		      bool *set, char *why, size_t why_len)
{
	for (size_t i = 0; i < n; i++) {
		if (set[i])
			continue;
		if (!table[i].def) {
			snprintf(why, why_len, "missing required option '%s'", table[i].name);
			return -1;
		}
		if (opt_parse(&table[i], table[i].def, &values[i], why, why_len))
			return -1;	/* a bad default is a bug; the unit tests parse them all */
		set[i] = true;
	}
	return 0;
}

void opt_values_free(const struct opt_spec *table, size_t n, union opt_value *values)
{
	for (size_t i = 0; i < n; i++) {
		if (table[i].type == OPT_STRING) {
			free(values[i].s);
			values[i].s = NULL;
		}
	}
}

const char *opt_format_value(const struct opt_spec *spec, const union opt_value *v,
			     char *buf, size_t len)
{
	switch (spec->type) {
	case OPT_INT:
		snprintf(buf, len, "%lld", (long long)v->i);
		break;
	case OPT_DOUBLE:
		snprintf(buf, len, "%g", v->d);
		break;
	case OPT_DURATION:
		duration_format(v->i, buf, len);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "%s", v->b ? "true" : "false");
		break;
	case OPT_STRING:
		snprintf(buf, len, "%s", v->s ? v->s : "");
		break;
	case OPT_ENUM:
		snprintf(buf, len, "%s", spec->choices[v->i]);
		break;
	}
	return buf;
}

const char *opt_format_range(const struct opt_spec *spec, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	buf[0] = '\0';
	switch (spec->type) {
	case OPT_INT:
		snprintf(buf, len, "%.0f..%.0f", spec->min, spec->max);
		break;
	case OPT_DOUBLE:
		snprintf(buf, len, "%g..%g", spec->min, spec->max);
		break;
	case OPT_DURATION:
		snprintf(buf, len, "%s..%s", duration_format((int64_t)spec->min, lo, sizeof(lo)),
			 duration_format((int64_t)spec->max, hi, sizeof(hi)));
		break;
	case OPT_BOOL:
		snprintf(buf, len, "true|false");
		break;
	case OPT_STRING:
		snprintf(buf, len, "text");
		break;
	case OPT_ENUM:
		for (size_t i = 0; spec->choices[i] && used + 1 < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "",
						 spec->choices[i]);
		break;
	}
	return buf;
}
