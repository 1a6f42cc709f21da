/* Fairness of a share among tasks: Jain's index, (sum x)^2 / (n * sum x^2),
 * 1 when all are equal and 1/n when one task has everything; and min/max. */
#ifndef STARVE_FAIRNESS_H
#define STARVE_FAIRNESS_H

#include <stddef.h>

/* NAN when n == 0 or every value is 0. */
double jain_index(const double *values, size_t n);
double min_max_ratio(const double *values, size_t n);

#endif
