/* The in-band stats block (stats.h): one shared anonymous mapping created
 * before any load forks, so every worker, thread or process, writes its own
 * record and the controller reads them all without any copying. */
#include "config.h"
#include "loads/stats.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <string.h>
#include <sys/mman.h>

static size_t stats_size(unsigned n_records)
{
	return sizeof(struct stats_block) + (size_t)n_records * sizeof(struct worker_record);
}

struct stats_block *stats_create(unsigned n_records, int64_t deadline_ns)
{
	struct stats_block *block;

	block = mmap(NULL, stats_size(n_records), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (block == MAP_FAILED) {
		error_errno("cannot map a stats block of %u records", n_records);
		return NULL;
	}
	/* The mapping is zero-filled: only what is not zero needs setting. */
	block->magic = STATS_MAGIC;
	block->n_records = n_records;
	block->deadline_ns = deadline_ns;
	for (unsigned i = 0; i < n_records; i++)
		hist_init(&block->rec[i].hist);
	return block;
}

void stats_destroy(struct stats_block *block)
{
	if (block)
		munmap(block, stats_size(block->n_records));
}

void record_stall(struct worker_record *rec, uint64_t ns)
{
	if (ns > rec->gap_max_ns)
		rec->gap_max_ns = ns;
	if (ns > (uint64_t)NSEC_PER_MSEC) {
		rec->gaps_over_1ms++;
		if (ns > 10 * (uint64_t)NSEC_PER_MSEC)
			rec->gaps_over_10ms++;
		if (ns > 100 * (uint64_t)NSEC_PER_MSEC)
			rec->gaps_over_100ms++;
	}
}

void record_gap(const struct stats_block *block, struct worker_record *rec,
		uint64_t now, unsigned flags)
{
	uint64_t from = (uint64_t)*(const volatile int64_t *)&block->measure_from_ns;
	int64_t until = *(const volatile int64_t *)&block->measure_until_ns;
	uint64_t last = rec->last_iter_ns, end = now, gap;

	rec->last_iter_ns = now;
	if (last == 0 || now < from)
		return;
	if (last < from)
		last = from;	/* only the measured part of the gap */
	if (until > 0 && last >= (uint64_t)until)
		return;		/* wholly after the window */
	if (until > 0 && end > (uint64_t)until)
		end = (uint64_t)until;	/* ... at both ends */
	gap = end > last ? end - last : 0;
	if (gap > rec->gap_max_ns)
		rec->gap_max_end_ns = end;	/* when, so a quota's stretch can be matched */
	record_stall(rec, gap);
	if (flags & RECORD_GAP_HIST)
		hist_record(&rec->hist, gap);
}

void record_iteration(const struct stats_block *block, struct worker_record *rec,
		      uint64_t now, unsigned flags)
{
	if (stats_measuring(block, now))
		rec->iterations++;
	record_gap(block, rec, now, flags);
}
