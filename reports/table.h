/* The terminal summary printed at the end of `starve run` and by `starve
 * report`: a table with one row per expectation and one column per setting,
 * each cell the verdict and the value measured in each repetition, then the
 * reasons of failures and undecided or skipped verdicts. */
#ifndef STARVE_TABLE_H
#define STARVE_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/result-view.h"

/* Print V's summary table to F; 0, or -1 on a write error. */
int table_print(const struct result_view *v, FILE *f);

/* The text of one cell, shared with the Markdown report: "PASS 950ms" or,
 * over repetitions, "FAIL 1.02s 5s 4.98s" (the worst verdict, then each
 * repetition's value, "-" where none was measured). Returns the worst
 * verdict (enum verdict_kind), or -1 and "-" when E has no verdict in the
 * setting V->setting_names[SETTING] (it does not apply there). */
int table_cell(const struct result_view *v, const struct rv_expect *e, size_t setting,
	       char *buf, size_t len);

#endif
