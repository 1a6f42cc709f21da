/* Report formats as rows of one table (name, file name, writer), so `starve
 * run --format LIST` and `starve report --junit F ...` share one list and an
 * unknown name is answered with the valid ones. Every file is written to
 * PATH.tmp.<pid> and renamed, so a reader never sees half a report.
 *
 * To add a format: one file in reports/ with its writer, a row below
 * (reports/formats.c), its option in `starve report` (harness/cmd/report.c)
 * and its word in `starve run --format`'s help, doc/starve.1 and
 * doc/result-format.md ("Reports"). */
#ifndef STARVE_FORMATS_H
#define STARVE_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "reports/result-view.h"

/* What a report needs beyond the result: where it comes from, as the
 * command line says (--kcidb-origin, --kcidb-build-id). Every field may be
 * NULL (the format's default); a NULL struct means all defaults. */
struct report_params {
	const char *kcidb_origin;	/* the submitting CI system; NULL: "starve" */
	const char *kcidb_build_id;	/* the tested build; NULL: a stub for the kernel */
};

struct report_format {
	const char *name;	/* in --format lists: json, junit, ktap, markdown, ... */
	const char *file;	/* its file in a run's output directory */
	/* 0, or -1 on a write error; a format that uses the parameters sets
	 * write_params instead of write */
	int (*write)(const struct result_view *v, FILE *f);
	int (*write_params)(const struct result_view *v, const struct report_params *p, FILE *f);
};

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

#endif
