/* Duration parsing and formatting (see duration.h). */
#include "config.h"
#include "duration.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int64_t ns;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "min", 60000000000 },
};

#define DURATION_MAX_DIGITS 18	/* a fraction's digits kept: 10^18 fits int64_t */

/* The unit named by TEXT; NULL when it is none. */
static const int64_t *duration_unit(const char *text)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(text, units[i].name))
			return &units[i].ns;
	return NULL;
}

/* DIGITS[.FRACTION] times UNIT, rounded to the nearest ns, in integers so
 * that every value up to INT64_MAX ns comes out exact. -1 on overflow. */
static int duration_scale(const char *whole, size_t n_whole, const char *frac, size_t n_frac,
			  int64_t unit, int64_t *ns)
{
	unsigned __int128 f = 0, scale = 1, total = 0;

	for (size_t i = 0; i < n_whole; i++) {
		total = total * 10 + (unsigned)(whole[i] - '0');
		if (total > INT64_MAX)
			return -1;
	}
	total *= (uint64_t)unit;
	for (size_t i = 0; i < n_frac && i < DURATION_MAX_DIGITS; i++) {
		f = f * 10 + (unsigned)(frac[i] - '0');
		scale *= 10;
	}
	total += (f * (uint64_t)unit + scale / 2) / scale;
	if (total > INT64_MAX)
		return -1;
	*ns = (int64_t)total;
	return 0;
}

/* Decimal only: digits with an optional decimal point, then a unit.
 * strtod would also take hex ("0x10s"), exponents, "inf" and spaces. */
int duration_parse(const char *text, int64_t *ns, char *why, size_t why_len)
{
	const char *s = text + (*text == '-'), *frac = NULL, *unit_text;
	size_t n_whole = strspn(s, "0123456789"), n_frac = 0;
	const int64_t *unit;

	if (s[n_whole] == '.') {
		frac = s + n_whole + 1;
		n_frac = strspn(frac, "0123456789");
	}
	unit_text = frac ? frac + n_frac : s + n_whole;
	if (n_whole + n_frac == 0 || unit_text[strcspn(unit_text, "0123456789.+-")])
		return error_why(why, why_len, "'%s' is not a duration (write a decimal number and a "
				 "unit, e.g. 5s or 20ms)", text);
	if (!*unit_text)
		return error_why(why, why_len, "duration '%s' has no unit (use ns, us, ms, s or min)",
				 text);
	unit = duration_unit(unit_text);
	if (!unit)
		return error_why(why, why_len, "bad unit '%s' in duration '%s' (use ns, us, ms, s or "
				 "min)", unit_text, text);
	if (*text == '-')
		return error_why(why, why_len, "duration '%s' is negative", text);
	if (duration_scale(s, n_whole, frac, n_frac, *unit, ns) < 0)
		return error_why(why, why_len, "duration '%s' is too long (at most 292 years)", text);
	return 0;
}

const char *duration_format(int64_t ns, char *buf, size_t len)
{
	if (ns != 0 && ns % 1000000000 == 0)
		snprintf(buf, len, "%llds", (long long)(ns / 1000000000));
	else if (ns >= 1000000000 || ns <= -1000000000)
		snprintf(buf, len, "%.3gs", ns / 1e9);
	else if (ns >= 1000000 || ns <= -1000000)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else if (ns >= 1000 || ns <= -1000)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else
		snprintf(buf, len, "%lldns", (long long)ns);
	return buf;
}
