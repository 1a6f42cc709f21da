/* The one writer of verdicts into result.json (reports/result/verdict-json.h). */
#include "config.h"
#include "reports/result/verdict-json.h"
#include "reports/result/result.h"

#include <math.h>

json_t *verdict_record_json(const struct result_view *v, const struct verdict_record *r)
{
	static const char *const copied[] = { "load", "metric", "op", "threshold",
					      "threshold_text" };
	const json_t *expect = json_array_get(
		json_object_get(json_object_get(v->tree, "profile"), "expect"), r->expect);
	json_t *o = json_object();

	if (!o)
		return NULL;
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++)
		if (json_object_get(expect, copied[i]))
			json_object_set(o, copied[i], json_object_get(expect, copied[i]));
	json_object_set_new(o, "value", isnan(r->value) ? json_null() : json_real(r->value));
	json_object_set_new(o, "verdict", json_string(verdict_name(r->kind)));
	json_object_set_new(o, "reason", r->reason[0] ? json_string(r->reason) : json_null());
	json_object_set_new(o, "setting", json_string(r->run->setting));
	json_object_set_new(o, "repetition", json_integer(r->run->repetition));
	return o;
}

json_t *verdict_tally_json(const struct verdict_tally *t)
{
	json_t *s = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:b}", "verdict",
			      verdict_name(t->worst), "pass", t->counts[VERDICT_PASS], "fail",
			      t->counts[VERDICT_FAIL], "skip", t->counts[VERDICT_SKIP],
			      "undecided", t->counts[VERDICT_UNDECIDED], "exit_code", t->exit_code,
			      "undecided_fails", t->undecided_fails);

	if (s)
		json_object_set_new(s, "warning",
				    t->warning[0] ? json_string(t->warning) : json_null());
	return s;
}

void verdict_json_store(json_t *tree, json_t *lists, json_t *summary)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(tree, "runs"), i, run)
		json_object_set(run, "verdicts", json_array_get(lists, i));
	json_object_set(tree, "summary", summary);
}
