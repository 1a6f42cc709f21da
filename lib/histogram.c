/* Log-linear histogram (see histogram.h for the layout). */
#include "config.h"
#include "histogram.h"

#include <string.h>

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_bucket_of(uint64_t value)
{
	unsigned top, shift;

	if (value < 2 * HIST_SUB)
		return (unsigned)value;
	top = 63 - (unsigned)__builtin_clzll(value);	/* >= HIST_SUB_BITS + 1 */
	shift = top - HIST_SUB_BITS;
	if (shift > HIST_MAX_SHIFT)
		return HIST_BUCKETS - 1;
	return shift * HIST_SUB + (unsigned)(value >> shift);
}

uint64_t hist_bucket_lower(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(idx % HIST_SUB + HIST_SUB) << shift;
}

uint64_t hist_bucket_upper(unsigned idx)
{
	if (idx + 1 >= HIST_BUCKETS)
		return UINT64_MAX;
	return hist_bucket_lower(idx + 1) - 1;
}

void hist_record_n(struct histogram *h, uint64_t value, uint64_t n)
{
	if (!n)
		return;
	h->buckets[hist_bucket_of(value)] += n;
	h->count += n;
	h->sum += value * n;
	if (value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
}

void hist_record(struct histogram *h, uint64_t value)
{
	hist_record_n(h, value, 1);
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_percentile(const struct histogram *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	if (p <= 0.0)
		return h->min;
	rank = (uint64_t)(p / 100.0 * (double)h->count + 0.999999);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo, hi, mid;

		seen += h->buckets[i];
		if (seen < rank)
			continue;
		lo = hist_bucket_lower(i);
		hi = i + 1 < HIST_BUCKETS ? hist_bucket_upper(i) : h->max;
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t hist_count_above(const struct histogram *h, uint64_t limit)
{
	uint64_t n = 0;

	for (unsigned i = hist_bucket_of(limit) + 1; i < HIST_BUCKETS; i++)
		n += h->buckets[i];
	return n;
}
