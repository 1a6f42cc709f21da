/* Terminal summary table (reports/table.h). Column widths are measured
 * first, so the table stays aligned whatever the names and values are. */
#include "config.h"
#include "reports/table.h"
#include "reports/verdict.h"

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

int table_cell(const json_t *result, const json_t *expect, const char *setting, char *buf,
	       size_t len)
{
	char values[TABLE_CELL] = "", one[64];
	size_t used = 0;
	int worst = -1;
	bool measured = false;
	json_t *run, *v;
	size_t i, j;

	json_array_foreach(json_object_get(result, "runs"), i, run) {
		if (!verdict_run_is(run, setting))
			continue;
		json_array_foreach(json_object_get(run, "verdicts"), j, v) {
			const json_t *value = json_object_get(v, "value");
			int k = (int)verdict_kind_of(v);

			if (!verdict_matches(v, expect))
				continue;
			if (k > worst)
				worst = k;
			measured |= json_is_number(value);
			table_append(values, sizeof(values), &used, " ");
			table_append(values, sizeof(values), &used,
				     json_is_number(value)
					     ? verdict_format_value(
						       verdict_str(v, "metric", NULL),
						       json_number_value(value), one, sizeof(one))
					     : "-");
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
static char *table_fill(const json_t *result, const json_t *expects, const json_t *settings,
			size_t rows, size_t cols)
{
	char *cells = calloc(rows * cols, TABLE_CELL);
	json_t *e, *s;
	size_t r, c;

	if (!cells)
		return NULL;
#define CELL(r, c) (cells + ((r) * cols + (c)) * TABLE_CELL)
	snprintf(CELL(0, 0), TABLE_CELL, "expectation");
	json_array_foreach(settings, c, s)
		snprintf(CELL(0, c + 1), TABLE_CELL, "%s", json_string_value(s));
	json_array_foreach(expects, r, e) {
		verdict_label(e, CELL(r + 1, 0), TABLE_CELL);
		json_array_foreach(settings, c, s)
			table_cell(result, e, json_string_value(s), CELL(r + 1, c + 1), TABLE_CELL);
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
static void table_reasons(FILE *f, const json_t *result)
{
	int reps = verdict_repetitions(result);
	json_t *run, *v;
	size_t i, j;

	json_array_foreach(json_object_get(result, "runs"), i, run) {
		json_array_foreach(json_object_get(run, "verdicts"), j, v) {
			enum verdict_kind k = verdict_kind_of(v);
			char label[512];

			if (k == VERDICT_PASS)
				continue;
			fprintf(f, "%-9s %s, %s", verdict_upper(k), verdict_label(v, label, sizeof(label)),
				verdict_str(run, "setting", "?"));
			if (reps > 1)
				fprintf(f, " rep %lld", (long long)json_integer_value(
								json_object_get(run, "repetition")) + 1);
			fprintf(f, ": %s\n", verdict_str(v, "reason", "no reason recorded"));
		}
	}
}

static void table_header(FILE *f, const json_t *result)
{
	const json_t *kernel = json_object_get(result, "kernel");
	const json_t *profile = json_object_get(result, "profile");
	int reps = verdict_repetitions(result);

	fprintf(f, "starve %s on kernel %s (HZ %lld), %d repetition%s%s\n",
		verdict_str(profile, "name", "?"), verdict_str(kernel, "release", "unknown"),
		(long long)json_integer_value(json_object_get(kernel, "hz")), reps,
		reps == 1 ? "" : "s",
		json_is_false(json_object_get(result, "complete")) ? " (INCOMPLETE: interrupted)" : "");
}

static void table_summary(FILE *f, const json_t *result)
{
	const json_t *s = json_object_get(result, "summary");
	const char *verdict = verdict_str(s, "verdict", "unknown");
	int k = verdict_parse(verdict);

	fprintf(f, "verdict: %s (%lld pass, %lld fail, %lld skip, %lld undecided)\n",
		k < 0 ? verdict : verdict_upper(k),
		(long long)json_integer_value(json_object_get(s, "pass")),
		(long long)json_integer_value(json_object_get(s, "fail")),
		(long long)json_integer_value(json_object_get(s, "skip")),
		(long long)json_integer_value(json_object_get(s, "undecided")));
	if (json_is_string(json_object_get(s, "warning")))
		fprintf(f, "warning: %s\n", verdict_str(s, "warning", ""));
}

int table_print(const json_t *result, FILE *f)
{
	const json_t *expects = json_object_get(json_object_get(result, "profile"), "expect");
	json_t *settings = verdict_settings(result);
	size_t rows = json_array_size(expects) + 1, cols = json_array_size(settings) + 1;
	char *cells = table_fill(result, expects, settings, rows, cols);

	json_decref(settings);
	if (!cells)
		return -1;
	table_header(f, result);
	if (rows > 1) {
		fputc('\n', f);
		table_rows(f, cells, rows, cols);
	} else {
		fprintf(f, "no expectations in this profile\n");
	}
	free(cells);
	fputc('\n', f);
	table_reasons(f, result);
	table_summary(f, result);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
