/* starve load: run one load generator alone and print its in-band metrics.
 * Options come from the same tables as profiles (the common options and the
 * type's own), so `--run 5ms` is checked exactly like `run: 5ms` in YAML. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/profile/profile.h"
#include "harness/run/result-build.h"
#include "harness/run/signals.h"
#include "harness/run/spawn.h"
#include "harness/run/strays.h"
#include "harness/placement/topology.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "lib/metric.h"
#include "lib/timeutil.h"
#include "loads/inband.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define LOAD_GRACE_NS (1 * NSEC_PER_SEC)	/* for workers to end by themselves */
#define LOAD_TICK_NS (10 * NSEC_PER_MSEC)	/* how often the wait looks at signals */
#define LOAD_END_NS (100 * NSEC_PER_MSEC)	/* loads end themselves this soon after the deadline */

static int run_load(int argc, char **argv);

struct load_args {
	struct load_spec spec;	/* its type from the first operand, set before parsing */
	int64_t duration_ns;
	bool json;
	bool allow_rt;		/* a fifo, rr or deadline load may cover every CPU */
	bool ended_alone;	/* the leader exited by itself, at most LOAD_END_NS late */
	int interrupted;	/* the signal that stopped it, 0 if none */
};

/* A common option of every load (load_common_options), as in profiles. */
static int load_set_common(void *args, const struct cmd_option *o, union opt_value *v)
{
	struct load_args *a = args;

	load_spec_set_common(&a->spec, (enum load_common_option)(o->spec - load_common_options), v);
	return 0;
}

#define LOAD_COMMON(lname, arg, i) CMD_CALL(lname, arg, &load_common_options[i], load_set_common, NULL)

/* --duration parses with the profile's row: a load runs as long as a run may. */
static const struct cmd_option load_options[] = {
	CMD_INT("duration", "T", &profile_keys[PROFILE_KEY_DURATION], struct load_args, duration_ns,
		"how long to run, e.g. 2s", .required = true),
	CMD_FLAG("json", struct load_args, json, "print the metrics as JSON"),
	LOAD_COMMON("count", NULL, COMMON_COUNT),
	LOAD_COMMON("mode", NULL, COMMON_MODE),
	LOAD_COMMON("cpus", "SPEC", COMMON_CPUS),
	LOAD_COMMON("nice", NULL, COMMON_NICE),
	LOAD_COMMON("policy", NULL, COMMON_POLICY),
	LOAD_COMMON("priority", NULL, COMMON_PRIORITY),
	LOAD_COMMON("session", NULL, COMMON_SESSION),
	LOAD_COMMON("dl-runtime", "T", COMMON_DL_RUNTIME),
	LOAD_COMMON("dl-deadline", "T", COMMON_DL_DEADLINE),
	LOAD_COMMON("dl-period", "T", COMMON_DL_PERIOD),
	LOAD_COMMON("slice", "T", COMMON_SLICE),
	CMD_FLAG("allow-rt-on-all-cpus", struct load_args, allow_rt,
		 "let a fifo, rr or deadline load run on every CPU (deadline needs it: the "
		 "kernel admits it only on all the CPUs of its root domain)"),
	CMD_END
};

static bool load_more(const void *args, struct cmd_more *more);

const struct cmd cmd_load = {
	.name = "load", .operands = "TYPE [--OPTION VALUE]...",
	.summary = "run one load generator alone and print its in-band metrics",
	.options = load_options, .run = run_load, .more = load_more,
	.notes = "--OPTION VALUE is an option of the load type, as in profiles; 'starve load TYPE\n"
		 "--help' lists them, 'starve list' those of every type.\n",
};

/* An option of the load type itself. */
static int load_set_own(void *args, const struct opt_spec *o, union opt_value *v)
{
	struct load_args *a = args;
	size_t i = (size_t)(o - a->spec.type->options);

	if (o->type == OPT_STRING)
		free(a->spec.opts[i].s);
	a->spec.opts[i] = *v;
	a->spec.opt_set[i] = true;
	return 0;
}

static bool load_more(const void *args, struct cmd_more *more)
{
	const struct load_type *type = ((const struct load_args *)args)->spec.type;

	if (!type)
		return false;
	snprintf(more->title, sizeof(more->title), "options of load type '%s'", type->name);
	more->table = type->options;
	more->n = type->n_options;
	more->set = load_set_own;
	return true;
}

/* The type, from the first word, before the options that depend on it. */
static int load_type_of(struct load_args *a, const char *name)
{
	const struct load_type *type = load_type_find(name);
	const char *hint;

	if (type) {
		load_spec_init(&a->spec, type, NULL);
		return 0;
	}
	hint = load_type_suggest(name);
	if (hint)
		return error("unknown load type '%s' (did you mean '%s'?)", name, hint);
	return error("unknown load type '%s' (see 'starve list')", name);
}

/* After parsing: one operand, the type; the spec finished and checked. */
static int load_setup(struct load_args *a, const struct cmd_words *ops)
{
	cpu_set_t cpus;
	char why[256];

	if (!a->spec.type)
		return error(ops->n ? "give the load type first: starve load TYPE [--OPTION VALUE]..."
				    : "missing load type; see 'starve list'");
	if (ops->n > 1)
		return cmd_usage_error(&cmd_load, "unexpected argument '%s'", ops->v[1]);
	if (load_spec_finish(&a->spec, why, sizeof(why)))
		return error("load '%s': %s", a->spec.type->name, why);
	/* A cpu spec this machine cannot satisfy is a usage error too. */
	if (topology_cpus(a->spec.cpus, &cpus, why, sizeof(why)))
		return error("--cpus: %s", why);
	return 0;
}

/* Wait for the load to end by itself (every load type ends at its
 * deadline), at most LOAD_END_NS past the deadline, or for a signal. */
static bool load_wait(struct spawned_load *sl, int64_t deadline)
{
	int64_t until = deadline + LOAD_END_NS;

	for (;;) {
		int64_t now = mono_ns();

		if (spawn_poll(sl, 1) == 0)
			return true;
		if (signals_caught() || now >= until)
			return false;
		sleep_until_ns(until - now > LOAD_TICK_NS ? now + LOAD_TICK_NS : until);
	}
}

static json_t *load_workers_json(const struct stats_block *stats, unsigned n)
{
	json_t *arr = json_array();

	for (unsigned i = 0; i < n; i++) {
		const struct worker_record *r = &stats->rec[i];
		json_t *w;

		if (r->state == RECORD_UNUSED)
			continue;
		w = json_pack("{s:i, s:s, s:I, s:f, s:I, s:I, s:I, s:s}", "tid", (int)r->tid,
			      "comm", r->comm, "iterations", (json_int_t)r->iterations,
			      "cpu_s", (double)(r->cpu_ns - r->cpu_begin_ns) / NSEC_PER_SEC,
			      "gap_max_ns", (json_int_t)r->gap_max_ns,
			      "deadlines_missed", (json_int_t)r->deadlines_missed,
			      "wakeups", (json_int_t)r->wakeups,
			      "state", r->state == RECORD_FAILED ? "failed" :
				       r->state == RECORD_DONE ? "done" : "running");
		if (r->state == RECORD_FAILED)
			json_object_set_new(w, "error", json_string(r->error));
		json_array_append_new(arr, w);
	}
	return arr;
}

static void load_print_text(const struct load_args *a, const struct inband_summary *sum,
			    double wall_s)
{
	struct inband_metric m[INBAND_MAX_METRICS];
	size_t n = inband_metrics(a->spec.type, sum, m);
	char buf[64];

	printf("load %s: %u worker%s, %s, cpus %s, %.2f s\n", a->spec.name,
	       sum->workers, sum->workers == 1 ? "" : "s",
	       load_mode_names[a->spec.mode], a->spec.cpus, wall_s);
	printf("  %-22s %llu\n", "iterations", (unsigned long long)sum->iterations);
	for (size_t i = 0; i < n; i++)
		printf("  %-22s %s\n", m[i].name, metric_format(m[i].name, m[i].value, METRIC_DIGITS,
								   buf, sizeof(buf)));
	if (a->spec.type->flags & LOAD_INBAND_GAPS)
		printf("  %-22s %llu / %llu / %llu\n", "gaps over 1/10/100 ms",
		       (unsigned long long)sum->gaps_over_1ms, (unsigned long long)sum->gaps_over_10ms,
		       (unsigned long long)sum->gaps_over_100ms);
}

/* Say what failed; returns the exit status the run deserves. */
static int load_outcome(const struct load_args *a, const struct spawned_load *sl,
			const struct stats_block *stats, unsigned n)
{
	int status = EXIT_PASS;

	for (unsigned i = 0; i < n; i++)
		if (stats->rec[i].state == RECORD_FAILED) {
			error("worker %u failed: %s", i, stats->rec[i].error);
			status = EXIT_RUNTIME;
		}
	if (WIFEXITED(sl->status) && WEXITSTATUS(sl->status)) {
		error("load '%s' exited with status %d", sl->spec->name, WEXITSTATUS(sl->status));
		status = EXIT_RUNTIME;
	} else if (WIFSIGNALED(sl->status) && WTERMSIG(sl->status) != SIGKILL) {
		error("load '%s' was killed by signal %d", sl->spec->name, WTERMSIG(sl->status));
		status = EXIT_RUNTIME;
	}
	if (!a->interrupted && !a->ended_alone)
		warning("load '%s' did not end within 100 ms of its deadline (starved?) and was stopped",
			sl->spec->name);
	if (a->interrupted) {
		error("interrupted by signal %d; the metrics cover the run so far", a->interrupted);
		status = EXIT_RUNTIME;
	}
	return status;
}

static void load_report(const struct load_args *a, const struct stats_block *stats,
			unsigned n, int64_t wall_ns)
{
	struct inband_summary *sum = malloc(sizeof(*sum));
	json_t *metrics, *hists, *doc;

	if (!sum)
		return;
	inband_summarize(a->spec.type, stats, 0, n, wall_ns, sum);
	if (!a->json) {
		load_print_text(a, sum, (double)wall_ns / NSEC_PER_SEC);
		free(sum);
		return;
	}
	metrics = json_object();
	hists = json_object();
	result_build_inband(a->spec.type, sum, metrics, hists);
	doc = json_pack("{s:s, s:s, s:f, s:I, s:o, s:o, s:o}", "load", a->spec.name,
			"type", a->spec.type->name, "duration_s", (double)wall_ns / NSEC_PER_SEC,
			"iterations", (json_int_t)sum->iterations, "metrics", metrics,
			"histograms", hists, "workers", load_workers_json(stats, n));
	json_object_set_new(doc, "ended_by_itself", json_boolean(a->ended_alone));
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	putchar('\n');
	json_decref(doc);
	free(sum);
}

static int load_execute(struct load_args *a)
{
	struct spawn_options opt = { .run_ns = a->duration_ns,
				     .allow_rt_on_all_cpus = a->allow_rt };
	unsigned n = load_records_needed(&a->spec);
	int64_t start = mono_ns();
	struct stats_block *stats = stats_create(n, start + a->duration_ns);
	struct spawned_load sl;
	int64_t end;
	int status;
	bool strays_failed;

	if (!stats)
		return EXIT_RUNTIME;
	/* the run's handlers: a first signal stops the load the normal way, a
	 * second kills its group at once (there is nothing to restore) */
	signals_install(NULL);
	if (spawn_load(&sl, &a->spec, stats, 0, &opt))
		goto fail;
	if (signals_add_group(sl.pid) < 0) {
		spawn_stop_all(&sl, 1, stats, 0);
		goto fail;
	}
	signals_arm_second(true);
	a->ended_alone = load_wait(&sl, start + a->duration_ns);
	spawn_stop_all(&sl, 1, stats, LOAD_GRACE_NS);
	strays_failed = strays_end(0) < 0;
	signals_remove_group(sl.pid);
	a->interrupted = signals_caught();
	signals_uninstall();
	end = mono_ns();	/* a load that ended early ran only this long */
	load_report(a, stats, n, (end < start + a->duration_ns ? end : start + a->duration_ns) - start);
	status = strays_failed ? EXIT_RUNTIME : load_outcome(a, &sl, stats, n);
	stats_destroy(stats);
	return status;
fail:
	signals_uninstall();
	stats_destroy(stats);
	return EXIT_RUNTIME;
}

static int run_load(int argc, char **argv)
{
	struct load_args a = { .duration_ns = 0 };
	struct cmd_words ops;
	int status;

	if (argc < 2)
		return error("missing load type; see 'starve list'"), EXIT_USAGE;
	if (argv[1][0] != '-' && load_type_of(&a, argv[1]) < 0)
		return EXIT_USAGE;
	if (!cmd_parse(&cmd_load, argc, argv, &a, &ops, &status)) {
		load_spec_free(&a.spec);
		return status;
	}
	status = load_setup(&a, &ops) < 0 ? EXIT_USAGE : load_execute(&a);
	cmd_release(&cmd_load, &a, &ops);
	load_spec_free(&a.spec);
	return status;
}
