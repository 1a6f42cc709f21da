/* The terminal summary printed at the end of `starve run` and by `starve
 * report`: a table with one row per expectation and one column per setting,
 * each cell the verdict and the value measured in each repetition, then the
 * reasons of failures and undecided or skipped verdicts. */
#ifndef STARVE_TABLE_H
#define STARVE_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/result/result-view.h"

/* Print V's summary table to F; 0, or -1 on a write error. */
int table_print(const struct result_view *v, FILE *f);

/* The cells of V's table, shared with the Markdown report, built in one
 * pass over V's verdicts (NULL when memory runs out); V outlives it. */
struct table_grid;
struct table_grid *table_grid_build(const struct result_view *v);
void table_grid_free(struct table_grid *g);
/* The text of one cell, for the expectation V->profile.expect[EXPECT] in
 * the setting V->setting_names[SETTING]: "PASS 950ms" or, over
 * repetitions, "FAIL 1.02s 5s 4.98s" (the worst verdict, then each
 * repetition's value, "-" where none was measured). Returns the worst
 * verdict (enum verdict_kind), or -1 and "-" when the expectation has no
 * verdict there (it does not apply). *TEXT lives as long as G. */
int table_grid_cell(const struct table_grid *g, size_t expect, size_t setting, const char **text);

#endif
