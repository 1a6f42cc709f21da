/* The one writer of verdicts into result.json (reports/result/verdict-json.h). */
#include "config.h"
#include "reports/result/verdict-json.h"
#include "reports/result/result.h"

#include <math.h>

json_t *verdict_record_json(const struct result_view *v, const struct verdict_record *r)
{
	const struct rv_rule *rule = &v->profile.expect[r->expect].rule;
	json_t *o = json_pack("{s:s, s:s, s:s, s:f}", "load", rule->load, "metric", rule->metric,
			      "op", result_op_name(rule->op), "threshold", rule->threshold);

	if (!o)
		return NULL;
	if (rule->threshold_text)	/* as the profile wrote it, when it did */
		json_object_set_new(o, "threshold_text", json_string(rule->threshold_text));
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
