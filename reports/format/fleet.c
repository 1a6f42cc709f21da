/* Names for fleets (reports/format/fleet.h). */
#include "config.h"
#include "reports/format/fleet.h"

#include <stdio.h>
#include <string.h>

const char *fleet_word(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++, n++) {
		char c = *s;
		bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-';

		buf[n] = word ? c : '_';
	}
	if (n == 0 && len > 1)
		buf[n++] = '_';
	if (len)
		buf[n] = '\0';
	return buf;
}

static bool fleet_same_metric(const struct rv_verdict *a, const struct rv_verdict *b)
{
	return !strcmp(a->rule.load, b->rule.load) && !strcmp(a->rule.metric, b->rule.metric);
}

const char *fleet_case_name(const struct result_view *v, const struct rv_run *run,
			    const struct rv_verdict *vd, bool with_repetition, char *buf,
			    size_t len)
{
	char load[FLEET_NAME_MAX / 2], metric[FLEET_NAME_MAX / 2];
	unsigned same_metric = 0, same_op = 0, ordinal = 0;
	size_t used;

	for (size_t i = 0; i < run->n_verdicts; i++) {
		const struct rv_verdict *o = &run->verdicts[i];

		if (!fleet_same_metric(o, vd))
			continue;
		same_metric++;
		if (o->rule.op == vd->rule.op) {
			same_op++;
			ordinal += o <= vd;	/* its place among those with its op */
		}
	}
	used = (size_t)snprintf(buf, len, "%s.%s", fleet_word(vd->rule.load, load, sizeof(load)),
				fleet_word(vd->rule.metric, metric, sizeof(metric)));
	if (same_metric > 1 && used < len)
		used += (size_t)snprintf(buf + used, len - used, ".%s", result_op_name(vd->rule.op));
	if (same_op > 1 && ordinal > 1 && used < len)
		used += (size_t)snprintf(buf + used, len - used, "-%u", ordinal);
	if (with_repetition && v->repetitions > 1 && used < len)
		snprintf(buf + used, len - used, ".rep%ld", run->repetition + 1);
	return buf;
}

const char *fleet_run_summary(const struct result_view *v, char *buf, size_t len)
{
	const struct rv_summary *s = &v->summary;

	snprintf(buf, len, "starve %s: %ld pass, %ld fail, %ld skip, %ld undecided%s",
		 v->profile.name, s->pass, s->fail, s->skip, s->undecided,
		 v->complete ? "" : " (interrupted: a partial result)");
	return buf;
}
