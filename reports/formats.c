/* The table of report formats and the file writing they share
 * (reports/formats.h). */
#include "config.h"
#include "reports/formats.h"
#include "reports/compare/compare.h"
#include "reports/format/html.h"
#include "reports/format/junit.h"
#include "reports/format/kcidb.h"
#include "reports/format/ktap.h"
#include "reports/format/lava.h"
#include "reports/format/markdown.h"
#include "reports/result/result.h"
#include "reports/format/table.h"
#include "lib/error.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* The result itself, as it was read or built (the view keeps the tree). */
static int json_report_write(const struct result_view *v, FILE *f)
{
	if (json_dumpf(v->tree, f, JSON_INDENT(2)) < 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

/* compare's printers that return nothing, as the table's int writers */
static int cmp_text_print(const struct cmp_table *t, FILE *f)
{
	cmp_print_text(t, f);
	return ferror(f) ? -1 : 0;
}

static int cmp_markdown_print(const struct cmp_table *t, FILE *f)
{
	cmp_print_markdown(t, f);
	return ferror(f) ? -1 : 0;
}

static int cmp_json_print(const struct cmp_table *t, FILE *f)
{
	json_t *doc = cmp_to_json(t);
	int ret = doc ? json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) : -1;

	json_decref(doc);
	return ret < 0 || fputc('\n', f) == EOF ? -1 : 0;
}

#define REPORT_FORMAT_ROW(ID, NAME, FILE, WRITE, WRITE_PARAMS, COMPARE, OPTION, HELP, ...)    \
	[RF_##ID] = { RF_##ID, NAME, FILE, HELP, WRITE, WRITE_PARAMS, COMPARE },
const struct report_format report_formats[] = { REPORT_FORMATS(REPORT_FORMAT_ROW) };
const size_t report_format_count = sizeof(report_formats) / sizeof(report_formats[0]);

const struct report_format *report_format_find(const char *name)
{
	for (size_t i = 0; i < report_format_count; i++)
		if (!strcmp(report_formats[i].name, name))
			return &report_formats[i];
	return NULL;
}

struct format_job {
	const struct report_format *fmt;
	const struct result_view *v;
	const struct report_params *params;
};

static int format_job_run(FILE *f, const void *data)
{
	const struct format_job *job = data;
	static const struct report_params defaults;

	if (job->fmt->write_params)
		return job->fmt->write_params(job->v, job->params ? job->params : &defaults, f);
	return job->fmt->write(job->v, f);
}

int report_write_file(const struct report_format *fmt, const struct result_view *v,
		      const struct report_params *p, const char *path)
{
	struct format_job job = { fmt, v, p };

	if (!strcmp(path, "-")) {
		if (format_job_run(stdout, &job) < 0)
			return error_errno("cannot write the %s report to stdout", fmt->name);
		return 0;
	}
	/* result.json is what report and compare read later: make it durable */
	return result_write_with(path, format_job_run, &job, fmt->write == json_report_write);
}

/* Split LIST at commas into NAMES (at most MAX, each at most 31 chars);
 * checks every name. */
static int formats_parse(const char *list, const struct report_format **out, size_t max,
			 size_t *n)
{
	char valid[128] = "", name[32];
	const char *p = list;

	for (size_t i = 0; i < report_format_count; i++)
		snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
			 i ? ", " : "", report_formats[i].name);
	*n = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct report_format *fmt = NULL;

		if (len > 0 && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			fmt = report_format_find(name);
		}
		if (!fmt)
			return error("unknown report format '%.*s' in '%s' (valid: %s)", (int)len, p,
				     list, valid);
		if (*n < max)
			out[(*n)++] = fmt;
		p += len + (p[len] == ',');
	}
	return 0;
}

int report_formats_check(const char *format_list)
{
	const struct report_format *fmts[16];
	size_t n;

	return formats_parse(format_list, fmts, sizeof(fmts) / sizeof(fmts[0]), &n);
}

int reports_write_formats(const struct result_view *v, const char *dir, const char *format_list,
			  const struct report_params *p)
{
	const struct report_format *fmts[16];
	size_t n;
	char path[4096];

	if (formats_parse(format_list, fmts, sizeof(fmts) / sizeof(fmts[0]), &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		bool again = false;

		for (size_t j = 0; j < i; j++)
			again |= fmts[j] == fmts[i];
		if (again)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, fmts[i]->file) >= (int)sizeof(path))
			return error("directory '%s' is too long", dir);
		if (report_write_file(fmts[i], v, p, path) < 0)
			return -1;
	}
	return 0;
}

/* Each format as a .TP entry: its name and file, what it is (the help,
 * capitalised, '-' escaped), and whether compare prints it too. */
void report_formats_print_man(FILE *out)
{
	for (size_t i = 0; i < report_format_count; i++) {
		const struct report_format *fmt = &report_formats[i];

		fprintf(out, ".TP\n.BR %s \" (\" \"\\fI%s\\fP)\"\n", fmt->name, fmt->file);
		for (const char *c = fmt->help; *c; c++)
			if (*c == '-')
				fputs("\\-", out);
			else
				fputc(c == fmt->help ? toupper((unsigned char)*c) : *c, out);
		fputs(fmt->compare ? ".\n.B compare\nprints it too.\n" : ".\n", out);
	}
}
