/* A sampler group's time series (group-series.h). */
#include "config.h"
#include "harness/sampler/group-series.h"

void group_series_start(struct sampler_group *g, int64_t now)
{
	g->acc_from_ns = now;
}

/* Give the buckets already pushed their part, by time, of DELTA used over
 * [FROM, FROM + WALL]: a task looked at every few ticks brings several
 * buckets' worth at once. Each bucket is taken at its real bounds, so no
 * bucket gets more of one task than its own wall time. Returns the part
 * given. */
static int64_t group_series_spread_back(struct sampler_group *g, int64_t from, int64_t delta,
					int64_t wall)
{
	int64_t end = g->acc_from_ns, given = 0;

	for (size_t k = g->n; k-- > 0 && from < end;) {
		int64_t start = g->start_ns[k];
		int64_t lo = from > start ? from : start;
		int64_t part = (int64_t)((double)delta * (double)(end - lo) / (double)wall);

		if (end > start) {
			g->cpu_share[k] += (double)part / (double)(end - start);
			given += part;
		}
		end = start;
	}
	return given;
}

/* A task looked at seldom (spaced looks) or found late brings the CPU time
 * of earlier ticks: the part before the bucket being filled goes, by time,
 * to the buckets it spans. The rest was used over [LO, NOW] at one rate,
 * which the buckets a stalled tick crosses share by time
 * (group_series_close). LO is at most PREV: a task found in the last tick
 * interval has its time spread over all of it. */
void group_series_add_cpu(struct sampler_group *g, int64_t from, int64_t now, int64_t prev,
			  int64_t delta)
{
	int64_t wall = now - from;
	int64_t lo = from > g->acc_from_ns ? from : g->acc_from_ns;

	if (wall <= 0)
		return;
	if (g->n && from < g->acc_from_ns)
		delta -= group_series_spread_back(g, from, delta, wall);
	g->tick_cpu_ns += delta;
	if (prev > 0 && lo > prev)
		lo = prev;
	if (now > lo)
		g->tick_rate += (double)delta / (double)(now - lo);
}

/* CPU as a share of WIDTH of wall time. A task's CPU time is read a little
 * after the tick's timestamp (later still when the sampler is preempted
 * mid-tick), so a bucket can be handed more than its tasks could use in its
 * wall time: the excess belongs to the next bucket, where the same reads
 * come up short. */
static double group_series_share(struct sampler_group *g, int64_t cpu, int64_t width)
{
	int64_t most = (int64_t)g->acc_tasks_max * width;

	if (cpu > most) {
		g->carry_cpu_ns += cpu - most;
		cpu = most;
	}
	return width > 0 ? (double)cpu / (double)width : 0;
}

/* The mean of buckets I and I + 1 weighted by their real widths; END is
 * when bucket I + 1 ended. */
static double group_series_merged(const struct sampler_group *g, const double *v, size_t i,
				  int64_t end)
{
	double a = (double)(g->start_ns[i + 1] - g->start_ns[i]);
	double b = (double)(end - g->start_ns[i + 1]);

	return a + b > 0 ? (v[i] * a + v[i + 1] * b) / (a + b) : (v[i] + v[i + 1]) / 2;
}

/* Append a bucket that began at START; returns its index. */
static size_t group_series_push(struct sampler_group *g, int64_t start, double share,
				double waiting)
{
	if (g->n == SAMPLER_MAX_BUCKETS) {
		/* Full: halve the resolution so memory stays flat. */
		for (size_t i = 0; i < g->n / 2; i++) {
			int64_t end = 2 * i + 2 < g->n ? g->start_ns[2 * i + 2] : start;

			g->cpu_share[i] = group_series_merged(g, g->cpu_share, 2 * i, end);
			g->waiting[i] = group_series_merged(g, g->waiting, 2 * i, end);
			g->start_ns[i] = g->start_ns[2 * i];
		}
		g->n /= 2;
		g->interval_ns *= 2;
	}
	g->cpu_share[g->n] = share;
	g->waiting[g->n] = waiting;
	g->start_ns[g->n] = start;
	return g->n++;
}

static void group_series_reset(struct sampler_group *g, int64_t now)
{
	g->acc_from_ns = now;
	g->acc_cpu_ns = g->carry_cpu_ns;
	g->carry_cpu_ns = 0;
	g->acc_waiting = g->acc_ticks = 0;
	g->acc_tasks_max = 0;
}

static bool group_series_crossed(const struct sampler_group *g, int64_t first, int64_t now)
{
	return now - first >= (int64_t)(g->n + 1) * g->interval_ns;
}

/* Close the bucket being filled at NOW, the first tick past its nominal end.
 * After a stall of the sampler, NOW is past several: the first takes its
 * nominal bounds, the others lie inside the last tick interval and get the
 * CPU time read at NOW by their part of it (at RATE), the first the rest.
 * Giving each the bucket's average instead would count a task read in the
 * middle of the first bucket twice in the others: once in the average, and
 * again when its next reading spreads back over them. */
static void group_series_close(struct sampler_group *g, int64_t first, int64_t now,
			       double rate)
{
	double waiting = g->acc_ticks ? (double)g->acc_waiting / (double)g->acc_ticks : 0;
	int64_t start = g->acc_from_ns;

	do {
		size_t k = group_series_push(g, start, 0, waiting);
		int64_t end = group_series_crossed(g, first, now) ?
			first + (int64_t)g->n * g->interval_ns : now;
		int64_t cpu = (int64_t)(rate * (double)(end - start));

		if (start == g->acc_from_ns) {
			cpu = g->acc_cpu_ns - (int64_t)(rate * (double)(now - end));
			if (cpu < 0)
				cpu = 0;
		}
		g->cpu_share[k] = group_series_share(g, cpu, end - start);
		start = end;
	} while (start < now);
	group_series_reset(g, now);
}

void group_series_tick(struct sampler_group *g, int64_t first, int64_t prev, int64_t now,
		       bool final)
{
	double rate = g->tick_rate;

	if (prev) {
		g->acc_cpu_ns += g->tick_cpu_ns;
		g->acc_waiting += g->tick_waiting;
		g->acc_ticks++;
		if (g->tick_tasks > g->acc_tasks_max)
			g->acc_tasks_max = g->tick_tasks;
	}
	g->tick_cpu_ns = 0;
	g->tick_rate = 0;
	g->tick_waiting = g->tick_tasks = 0;
	if (group_series_crossed(g, first, now))
		group_series_close(g, first, now, rate);
	if (final && g->acc_ticks) {
		double waiting = (double)g->acc_waiting / (double)g->acc_ticks;

		group_series_push(g, g->acc_from_ns,
				  group_series_share(g, g->acc_cpu_ns, now - g->acc_from_ns), waiting);
		group_series_reset(g, now);
	}
}
