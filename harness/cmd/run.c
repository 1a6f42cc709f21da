/* starve run: run a profile against this kernel and write DIR/result.json
 * (and the other formats asked for), print the summary, exit 0 pass,
 * 1 a verdict failed, 2 usage or profile error, 3 runtime error or
 * interrupted (the partial result is still written), 4 all skipped. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "harness/run/result-build.h"
#include "harness/run/engine.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/result.h"
#include "reports/result-view.h"
#include "reports/table.h"
#include "reports/verdict.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_run(int argc, char **argv);

struct run_args {
	const char *profile, *dir, *only, *formats;
	int64_t repeat;			/* 0: from the profile */
	int64_t duration_ns, warmup_ns;	/* -1: from the profile */
	bool quiet, allow_rt, cpuset, trace;
};

/* --repeat, --duration and --warmup parse with the profile's own rows, so
 * they take exactly what the profile's keys take. */
static const struct cmd_option run_options[] = {
	CMD_STRING("output", "DIR", struct run_args, dir,
		   "write result.json there (default ./results/<profile>-<UTC time>/)",
		   .short_name = 'o'),
	CMD_INT("repeat", "N", &profile_keys[PROFILE_KEY_REPEAT], struct run_args, repeat,
		"repetitions of every setting, overriding the profile"),
	CMD_INT("duration", "T", &profile_keys[PROFILE_KEY_DURATION], struct run_args, duration_ns,
		"measured time per run, e.g. 5s, overriding the profile"),
	CMD_INT("warmup", "T", &profile_keys[PROFILE_KEY_WARMUP], struct run_args, warmup_ns,
		"warm-up per run, e.g. 1s, overriding the profile"),
	CMD_STRING("only", "SETTING", struct run_args, only, "run only this setting"),
	CMD_STRING("format", "LIST", struct run_args, formats,
		   "also write these formats into DIR, comma-separated: junit (result.xml), "
		   "ktap (result.ktap), markdown (summary.md), table (summary.txt), html "
		   "(report.html); json (result.json) is always written"),
	CMD_FLAG("quiet", struct run_args, quiet, "no progress line", .short_name = 'q'),
	CMD_FLAG("cpuset", struct run_args, cpuset,
		 "confine each load in a cpuset (as the profile's 'cpuset: true')"),
	CMD_FLAG("allow-rt-on-all-cpus", struct run_args, allow_rt,
		 "let fifo/rr loads cover every CPU (can lock the machine up)"),
	CMD_FLAG("trace", struct run_args, trace,
		 "exact mode (as the profile's 'trace: true'): also read the scheduler's events "
		 "from a tracefs instance, for exact stretches and who ran instead"),
	CMD_END
};

const struct cmd cmd_run = {
	.name = "run", .operands = "PROFILE.yaml", .summary = "run a profile against this kernel",
	.options = run_options, .run = run_run,
	.notes = "exit status: 0 pass, 1 a verdict failed, 2 usage or profile error,\n"
		 "3 runtime error or interrupted (partial result written), 4 all skipped.\n",
};

/* The profile operand, and format names checked before anything runs. */
static int run_check_args(struct run_args *a, const struct cmd_words *ops)
{
	if (ops->n != 1)
		return cmd_usage_error(&cmd_run, ops->n ? "one profile per run" : "no profile given");
	a->profile = ops->v[0];
	return a->formats ? report_formats_check(a->formats) : 0;
}

/* Command-line overrides, and --only naming a setting that exists. */
static int run_apply_args(struct profile *p, const struct run_args *a)
{
	if (a->repeat)
		p->repeat = (int)a->repeat;
	if (a->duration_ns > 0)
		p->duration_ns = a->duration_ns;
	if (a->warmup_ns >= 0)
		p->warmup_ns = a->warmup_ns;
	if (a->cpuset)
		p->use_cpuset = true;
	if (a->trace)
		p->trace = true;
	if (!a->only)
		return 0;
	for (size_t i = 0; i < p->n_settings; i++)
		if (!strcmp(p->settings[i].name, a->only))
			return 0;
	return error("--only: profile '%s' has no setting '%s'", p->name, a->only);
}

static int run_mkdirs(const char *dir)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return error("output directory name too long: %s", dir);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return error_errno("cannot create '%s'", buf);
			*s = '/';
		}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return error_errno("cannot create '%s'", buf);
	return 0;
}

static int run_output_dir(const struct profile *p, const char *dir, char *out, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (dir) {
		snprintf(out, len, "%s", dir);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(out, len, "results/%s-%s", p->name, stamp);
	}
	return run_mkdirs(out);
}

static bool run_had_errors(const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].status == RESULT_ERROR)
			return true;
	return false;
}

/* Verdicts, result.json, the other formats and the table, from its view. */
static int run_finish(json_t *result, enum run_status st, const struct run_args *a,
		      const char *dir, const char *path)
{
	char why[1024];
	struct result_view *v = rv_build(result, path, why, sizeof(why));
	int code = v ? verdicts_rejudge(&v, NULL) : error("%s", why);

	if (result_write(path, result) < 0 || !v) {
		rv_free(v);
		return EXIT_RUNTIME;
	}
	if (a->formats && reports_write_formats(v, dir, a->formats) < 0)
		code = EXIT_RUNTIME;
	table_print(v, stdout);
	printf("result: %s\n", path);
	fflush(stdout);
	if (st == RUN_INTERRUPTED)
		code = error("interrupted: the result is partial (\"complete\": false)");
	else if (st == RUN_DONE && code != EXIT_VERDICT_FAIL && run_had_errors(v))
		code = error("a run ended in error (its reason is in %s)", path);
	rv_free(v);
	return code < 0 || st != RUN_DONE ? EXIT_RUNTIME : code;
}

static int run_run(int argc, char **argv)
{
	struct run_args a = { .duration_ns = -1, .warmup_ns = -1 };
	struct run_options o;
	struct cmd_words ops;
	struct profile *p;
	unsigned n_errors = 0;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	json_t *result = NULL;
	enum run_status st;
	int ret;

	if (!cmd_parse(&cmd_run, argc, argv, &a, &ops, &ret))
		return ret;
	ret = run_check_args(&a, &ops);
	cmd_release(&cmd_run, &a, &ops);	/* a.profile stays: it points into argv */
	if (ret < 0)
		return EXIT_USAGE;
	p = profile_load(a.profile, &n_errors);
	if (!p)
		return EXIT_USAGE;
	if (run_apply_args(p, &a) < 0 || run_check_rt_cpus(p, a.allow_rt) < 0) {
		profile_free(p);
		return EXIT_USAGE;
	}
	if (run_output_dir(p, a.dir, dir, sizeof(dir)) < 0) {
		profile_free(p);
		return EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/result.json", dir);
	o = (struct run_options){ .only = a.only, .result_path = path, .quiet = a.quiet,
				  .allow_rt_on_all_cpus = a.allow_rt, .argc = argc,
				  .argv = argv };
	st = run_profile(p, &o, &result);
	if (result) {
		result_build_finish(result, st == RUN_DONE);
		ret = run_finish(result, st, &a, dir, path);
		json_decref(result);
	} else {
		ret = EXIT_RUNTIME;
	}
	profile_free(p);
	return ret;
}
