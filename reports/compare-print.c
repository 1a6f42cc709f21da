/* Printing a comparison table (reports/compare.h): the terminal and Markdown
 * share one grid of formatted cells (so they cannot disagree) and differ only
 * in how they lay it out; JSON is built from the numbers, not the text. */
#include "config.h"
#include "reports/compare.h"
#include "lib/error.h"
#include "reports/verdict.h"

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
	if (vasprintf(&g->cells[r * g->n_cols + c], fmt, ap) < 0)
		die(EXIT_RUNTIME, "out of memory");
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

static void cmp_format_change(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else if (isinf(pct))
		snprintf(buf, len, "%sinf%%", pct > 0 ? "+" : "-");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

static void cmp_format_p(char *buf, size_t len, const struct cmp_cell *cell)
{
	if (!cell->tested)
		snprintf(buf, len, "-");
	else if (cell->p < 1e-4)
		snprintf(buf, len, "%.1e", cell->p);
	else
		snprintf(buf, len, "%.4f", cell->p);
}

/* '-' worse, '+' better, '?' no verdict (mmtests' markers), blank otherwise. */
static const char *cmp_marked(enum cmp_verdict v, bool markdown)
{
	static const char *const text[CMP_NVERDICTS] = {
		[CMP_NO_CHANGE] = "  no change", [CMP_REGRESSION] = "- regression",
		[CMP_IMPROVEMENT] = "+ improvement", [CMP_INSUFFICIENT] = "? insufficient data",
	};
	static const char *const md[CMP_NVERDICTS] = {
		[CMP_NO_CHANGE] = "no change", [CMP_REGRESSION] = "**regression**",
		[CMP_IMPROVEMENT] = "improvement", [CMP_INSUFFICIENT] = "insufficient data",
	};
	return markdown ? md[v] : text[v];
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
	cmp_grid_put(g, 0, c++, "threshold");
	g->right[c] = true;
	cmp_grid_put(g, 0, c++, "%s", t->columns[0].label);
	for (size_t i = 1; i < t->n_columns; i++) {
		g->right[c] = g->right[c + 1] = g->right[c + 2] = true;
		cmp_grid_put(g, 0, c++, "%s", t->columns[i].label);
		cmp_grid_put(g, 0, c++, "change");
		cmp_grid_put(g, 0, c++, "p");
		cmp_grid_put(g, 0, c++, "verdict");
	}
	g->right[k - 1] = true;
}

static void cmp_fill_row(const struct cmp_table *t, struct cmp_grid *g, size_t r, bool md)
{
	const struct cmp_row *row = &t->rows[r - 1];
	size_t c = 0;
	char buf[64];

	if (cmp_key_cols(t) == 4)
		cmp_grid_put(g, r, c++, "%s", *row->setting ? row->setting : "(none)");
	cmp_grid_put(g, r, c++, "%s", row->load);
	cmp_grid_put(g, r, c++, "%s", row->metric);
	cmp_grid_put(g, r, c++, "%g%%", row->threshold);
	cmp_grid_put(g, r, c++, "%s", metric_format(row->metric, row->cells[0].median, CMP_DIGITS,
						    buf, sizeof(buf)));
	for (size_t i = 1; i < t->n_columns; i++) {
		const struct cmp_cell *cell = &row->cells[i];

		cmp_grid_put(g, r, c++, "%s", metric_format(row->metric, cell->median, CMP_DIGITS,
							    buf, sizeof(buf)));
		cmp_format_change(buf, sizeof(buf), cell->change_pct);
		cmp_grid_put(g, r, c++, "%s", buf);
		cmp_format_p(buf, sizeof(buf), cell);
		cmp_grid_put(g, r, c++, "%s", buf);
		cmp_grid_put(g, r, c++, "%s", cmp_marked(cell->verdict, md));
	}
}

static void cmp_grid_build(const struct cmp_table *t, struct cmp_grid *g, bool markdown)
{
	g->n_cols = cmp_key_cols(t) + 1 + 4 * (t->n_columns - 1);
	g->n_rows = t->n_rows + 1;
	g->cells = calloc(g->n_rows * g->n_cols, sizeof(*g->cells));
	g->right = calloc(g->n_cols, sizeof(*g->right));
	if (!g->cells || !g->right)
		die(EXIT_RUNTIME, "out of memory");
	cmp_fill_header(t, g);
	for (size_t r = 1; r < g->n_rows; r++)
		cmp_fill_row(t, g, r, markdown);
	g->right[g->n_cols - 1] = false;	/* the verdict words */
}

/* The lines above the table: what was compared, and how. */
static void cmp_print_intro(const struct cmp_table *t, FILE *out)
{
	fprintf(out, "profile '%s'", t->profile);
	if (t->mode == CMP_SETTINGS)
		fprintf(out, ", settings of %s", t->columns[0].file);
	fprintf(out, "; %s two-sided, alpha %g; a change counts when significant "
		     "and beyond its threshold\n",
		t->test == CMP_TEST_WELCH ? "Welch's t" : "Mann-Whitney U", t->alpha);
	for (size_t i = 0; i < t->n_columns; i++) {
		const struct cmp_column *col = &t->columns[i];

		fprintf(out, "%s: %s", i ? "compared" : "baseline", col->label);
		fputs(" (", out);
		if (t->mode == CMP_RESULTS)
			fprintf(out, "%s, ", col->file);
		fprintf(out, "%zu ok runs", col->runs_ok);
		if (col->runs_noisy)
			fprintf(out, ", %zu noisy", col->runs_noisy);
		if (t->mode == CMP_RESULTS && !col->view->complete)
			fputs(", partial: interrupted", out);
		fputs(i + 1 < t->n_columns ? ")\n" : ")\n\n", out);
	}
}

static bool cmp_noisy(const struct cmp_table *t)
{
	for (size_t i = 0; i < t->n_columns; i++)
		if (t->columns[i].runs_noisy)
			return true;
	return false;
}

static void cmp_print_summary(const struct cmp_table *t, FILE *out)
{
	fprintf(out, "\n%zu regression%s, %zu improvement%s, %zu no change, %zu insufficient data\n",
		t->counts[CMP_REGRESSION], t->counts[CMP_REGRESSION] == 1 ? "" : "s",
		t->counts[CMP_IMPROVEMENT], t->counts[CMP_IMPROVEMENT] == 1 ? "" : "s",
		t->counts[CMP_NO_CHANGE], t->counts[CMP_INSUFFICIENT]);
	if (t->counts[CMP_INSUFFICIENT])
		fprintf(out, "insufficient data: fewer than %d repetitions with the metric on a "
			     "side\n", CMP_MIN_SAMPLES);
	if (cmp_noisy(t))
		fprintf(out, "noisy runs: other tasks used over %g%% of the loads' CPUs or the sampler "
			     "fell under %g%% of its rate; differences may be the machine's\n",
			VERDICT_MAX_NOISE * 100, VERDICT_MIN_SAMPLER_RATIO * 100);
	if (t->underpowered)
		fprintf(out, "note: %zu comparison%s had too few repetitions to ever reach alpha %g "
			     "(3 a side: p >= 0.1); use repeat >= 5, or --test welch\n",
			t->underpowered, t->underpowered == 1 ? "" : "s", t->alpha);
}

void cmp_print_text(const struct cmp_table *t, FILE *out)
{
	struct cmp_grid g;
	size_t *width;

	cmp_print_intro(t, out);
	cmp_grid_build(t, &g, false);
	width = calloc(g.n_cols, sizeof(*width));
	if (!width)
		die(EXIT_RUNTIME, "out of memory");
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
	if (!t->n_rows)
		fprintf(out, "(no metric was reported by an ok run)\n");
	cmp_print_summary(t, out);
	free(width);
	cmp_grid_free(&g);
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

void cmp_print_markdown(const struct cmp_table *t, FILE *out)
{
	struct cmp_grid g;

	fprintf(out, "### starve compare\n\n");
	cmp_print_intro(t, out);
	cmp_grid_build(t, &g, true);
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
	cmp_print_summary(t, out);
	cmp_grid_free(&g);
}

/* Non-finite numbers have no JSON spelling: null. */
static json_t *cmp_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
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
	json_object_set_new(o, "method", cell->tested ? json_string(cell->method) : json_null());
	json_object_set_new(o, "verdict", json_string(cmp_verdict_name(cell->verdict)));
	return o;
}

static json_t *cmp_row_json(const struct cmp_table *t, const struct cmp_row *row)
{
	json_t *compared = json_array();

	for (size_t c = 1; c < t->n_columns; c++)
		json_array_append_new(compared, cmp_cell_json(t, &row->cells[c], c));
	return json_pack("{s:o, s:s, s:s, s:s, s:f, s:o, s:o}",
			 "setting", row->setting ? json_string(row->setting) : json_null(),
			 "load", row->load, "metric", row->metric,
			 "better", row->def->better == LOWER_IS_BETTER ? "lower" : "higher",
			 "threshold_pct", row->threshold,
			 "baseline", cmp_cell_json(t, &row->cells[0], 0), "compared", compared);
}

json_t *cmp_to_json(const struct cmp_table *t)
{
	json_t *columns = json_array(), *rows = json_array(), *summary;

	for (size_t c = 0; c < t->n_columns; c++) {
		const struct cmp_column *col = &t->columns[c];

		json_array_append_new(columns, json_pack("{s:s, s:s, s:o, s:I, s:I}", "label",
			col->label, "file", col->file, "setting", col->setting ?
			json_string(col->setting) : json_null(), "runs_ok", (json_int_t)col->runs_ok,
			"runs_noisy", (json_int_t)col->runs_noisy));
	}
	for (size_t r = 0; r < t->n_rows; r++)
		json_array_append_new(rows, cmp_row_json(t, &t->rows[r]));
	summary = json_pack("{s:I, s:I, s:I, s:I, s:I, s:i}",
		"regression", (json_int_t)t->counts[CMP_REGRESSION],
		"improvement", (json_int_t)t->counts[CMP_IMPROVEMENT],
		"no_change", (json_int_t)t->counts[CMP_NO_CHANGE],
		"insufficient_data", (json_int_t)t->counts[CMP_INSUFFICIENT],
		"underpowered", (json_int_t)t->underpowered, "exit_code", cmp_exit_status(t));
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:f, s:f, s:i, s:o, s:o, s:o}",
		"format", "starve-compare", "format_version", 1,
		"mode", t->mode == CMP_RESULTS ? "results" : "settings", "profile", t->profile,
		"test", cmp_test_name(t->test), "alpha", t->alpha, "default_threshold_pct", t->threshold,
		"min_samples", CMP_MIN_SAMPLES, "columns", columns, "rows", rows, "summary", summary);
}
