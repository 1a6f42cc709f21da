/* The metric registry: every metric starve reports, with its unit and which
 * direction is better. Profiles' expectations, verdicts, reports and
 * `starve compare` all look metrics up here, so a name means one thing.
 * Definitions are in doc/design.md ("Metrics: definitions").
 *
 * Values travel in canonical units: METRIC_SECONDS for durations (a profile's
 * "1.2s" becomes 1.2), plain ratios in [0, 1], rates per second, counts. */
#ifndef STARVE_METRIC_H
#define STARVE_METRIC_H

#include <stdbool.h>
#include <stddef.h>

enum metric_unit { METRIC_SECONDS, METRIC_RATIO, METRIC_PER_SECOND, METRIC_COUNT };
enum metric_better { LOWER_IS_BETTER, HIGHER_IS_BETTER };

struct metric_def {
	const char *name;
	enum metric_unit unit;
	enum metric_better better;
	const char *help;
};

extern const struct metric_def metric_table[];
extern const size_t metric_count;

const struct metric_def *metric_find(const char *name);
/* "did you mean" candidate for an unknown metric name, or NULL. */
const char *metric_suggest(const char *name);
const char *metric_unit_name(enum metric_unit unit);

/* Significant digits of a value in reports and `starve load`; compare shows
 * one more, to tell close medians apart. */
#define METRIC_DIGITS 3

/* VALUE of METRIC for people, with DIGITS significant digits: durations in the largest unit that keeps them readable
 * ("1.31s", "250us", whole seconds as "5s"), ratios plain ("0.0512"), rates
 * per second ("1.2e+06/s"), counts whole ("12"), a metric this starve does
 * not know as "%g"; "-" for NAN. Every printed metric value goes through
 * here, so a value reads the same in a table, a report and `starve load`.
 * Returns BUF. */
const char *metric_format(const char *metric, double value, int digits, char *buf, size_t len);

#endif
