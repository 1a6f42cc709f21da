/* Fairness indices (see fairness.h). */
#include "config.h"
#include "fairness.h"

#include <math.h>

double jain_index(const double *values, size_t n)
{
	double sum = 0, sum_sq = 0;

	for (size_t i = 0; i < n; i++) {
		sum += values[i];
		sum_sq += values[i] * values[i];
	}
	if (n == 0 || sum_sq == 0)
		return NAN;
	return sum * sum / ((double)n * sum_sq);
}

double min_max_ratio(const double *values, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++) {
		if (values[i] < lo)
			lo = values[i];
		if (values[i] > hi)
			hi = values[i];
	}
	if (n == 0 || hi <= 0)
		return NAN;
	return lo / hi;
}
