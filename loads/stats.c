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

void stall_tally(uint64_t ns, uint64_t *over_1ms, uint64_t *over_10ms, uint64_t *over_100ms)
{
	*over_1ms += ns > (uint64_t)NSEC_PER_MSEC;
	*over_10ms += ns > 10 * (uint64_t)NSEC_PER_MSEC;
	*over_100ms += ns > 100 * (uint64_t)NSEC_PER_MSEC;
}

void record_stall(struct worker_record *rec, uint64_t ns)
{
	if (ns > rec->gap_max_ns)
		rec->gap_max_ns = ns;
	stall_tally(ns, &rec->gaps_over_1ms, &rec->gaps_over_10ms, &rec->gaps_over_100ms);
}

/* Clip the stretch [*LAST, *END) to the block's window; false when none of
 * it is inside. */
static bool window_clip(const struct stats_block *block, uint64_t *last, uint64_t *end)
{
	uint64_t from = (uint64_t)*(const volatile int64_t *)&block->measure_from_ns;
	int64_t until = *(const volatile int64_t *)&block->measure_until_ns;

	if (*last == 0 || *end < from)
		return false;
	if (*last < from)
		*last = from;	/* only the measured part of the gap */
	if (until > 0 && *last >= (uint64_t)until)
		return false;	/* wholly after the window */
	if (until > 0 && *end > (uint64_t)until)
		*end = (uint64_t)until;	/* ... at both ends */
	return true;
}

void record_gap(const struct stats_block *block, struct worker_record *rec,
		uint64_t now, unsigned flags)
{
	uint64_t last = rec->last_iter_ns, end = now, gap;

	rec->last_iter_ns = now;
	if (!window_clip(block, &last, &end))
		return;
	gap = end > last ? end - last : 0;
	if (gap > rec->gap_max_ns)
		rec->gap_max_end_ns = end;	/* when, so a quota's stretch can be matched */
	record_stall(rec, gap);
	if (flags & RECORD_GAP_HIST)
		hist_record(&rec->hist, gap);
}

uint64_t stats_window_part(const struct stats_block *block, uint64_t start, uint64_t end)
{
	return window_clip(block, &start, &end) && end > start ? end - start : 0;
}

uint64_t record_open_stretch(const struct stats_block *block, const struct worker_record *rec,
			     uint64_t now)
{
	const volatile struct worker_record *r = rec;

	return stats_window_part(block, r->last_iter_ns, r->end_ns ? r->end_ns : now);
}

void record_iteration(const struct stats_block *block, struct worker_record *rec,
		      uint64_t now, unsigned flags)
{
	if (stats_measuring(block, now))
		rec->iterations++;
	record_gap(block, rec, now, flags);
}
