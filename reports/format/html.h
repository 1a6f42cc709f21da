/* The HTML report: one self-contained XHTML page (inline CSS and SVG, no
 * JavaScript, nothing fetched, so it opens offline and as a CI artifact):
 * the header with the verdict, the verdict table, per load the starvation
 * bars, latency histograms and CPU-share time series, the sampler quality
 * and noise of each run, and the knobs before and as applied. */
#ifndef STARVE_HTML_H
#define STARVE_HTML_H

#include <stdio.h>

#include "reports/result/result-view.h"

#include "reports/format/xml-writer.h"

/* Write V (verdicts applied) to F; 0, or -1 on a write error. */
int html_write(const struct result_view *v, FILE *f);

/* The charts of every load (reports/format/html-charts.c), one <section> each. */
void html_load_charts(struct xml_writer *w, const struct result_view *v);
/* "setting" or, over repetitions, "setting #2": how a run is named in
 * legends and tables. */
const char *html_run_label(const struct result_view *v, const struct rv_run *run, char *buf,
			   size_t len);
/* An element holding only TEXT (never written empty as "<x/>", which an
 * HTML parser would take as an opening tag). */
void html_el(struct xml_writer *w, const char *name, const char *text);
/* The page's style sheet, shared with the compare page (compare-html.c). */
extern const char html_css[];

#endif
