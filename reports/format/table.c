/* Terminal summary table (reports/format/table.h). Column widths are measured
 * first, so the table stays aligned whatever the names and values are. The
 * cells come from one pass over the verdicts, grouped by rule through a key
 * index: a result of 142k expectations took hours cell by cell. */
#include "config.h"
#include "reports/format/table.h"
#include "reports/format/who-ran.h"
#include "reports/result/verdict.h"
#include "lib/keyindex.h"
#include "lib/metric.h"
#include "lib/textsafe.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_CELL 256

struct table_cell {
	int worst;		/* enum verdict_kind */
	bool measured;
	size_t used;
	char values[TABLE_CELL];	/* " 1.02s 5s", truncated quietly */
	char text[TABLE_CELL];		/* "FAIL 1.02s 5s" once finished */
};

struct table_grid {
	size_t n_settings;
	long *expect_rule;		/* each expectation's rule id */
	struct keyindex rules;		/* (load, metric, op, threshold) -> rule id */
	struct keyindex cells;		/* (rule id, setting) -> cell id */
	struct table_cell *cell;
	size_t n_cells, cap_cells;
	char *key;			/* scratch for rule keys */
	size_t key_cap;
};

/* Append TEXT to BUF (length *used of LEN), truncating quietly. */
static void table_append(char *buf, size_t len, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, len - *used, "%s", text);

	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* The id of RULE (rv_rule_same's equality: load, metric, op, threshold). */
static long table_rule_id(struct table_grid *g, const struct rv_rule *rule, bool add)
{
	size_t nl = strlen(rule->load) + 1, nm = strlen(rule->metric) + 1;
	size_t len = nl + nm + sizeof(int) + sizeof(double);
	double threshold = rule->threshold == 0 ? 0 : rule->threshold;	/* -0 == 0 */
	int op = (int)rule->op;

	if (len > g->key_cap) {
		char *grown = realloc(g->key, len);

		if (!grown)
			return -1;
		g->key = grown;
		g->key_cap = len;
	}
	memcpy(g->key, rule->load, nl);
	memcpy(g->key + nl, rule->metric, nm);
	memcpy(g->key + nl + nm, &op, sizeof(op));
	memcpy(g->key + nl + nm + sizeof(op), &threshold, sizeof(threshold));
	return add ? keyindex_add(&g->rules, g->key, len) : keyindex_find(&g->rules, g->key, len);
}

/* The cell of (RULE, SETTING), made when new; NULL when memory runs out. */
static struct table_cell *table_grid_at(struct table_grid *g, long rule, size_t setting)
{
	size_t key[2] = { (size_t)rule, setting };
	long id = keyindex_add(&g->cells, key, sizeof(key));

	if (id < 0)
		return NULL;
	if ((size_t)id == g->n_cells) {
		if (g->n_cells == g->cap_cells) {
			size_t cap = g->cap_cells ? 2 * g->cap_cells : 16;
			struct table_cell *grown = realloc(g->cell, cap * sizeof(*grown));

			if (!grown)
				return NULL;
			g->cell = grown;
			g->cap_cells = cap;
		}
		g->cell[g->n_cells++] = (struct table_cell){ .worst = -1 };
	}
	return &g->cell[id];
}

static int table_grid_add(struct table_grid *g, const struct rv_run *run,
			  const struct rv_verdict *vd)
{
	long rule = table_rule_id(g, &vd->rule, false);
	struct table_cell *cell;
	char one[64];

	if (rule < 0)
		return 0;	/* no expectation of the profile asks it */
	cell = table_grid_at(g, rule, run->setting_index);
	if (!cell)
		return -1;
	if ((int)vd->kind > cell->worst)
		cell->worst = (int)vd->kind;
	cell->measured |= !isnan(vd->value);
	table_append(cell->values, sizeof(cell->values), &cell->used, " ");
	table_append(cell->values, sizeof(cell->values), &cell->used,
		     metric_format(vd->rule.metric, vd->value, METRIC_DIGITS, one, sizeof(one)));
	return 0;
}

struct table_grid *table_grid_build(const struct result_view *v)
{
	struct table_grid *g = calloc(1, sizeof(*g));

	if (!g || !(g->expect_rule = calloc(v->profile.n_expect + 1, sizeof(long))))
		goto fail;
	g->n_settings = v->n_setting_names;
	for (size_t i = 0; i < v->profile.n_expect; i++)
		if ((g->expect_rule[i] = table_rule_id(g, &v->profile.expect[i].rule, true)) < 0)
			goto fail;
	for (size_t i = 0; i < v->n_runs; i++)
		for (size_t j = 0; j < v->runs[i].n_verdicts; j++)
			if (table_grid_add(g, &v->runs[i], &v->runs[i].verdicts[j]) < 0)
				goto fail;
	/* a cell of skipped or unmeasured verdicts shows no row of dashes */
	for (size_t i = 0; i < g->n_cells; i++)
		snprintf(g->cell[i].text, sizeof(g->cell[i].text), "%s%s",
			 verdict_upper(g->cell[i].worst), g->cell[i].measured ? g->cell[i].values : "");
	return g;
fail:
	table_grid_free(g);
	return NULL;
}

int table_grid_cell(const struct table_grid *g, size_t expect, size_t setting, const char **text)
{
	size_t key[2] = { (size_t)g->expect_rule[expect], setting };
	long id = keyindex_find(&g->cells, key, sizeof(key));

	*text = id < 0 ? "-" : g->cell[id].text;
	return id < 0 ? -1 : g->cell[id].worst;
}

void table_grid_free(struct table_grid *g)
{
	if (!g)
		return;
	keyindex_free(&g->rules);
	keyindex_free(&g->cells);
	free(g->expect_rule);
	free(g->cell);
	free(g->key);
	free(g);
}

/* Row R's column C: the label column, then one cell per setting. */
static const char *table_text(const struct result_view *v, const struct table_grid *g,
			      size_t r, size_t c, char *label, size_t len)
{
	const char *text;

	if (r == 0)
		return c == 0 ? "expectation" : v->setting_names[c - 1];
	if (c == 0)
		return verdict_label(&v->profile.expect[r - 1].rule, label, len);
	table_grid_cell(g, r - 1, c - 1, &text);
	return text;
}

/* Two passes over the rows, the first for the columns' widths. */
static int table_rows(FILE *f, const struct result_view *v, const struct table_grid *g)
{
	size_t rows = v->profile.n_expect + 1, cols = v->n_setting_names + 1;
	size_t *width = calloc(cols, sizeof(*width));
	char label[TABLE_CELL];

	if (!width)
		return -1;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++) {
			size_t w = strlen(table_text(v, g, r, c, label, sizeof(label)));

			width[c] = w > width[c] ? w : width[c];
		}
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++)
			fprintf(f, "%s%-*s", c ? "  " : "", c + 1 < cols ? (int)width[c] : 0,
				table_text(v, g, r, c, label, sizeof(label)));
		fputc('\n', f);
	}
	free(width);
	return 0;
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

/* The exact source: who held the CPU during each load's longest wait. */
static void table_who_ran(FILE *f, const struct result_view *v)
{
	if (!who_ran_any(v))
		return;
	fprintf(f, "who held the CPU (each load's longest wait):\n");
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

static int table_write(const struct result_view *v, FILE *f)
{
	struct table_grid *g = table_grid_build(v);

	if (!g)
		return -1;
	table_header(f, v);
	if (v->profile.n_expect) {
		fputc('\n', f);
		if (table_rows(f, v, g) < 0) {
			table_grid_free(g);
			return -1;
		}
	} else {
		fprintf(f, "no expectations in this profile\n");
	}
	table_grid_free(g);
	fputc('\n', f);
	table_reasons(f, v);
	table_who_ran(f, v);
	table_summary(f, v);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}

int table_print(const struct result_view *v, FILE *f)
{
	FILE *out = textsafe_open(f);	/* names and reasons may hold an ESC */
	int ret;

	if (!out)
		return -1;
	ret = table_write(v, out);
	if (fclose(out) == EOF)
		ret = -1;
	return ret;
}
