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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_run(int argc, char **argv);

const struct cmd cmd_run = { "run", "PROFILE.yaml [-o DIR] [--repeat N] [--duration T] [--warmup T] [--only SETTING] [--format LIST] [--quiet] [--cpuset] [--allow-rt-on-all-cpus]", "run a profile against this kernel", run_run };

/* Each option once: getopt's table and the help text both come from here. */
enum { RUNOPT_REPEAT = 256, RUNOPT_DURATION, RUNOPT_WARMUP, RUNOPT_ONLY, RUNOPT_FORMAT, RUNOPT_ALLOW_RT,
       RUNOPT_CPUSET };
static const struct run_opt {
	struct option opt;
	const char *arg, *help;
} run_opts[] = {
	{ { "output", required_argument, NULL, 'o' }, "DIR",
	  "write result.json there (default ./results/<profile>-<UTC time>/)" },
	{ { "repeat", required_argument, NULL, RUNOPT_REPEAT }, "N", "repetitions (overrides the profile)" },
	{ { "duration", required_argument, NULL, RUNOPT_DURATION }, "T", "measured time per run, e.g. 5s" },
	{ { "warmup", required_argument, NULL, RUNOPT_WARMUP }, "T", "warm-up per run, e.g. 1s" },
	{ { "only", required_argument, NULL, RUNOPT_ONLY }, "SETTING", "run only this setting" },
	{ { "format", required_argument, NULL, RUNOPT_FORMAT }, "LIST",
	  "also write junit,ktap,markdown,html,table (comma-separated; json always)" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL, "no progress line" },
	{ { "cpuset", no_argument, NULL, RUNOPT_CPUSET }, NULL,
	  "confine each load in a cpuset (as the profile's 'cpuset: true')" },
	{ { "allow-rt-on-all-cpus", no_argument, NULL, RUNOPT_ALLOW_RT }, NULL,
	  "let fifo/rr loads cover every CPU (can lock the machine up)" },
};
#define N_RUN_OPTS (sizeof(run_opts) / sizeof(run_opts[0]))

struct run_args {
	const char *profile, *dir, *only, *formats;
	int repeat;
	int64_t duration_ns, warmup_ns;	/* -1: from the profile */
	bool quiet, allow_rt, cpuset;
};

static void run_help(void)
{
	char text[2048], flag[48];
	size_t off = 0;

	text[0] = '\0';
	for (size_t i = 0; i < N_RUN_OPTS && off < sizeof(text); i++) {
		const struct run_opt *o = &run_opts[i];
		bool has_short = o->opt.val < 256;

		snprintf(flag, sizeof(flag), "%c%c%c --%s%s%s", has_short ? '-' : ' ',
			 has_short ? o->opt.val : ' ', has_short ? ',' : ' ', o->opt.name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		off += (size_t)snprintf(text + off, sizeof(text) - off, "  %-30s %s\n", flag, o->help);
	}
	cmd_usage(&cmd_run, text);
	printf("\nexit status: 0 pass, 1 a verdict failed, 2 usage or profile error,\n"
	       "3 runtime error or interrupted (partial result written), 4 all skipped.\n");
}

static int run_parse_duration(const char *opt, const char *text, int64_t *ns)
{
	char why[160];

	if (duration_parse(text, ns, why, sizeof(why)) < 0)
		return error("--%s: %s", opt, why);
	return 0;
}

static int run_parse_one(int c, char *arg, void *data)
{
	struct run_args *a = data;
	char *end;
	long n;

	switch (c) {
	case 'o': a->dir = arg; return 0;
	case 'q': a->quiet = true; return 0;
	case RUNOPT_ONLY: a->only = arg; return 0;
	case RUNOPT_ALLOW_RT: a->allow_rt = true; return 0;
	case RUNOPT_CPUSET: a->cpuset = true; return 0;
	case RUNOPT_FORMAT: a->formats = arg; return report_formats_check(arg);
	case RUNOPT_DURATION: return run_parse_duration("duration", arg, &a->duration_ns);
	case RUNOPT_WARMUP: return run_parse_duration("warmup", arg, &a->warmup_ns);
	case RUNOPT_REPEAT:
		errno = 0;
		n = strtol(arg, &end, 10);
		if (errno || *end || n < 1 || n > 10000)
			return error("--repeat: '%s' is not a count from 1 to 10000", arg);
		a->repeat = (int)n;
		return 0;
	}
	return error("see 'starve run --help'");
}

static int run_parse_args(int argc, char **argv, struct run_args *a)
{
	struct option longopts[N_RUN_OPTS + 1];
	char **ops;
	int n, ret;

	memset(longopts, 0, sizeof(longopts));
	for (size_t i = 0; i < N_RUN_OPTS; i++)
		longopts[i] = run_opts[i].opt;
	memset(a, 0, sizeof(*a));
	a->duration_ns = a->warmup_ns = -1;
	opterr = 1;
	ret = cmd_parse_options(argc, argv, "o:q", longopts, run_parse_one, a, &ops, &n);
	if (ret == 0 && n != 1)
		ret = error(n == 0 ? "no profile given; see 'starve run --help'"
				   : "one profile per run; see 'starve run --help'");
	if (ret == 0)
		a->profile = ops[0];
	free(ops);
	if (ret == 0 && a->duration_ns == 0)
		return error("--duration must be more than 0");
	return ret;
}

/* Command-line overrides, and --only naming a setting that exists. */
static int run_apply_args(struct profile *p, const struct run_args *a)
{
	if (a->repeat)
		p->repeat = a->repeat;
	if (a->duration_ns > 0)
		p->duration_ns = a->duration_ns;
	if (a->warmup_ns >= 0)
		p->warmup_ns = a->warmup_ns;
	if (a->cpuset)
		p->use_cpuset = true;
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
	struct run_args a;
	struct run_options o;
	struct profile *p;
	unsigned n_errors = 0;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	json_t *result = NULL;
	enum run_status st;
	int ret;

	if (cmd_wants_help(argc, argv)) {
		run_help();
		return EXIT_PASS;
	}
	if (run_parse_args(argc, argv, &a) < 0)
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
