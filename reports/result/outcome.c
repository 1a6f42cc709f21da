/* What a verdict is to a consumer (reports/result/outcome.h). */
#include "config.h"
#include "reports/result/outcome.h"
#include "lib/error.h"

enum outcome outcome_of(const struct result_view *v, enum verdict_kind k)
{
	switch (k) {
	case VERDICT_PASS:
		return OUTCOME_PASS;
	case VERDICT_FAIL:
		return OUTCOME_FAIL;
	case VERDICT_UNDECIDED:
		return v->summary.undecided_fails ? OUTCOME_FAIL : OUTCOME_SKIP;
	case VERDICT_SKIP:
		break;
	}
	return OUTCOME_SKIP;
}

enum outcome outcome_of_result(const struct result_view *v)
{
	switch (v->summary.exit_code) {
	case EXIT_VERDICT_FAIL:
		return OUTCOME_FAIL;
	case EXIT_ALL_SKIPPED:
		return OUTCOME_SKIP;
	default:
		return OUTCOME_PASS;
	}
}

const char *outcome_reason_prefix(enum verdict_kind k)
{
	return k == VERDICT_UNDECIDED ? "undecided: " : "";
}
