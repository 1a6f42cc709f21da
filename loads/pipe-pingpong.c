/* pipe-pingpong: pairs of tasks bounce a one-byte token through two pipes,
 * like `perf bench sched pipe`. The initiator of each pair times every round
 * trip (CLOCK_MONOTONIC) into its histogram and counts round trips as
 * iterations; the partner only answers, but has a record so the sampler sees
 * its thread. Optional work on each side before it passes the token on. */
#include "config.h"
#include "loads/load.h"
#include "lib/cpuspec.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_WORK,
	OPT_INITIATOR_CPUS,
	OPT_PARTNER_CPUS,
};

static const struct opt_spec options[] = {
	[OPT_WORK] = { "work", OPT_DURATION, "ns", 0, 1e9, "0ns",
		"CPU time each side spends before passing the token back", NULL },
	[OPT_INITIATOR_CPUS] = { "initiator_cpus", OPT_STRING, NULL, 0, 0, "",
		"CPUs of each pair's initiator (a cpu spec within cpus); empty: the load's cpus", NULL },
	[OPT_PARTNER_CPUS] = { "partner_cpus", OPT_STRING, NULL, 0, 0, "",
		"CPUs of each pair's partner; with initiator_cpus makes the cross-CPU case "
		"reproducible", NULL },
};

#define TOKEN_PING 'p'
#define TOKEN_QUIT 'q'	/* the initiator is stopping; the partner ends too */

/* Pipe ends of one pair: the initiator writes ping and reads pong. */
enum { PING_R, PING_W, PONG_R, PONG_W, PAIR_FDS };

struct pingpong {
	int (*fds)[PAIR_FDS];
	unsigned pairs;
	int64_t work_ns;
};

/* In process mode each worker inherited every pair's pipes: keep only the
 * two ends it uses, so that the end of its peer shows as EOF and no other
 * process holds its pipes open. */
static void keep_only(struct pingpong *pp, unsigned pair, int keep_a, int keep_b)
{
	for (unsigned p = 0; p < pp->pairs; p++)
		for (int e = 0; e < PAIR_FDS; e++)
			if (!(p == pair && (e == keep_a || e == keep_b))) {
				close(pp->fds[p][e]);
				pp->fds[p][e] = -1;
			}
}

static int read_token(int fd, char *c)
{
	ssize_t n;

	while ((n = read(fd, c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

static int write_token(int fd, char c)
{
	ssize_t n;

	while ((n = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

/* Close a worker's ends (thread mode shares one fd table: mark them closed
 * so the leader does not close them again). */
static void close_ends(int *fds, int a, int b)
{
	close(fds[a]);
	close(fds[b]);
	fds[a] = fds[b] = -1;
}

static void initiator(struct load_ctx *ctx, struct worker_record *rec, struct pingpong *pp,
		      int *fds)
{
	char c;

	while (!load_should_stop(ctx)) {
		int64_t t0, t1;

		if (pp->work_ns)
			work_for_ns(ctx, NULL, pp->work_ns);
		errno = 0;	/* so end of file reads as such below */
		t0 = mono_ns();
		if (write_token(fds[PING_W], TOKEN_PING) || read_token(fds[PONG_R], &c)) {
			worker_fail(rec, "pipe-pingpong: the partner stopped answering (%s)",
				    errno ? strerror(errno) : "end of file");
			break;
		}
		t1 = mono_ns();
		if (load_should_stop(ctx))
			break;	/* the partner's work may have been cut short */
		if (stats_measuring(ctx->stats, (uint64_t)t1)) {
			hist_record(&rec->hist, (uint64_t)(t1 - t0));
			rec->iterations++;
		}
	}
	/* The quit token ends the partner even if another process still holds
	 * the write end open; closing covers a partner blocked before it. */
	write_token(fds[PING_W], TOKEN_QUIT);
	close_ends(fds, PING_W, PONG_R);
}

static void partner(struct load_ctx *ctx, struct pingpong *pp, int *fds)
{
	char c;

	while (read_token(fds[PING_R], &c) == 0 && c == TOKEN_PING) {
		if (pp->work_ns)
			work_for_ns(ctx, NULL, pp->work_ns);
		if (write_token(fds[PONG_W], c))
			break;
	}
	close_ends(fds, PING_R, PONG_W);
}

/* Pin the calling thread to its side's CPUs when the profile gives them;
 * false (the record failed) when that cannot be done. */
static bool pin_side(struct load_ctx *ctx, struct worker_record *rec, bool init)
{
	const char *text = ctx->spec->opts[init ? OPT_INITIATOR_CPUS : OPT_PARTNER_CPUS].s;
	char why[256];
	cpu_set_t set;

	if (!text || !*text)
		return true;
	if (!ctx->resolve_cpus || ctx->resolve_cpus(text, &set, why, sizeof(why))) {
		worker_fail(rec, "%s_cpus '%s': %s", init ? "initiator" : "partner", text,
			    ctx->resolve_cpus ? why : "no cpu resolver outside a run");
		return false;
	}
	if (sched_setaffinity(0, sizeof(set), &set)) {	/* this thread only */
		worker_fail(rec, "cannot pin the %s to '%s': %s (outside the load's cpuset?)",
			    init ? "initiator" : "partner", text, strerror(errno));
		return false;
	}
	return true;
}

/* Workers 2i and 2i+1 are the initiator and the partner of pair i. */
static void pingpong_worker(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct pingpong *pp = arg;
	unsigned idx = record - ctx->first_record, pair = idx / 2;
	bool init = idx % 2 == 0;
	struct worker_record *rec;

	if (ctx->spec->mode == LOAD_PROCESSES)
		keep_only(pp, pair, init ? PING_W : PING_R, init ? PONG_R : PONG_W);
	rec = worker_begin(ctx, record);
	if (!pin_side(ctx, rec, init)) {
		/* the peer sees end of file and stops too */
		close_ends(pp->fds[pair], init ? PING_W : PING_R, init ? PONG_R : PONG_W);
	} else if (init)
		initiator(ctx, rec, pp, pp->fds[pair]);
	else
		partner(ctx, pp, pp->fds[pair]);
	worker_end(rec);
}

static void close_all(struct pingpong *pp)
{
	for (unsigned p = 0; p < pp->pairs; p++)
		for (int e = 0; e < PAIR_FDS; e++)
			if (pp->fds[p][e] >= 0)
				close(pp->fds[p][e]);
}

static int open_pipes(struct pingpong *pp, const char *name)
{
	for (unsigned p = 0; p < pp->pairs; p++) {
		int *fds = pp->fds[p];

		if (pipe(&fds[PING_R]) || pipe(&fds[PONG_R]))
			return error_errno("load '%s': cannot create pipes for pair %u", name, p);
	}
	return 0;
}

static int run(struct load_ctx *ctx)
{
	struct pingpong pp = {
		.pairs = (unsigned)ctx->spec->count,
		.work_ns = ctx->spec->opts[OPT_WORK].i,
	};
	int ret;

	pp.fds = malloc(pp.pairs * sizeof(*pp.fds));
	if (!pp.fds) {
		error("load '%s': out of memory", ctx->spec->name);
		return EXIT_RUNTIME;
	}
	for (unsigned p = 0; p < pp.pairs; p++)
		for (int e = 0; e < PAIR_FDS; e++)
			pp.fds[p][e] = -1;
	/* A write to a pipe whose reader is gone must fail, not kill the load. */
	signal(SIGPIPE, SIG_IGN);
	ret = open_pipes(&pp, ctx->spec->name);
	if (!ret)
		ret = load_run_workers(ctx, 2 * pp.pairs, pingpong_worker, &pp);
	close_all(&pp);
	free(pp.fds);
	return ret ? EXIT_RUNTIME : EXIT_PASS;
}

static int validate(const struct load_spec *spec, char *why, size_t why_len)
{
	for (int o = OPT_INITIATOR_CPUS; o <= OPT_PARTNER_CPUS; o++) {
		const char *text = spec->opts[o].s;
		struct cpuspec cs;
		size_t at;
		char what[200];

		if (text && *text && cpuspec_parse(text, &cs, &at, what, sizeof(what))) {
			snprintf(why, why_len, "%s: %s", options[o].name, what);
			return -1;
		}
	}
	return 0;
}

static unsigned records_needed(const struct load_spec *spec)
{
	return 2 * (unsigned)spec->count;
}

const struct load_type load_pipe_pingpong = {
	.name = "pipe-pingpong",
	.summary = "pairs of tasks bounce a token through pipes; round trips per second and a round-trip latency histogram; count = pairs",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_ROUND_TRIP,
	.flags = 0,
	.records_needed = records_needed,
	.validate = validate,
	.run = run,
};
