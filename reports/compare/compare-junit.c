/* A comparison as JUnit XML (reports/compare/compare.h), for the test report of a CI
 * job: one <testsuite> per compared result, one <testcase> per verdict flip
 * and per gated metric; a regression is a <failure>, no test a <skipped>.
 * Rows that do not gate are left out: they cannot fail the job. */
#include "config.h"
#include "reports/compare/compare.h"
#include "reports/result/verdict.h"
#include "reports/format/xml-writer.h"

#include <math.h>

static void cmpj_flip(struct xml_writer *w, const struct cmp_table *t, const struct cmp_flip *f)
{
	char label[256];

	xml_open(w, "testcase");
	xml_attrf(w, "name", "verdict flip: %s%s%s", verdict_label(f->rule, label, sizeof(label)),
		  f->setting ? " in " : "", f->setting ? f->setting : "");
	xml_attrf(w, "classname", "compare.%s", t->profile);
	if (f->verdict == CMP_REGRESSION) {
		xml_open(w, "failure");
		xml_attrf(w, "message", "%s on %s, %s on %s", verdict_name(f->from),
			  t->columns[0].label, verdict_name(f->to), t->columns[f->column].label);
		xml_attr(w, "type", "starve.verdict-flip");
		xml_close(w);
	}
	xml_close(w);
}

/* "cpu_share -49.0% [-51.0%, -47.0%], p 0.0002 (bootstrap-windows)" */
static void cmpj_message(const struct cmp_row *row, const struct cmp_cell *cell, char *buf,
			 size_t len)
{
	snprintf(buf, len, "%s %+.1f%% [%+.1f%%, %+.1f%%], p %.2g (%s), margin %.3g%%: %s",
		 row->metric, cell->change_pct, cell->lo_pct, cell->hi_pct, cell->p,
		 cell->method ? cell->method : "-", row->margin_pct, cmp_verdict_name(cell->verdict));
}

static void cmpj_row(struct xml_writer *w, const struct cmp_table *t, const struct cmp_row *row,
		     size_t c)
{
	const struct cmp_cell *cell = &row->cells[c];
	bool setting = !t->one_setting && row->setting && *row->setting;
	char msg[256];

	xml_open(w, "testcase");
	xml_attrf(w, "name", "%s%s%s.%s", setting ? row->setting : "", setting ? "/" : "",
		  row->load, row->metric);
	xml_attrf(w, "classname", "compare.%s", t->profile);
	cmpj_message(row, cell, msg, sizeof(msg));
	if (cell->verdict == CMP_REGRESSION) {
		xml_open(w, "failure");
		xml_attr(w, "message", msg);
		xml_attr(w, "type", cell->flip >= 0 ? "starve.verdict-flip" : "starve.regression");
		xml_close(w);
	} else if (!cmp_verdict_decided(cell->verdict) && t->undecided == CMP_UNDECIDED_FAILS) {
		xml_open(w, "failure");
		xml_attrf(w, "message", "undecided: %s; %s", cmp_why_name(cell->why), msg);
		xml_attr(w, "type", "starve.undecided");
		xml_close(w);
	} else if (!cmp_verdict_decided(cell->verdict)) {
		xml_open(w, "skipped");
		xml_attrf(w, "message", "undecided: %s; %s", cmp_why_name(cell->why), msg);
		xml_close(w);
	} else {
		xml_open(w, "system-out");
		xml_text(w, msg);
		xml_close(w);
	}
	xml_close(w);
}

static void cmpj_suite(struct xml_writer *w, const struct cmp_table *t, size_t c)
{
	size_t tests = 0, failures = 0, skipped = 0;

	for (size_t i = 0; i < t->n_flips; i++)
		if (t->flips[i].column == c) {
			tests++;
			failures += t->flips[i].verdict == CMP_REGRESSION;
		}
	for (size_t r = 0; r < t->n_rows; r++)
		if (t->rows[r].gated) {
			const struct cmp_cell *cell = &t->rows[r].cells[c];
			bool open = !cmp_verdict_decided(cell->verdict);

			tests++;
			failures += cell->verdict == CMP_REGRESSION ||
				    (open && t->undecided == CMP_UNDECIDED_FAILS);
			skipped += open && t->undecided != CMP_UNDECIDED_FAILS;
		}
	xml_open(w, "testsuite");
	xml_attrf(w, "name", "%s: %s against %s: %s", t->profile, t->columns[c].label,
		  t->columns[0].label, cmp_outcome_name(t->columns[c].outcome));
	xml_attrf(w, "tests", "%zu", tests);
	xml_attrf(w, "failures", "%zu", failures);
	xml_attr(w, "errors", "0");
	xml_attrf(w, "skipped", "%zu", skipped);
	for (size_t i = 0; i < t->n_flips; i++)
		if (t->flips[i].column == c)
			cmpj_flip(w, t, &t->flips[i]);
	for (size_t r = 0; r < t->n_rows; r++)
		if (t->rows[r].gated)
			cmpj_row(w, t, &t->rows[r], c);
	xml_close(w);
}

int cmp_print_junit(const struct cmp_table *t, FILE *out)
{
	struct xml_writer w;

	xml_begin(&w, out);
	xml_open(&w, "testsuites");
	xml_attrf(&w, "name", "starve compare %s", t->profile);
	for (size_t c = 1; c < t->n_columns; c++)
		cmpj_suite(&w, t, c);
	xml_close(&w);
	return xml_end(&w);
}
