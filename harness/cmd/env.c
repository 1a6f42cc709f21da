/* starve env: what this kernel and machine offer the harness, for a
 * newcomer before a first run: kernel, tick, preemption, schedstat, the
 * scheduler knobs, debugfs, the cpuset backend, topology and privileges.
 * Text for people; --json (jansson) for scripts and CI, keys listed below. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/placement/cgroup-cpu.h"
#include "harness/placement/confine.h"
#include "harness/kernel/kernel.h"
#include "harness/kernel/confounders.h"
#include "harness/kernel/knobs.h"
#include "harness/placement/topology.h"
#include "harness/run/exact.h"
#include "harness/run/result-build.h"
#include "lib/error.h"
#include "loads/load.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int run_env(int argc, char **argv);

struct env_args {
	bool json;
};

static const struct cmd_option env_options[] = {
	CMD_FLAG("json", struct env_args, json, "print a JSON object instead of text (keys are stable)"),
	CMD_END
};

const struct cmd cmd_env = {
	.name = "env", .summary = "what this kernel and machine offer the harness",
	.options = env_options, .run = run_env,
};

#define ENV_MAX_BACKENDS 8

/* Everything both output forms print, gathered once. */
struct env_facts {
	struct kernel_info kernel;
	struct confounders confounders;	/* clock source, mitigations, steal... */
	char debugfs[256];
	bool debugfs_mounted;
	const char *backend;
	struct confine_probe_report backends[ENV_MAX_BACKENDS];
	size_t n_backends;
	char topology[160];
	int pus;
	bool trace_ok;			/* exact mode can run here */
	struct cgcpu cgcpu;		/* the cpu controller's hierarchy, for cgroups */
	bool cgcpu_ok;
	char cgcpu_why[256];
	char cg2[256], cg1[256];	/* controllers of cgroup v2 and of v1 hierarchies */
	bool policy_ok[POLICY_DEADLINE + 1];
	char policy_why[POLICY_DEADLINE + 1][200];
	char trace_why[256];		/* else why not */
	bool bpf_ok;			/* BPF mode can run here */
	char bpf_why[256];		/* else why not */
};

static void env_gather(struct env_facts *f)
{
	kernel_probe(&f->kernel);
	confounders_probe(&f->confounders, &f->kernel);
	f->debugfs_mounted = knob_debugfs_dir(f->debugfs, sizeof(f->debugfs));
	f->backend = confine_probe(f->backends, ENV_MAX_BACKENDS, &f->n_backends);
	topology_summary(f->topology, sizeof(f->topology));
	f->pus = topology_nr_pus();
	f->trace_ok = exact_available("trace", f->trace_why, sizeof(f->trace_why));
	f->bpf_ok = exact_available("bpf", f->bpf_why, sizeof(f->bpf_why));
	f->cgcpu_ok = cgcpu_probe(&f->cgcpu, f->cgcpu_why, sizeof(f->cgcpu_why));
	cgcpu_controllers(f->cg2, sizeof(f->cg2), f->cg1, sizeof(f->cg1));
	for (int p = 0; p <= POLICY_DEADLINE; p++)
		f->policy_ok[p] = load_policy_usable((enum load_policy)p, f->policy_why[p],
						     sizeof(f->policy_why[p]));
}

static json_t *env_json_or_null(bool have, const char *s)
{
	return have && s ? json_string(s) : json_null();
}

/* cgroups: {cpu: {usable, version, root, reason}, v2_controllers, v1_controllers}
 * policies: {name: {usable, reason}} */
static void env_json_cgroups(const struct env_facts *f, json_t *doc)
{
	json_t *pol = json_object();

	json_object_set_new(doc, "cgroups", json_pack("{s:{s:b, s:i, s:o, s:s}, s:s, s:s}",
		"cpu", "usable", f->cgcpu_ok, "version", f->cgcpu.version, "root",
		env_json_or_null(f->cgcpu.version > 0, f->cgcpu.root), "reason", f->cgcpu_why,
		"v2_controllers", f->cg2, "v1_controllers", f->cg1));
	for (int p = 0; p <= POLICY_DEADLINE; p++)
		json_object_set_new(pol, load_policy_names[p], json_pack("{s:b, s:s}", "usable",
				    f->policy_ok[p], "reason", f->policy_why[p]));
	json_object_set_new(doc, "policies", pol);
}

static void env_text_cgroups(const struct env_facts *f)
{
	printf("cgroups      cpu controller %s: %s\n", f->cgcpu_ok ? "usable" : "unusable",
	       f->cgcpu_why);
	printf("  v2 controllers: %s\n  v1 controllers: %s\n", *f->cg2 ? f->cg2 : "(none)",
	       *f->cg1 ? f->cg1 : "(none)");
	printf("policies\n");
	for (int p = 0; p <= POLICY_DEADLINE; p++)
		printf("  %-10s %s: %s\n", load_policy_names[p],
		       f->policy_ok[p] ? "usable" : "unusable", f->policy_why[p]);
}

/* One knob: {name, path, present, readable, writable, value|null, reason|null}. */
static json_t *env_knob_json(const char *name)
{
	struct knob_state st;
	char path[512] = "";

	knob_probe(name, &st);
	knob_path(name, path, sizeof(path));
	return json_pack("{s:s, s:s, s:b, s:b, s:b, s:o, s:o}", "name", name, "path", path,
			 "present", st.present, "readable", st.readable, "writable", st.writable,
			 "value", env_json_or_null(st.readable, st.value),
			 "reason", env_json_or_null(st.reason[0], st.reason));
}

/* Keys (stable; add, never rename):
 *   kernel: release, version, hz, hz_source ("config"|"measured"), preempt,
 *           preempt_dynamic, preempt_source, config (path or null)
 *   schedstat: global (/proc/schedstat), task (/proc/<pid>/schedstat)
 *   debugfs: mounted, path (null when not mounted)
 *   knobs: [{name, path, present, readable, writable, value, reason}]
 *   cpuset: backend (the one used), backends: [{name, usable, reason}]
 *   topology: summary, pus
 *   privileges: root, cap_sys_nice, rtprio_limit (null = unlimited)
 *   cgroups: cpu {usable, version, root, reason}, v2_controllers, v1_controllers
 *   policies: {other|batch|idle|fifo|rr|deadline: {usable, reason}}
 *   trace: built_in (libtracefs at build time), available (exact mode can run),
 *          reason (why not, or a note such as tracefs to be mounted; else null)
 *   confounders: what else shapes the numbers (harness/kernel/confounders.c)
 *   bpf: built_in (clang, bpftool, libbpf at build time), available (BPF mode can
 *        run: the default source of the exact figures), reason (why not, else null)
 *   features: sched_ext, sched_ext_state (null without sched_ext), btf,
 *             sched_events (tracefs), schedstats (the sysctl switch) */
static json_t *env_json(const struct env_facts *f)
{
	const struct kernel_info *k = &f->kernel;
	json_t *knobs = json_array(), *backends = json_array(), *doc;

	for (size_t i = 0; knob_known[i]; i++)
		json_array_append_new(knobs, env_knob_json(knob_known[i]));
	for (size_t i = 0; i < f->n_backends; i++)
		json_array_append_new(backends, json_pack("{s:s, s:b, s:s}", "name",
							  f->backends[i].name, "usable",
							  f->backends[i].usable, "reason",
							  f->backends[i].reason));
	doc = json_pack("{s:{s:s, s:s, s:i, s:s, s:s, s:b, s:s, s:o}, s:{s:b, s:b},"
			 " s:{s:b, s:o}, s:o, s:{s:s, s:o}, s:{s:s, s:i}, s:{s:b, s:b, s:o}}",
			 "kernel", "release", k->release, "version", k->version, "hz", k->hz,
			 "hz_source", k->hz_source, "preempt", k->preempt, "preempt_dynamic",
			 k->preempt_dynamic, "preempt_source", k->preempt_source, "config",
			 env_json_or_null(k->config_source[0], k->config_source),
			 "schedstat", "global", k->schedstat_global, "task", k->schedstat_task,
			 "debugfs", "mounted", f->debugfs_mounted, "path",
			 env_json_or_null(f->debugfs_mounted, f->debugfs),
			 "knobs", knobs, "cpuset", "backend", f->backend, "backends", backends,
			 "topology", "summary", f->topology, "pus", f->pus,
			 "privileges", "root", k->is_root, "cap_sys_nice", k->cap_sys_nice,
			 "rtprio_limit", k->rtprio_limit < 0 ? json_null()
							     : json_integer(k->rtprio_limit));
	if (doc)
		json_object_set_new(doc, "trace", json_pack("{s:b, s:b, s:o}", "built_in",
			exact_built_in("trace"), "available", f->trace_ok, "reason",
			env_json_or_null(f->trace_why[0], f->trace_why)));
	if (doc)
		json_object_set_new(doc, "bpf", json_pack("{s:b, s:b, s:o}", "built_in",
			exact_built_in("bpf"), "available", f->bpf_ok, "reason",
			env_json_or_null(!f->bpf_ok, f->bpf_why)));
	if (doc)
		json_object_set_new(doc, "features", json_pack("{s:b, s:o, s:b, s:b, s:b}",
			"sched_ext", k->sched_ext, "sched_ext_state",
			env_json_or_null(k->sched_ext_state[0], k->sched_ext_state), "btf", k->btf,
			"sched_events", k->sched_events, "schedstats", k->schedstats));
	if (doc)
		env_json_cgroups(f, doc);
	if (doc)
		json_object_set_new(doc, "confounders", result_build_confounders(&f->confounders));
	return doc;
}

static void env_text_knobs(void)
{
	struct knob_state st;

	printf("knobs\n");
	for (size_t i = 0; knob_known[i]; i++) {
		knob_probe(knob_known[i], &st);
		if (!st.present || !st.readable)
			printf("  %-40s %s\n", knob_known[i], st.reason);
		else
			printf("  %-40s %-12s %s\n", knob_known[i], st.value,
			       st.writable ? "writable" : st.reason);
	}
	printf("  (fair_server/cpu0 stands for fair_server/cpu<N>, one per CPU)\n");
}

static void env_text(const struct env_facts *f)
{
	const struct kernel_info *k = &f->kernel;
	char preempt[48];

	printf("kernel       %s (%s)\n", k->release, k->version);
	printf("hz           %d (%s%s%s)\n", k->hz, k->hz_source,
	       k->config_source[0] ? " " : "", k->config_source);
	printf("preemption   %s, from %s\n", kernel_preempt_text(k, preempt, sizeof(preempt)),
	       k->preempt_source);
	printf("schedstat    /proc/schedstat %s; /proc/<pid>/schedstat %s\n",
	       k->schedstat_global ? "yes" : "no", k->schedstat_task ? "yes" : "no");
	if (f->debugfs_mounted)
		printf("debugfs      mounted at %s\n", f->debugfs);
	else
		printf("debugfs      not mounted (debugfs:sched/ knobs unavailable)\n");
	if (f->trace_ok)
		printf("exact mode   available (trace: true, --trace: tracefs sched events)%s%s\n",
		       f->trace_why[0] ? "; " : "", f->trace_why);
	else
		printf("exact mode   unavailable: %s\n", f->trace_why);
	printf("BPF mode     %s%s\n", f->bpf_ok ? "available (the default source of the exact "
	       "figures; STARVE_BPF=0 turns it off)" : "unavailable: ", f->bpf_ok ? "" : f->bpf_why);
	printf("features     sched_ext %s%s%s%s, BTF %s, tracefs sched events %s, schedstats %s\n",
	       k->sched_ext ? "yes" : "no", k->sched_ext_state[0] ? " (" : "", k->sched_ext_state,
	       k->sched_ext_state[0] ? ")" : "", k->btf ? "yes" : "no",
	       k->sched_events ? "yes" : "no", k->schedstats ? "yes" : "no");
	printf("topology     %s\n", f->topology);
	confounders_print(&f->confounders);
	printf("cpuset       %s\n", f->backend);
	for (size_t i = 0; i < f->n_backends; i++)
		printf("  %-10s %s: %s\n", f->backends[i].name,
		       f->backends[i].usable ? "usable" : "unusable", f->backends[i].reason);
	printf("privileges   %s, CAP_SYS_NICE %s, RLIMIT_RTPRIO ", k->is_root ? "root" : "not root",
	       k->cap_sys_nice ? "yes" : "no");
	if (k->rtprio_limit < 0)
		printf("unlimited\n");
	else
		printf("%ld%s\n", k->rtprio_limit,
		       k->rtprio_limit == 0 && !k->cap_sys_nice ? " (no RT loads)" : "");
	env_text_cgroups(f);
	env_text_knobs();
}

static int run_env(int argc, char **argv)
{
	struct env_args a = { .json = false };
	struct env_facts facts;
	struct cmd_words none;
	json_t *doc;
	int status;

	if (!cmd_parse(&cmd_env, argc, argv, &a, &none, &status))
		return status;
	cmd_release(&cmd_env, &a, &none);
	memset(&facts, 0, sizeof(facts));
	env_gather(&facts);
	if (!a.json) {
		env_text(&facts);
		return EXIT_PASS;
	}
	doc = env_json(&facts);
	if (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) < 0 || putchar('\n') == EOF) {
		json_decref(doc);
		error("cannot write the JSON output");
		return EXIT_RUNTIME;
	}
	json_decref(doc);
	return EXIT_PASS;
}
