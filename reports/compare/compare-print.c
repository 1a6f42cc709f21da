/* Printing a comparison table (reports/compare/compare.h): the terminal and Markdown
 * share one grid of formatted cells (so they cannot disagree) and differ only
 * in how they lay it out; JSON is built from the numbers, not the text. */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "reports/result/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A table of strings; row 0 is the header. */
struct cmp_grid {
	size_t n_cols, n_rows;
	char **cells;		/* n_rows * n_cols, owned */
	bool *right;		/* per column: right-aligned (numbers) */
};

static void cmp_grid_put(struct cmp_grid *g, size_t r, size_t c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void cmp_grid_put(struct cmp_grid *g, size_t r, size_t c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g->cells[r * g->n_cols + c] = xvasprintf(fmt, ap);
	va_end(ap);
}

static const char *cmp_grid_get(const struct cmp_grid *g, size_t r, size_t c)
{
	const char *s = g->cells[r * g->n_cols + c];

	return s ? s : "";
}

static void cmp_grid_free(struct cmp_grid *g)
{
	for (size_t i = 0; i < g->n_rows * g->n_cols; i++)
		free(g->cells[i]);
	free(g->cells);
	free(g->right);
}

/* One digit more than the reports: a comparison needs finer steps
 * (0.0928 against 0.093). */
#define CMP_DIGITS (METRIC_DIGITS + 1)

/* The method's tag after the p-value (the intro says what they mean). */
static const char *cmp_method_tag(const char *method)
{
	static const struct {
		const char *method, *tag;
	} tags[] = {
		{ "mann-whitney", "U" }, { "mann-whitney-normal", "U" }, { "bootstrap-windows", "Bw" },
		{ "bootstrap-events", "Be" }, { "student", "t" }, { "student-log", "tl" },
		{ "welch", "w" }, { "welch-log", "wl" },
	};
	for (size_t i = 0; method && i < sizeof(tags) / sizeof(tags[0]); i++)
		if (!strcmp(tags[i].method, method))
			return tags[i].tag;
	return "?";
}

static void cmp_format_p(char *buf, size_t len, const struct cmp_cell *cell)
{
	if (!cell->tested)
		snprintf(buf, len, "-");
	else if (cell->p < 1e-4)
		snprintf(buf, len, "%.1e %s", cell->p, cmp_method_tag(cell->method));
	else
		snprintf(buf, len, "%.4f %s", cell->p, cmp_method_tag(cell->method));
}

static const char *cmp_marked_word(enum cmp_verdict v, bool markdown)
{
	static const char *const text[CMP_NVERDICTS] = {
		[CMP_EQUIVALENT] = "= equivalent", [CMP_REGRESSION] = "- regression",
		[CMP_IMPROVEMENT] = "+ improvement", [CMP_UNDECIDED] = "? undecided",
		[CMP_INSUFFICIENT] = "? insufficient data", [CMP_NOT_COMPARABLE] = "x not comparable",
	};
	static const char *const md[CMP_NVERDICTS] = {
		[CMP_EQUIVALENT] = "equivalent", [CMP_REGRESSION] = "**regression**",
		[CMP_IMPROVEMENT] = "improvement", [CMP_UNDECIDED] = "*undecided*",
		[CMP_INSUFFICIENT] = "insufficient data", [CMP_NOT_COMPARABLE] = "not comparable",
	};
	return markdown ? md[v] : text[v];
}

/* '-' worse, '+' better, '?' no verdict (mmtests' markers), blank otherwise;
 * a flip says so, a row that does not gate says "info". */
static void cmp_marked(const struct cmp_table *t, const struct cmp_row *row,
		       const struct cmp_cell *cell, bool markdown, char *buf, size_t len)
{
	const char *word = cmp_marked_word(cell->verdict, markdown);

	if (cell->flip >= 0)
		snprintf(buf, len, "%s (verdict %s -> %s)", word,
			 verdict_name(t->flips[cell->flip].from), verdict_name(t->flips[cell->flip].to));
	else if (cell->within_runs)
		snprintf(buf, len, "%s%s", markdown ? "one run a side" : "? one run a side",
			 row->gated ? "" : " (info)");
	else if (cmp_within_threshold(t, cell))	/* significant, but small */
		snprintf(buf, len, "%s%s", markdown ? "within margin" : "= within margin",
			 row->gated ? "" : " (info)");
	else if (cell->verdict == CMP_UNDECIDED)
		snprintf(buf, len, "%s: %s%s", word, cell->why == CMP_WHY_NOISY ? "noisy" : "wide",
			 row->gated ? "" : " (info)");
	else if (!row->gated)
		snprintf(buf, len, "%s (info)", word);
	else
		snprintf(buf, len, "%s", word);
}


/* Key columns: setting (results mode with several settings), load, metric,
 * threshold. Returns how many. */
static size_t cmp_key_cols(const struct cmp_table *t)
{
	return (t->mode == CMP_RESULTS && !t->one_setting) ? 4 : 3;
}

static void cmp_fill_header(const struct cmp_table *t, struct cmp_grid *g)
{
	size_t k = cmp_key_cols(t), c = 0;

	if (k == 4)
		cmp_grid_put(g, 0, c++, "setting");
	cmp_grid_put(g, 0, c++, "load");
	cmp_grid_put(g, 0, c++, "metric");
	cmp_grid_put(g, 0, c++, "margin");
	g->right[c] = true;
	/* the value columns are the medians of each side's runs */
	cmp_grid_put(g, 0, c++, "%s (median)", t->columns[0].label);
	for (size_t i = 1; i < t->n_columns; i++) {
		g->right[c] = g->right[c + 1] = g->right[c + 2] = true;
		cmp_grid_put(g, 0, c++, "%s (median)", t->columns[i].label);
		cmp_grid_put(g, 0, c++, "change [%g%% interval]", 100 * (1 - t->alpha));
		cmp_grid_put(g, 0, c++, "p");
		cmp_grid_put(g, 0, c++, "verdict");
	}
	g->right[k - 1] = true;
}

/* Grid row R from table row ROW. */
static void cmp_fill_row(const struct cmp_table *t, struct cmp_grid *g, size_t r,
			 const struct cmp_row *row, bool md)
{
	size_t c = 0;
	char buf[96];

	if (cmp_key_cols(t) == 4)
		cmp_grid_put(g, r, c++, "%s", *row->setting ? row->setting : "(none)");
	cmp_grid_put(g, r, c++, "%s", row->load);
	cmp_grid_put(g, r, c++, "%s", row->metric);
	if (cmp_margin_is_threshold(row))
		cmp_grid_put(g, r, c++, "%g%%", row->threshold);
	else
		cmp_grid_put(g, r, c++, "%s", metric_format(row->metric, row->margin_abs,
							    METRIC_DIGITS, buf, sizeof(buf)));
	cmp_grid_put(g, r, c++, "%s", metric_format(row->metric, row->cells[0].median, CMP_DIGITS,
						    buf, sizeof(buf)));
	for (size_t i = 1; i < t->n_columns; i++) {
		const struct cmp_cell *cell = &row->cells[i];

		cmp_grid_put(g, r, c++, "%s", metric_format(row->metric, cell->median, CMP_DIGITS,
							    buf, sizeof(buf)));
		cmp_grid_put(g, r, c++, "%s", cmp_change_text(cell, buf, sizeof(buf)));
		cmp_format_p(buf, sizeof(buf), cell);
		cmp_grid_put(g, r, c++, "%s", buf);
		cmp_marked(t, row, cell, md, buf, sizeof(buf));
		cmp_grid_put(g, r, c++, "%s", buf);
	}
}

static size_t cmp_rows_gated(const struct cmp_table *t, bool gated)
{
	size_t n = 0;

	for (size_t r = 0; r < t->n_rows; r++)
		n += t->rows[r].gated == gated;
	return n;
}

/* The grid of the rows that gate (GATED), or of those that do not. */
static void cmp_grid_build(const struct cmp_table *t, struct cmp_grid *g, bool markdown,
			   bool gated)
{
	size_t r = 1;

	g->n_cols = cmp_key_cols(t) + 1 + 4 * (t->n_columns - 1);
	g->n_rows = cmp_rows_gated(t, gated) + 1;
	g->cells = xcalloc(g->n_rows * g->n_cols, sizeof(*g->cells));
	g->right = xcalloc(g->n_cols, sizeof(*g->right));
	cmp_fill_header(t, g);
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].gated == gated)
			cmp_fill_row(t, g, r++, &t->rows[i], markdown);
	g->right[g->n_cols - 1] = false;	/* the verdict words */
}

/* How many settings COL's runs come from (results mode; 1 in settings mode). */
static size_t cmp_settings_of(const struct cmp_table *t, const struct cmp_column *col)
{
	return t->mode == CMP_RESULTS ? col->view->n_setting_names : 1;
}

/* The lines above the table: what was compared, and how. */
/* EOL ends each line: "\n", or "  \n" in Markdown, where a bare newline
 * would join the lines into one paragraph. */
static void cmp_print_intro(const struct cmp_table *t, FILE *out, const char *eol)
{
	fprintf(out, "profile '%s'", t->profile);
	if (t->mode == CMP_SETTINGS)
		fprintf(out, ", settings of %s", t->columns[0].file);
	fprintf(out, "; alpha %g; a change counts when significant one-sided and beyond its margin, "
		"a row is equivalent when shown inside it (TOST)%s", t->alpha, eol);
	if (t->test == CMP_TEST_AUTO)
		fprintf(out, "tests: U Mann-Whitney (enough runs a side), tl/t Student's t on logs/"
			     "values (2+ runs a side); one run on a side: Bw/Be bootstrap over its "
			     "windows/events, no verdict%s", eol);
	else
		fprintf(out, "tests: %s on the run values%s",
			t->test == CMP_TEST_WELCH ? "wl/w Welch's t on logs/values" :
			"U Mann-Whitney U", eol);
	fprintf(out, "gating: %s; other rows are information%s", t->gate_rule, eol);
	for (size_t i = 0; i < t->n_columns; i++) {
		const struct cmp_column *col = &t->columns[i];

		fprintf(out, "%s: %s", i ? "compared" : "baseline", col->label);
		fputs(" (", out);
		if (t->mode == CMP_RESULTS)
			fprintf(out, "%s, ", col->file);
		fprintf(out, "%zu ok run%s", col->runs_ok, col->runs_ok == 1 ? "" : "s");
		if (cmp_settings_of(t, col) > 1)	/* runs are not repetitions then */
			fprintf(out, ": %d repetition%s of %zu settings", col->view->repetitions,
				col->view->repetitions == 1 ? "" : "s", cmp_settings_of(t, col));
		if (col->runs_noisy)
			fprintf(out, ", %zu noisy", col->runs_noisy);
		if (t->mode == CMP_RESULTS && !col->view->complete)
			fputs(", partial: interrupted", out);
		fprintf(out, ")%s", i + 1 < t->n_columns ? eol : "\n\n");
	}
}

static bool cmp_noisy(const struct cmp_table *t)
{
	for (size_t i = 0; i < t->n_columns; i++)
		if (t->columns[i].runs_noisy)
			return true;
	return false;
}

/* Verdict flips come first: they decide by themselves. */
static void cmp_print_flips(const struct cmp_table *t, FILE *out, const char *eol)
{
	char label[256];

	for (size_t i = 0; i < t->n_flips; i++) {
		const struct cmp_flip *f = &t->flips[i];

		fprintf(out, "%s: %s%s%s %s on %s, %s on %s%s",
			f->verdict == CMP_REGRESSION ? "verdict flip, regression" :
			f->verdict == CMP_IMPROVEMENT ? "verdict flip, improvement" :
			"verdict flip, not confirmed by its metric's test", verdict_label(f->rule, label, sizeof(label)),
			f->setting ? " in " : "", f->setting ? f->setting : "",
			verdict_name(f->from), t->columns[0].label, verdict_name(f->to),
			t->columns[f->column].label, eol);
	}
	if (t->n_flips)
		fputc('\n', out);
}

/* Across several columns: where each changed row first changed. */
static void cmp_print_bisect(const struct cmp_table *t, FILE *out)
{
	if (t->n_columns < 3)
		return;
	for (size_t r = 0; r < t->n_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		size_t c = row->first_change;

		if (!c)
			continue;
		fprintf(out, "first change: %s %s %s between %s and %s%s\n", row->load, row->metric,
			cmp_verdict_name(row->cells[c].verdict), t->columns[c - 1].label,
			t->columns[c].label, row->gated ? "" : " (info)");
	}
}

/* The outcome and its exit status, last, as a CI log's reader looks for it. */
static void cmp_print_exit(const struct cmp_table *t, FILE *out)
{
	static const char *const policy[] = {
		[CMP_UNDECIDED_NO_VERDICT] = "no verdict; --strict makes it 1, --allow-undecided 0",
		[CMP_UNDECIDED_FAILS] = "--strict", [CMP_UNDECIDED_PASSES] = "--allow-undecided",
	};

	fprintf(out, "outcome: %s, exit %d", cmp_outcome_name(t->outcome), cmp_exit_status(t));
	if (t->outcome == CMP_OUT_UNDECIDED)
		fprintf(out, " (%s)", policy[t->undecided]);
	fputc('\n', out);
}

static void cmp_print_summary(const struct cmp_table *t, FILE *out)
{
	fputc('\n', out);
	cmp_print_bisect(t, out);
	fprintf(out, "%zu regression%s, %zu improvement%s, %zu equivalent, %zu undecided, "
		"%zu insufficient data\n",
		t->counts[CMP_REGRESSION], t->counts[CMP_REGRESSION] == 1 ? "" : "s",
		t->counts[CMP_IMPROVEMENT], t->counts[CMP_IMPROVEMENT] == 1 ? "" : "s",
		t->counts[CMP_EQUIVALENT], t->counts[CMP_UNDECIDED], t->counts[CMP_INSUFFICIENT]);
	if (t->info_counts[CMP_REGRESSION] || t->info_counts[CMP_IMPROVEMENT])
		fprintf(out, "information only (rows that do not gate): %zu regression%s, "
			     "%zu improvement%s\n", t->info_counts[CMP_REGRESSION],
			t->info_counts[CMP_REGRESSION] == 1 ? "" : "s", t->info_counts[CMP_IMPROVEMENT],
			t->info_counts[CMP_IMPROVEMENT] == 1 ? "" : "s");
	if (t->n_flips)
		fprintf(out, "%zu verdict flip%s: %zu regression%s (pass to fail), %zu improvement%s "
			     "(fail to pass)\n", t->n_flips, t->n_flips == 1 ? "" : "s",
			t->flip_regressions, t->flip_regressions == 1 ? "" : "s",
			t->n_flips - t->flip_regressions,
			t->n_flips - t->flip_regressions == 1 ? "" : "s");
	if (t->counts[CMP_INSUFFICIENT] || t->info_counts[CMP_INSUFFICIENT])
		fprintf(out, "insufficient data: %s\n", t->test == CMP_TEST_AUTO ?
			"the metric is missing on a side, or one run a side (whose interval, "
			"of the two runs' windows or events, is no verdict: repeat >= 2)" :
			"fewer than 3 repetitions with the metric on a side");
	if (cmp_noisy(t))
		fprintf(out, "noisy runs: other tasks used over %g%% of the loads' CPUs or the sampler "
			     "fell under %g%% of its rate; a change counts only beyond what that noise "
			     "could do, and no row is called equivalent\n",
			VERDICT_MAX_NOISE * 100, VERDICT_MIN_SAMPLER_RATIO * 100);
	cmp_print_exit(t, out);
	if (t->underpowered)
		fprintf(out, "note: %zu comparison%s had too few repetitions to ever reach alpha %g "
			     "(3 a side: p >= 0.1); use repeat >= 5, or the default --test auto\n",
			t->underpowered, t->underpowered == 1 ? "" : "s", t->alpha);
}

/* The heading of the rows that do not gate, above their own table. */
#define CMP_INFO_HEADING "information: rows that do not gate (the loads that cause the trouble)"

/* One table as aligned text: the rows that gate (GATED) or the others. */
static void cmp_text_table(const struct cmp_table *t, FILE *out, bool gated)
{
	struct cmp_grid g;
	size_t *width;

	cmp_grid_build(t, &g, false, gated);
	width = xcalloc(g.n_cols, sizeof(*width));
	for (size_t r = 0; r < g.n_rows; r++)
		for (size_t c = 0; c < g.n_cols; c++)
			if (strlen(cmp_grid_get(&g, r, c)) > width[c])
				width[c] = strlen(cmp_grid_get(&g, r, c));
	for (size_t r = 0; r < g.n_rows; r++) {
		for (size_t c = 0; c < g.n_cols; c++) {
			bool last = c + 1 == g.n_cols;

			fprintf(out, "%s%*s", c ? "  " : "",
				g.right[c] ? (int)width[c] : (last ? 0 : -(int)width[c]),
				cmp_grid_get(&g, r, c));
		}
		fputc('\n', out);
	}
	free(width);
	cmp_grid_free(&g);
}

void cmp_print_text(const struct cmp_table *t, FILE *out)
{
	cmp_print_headline(t, out, false);
	cmp_confounders_print(t, out, "\n");
	cmp_print_intro(t, out, "\n");
	cmp_print_flips(t, out, "\n");
	if (cmp_rows_gated(t, true))
		cmp_text_table(t, out, true);
	if (cmp_rows_gated(t, false)) {
		fprintf(out, "%s" CMP_INFO_HEADING "\n", cmp_rows_gated(t, true) ? "\n" : "");
		cmp_text_table(t, out, false);
	}
	if (!t->n_rows)
		fprintf(out, "(no metric was reported by an ok run)\n");
	cmp_print_summary(t, out);
}

/* A Markdown cell: '|' would end the cell early. */
static void cmp_md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc(' ', out);
}

static void cmp_md_table(const struct cmp_table *t, FILE *out, bool gated)
{
	struct cmp_grid g;

	cmp_grid_build(t, &g, true, gated);
	for (size_t r = 0; r < g.n_rows; r++) {
		for (size_t c = 0; c < g.n_cols; c++)
			cmp_md_cell(out, cmp_grid_get(&g, r, c));
		fputs("|\n", out);
		if (r)
			continue;
		for (size_t c = 0; c < g.n_cols; c++)
			fputs(g.right[c] ? "|---:" : "|---", out);
		fputs("|\n", out);
	}
	cmp_grid_free(&g);
}

void cmp_print_markdown(const struct cmp_table *t, FILE *out)
{
	cmp_print_headline(t, out, true);
	cmp_confounders_print(t, out, "  \n");
	cmp_print_intro(t, out, "  \n");
	cmp_print_flips(t, out, "  \n");
	if (cmp_rows_gated(t, true))
		cmp_md_table(t, out, true);
	if (cmp_rows_gated(t, false)) {
		fputs("\n<details><summary>" CMP_INFO_HEADING "</summary>\n\n", out);
		cmp_md_table(t, out, false);
		fputs("\n</details>\n", out);
	}
	cmp_print_summary(t, out);
}

/* Non-finite numbers have no JSON spelling: null. */
static json_t *cmp_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A p-value of a cell tested across runs, else null. */
static json_t *cmp_tested_real(const struct cmp_cell *cell, double p)
{
	return cell->tested && !cell->within_runs ? cmp_json_real(p) : json_null();
}

static json_t *cmp_cell_json(const struct cmp_table *t, const struct cmp_cell *cell, size_t c)
{
	json_t *samples = json_array(), *o;

	for (size_t i = 0; i < cell->n; i++)
		json_array_append_new(samples, json_real(cell->samples[i]));
	o = json_pack("{s:s, s:I, s:o, s:o}", "label", t->columns[c].label, "n",
		      (json_int_t)cell->n, "median", cmp_json_real(cell->median), "samples", samples);
	if (c == 0)
		return o;
	json_object_set_new(o, "change_pct", cmp_json_real(cell->change_pct));
	json_object_set_new(o, "p", cell->tested ? json_real(cell->p) : json_null());
	json_object_set_new(o, "p_holm", cmp_tested_real(cell, cell->p_holm));
	json_object_set_new(o, "p_worse", cmp_tested_real(cell, cell->p_q[CMP_Q_WORSE]));
	json_object_set_new(o, "p_better", cmp_tested_real(cell, cell->p_q[CMP_Q_BETTER]));
	json_object_set_new(o, "p_equivalent", cmp_tested_real(cell, cell->p_q[CMP_Q_SAME]));
	json_object_set_new(o, "p_worse_holm", cmp_tested_real(cell, cell->p_q_holm[CMP_Q_WORSE]));
	json_object_set_new(o, "p_better_holm", cmp_tested_real(cell, cell->p_q_holm[CMP_Q_BETTER]));
	json_object_set_new(o, "p_equivalent_holm",
			    cmp_tested_real(cell, cell->p_q_holm[CMP_Q_SAME]));
	json_object_set_new(o, "noisy", json_boolean(cell->noisy));
	json_object_set_new(o, "method", cell->tested ? json_string(cell->method) : json_null());
	json_object_set_new(o, "ci_low_pct", cell->tested ? cmp_json_real(cell->lo_pct) : json_null());
	json_object_set_new(o, "ci_high_pct", cell->tested ? cmp_json_real(cell->hi_pct) : json_null());
	if (cell->block)
		json_object_set_new(o, "block", json_integer((json_int_t)cell->block));
	json_object_set_new(o, "verdict", json_string(cmp_verdict_name(cell->verdict)));
	json_object_set_new(o, "why", cell->why ? json_string(cmp_why_name(cell->why)) : json_null());
	if (cell->why) {
		char what[160];

		json_object_set_new(o, "would_decide",
				    json_string(cmp_what_decides(cell, what, sizeof(what))));
	}
	json_object_set_new(o, "flip", cell->flip >= 0 ? json_true() : json_false());
	json_object_set_new(o, "within_runs", json_boolean(cell->within_runs));
	return o;
}

static json_t *cmp_row_json(const struct cmp_table *t, const struct cmp_row *row)
{
	json_t *compared = json_array();

	for (size_t c = 1; c < t->n_columns; c++)
		json_array_append_new(compared, cmp_cell_json(t, &row->cells[c], c));
	return json_pack("{s:o, s:s, s:s, s:s, s:f, s:o, s:o, s:b, s:o, s:o, s:o}",
			 "setting", row->setting ? json_string(row->setting) : json_null(),
			 "load", row->load, "metric", row->metric,
			 "better", row->def->better == LOWER_IS_BETTER ? "lower" : "higher",
			 "threshold_pct", row->threshold, "margin", cmp_json_real(row->margin_abs),
			 "margin_pct", cmp_json_real(row->margin_pct), "gated", row->gated,
			 "first_change", row->first_change ?
			 json_string(t->columns[row->first_change].label) : json_null(),
			 "baseline", cmp_cell_json(t, &row->cells[0], 0), "compared", compared);
}

static json_t *cmp_flips_json(const struct cmp_table *t)
{
	json_t *flips = json_array();
	char label[256];

	for (size_t i = 0; i < t->n_flips; i++) {
		const struct cmp_flip *f = &t->flips[i];

		json_array_append_new(flips, json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:s, s:s}",
			"expectation", verdict_label(f->rule, label, sizeof(label)),
			"load", f->rule->load, "metric", f->rule->metric,
			"setting", f->setting ? json_string(f->setting) : json_null(),
			"column", t->columns[f->column].label, "from", verdict_name(f->from),
			"to", verdict_name(f->to), "verdict", cmp_verdict_name(f->verdict)));
	}
	return flips;
}

json_t *cmp_to_json(const struct cmp_table *t)
{
	json_t *columns = json_array(), *rows = json_array(), *summary, *doc;

	for (size_t c = 0; c < t->n_columns; c++) {
		const struct cmp_column *col = &t->columns[c];

		json_array_append_new(columns, json_pack("{s:s, s:s, s:o, s:I, s:I, s:o}", "label",
			col->label, "file", col->file, "setting", col->setting ?
			json_string(col->setting) : json_null(), "runs_ok", (json_int_t)col->runs_ok,
			"runs_noisy", (json_int_t)col->runs_noisy, "outcome",
			c ? json_string(cmp_outcome_name(col->outcome)) : json_null()));
	}
	for (size_t r = 0; r < t->n_rows; r++)
		json_array_append_new(rows, cmp_row_json(t, &t->rows[r]));
	summary = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:i}",
		"outcome", cmp_outcome_name(t->outcome),
		"regression", (json_int_t)t->counts[CMP_REGRESSION],
		"improvement", (json_int_t)t->counts[CMP_IMPROVEMENT],
		"equivalent", (json_int_t)t->counts[CMP_EQUIVALENT],
		"undecided", (json_int_t)t->counts[CMP_UNDECIDED],
		"insufficient_data", (json_int_t)t->counts[CMP_INSUFFICIENT],
		"not_comparable", (json_int_t)t->counts[CMP_NOT_COMPARABLE],
		"info_regression", (json_int_t)t->info_counts[CMP_REGRESSION],
		"info_improvement", (json_int_t)t->info_counts[CMP_IMPROVEMENT],
		"flip_regression", (json_int_t)t->flip_regressions,
		"underpowered", (json_int_t)t->underpowered, "exit_code", cmp_exit_status(t));
	doc = json_pack("{s:s, s:i, s:s, s:s, s:s, s:f, s:f, s:s, s:o, s:o, s:o, s:o}",
		"format", "starve-compare", "format_version", 3,
		"mode", t->mode == CMP_RESULTS ? "results" : "settings", "profile", t->profile,
		"test", cmp_test_name(t->test), "alpha", t->alpha, "default_threshold_pct", t->threshold,
		"gating", t->gate_rule, "columns", columns, "flips", cmp_flips_json(t), "rows", rows,
		"summary", summary);
	if (doc)
		json_object_set_new(doc, "confounders", cmp_confounders_json(t));
	return doc;
}
