/* A small log-linear histogram (HdrHistogram's layout, written for us since
 * HdrHistogram_c is not packaged in Debian).
 *
 * Values are unsigned integers, nanoseconds by convention. Values below 64 get
 * a bucket each; above that every power of two is split into 32 linear
 * sub-buckets, so a bucket is never wider than 1/32 (3.1%) of its value.
 * The range ends at 2^44 ns (about 4.9 hours); larger values land in the last
 * bucket, while min, max and sum stay exact.
 *
 * The struct is fixed-size and holds no pointers, so it can live in the
 * shared-memory stats block: one writer records, readers may copy it at any
 * time (a copy taken mid-update is off by at most the value being recorded). */
#ifndef STARVE_HISTOGRAM_H
#define STARVE_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 5				/* 32 sub-buckets per power of two */
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_SHIFT 38			/* last power of two: 2^(38+5), so values up to 2^44 ns */
#define HIST_BUCKETS ((HIST_MAX_SHIFT + 2) * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t sum;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
void hist_record(struct histogram *h, uint64_t value);
void hist_record_n(struct histogram *h, uint64_t value, uint64_t n);
void hist_merge(struct histogram *dst, const struct histogram *src);

/* Bucket geometry: index of a value, and the values a bucket covers. */
unsigned hist_bucket_of(uint64_t value);
uint64_t hist_bucket_lower(unsigned idx);
uint64_t hist_bucket_upper(unsigned idx);	/* inclusive */

/* The value at percentile P (0..100): the middle of the bucket holding that
 * rank, clamped to [min, max]; P = 100 gives max exactly. 0 when empty. */
uint64_t hist_percentile(const struct histogram *h, double p);
double hist_mean(const struct histogram *h);
/* Number of recorded values strictly greater than LIMIT (exact at bucket
 * boundaries, otherwise counts the whole bucket holding LIMIT as below). */
uint64_t hist_count_above(const struct histogram *h, uint64_t limit);

#endif
