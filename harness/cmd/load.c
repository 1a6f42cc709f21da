/* starve load: run one load generator alone and print its in-band metrics.
 * Options come from the same tables as profiles (the common options and the
 * type's own), so `--run 5ms` is checked exactly like `run: 5ms` in YAML. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/run/result-build.h"
#include "harness/run/spawn.h"
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

const struct cmd cmd_load = { "load", "TYPE [--OPTION VALUE...] --duration T [--cpus SPEC] [--json]", "run one load generator alone and print its in-band metrics", run_load };

static const char load_usage_text[] =
	"options:\n"
	"  --duration T     how long to run (required), e.g. 2s\n"
	"  --json           print the metrics as JSON\n"
	"  --count N, --mode threads|processes, --cpus SPEC, --nice N,\n"
	"  --policy P, --priority N, --session BOOL   as in profiles\n"
	"  --OPTION VALUE   an option of the load type ('starve list' shows them)\n";

struct load_args {
	struct load_spec spec;
	int64_t duration_ns;
	bool json;
	bool ended_alone;	/* the leader exited by itself, at most LOAD_END_NS late */
};

static volatile sig_atomic_t load_interrupted;

static void load_on_signal(int sig)
{
	load_interrupted = sig;
}

/* "did you mean" over --duration, --json, the common and the type's options. */
static int load_unknown_option(const struct load_type *type, const char *name)
{
	const char *names[2 + COMMON_NR_OPTIONS + LOAD_MAX_OPTIONS];
	const char *hint;
	size_t n = 0;

	names[n++] = "duration";
	names[n++] = "json";
	for (size_t i = 0; i < COMMON_NR_OPTIONS; i++)
		names[n++] = load_common_options[i].name;
	for (size_t i = 0; i < type->n_options; i++)
		names[n++] = type->options[i].name;
	hint = opt_suggest(name, names, n);
	if (hint)
		return error("unknown option '--%s' for load type '%s' (did you mean '--%s'?)",
			     name, type->name, hint);
	return error("unknown option '--%s' for load type '%s' (see 'starve list')", name, type->name);
}

/* One --NAME VALUE pair of a table option. */
static int load_set_option(struct load_spec *spec, const char *name, const char *text)
{
	const struct load_type *type = spec->type;
	const struct opt_spec *o = opt_find(load_common_options, COMMON_NR_OPTIONS, name);
	const struct opt_spec *table = o ? load_common_options : type->options;
	union opt_value v;
	char why[256];

	if (!o)
		o = opt_find(type->options, type->n_options, name);
	if (!o)
		return load_unknown_option(type, name);
	if (!text)
		return error("option '--%s' needs a value", name);
	if (opt_parse(o, text, &v, why, sizeof(why)))
		return error("--%s: %s", name, why);
	if (table == load_common_options) {
		load_spec_set_common(spec, (enum load_common_option)(o - table), &v);
		return 0;
	}
	if (o->type == OPT_STRING)
		free(spec->opts[o - table].s);
	spec->opts[o - table] = v;
	spec->opt_set[o - table] = true;
	return 0;
}

/* Splits "--name=value" or takes the next word; a bare boolean means true. */
static int load_parse_args(int argc, char **argv, struct load_args *a)
{
	for (int i = 2; i < argc; i++) {
		char name[64];
		const char *arg = argv[i], *eq, *value;

		if (strncmp(arg, "--", 2) || !arg[2])
			return error("unexpected argument '%s' (options look like --name value)", arg);
		arg += 2;
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		if (!strcmp(name, "json") && !eq) {
			a->json = true;
			continue;
		}
		value = eq ? eq + 1 : (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) ? argv[++i] : NULL;
		if (!value) {
			const struct opt_spec *o = opt_find(a->spec.type->options,
							    a->spec.type->n_options, name);
			if (!o)
				o = opt_find(load_common_options, COMMON_NR_OPTIONS, name);
			if (o && o->type == OPT_BOOL)
				value = "true";
		}
		if (!strcmp(name, "duration")) {
			char why[256];

			if (!value)
				return error("option '--duration' needs a value");
			if (duration_parse(value, &a->duration_ns, why, sizeof(why)))
				return error("--duration: %s", why);
			if (a->duration_ns <= 0)
				return error("--duration must be positive");
			continue;
		}
		if (load_set_option(&a->spec, name, value))
			return -1;
	}
	if (a->duration_ns <= 0)
		return error("missing --duration (e.g. --duration 2s)");
	return 0;
}

/* argv[1] is the type; fills A (spec finished and checked). */
static int load_setup(int argc, char **argv, struct load_args *a)
{
	const struct load_type *type;
	cpu_set_t cpus;
	char why[256];

	if (argc < 2 || !strncmp(argv[1], "--", 2))
		return error("missing load type; see 'starve list'");
	type = load_type_find(argv[1]);
	if (!type) {
		const char *hint = load_type_suggest(argv[1]);

		if (hint)
			return error("unknown load type '%s' (did you mean '%s'?)", argv[1], hint);
		return error("unknown load type '%s' (see 'starve list')", argv[1]);
	}
	load_spec_init(&a->spec, type, NULL);
	if (load_parse_args(argc, argv, a))
		return -1;
	if (load_spec_finish(&a->spec, why, sizeof(why)))
		return error("load '%s': %s", type->name, why);
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
		if (load_interrupted || now >= until)
			return false;
		sleep_until_ns(until - now > LOAD_TICK_NS ? now + LOAD_TICK_NS : until);
	}
}

static void load_catch_signals(void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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
	if (!load_interrupted && !a->ended_alone)
		warning("load '%s' did not end within 100 ms of its deadline (starved?) and was stopped",
			sl->spec->name);
	if (load_interrupted) {
		error("interrupted by signal %d; the metrics cover the run so far",
		      (int)load_interrupted);
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
	struct spawn_options opt = { .run_ns = a->duration_ns };
	unsigned n = load_records_needed(&a->spec);
	int64_t start = mono_ns();
	struct stats_block *stats = stats_create(n, start + a->duration_ns);
	struct spawned_load sl;
	int64_t end;
	int status;

	if (!stats)
		return EXIT_RUNTIME;
	load_catch_signals(load_on_signal);
	if (spawn_load(&sl, &a->spec, stats, 0, &opt)) {
		stats_destroy(stats);
		return EXIT_RUNTIME;
	}
	a->ended_alone = load_wait(&sl, start + a->duration_ns);
	spawn_stop_all(&sl, 1, stats, LOAD_GRACE_NS);
	load_catch_signals(SIG_DFL);
	end = mono_ns();	/* a load that ended early ran only this long */
	load_report(a, stats, n, (end < start + a->duration_ns ? end : start + a->duration_ns) - start);
	status = load_outcome(a, &sl, stats, n);
	stats_destroy(stats);
	return status;
}

static int run_load(int argc, char **argv)
{
	struct load_args a = { 0 };
	int status;

	if (cmd_wants_help(argc, argv)) {
		cmd_usage(&cmd_load, load_usage_text);
		return EXIT_PASS;
	}
	if (load_setup(argc, argv, &a)) {
		load_spec_free(&a.spec);
		return EXIT_USAGE;
	}
	status = load_execute(&a);
	load_spec_free(&a.spec);
	return status;
}
