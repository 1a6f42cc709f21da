/* Report formats as rows of one table (REPORT_FORMATS below): name, file
 * name, help, the writer of a result and the printer of a comparison. The
 * table drives `starve run --format LIST`, `starve report` (--format LIST
 * and one --NAME F option per format), the formats `starve compare` prints,
 * their help and the REPORT FORMATS section of starve(1) (`starve
 * --man-formats`, pasted by `make update-man`); an unknown name is answered
 * with the valid ones. Every file is written to PATH.tmp.<pid> and renamed,
 * so a reader never sees half a report.
 *
 * To add a format: one file in reports/format/ with its writer, a row in
 * REPORT_FORMATS, its option described in doc/starve.1 (report's entry in
 * COMMANDS) and the README's list, then `make update-man` (REPORT FORMATS)
 * and `make update-golden` (tools/update-golden names each format);
 * tests/integration/report-formats.sh checks the help, the page and the
 * table agree. */
#ifndef STARVE_FORMATS_H
#define STARVE_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "reports/format/report-params.h"
#include "reports/result/result-view.h"

struct cmp_table;

/* X(ID, NAME, FILE, WRITE, WRITE_PARAMS, COMPARE, OPTION, HELP, COMPARE_OPTION,
 * COMPARE_HELP), one row a format, in the order help and error messages list
 * them. WRITE or WRITE_PARAMS (a format that uses the report parameters)
 * writes a result; COMPARE, if not NULL, prints a comparison
 * (reports/formats.c). OPTION is how `starve report` names an output besides
 * --format: OPT_FILE, --NAME F (a file, '-' for stdout); OPT_FLAG, --NAME
 * alone prints it (the table, which a terminal shows by default).
 * COMPARE_OPTION is how `starve compare` names it, with COMPARE_HELP:
 * CMP_FLAG, --NAME prints it instead of the table; CMP_FILE, --NAME F writes
 * it to F as well; CMP_NONE (COMPARE is NULL), compare has no such output.
 * `starve vm` writes every comparison compare prints as
 * DIR/compare-PROFILE.EXT, EXT from FILE. */
#define REPORT_FORMATS(X)                                                                   \
	X(JSON, "json", "result.json", json_report_write, NULL, cmp_json_print, OPT_FILE,         \
	  "the result itself (useful with --recompute)",                                      \
	  CMP_FLAG, "print JSON (format \"starve-compare\")")                                 \
	X(JUNIT, "junit", "result.xml", junit_write, NULL, cmp_print_junit, OPT_FILE,             \
	  "JUnit XML: a testsuite per setting, a testcase per expectation",                   \
	  CMP_FLAG, "print JUnit XML: a testcase per gated metric and result, a regression "   \
	  "fails")                                                                            \
	X(KTAP, "ktap", "result.ktap", ktap_write, NULL, NULL, OPT_FILE,                          \
	  "KTAP version 1: a test per setting, expectations nested", CMP_NONE, NULL)          \
	X(MARKDOWN, "markdown", "summary.md", markdown_write, NULL, cmp_markdown_print, OPT_FILE, \
	  "Markdown summary for a merge-request comment", CMP_FLAG, "print a Markdown table") \
	X(TABLE, "table", "summary.txt", table_print, NULL, cmp_text_print, OPT_FLAG,             \
	  "the summary table a terminal shows", CMP_FLAG, "print the text table (default)")   \
	X(HTML, "html", "report.html", html_write, NULL, cmp_write_html, OPT_FILE,                \
	  "one self-contained HTML page: tables and SVG charts",                              \
	  CMP_FILE, "also write an HTML page: per metric every result's runs side by side")   \
	X(KCIDB, "kcidb", "result.kcidb.json", NULL, kcidb_write, NULL, OPT_FILE,                 \
	  "KCIDB v5.3 for KernelCI: a test per expectation per run, and the run", CMP_NONE,   \
	  NULL)                                                                               \
	X(LAVA, "lava", "result.lava.sh", lava_write, NULL, NULL, OPT_FILE,                       \
	  "a shell script of lava-test-set and lava-test-case lines for LAVA", CMP_NONE, NULL)

#define REPORT_FORMAT_ID(ID, ...) RF_##ID,
enum report_format_id { REPORT_FORMATS(REPORT_FORMAT_ID) RF_COUNT };
#undef REPORT_FORMAT_ID

/* "json=result.json junit=result.xml ... " for help text, from the table. */
#define REPORT_FORMAT_FILE(ID, NAME, FILE, ...) NAME "=" FILE " "
#define REPORT_FORMAT_FILES REPORT_FORMATS(REPORT_FORMAT_FILE)

struct report_format {
	enum report_format_id id;
	const char *name;	/* in --format lists: json, junit, ktap, markdown, ... */
	const char *file;	/* its file in a run's output directory */
	const char *help;	/* one line for --help and starve(1) */
	/* 0, or -1 on a write error; a format that uses the parameters sets
	 * write_params instead of write */
	int (*write)(const struct result_view *v, FILE *f);
	int (*write_params)(const struct result_view *v, const struct report_params *p, FILE *f);
	/* `starve compare`'s output in this format; NULL: compare has none */
	int (*compare)(const struct cmp_table *t, FILE *f);
};

/* Indexed by enum report_format_id. */
extern const struct report_format report_formats[];
extern const size_t report_format_count;

const struct report_format *report_format_find(const char *name);

/* Write V in FMT to PATH ("-" is stdout), with parameters P (may be NULL).
 * Returns -1 with an error printed. */
int report_write_file(const struct report_format *fmt, const struct result_view *v,
		      const struct report_params *p, const char *path);

/* For `starve run --format json,junit,ktap,markdown`: write each listed
 * format of V (verdicts applied) into DIR as result.json, result.xml,
 * result.ktap, summary.md, summary.txt, report.html, result.kcidb.json,
 * result.lava.sh, with parameters P (may be NULL). Every name is checked
 * before anything is written; an unknown one is an error listing the valid
 * names. Returns 0 or -1 with an error printed. */
int reports_write_formats(const struct result_view *v, const char *dir,
			  const char *format_list, const struct report_params *p);
/* Check a comma-separated list of format names before a run, so a typo
 * costs nothing; -1 with the valid names printed. */
int report_formats_check(const char *format_list);

/* The REPORT FORMATS section of starve(1) in roff, from the table (`starve
 * --man-formats`, pasted by `make update-man`). */
void report_formats_print_man(FILE *out);

#endif
