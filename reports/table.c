/* Terminal summary table (reports/table.h). Column widths are measured
 * first, so the table stays aligned whatever the names and values are. */
#include "config.h"
#include "reports/table.h"
#include "reports/who-ran.h"
#include "reports/verdict.h"
#include "lib/metric.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_CELL 256

/* Append TEXT to BUF (length *used of LEN), truncating quietly. */
static void table_append(char *buf, size_t len, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, len - *used, "%s", text);

	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

int table_cell(const struct result_view *v, const struct rv_expect *e, size_t setting,
	       char *buf, size_t len)
{
	char values[TABLE_CELL] = "", one[64];
	size_t used = 0;
	int worst = -1;
	bool measured = false;

	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		if (run->setting_index != setting)
			continue;
		for (size_t j = 0; j < run->n_verdicts; j++) {
			const struct rv_verdict *vd = &run->verdicts[j];

			if (!rv_rule_same(&vd->rule, &e->rule))
				continue;
			if ((int)vd->kind > worst)
				worst = (int)vd->kind;
			measured |= !isnan(vd->value);
			table_append(values, sizeof(values), &used, " ");
			table_append(values, sizeof(values), &used,
				     metric_format(vd->rule.metric, vd->value, METRIC_DIGITS, one,
						   sizeof(one)));
		}
	}
	if (worst < 0) {
		snprintf(buf, len, "-");
		return -1;
	}
	/* a cell of skipped or unmeasured verdicts shows no row of dashes */
	snprintf(buf, len, "%s%s", verdict_upper(worst), measured ? values : "");
	return worst;
}

/* All cells of the table, row-major: rows = expectations + 1 header row,
 * cols = settings + 1 label column. Free with free(). */
static char *table_fill(const struct result_view *v, size_t rows, size_t cols)
{
	char *cells = calloc(rows * cols, TABLE_CELL);

	if (!cells)
		return NULL;
#define CELL(r, c) (cells + ((r) * cols + (c)) * TABLE_CELL)
	snprintf(CELL(0, 0), TABLE_CELL, "expectation");
	for (size_t c = 0; c < v->n_setting_names; c++)
		snprintf(CELL(0, c + 1), TABLE_CELL, "%s", v->setting_names[c]);
	for (size_t r = 0; r < v->profile.n_expect; r++) {
		verdict_label(&v->profile.expect[r].rule, CELL(r + 1, 0), TABLE_CELL);
		for (size_t c = 0; c < v->n_setting_names; c++)
			table_cell(v, &v->profile.expect[r], c, CELL(r + 1, c + 1), TABLE_CELL);
	}
#undef CELL
	return cells;
}

static void table_rows(FILE *f, const char *cells, size_t rows, size_t cols)
{
	size_t width[cols];

	for (size_t c = 0; c < cols; c++) {
		width[c] = 0;
		for (size_t r = 0; r < rows; r++) {
			size_t w = strlen(cells + (r * cols + c) * TABLE_CELL);

			width[c] = w > width[c] ? w : width[c];
		}
	}
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++)
			fprintf(f, "%s%-*s", c ? "  " : "", c + 1 < cols ? (int)width[c] : 0,
				cells + (r * cols + c) * TABLE_CELL);
		fputc('\n', f);
	}
}

/* "FAIL  throttled rep 2: reason" for every verdict that is not a pass. */
static void table_reasons(FILE *f, const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++) {
		const struct rv_run *run = &v->runs[i];

		for (size_t j = 0; j < run->n_verdicts; j++) {
			const struct rv_verdict *vd = &run->verdicts[j];
			char label[512];

			if (vd->kind == VERDICT_PASS)
				continue;
			fprintf(f, "%-9s %s, %s", verdict_upper(vd->kind),
				verdict_label(&vd->rule, label, sizeof(label)), run->setting);
			if (v->repetitions > 1)
				fprintf(f, " rep %ld", run->repetition + 1);
			fprintf(f, ": %s\n", vd->reason ? vd->reason : "no reason recorded");
		}
	}
}

static void table_who_ran_line(void *data, const struct rv_run *run, const char *label,
			       const char *line)
{
	(void)run;
	fprintf(data, "  %s: %s\n", label, line);
}

/* Exact mode: who ran instead during each load's longest stretch. */
static void table_who_ran(FILE *f, const struct result_view *v)
{
	if (!who_ran_any(v))
		return;
	fprintf(f, "who ran instead (exact mode, each load's longest wait):\n");
	who_ran_each(v, table_who_ran_line, f);
	fputc('\n', f);
}

static void table_header(FILE *f, const struct result_view *v)
{
	fprintf(f, "starve %s on kernel %s (HZ %ld), %d repetition%s%s\n", v->profile.name,
		v->kernel.release, v->kernel.hz, v->repetitions, v->repetitions == 1 ? "" : "s",
		v->complete ? "" : " (INCOMPLETE: interrupted)");
}

static void table_summary(FILE *f, const struct result_view *v)
{
	const struct rv_summary *s = &v->summary;

	fprintf(f, "verdict: %s (%ld pass, %ld fail, %ld skip, %ld undecided)\n",
		verdict_upper(s->verdict), s->pass, s->fail, s->skip, s->undecided);
	if (s->warning)
		fprintf(f, "warning: %s\n", s->warning);
}

int table_print(const struct result_view *v, FILE *f)
{
	size_t rows = v->profile.n_expect + 1, cols = v->n_setting_names + 1;
	char *cells = table_fill(v, rows, cols);

	if (!cells)
		return -1;
	table_header(f, v);
	if (rows > 1) {
		fputc('\n', f);
		table_rows(f, cells, rows, cols);
	} else {
		fprintf(f, "no expectations in this profile\n");
	}
	free(cells);
	fputc('\n', f);
	table_reasons(f, v);
	table_who_ran(f, v);
	table_summary(f, v);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
