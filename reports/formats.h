/* Report formats as rows of one table (name, file name, writer), so `starve
 * run --format LIST` and `starve report --junit F ...` share one list and an
 * unknown name is answered with the valid ones. Every file is written to
 * PATH.tmp.<pid> and renamed, so a reader never sees half a report. */
#ifndef STARVE_FORMATS_H
#define STARVE_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "reports/result-view.h"

struct report_format {
	const char *name;	/* in --format lists: json, junit, ktap, markdown, table, html */
	const char *file;	/* its file in a run's output directory */
	int (*write)(const struct result_view *v, FILE *f);	/* 0, or -1 on a write error */
};

extern const struct report_format report_formats[];
extern const size_t report_format_count;

const struct report_format *report_format_find(const char *name);

/* Write V in FMT to PATH ("-" is stdout). Returns -1 with an error
 * printed. */
int report_write_file(const struct report_format *fmt, const struct result_view *v,
		      const char *path);

/* For `starve run --format json,junit,ktap,markdown`: write each listed
 * format of V (verdicts applied) into DIR as result.json, result.xml,
 * result.ktap, summary.md, summary.txt, report.html. Every name is checked before anything
 * is written; an unknown one is an error listing the valid names. Returns 0
 * or -1 with an error printed. */
int reports_write_formats(const struct result_view *v, const char *dir,
			  const char *format_list);
/* Check a comma-separated list of format names before a run, so a typo
 * costs nothing; -1 with the valid names printed. */
int report_formats_check(const char *format_list);

#endif
