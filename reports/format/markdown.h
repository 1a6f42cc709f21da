/* Markdown summary for a merge-request comment (GitLab, GitHub): the verdict
 * in words (PASS/FAIL, no emoji), the kernel, a table of expectations by
 * setting with the measured values, then the failures and other reasons. */
#ifndef STARVE_MARKDOWN_H
#define STARVE_MARKDOWN_H

#include <stdio.h>

#include "reports/result/result-view.h"

/* Write V (verdicts applied) to F; 0, or -1 on a write error. */
int markdown_write(const struct result_view *v, FILE *f);

/* Write S to F so it renders as literal text inside a table cell or a list
 * item: Markdown punctuation backslash-escaped, '&' as "&amp;", '|' escaped
 * so it cannot split a cell, newlines as spaces. */
void markdown_escape(FILE *f, const char *s);

#endif
