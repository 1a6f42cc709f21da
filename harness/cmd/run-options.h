/* The options of `starve run` that shape the runs, declared once for the two
 * commands that take them: `starve run`, and `starve vm`, which checks them
 * on the host and hands them to `starve run` in each guest. A command's
 * argument struct holds a struct run_opts; CMD_RUN_OPTIONS(type, member) are
 * the rows for it in that command's table (perf's parse-options shares
 * common options the same way). --output and --quiet are each command's
 * own: their meaning differs. */
#ifndef STARVE_CMD_RUN_OPTIONS_H
#define STARVE_CMD_RUN_OPTIONS_H

#include "harness/cmd/cmd.h"
#include "harness/cmd/report-params.h"
#include "harness/profile/profile.h"
#include "harness/run/plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_opts {
	const char *only, *formats;
	int64_t repeat;			/* 0: from the profile */
	int64_t duration_ns, warmup_ns;	/* -1: from the profile */
	bool allow_rt, cpuset, trace;
	struct report_params report;	/* for the formats that take them (kcidb) */
};

#define RUN_OPTS_INIT { .duration_ns = -1, .warmup_ns = -1 }

/* --repeat, --duration and --warmup parse with the profile's own rows, so
 * they take exactly what the profile's keys take. */
#define CMD_RUN_OPTIONS(type, member)                                                          \
	CMD_INT("repeat", "N", &profile_keys[PROFILE_KEY_REPEAT], type, member.repeat,          \
		"repetitions of every setting, overriding the profile"),                        \
	CMD_INT("duration", "T", &profile_keys[PROFILE_KEY_DURATION], type, member.duration_ns, \
		"measured time per run, e.g. 5s, overriding the profile"),                      \
	CMD_INT("warmup", "T", &profile_keys[PROFILE_KEY_WARMUP], type, member.warmup_ns,       \
		"warm-up per run, e.g. 1s, overriding the profile"),                            \
	CMD_STRING("only", "SETTING", type, member.only, "run only this setting"),              \
	CMD_STRING("format", "LIST", type, member.formats,                                      \
		   "also write these formats into DIR, comma-separated, of: "                   \
		   REPORT_FORMAT_FILES "(json is always written)"),                              \
	CMD_REPORT_PARAMS(type, member.report),                                                 \
	CMD_FLAG("cpuset", type, member.cpuset,                                                 \
		 "confine each load in a cpuset (as the profile's 'cpuset: true')"),            \
	CMD_FLAG("allow-rt-on-all-cpus", type, member.allow_rt,                                 \
		 "let fifo/rr loads cover every CPU (can lock the machine up)"),                \
	CMD_FLAG("trace", type, member.trace,                                                   \
		 "exact mode (as the profile's 'trace: true'): also read the scheduler's "      \
		 "events from a tracefs instance, for exact stretches and who ran instead")

/* Format names and KCIDB ids checked before anything runs: -1 with the
 * error printed. */
int run_opts_check(const struct run_opts *o);

/* O applied to the profile P: the overrides, --only naming a setting P has,
 * and the run plan's checks (every load's CPUs exist, the RT rule). -1 with
 * the error printed (a usage error). */
int run_opts_apply(struct profile *p, const struct run_opts *o);

/* The same, keeping the resolved plan in PLAN for run_profile (struct
 * run_options' plan), so a run resolves it once; run_plan_free() it after. */
int run_opts_plan(struct profile *p, const struct run_opts *o, struct run_plan *plan);

/* How long P's runs take under O (after run_opts_apply): settings times
 * repetitions times warm-up and duration. */
int64_t run_opts_planned_ns(const struct profile *p, const struct run_opts *o);

#define RUN_OPTS_MAX_WORDS 20

/* O as the words of another `starve run` command line ("--repeat", "3",
 * "--duration", "2000000000ns", ...) into WORDS (RUN_OPTS_MAX_WORDS), their
 * text in BUF. Returns how many. */
size_t run_opts_words(const struct run_opts *o, char **words, char *buf, size_t len);

#endif
