/* Duration parsing and formatting (see duration.h). */
#include "config.h"
#include "duration.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	double ns;
} units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "min", 60e9 },
};

int duration_parse(const char *text, int64_t *ns, char *why, size_t why_len)
{
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (end == text || errno || !isfinite(value) || *text == '+' || *text == ' ') {
		snprintf(why, why_len, "'%s' is not a duration (write a number and a unit, e.g. 5s or 20ms)",
			 text);
		return -1;
	}
	if (*end == '\0') {
		snprintf(why, why_len, "duration '%s' has no unit (use ns, us, ms, s or min)", text);
		return -1;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].name))
			continue;
		if (value < 0) {
			snprintf(why, why_len, "duration '%s' is negative", text);
			return -1;
		}
		if (value * units[i].ns > 9.2e18) {
			snprintf(why, why_len, "duration '%s' is too long", text);
			return -1;
		}
		*ns = (int64_t)llround(value * units[i].ns);
		return 0;
	}
	snprintf(why, why_len, "bad unit '%s' in duration '%s' (use ns, us, ms, s or min)", end, text);
	return -1;
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
