/* Markdown report (reports/markdown.h). Names come from profiles and can hold
 * anything, so every piece of text goes through markdown_escape(); only our
 * own markup is written raw. */
#include "config.h"
#include "reports/markdown.h"
#include "reports/table.h"
#include "reports/verdict.h"

#include <string.h>

void markdown_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (strchr("\\`*_[]<>#|~", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void markdown_header(FILE *f, const json_t *result)
{
	const json_t *kernel = json_object_get(result, "kernel");
	const json_t *host = json_object_get(result, "host");
	const json_t *profile = json_object_get(result, "profile");
	const json_t *s = json_object_get(result, "summary");
	int k = verdict_parse(verdict_str(s, "verdict", NULL));
	int reps = verdict_repetitions(result);

	fprintf(f, "### starve ");
	markdown_escape(f, verdict_str(profile, "name", "?"));
	fprintf(f, ": %s\n\n", k < 0 ? "UNKNOWN" : verdict_upper(k));
	fprintf(f, "- kernel: ");
	markdown_escape(f, verdict_str(kernel, "release", "unknown"));
	fprintf(f, ", HZ %lld, preemption ", (long long)json_integer_value(json_object_get(kernel, "hz")));
	markdown_escape(f, verdict_str(kernel, "preempt", "unknown"));
	fprintf(f, "\n- host: ");
	markdown_escape(f, verdict_str(host, "hostname", "unknown"));
	fprintf(f, ", %lld CPUs\n", (long long)json_integer_value(json_object_get(host, "nr_cpus")));
	fprintf(f, "- %d repetition%s of %gs per setting%s\n", reps, reps == 1 ? "" : "s",
		json_number_value(json_object_get(profile, "duration_s")),
		json_is_false(json_object_get(result, "complete")) ? " (incomplete: interrupted)" : "");
	fprintf(f, "- verdicts: %lld pass, %lld fail, %lld skip, %lld undecided\n",
		(long long)json_integer_value(json_object_get(s, "pass")),
		(long long)json_integer_value(json_object_get(s, "fail")),
		(long long)json_integer_value(json_object_get(s, "skip")),
		(long long)json_integer_value(json_object_get(s, "undecided")));
	if (json_is_string(json_object_get(s, "warning"))) {
		fprintf(f, "- warning: ");
		markdown_escape(f, verdict_str(s, "warning", ""));
		fputc('\n', f);
	}
}

static void markdown_table(FILE *f, const json_t *result, const json_t *settings)
{
	const json_t *expects = json_object_get(json_object_get(result, "profile"), "expect");
	json_t *e, *s;
	size_t i, j;

	if (!json_array_size(expects)) {
		fprintf(f, "\nNo expectations in this profile.\n");
		return;
	}
	fprintf(f, "\n| expectation |");
	json_array_foreach(settings, j, s) {
		fputc(' ', f);
		markdown_escape(f, json_string_value(s));
		fprintf(f, " |");
	}
	fprintf(f, "\n|---|");
	for (j = 0; j < json_array_size(settings); j++)
		fprintf(f, "---|");
	fputc('\n', f);
	json_array_foreach(expects, i, e) {
		char cell[256];

		fprintf(f, "| ");
		markdown_escape(f, verdict_label(e, cell, sizeof(cell)));
		fprintf(f, " |");
		json_array_foreach(settings, j, s) {
			fputc(' ', f);
			table_cell(result, e, json_string_value(s), cell, sizeof(cell));
			markdown_escape(f, cell);
			fprintf(f, " |");
		}
		fputc('\n', f);
	}
}

/* A bulleted list of the verdicts of kind K with their reasons. */
static void markdown_reasons(FILE *f, const json_t *result, enum verdict_kind k,
			     const char *title)
{
	int reps = verdict_repetitions(result), n = 0;
	json_t *run, *v;
	size_t i, j;

	json_array_foreach(json_object_get(result, "runs"), i, run) {
		json_array_foreach(json_object_get(run, "verdicts"), j, v) {
			char label[512];

			if (verdict_kind_of(v) != k)
				continue;
			if (!n++)
				fprintf(f, "\n**%s**\n\n", title);
			fprintf(f, "- ");
			markdown_escape(f, verdict_label(v, label, sizeof(label)));
			fprintf(f, ", setting ");
			markdown_escape(f, verdict_str(run, "setting", "?"));
			if (reps > 1)
				fprintf(f, ", rep %lld", (long long)json_integer_value(
								 json_object_get(run, "repetition")) + 1);
			fprintf(f, ": ");
			markdown_escape(f, verdict_str(v, "reason", "no reason recorded"));
			fputc('\n', f);
		}
	}
}

int markdown_write(const json_t *result, FILE *f)
{
	json_t *settings = verdict_settings(result);

	markdown_header(f, result);
	markdown_table(f, result, settings);
	markdown_reasons(f, result, VERDICT_FAIL, "Failures");
	markdown_reasons(f, result, VERDICT_UNDECIDED, "Undecided");
	markdown_reasons(f, result, VERDICT_SKIP, "Skipped");
	json_decref(settings);
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
