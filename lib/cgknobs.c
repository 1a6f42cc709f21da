/* cpu.max's text (lib/cgknobs.h). */
#include "config.h"
#include "lib/cgknobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cgcpu_parse_max(const char *text, struct cgcpu_knobs *k, size_t *at, char *why,
		    size_t why_len)
{
	const char *p = text;
	char *end;
	long long quota = -1, period = 100000;

	*at = 0;
	if (!strncmp(p, "max", 3)) {
		p += 3;
	} else {
		quota = strtoll(p, &end, 10);
		if (end == p || quota < 1000 || quota > 1000000LL * 1000) {
			snprintf(why, why_len, "cpu.max quota must be 'max' or 1000..1000000000 "
				 "microseconds (the kernel's least is 1 ms), not '%s'", text);
			return -1;
		}
		p = end;
	}
	if (*p == ' ') {
		*at = (size_t)(p + 1 - text);
		period = strtoll(p + 1, &end, 10);
		if (end == p + 1 || *end || period < 1000 || period > 1000000) {
			snprintf(why, why_len, "cpu.max period must be 1000..1000000 microseconds "
				 "(1 ms..1 s), in 'QUOTA PERIOD'");
			return -1;
		}
	} else if (*p) {
		*at = (size_t)(p - text);
		snprintf(why, why_len, "cpu.max is 'QUOTA PERIOD' in microseconds, 'max PERIOD' "
			 "or 'QUOTA', as in cgroup v2; not '%s'", text);
		return -1;
	}
	k->quota_us = quota;
	k->period_us = period;
	return 0;
}

