/* Verdicts as records (private to reports/verdict*.c): judging
 * (verdict.c) fills them from the typed view with no JSON in sight, and
 * verdict-json.c, their one writer, turns them into a run's "verdicts"
 * list and the result's "summary" (doc/result-format.md "Verdicts"). */
#ifndef STARVE_VERDICT_JSON_H
#define STARVE_VERDICT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "reports/result/result-view.h"

/* One expectation judged in one run. */
struct verdict_record {
	const struct rv_run *run;
	size_t expect;			/* its index in the view's profile.expect */
	enum verdict_kind kind;
	double value;			/* NAN: not measured */
	char reason[768];		/* "" for none */
};

/* The verdicts of a result counted, and what they make of its exit. */
struct verdict_tally {
	unsigned counts[4];		/* by enum verdict_kind */
	enum verdict_kind worst;
	int exit_code;
	bool undecided_fails;
	char warning[256];		/* "" for none */
};

/* R as a verdict object of V (the expectation's keys as the profile gave
 * them, then value, verdict, reason, setting, repetition); NULL when out of
 * memory. */
json_t *verdict_record_json(const struct result_view *v, const struct verdict_record *r);
/* T as the result's "summary" object; NULL when out of memory. */
json_t *verdict_tally_json(const struct verdict_tally *t);
/* LISTS (one verdict list per run) and SUMMARY into TREE, replacing what
 * was there. */
void verdict_json_store(json_t *tree, json_t *lists, json_t *summary);

#endif
