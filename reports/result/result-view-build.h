/* Private to the view's readers (result-view.c, result-view-run.c): the
 * arena every array of a view lives in, and the only code in starve that
 * looks keys up in a result's JSON tree. Everything here may assume the
 * tree passed the schema, yet stays safe on any tree (a wrong type reads
 * as absent). */
#ifndef STARVE_RESULT_VIEW_BUILD_H
#define STARVE_RESULT_VIEW_BUILD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "reports/result/result-view.h"

struct rvb {
	struct result_view *v;
	char *why;
	size_t why_len;
	struct rv_run *runs;	/* v->runs while they are being filled in */
};

/* N zeroed elements of SIZE from the view's arena; NULL (and WHY says so)
 * when memory runs out. N == 0 gives a valid empty array. */
void *rvb_alloc(struct rvb *b, size_t n, size_t size);
/* -1 with WHY "FILE: WHERE: what" (WHERE may be empty). */
int rvb_fail(struct rvb *b, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* OBJ[KEY] as a string (NULL), number (NAN), integer (RV_NONE), boolean
 * (-1) when absent or of another type. */
const char *rvb_str(const json_t *obj, const char *key);
double rvb_num(const json_t *obj, const char *key);
long rvb_int(const json_t *obj, const char *key);
int rvb_bool(const json_t *obj, const char *key);
/* A JSON integer (or integral real) as uint64_t; 0 for anything else. */
uint64_t rvb_u64(const json_t *v);

/* The members of object OBJ as pairs (values as text) or metrics (numbers).
 * 0, or -1 when memory runs out. */
int rvb_pairs(struct rvb *b, const json_t *obj, const struct rv_pair **out, size_t *n);
int rvb_metrics(struct rvb *b, const json_t *obj, const struct rv_metric **out, size_t *n);

/* result-view-run.c: view->runs from RUNS. */
int rvb_runs(struct rvb *b, const json_t *runs);
/* result-view-run.c: a rule from an expectation or a verdict object. */
void rvb_rule(const json_t *obj, struct rv_rule *out);

#endif
