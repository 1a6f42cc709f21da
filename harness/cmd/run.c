/* starve run: run a profile against this kernel and write DIR/result.json
 * (and the other formats asked for), print the summary, exit 0 pass,
 * 1 a verdict failed, 2 usage or profile error, 3 runtime error or
 * interrupted (the partial result is still written), 4 all skipped. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/run/signals.h"
#include "harness/cmd/run-options.h"
#include "harness/profile/profile.h"
#include "harness/run/result-build.h"
#include "harness/run/deadline.h"
#include "harness/run/engine.h"
#include "harness/run/output.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/result/result.h"
#include "reports/result/result-view.h"
#include "reports/format/table.h"
#include "reports/result/verdict.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_run(int argc, char **argv);

struct run_args {
	const char *profile, *dir;
	bool quiet;
	struct run_opts run;	/* the options starve vm shares */
};

static const struct cmd_option run_options[] = {
	CMD_STRING("output", "DIR", struct run_args, dir,
		   "write result.json there (default ./results/<profile>-<UTC time>/)",
		   .short_name = 'o'),
	CMD_RUN_OPTIONS(struct run_args, run),
	CMD_FLAG("quiet", struct run_args, quiet, "no progress line", .short_name = 'q'),
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
	return run_opts_check(&a->run);
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
	return cmd_output_dir(out);
}

static bool run_had_errors(const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++)
		if (v->runs[i].status == RESULT_ERROR)
			return true;
	return false;
}

/* A signal while the result is written: stop there, as an interrupted run
 * does. WRITTEN: the final result is at PATH; else the partial one written
 * after the last run is. */
static int run_writing_interrupted(struct result_view *v, const char *path, bool written)
{
	rv_free(v);
	error("interrupted while writing: %s at %s%s", written ? "the result is" :
	      "the partial result of the last run (\"complete\": false) is", path,
	      written ? "; no report formats or table" : "");
	return EXIT_RUNTIME;
}

/* Verdicts, result.json, the other formats and the table, from its view;
 * SIGINT or SIGTERM is looked at between them and while result.json is
 * written. */
static int run_finish(json_t *result, enum run_status st, const struct run_args *a,
		      const char *dir, const char *path)
{
	bool stop = st != RUN_INTERRUPTED;	/* else it is writing what it has already */
	struct result_view *v;
	char why[1024], kept[PATH_MAX + 64];
	int code, wrote;

	if (stop && signals_caught())
		return run_writing_interrupted(NULL, path, false);
	v = rv_build(result, path, why, sizeof(why));
	code = v ? verdicts_rejudge(&v, NULL) : error("%s", why);
	if (stop && signals_caught())
		return run_writing_interrupted(v, path, false);
	wrote = stop ? output_final(path, result) : result_write(path, result);
	if (wrote == OUTPUT_INTERRUPTED)
		return run_writing_interrupted(v, path, false);
	if (stop && signals_caught())
		return run_writing_interrupted(v, path, true);
	if (wrote < 0) {
		/* the disk filled during the run: never lose what was measured */
		if (output_keep(result, kept, sizeof(kept)) < 0) {
			rv_free(v);
			return EXIT_RUNTIME;
		}
		path = kept;
		code = error("the result is kept at %s instead; no report formats written", path);
	} else if (v && a->run.formats &&
		   reports_write_formats(v, dir, a->run.formats, &a->run.report) < 0) {
		code = EXIT_RUNTIME;
	}
	if (!v)
		return EXIT_RUNTIME;
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
	struct run_args a = { .run = RUN_OPTS_INIT };
	struct run_options o;
	struct run_plan plan;
	struct cmd_words ops;
	struct profile *p;
	unsigned n_errors = 0;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct result_doc *doc = NULL;
	enum run_status st;
	int ret;

	/* from the start: a Ctrl-C while the profile loads still ends the run
	 * the normal way, with its partial result */
	signals_install(NULL);
	if (!cmd_parse(&cmd_run, argc, argv, &a, &ops, &ret))
		return ret;
	ret = run_check_args(&a, &ops);
	cmd_release(&cmd_run, &a, &ops);	/* a.profile stays: it points into argv */
	if (ret < 0)
		return EXIT_USAGE;
	p = profile_load(a.profile, &n_errors);
	if (!p)
		return EXIT_USAGE;
	if (run_opts_plan(p, &a.run, &plan) < 0) {
		profile_free(p);
		return EXIT_USAGE;
	}
	if (run_output_dir(p, a.dir, dir, sizeof(dir)) < 0) {
		run_plan_free(&plan);
		profile_free(p);
		return EXIT_RUNTIME;
	}
	snprintf(path, sizeof(path), "%s/result.json", dir);
	o = (struct run_options){ .only = a.run.only, .result_path = path, .quiet = a.quiet,
				  .allow_rt_on_all_cpus = a.run.allow_rt, .plan = &plan,
				  .argc = argc, .argv = argv };
	st = run_profile(p, &o, &doc);
	if (doc) {
		deadline_test_stop_at("writing");
		result_build_finish(result_doc_tree(doc), st == RUN_DONE);
		ret = run_finish(result_doc_tree(doc), st, &a, dir, path);
		result_doc_free(doc);
	} else {
		ret = EXIT_RUNTIME;
	}
	signals_uninstall();
	run_plan_free(&plan);
	profile_free(p);
	return ret;
}
