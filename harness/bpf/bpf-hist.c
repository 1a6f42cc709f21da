/* The program's wait buckets in the project's histogram (bpf-sched.h):
 * the bucket geometry of sched-bpf.h, with or without libbpf. */
#include "config.h"
#include "harness/bpf/bpf-sched.h"

uint64_t bpfsched_bucket_lower(unsigned i)
{
	unsigned k = i / 4 + 1;

	return i < 4 ? i : (uint64_t)(4 + i % 4) << (k - SB_SUB_BITS);
}

void bpfsched_hist(const unsigned int buckets[SB_BUCKETS], uint64_t max_ns,
		   struct histogram *out)
{
	hist_init(out);
	for (unsigned i = 0; i < SB_BUCKETS; i++) {
		uint64_t lo = bpfsched_bucket_lower(i);
		uint64_t hi = i + 1 < SB_BUCKETS ? bpfsched_bucket_lower(i + 1) : 2 * lo;
		uint64_t mid = lo + (hi - lo) / 2;

		if (buckets[i])
			hist_record_n(out, mid < max_ns ? mid : max_ns, buckets[i]);
	}
}
