/* A profile: what `starve run` does, parsed from YAML with the libyaml
 * document API into one struct. Every node keeps its position so errors and
 * later checks can say file:line:col. Schema:
 * starve-profile(5), doc/starve-profile.5. */
#ifndef STARVE_PROFILE_H
#define STARVE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/cgknobs.h"
#include "loads/load.h"

/* What starve can run, refused by `starve check` with the reason: every
 * load's tasks are watched by one sampler thread at the kernel's HZ, every
 * expectation is judged in every run, a setting's knobs and cgroups are
 * journal entries (harness/kernel/journal.h holds 64) and its cgroups fill
 * harness/run/cgroups.h's CGROUPS_MAX slots. */
#define PROFILE_MAX_LOADS 64
#define PROFILE_MAX_ATTACH 64
#define PROFILE_MAX_TASKS 1024		/* the loads' tasks (workers) together */
#define PROFILE_MAX_SETTINGS 64
#define PROFILE_MAX_KNOBS 32		/* per setting */
#define PROFILE_MAX_CGROUPS 16		/* per setting */
#define PROFILE_MAX_EXPECT 1024

/* An existing process to sample without owning it (a real Apache, an X server). */
struct attach_spec {
	char *name;
	pid_t pid;
	struct source_pos pos;
};

struct knob_value {
	char *name;		/* "kernel.sched_rt_runtime_us" or "debugfs:sched/base_slice_ns" */
	char *value;		/* as text, written verbatim */
	struct source_pos pos;
};

/* A cgroup of the cpu controller a setting puts loads in (created under
 * "starve-<pid>" for the setting's runs, removed after each). */
struct cgroup_setting {
	char *name;
	char **loads;		/* load names, each in at most one cgroup of the setting */
	size_t n_loads;
	struct cgcpu_knobs knobs;
	struct source_pos pos;
};

struct setting {
	char *name;
	struct knob_value *knobs;
	size_t n_knobs;
	struct cgroup_setting *cgroups;
	size_t n_cgroups;
	struct source_pos pos;
};

enum expect_op { EXPECT_BELOW, EXPECT_ABOVE };

struct expectation {
	char *load;		/* a load's or an attach's name */
	char *metric;		/* a name from lib/metric.c */
	enum expect_op op;
	double threshold;	/* in the metric's canonical unit (seconds for durations) */
	char *threshold_text;	/* as written ("1.2s"), for messages */
	char *setting;		/* NULL: every setting */
	struct source_pos pos;
};

/* Per-metric thresholds for `starve compare` ("compare: { cpu_share: 10% }"). */
struct compare_threshold {
	char *metric;
	double percent;
	struct source_pos pos;
};

struct profile {
	char *file;
	char *name;
	char *description;
	int64_t duration_ns;	/* per run, after warm-up */
	int64_t warmup_ns;
	int repeat;
	int sample_hz;		/* 0: the kernel's HZ */
	int sampler_priority;	/* 0: sampler runs SCHED_OTHER; else SCHED_FIFO prio */
	bool allow_rt_on_all_cpus;
	bool use_cpuset;	/* "cpuset": confine each load in a cpuset, not affinity only */
	bool trace;		/* "trace": exact mode (harness/trace/trace.h) */
	struct load_spec *loads;
	size_t n_loads;
	struct attach_spec *attach;
	size_t n_attach;
	struct setting *settings;	/* at least one: none given means one named "default" */
	size_t n_settings;
	struct expectation *expect;
	size_t n_expect;
	struct compare_threshold *compare;
	size_t n_compare;
	/* "compare: { gate: [victim] }": the loads whose rows gate `starve
	 * compare` (none: the loads the expectations name), or "all" */
	char **compare_gate;
	size_t n_compare_gate;
	bool compare_gate_all;
};

/* The top-level keys with a plain type, as option rows (lib/options.h):
 * type, range, default, help. The command line's --duration, --warmup and
 * --repeat parse with these rows too, so it obeys the profile's ranges. */
enum profile_key {
	PROFILE_KEY_NAME, PROFILE_KEY_DESCRIPTION, PROFILE_KEY_DURATION, PROFILE_KEY_WARMUP,
	PROFILE_KEY_REPEAT, PROFILE_KEY_SAMPLER_PRIORITY, PROFILE_KEY_ALLOW_RT, PROFILE_KEY_CPUSET,
	PROFILE_KEY_TRACE, PROFILE_KEY_NR
};
extern const struct opt_spec profile_keys[PROFILE_KEY_NR];

/* A profile named on the command line: ARG itself when it is a file, is
 * absolute or has a '.', else ARG.yaml (a name, or a folder and a name as
 * `starve list` shows it: known/place-lag) in ./profiles or in
 * profile_shipped_dir(), or in their known/ folders, written into BUF; ARG
 * when none has it (opening it then says so). */
const char *profile_find(const char *arg, char *buf, size_t len);
/* Say why PATH, what profile_find() made of ARG, could not be opened (errno):
 * a name not found names the folders it was looked up in and 'starve list'.
 * Returns -1. */
int profile_find_error(const char *arg, const char *path);
/* Where the shipped profiles are: $STARVE_DATADIR/profiles, else the data
 * directory starve was configured with (under DESTDIR when this binary is a
 * staged install), into BUF. */
const char *profile_shipped_dir(char *buf, size_t len);
/* The folders of a profile directory that hold profiles, NULL-ended: "" (the
 * directory itself) and "known/", the documented upstream changes. */
extern const char *const profile_subdirs[];

/* Parse and validate ARG (a file, or a name profile_find() resolves). Every
 * error found is reported (file:line:col: message, through lib/error.h) and
 * counted; returns NULL if any, else the profile. */
struct profile *profile_load(const char *arg, unsigned *n_errors);
/* The same from a string, PATH used only in messages (tests, fuzzing). */
struct profile *profile_parse(const char *path, const char *text, size_t len, unsigned *n_errors);
void profile_free(struct profile *p);

const struct load_spec *profile_find_load(const struct profile *p, const char *name);
/* The cgroup of S that holds load NAME, or NULL. */
const struct cgroup_setting *profile_load_cgroup(const struct setting *s, const char *name);

#endif
