/* Histograms in result.json (doc/result-format.md): unit, count, min, max,
 * sum, p50..p999 and the non-empty buckets as [lower_ns, count] pairs, so
 * `starve compare` and `starve report` can rebuild the exact histogram. */
#ifndef STARVE_HIST_JSON_H
#define STARVE_HIST_JSON_H

#include <jansson.h>

#include "lib/histogram.h"

/* A new JSON object (NULL only when out of memory). */
json_t *hist_to_json(const struct histogram *h);
/* Rebuild H from such an object; -1 with an error printed when the object is
 * malformed (wrong unit, a bucket bound that is not a bucket's lower bound,
 * counts that do not add up). */
int hist_from_json(const json_t *obj, struct histogram *h);

#endif
