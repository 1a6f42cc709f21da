/* The options `starve run` and `starve vm` share (run-options.h): applying
 * them to a profile, and writing them back as words for a guest. */
#include "config.h"
#include "harness/cmd/run-options.h"
#include "harness/run/plan.h"
#include "lib/error.h"
#include "reports/formats.h"
#include "reports/format/kcidb.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int run_opts_check(const struct run_opts *o)
{
	if (kcidb_params_check(&o->report) < 0)
		return -1;
	return o->formats ? report_formats_check(o->formats) : 0;
}

/* O's overrides on P, and --only naming a setting P has. */
static int run_opts_override(struct profile *p, const struct run_opts *o)
{
	if (o->repeat)
		p->repeat = (int)o->repeat;
	if (o->duration_ns > 0)
		p->duration_ns = o->duration_ns;
	if (o->warmup_ns >= 0)
		p->warmup_ns = o->warmup_ns;
	if (o->cpuset)
		p->use_cpuset = true;
	if (o->trace)
		p->trace = true;
	if (o->only) {
		size_t i = 0;

		while (i < p->n_settings && strcmp(p->settings[i].name, o->only))
			i++;
		if (i == p->n_settings)
			return error("--only: profile '%s' has no setting '%s'", p->name, o->only);
	}
	return 0;
}

int run_opts_apply(struct profile *p, const struct run_opts *o)
{
	if (run_opts_override(p, o) < 0)
		return -1;
	return run_plan_check(p, o->allow_rt);
}

int run_opts_plan(struct profile *p, const struct run_opts *o, struct run_plan *plan)
{
	if (run_opts_override(p, o) < 0)
		return -1;
	return run_plan_build(plan, p, o->allow_rt);
}

int64_t run_opts_planned_ns(const struct profile *p, const struct run_opts *o)
{
	int64_t settings = o->only ? 1 : (int64_t)p->n_settings;

	return settings * p->repeat * (p->warmup_ns + p->duration_ns);
}

/* Words being written: pointers in WORDS, their text in BUF. */
struct run_words {
	char **words;
	size_t n;
	char *buf;
	size_t len, used;
};

static void run_words_add(struct run_words *w, const char *text)
{
	int k = snprintf(w->buf + w->used, w->len - w->used, "%s", text);

	if (k < 0 || (size_t)k >= w->len - w->used || w->n >= RUN_OPTS_MAX_WORDS)
		return;
	w->words[w->n++] = w->buf + w->used;
	w->used += (size_t)k + 1;
}

/* "--NAME" and VALUE followed by UNIT ("ns" or ""). */
static void run_words_int(struct run_words *w, const char *name, int64_t value, const char *unit)
{
	char num[32];

	snprintf(num, sizeof(num), "%" PRId64 "%s", value, unit);
	run_words_add(w, name);
	run_words_add(w, num);
}

size_t run_opts_words(const struct run_opts *o, char **words, char *buf, size_t len)
{
	struct run_words w = { .words = words, .buf = buf, .len = len };

	if (o->repeat)
		run_words_int(&w, "--repeat", o->repeat, "");
	if (o->duration_ns > 0)
		run_words_int(&w, "--duration", o->duration_ns, "ns");
	if (o->warmup_ns >= 0)
		run_words_int(&w, "--warmup", o->warmup_ns, "ns");
	if (o->only) {
		run_words_add(&w, "--only");
		run_words_add(&w, o->only);
	}
	if (o->formats) {
		run_words_add(&w, "--format");
		run_words_add(&w, o->formats);
	}
	if (o->report.kcidb_origin) {
		run_words_add(&w, "--kcidb-origin");
		run_words_add(&w, o->report.kcidb_origin);
	}
	if (o->report.kcidb_build_id) {
		run_words_add(&w, "--kcidb-build-id");
		run_words_add(&w, o->report.kcidb_build_id);
	}
	if (o->cpuset)
		run_words_add(&w, "--cpuset");
	if (o->allow_rt)
		run_words_add(&w, "--allow-rt-on-all-cpus");
	if (o->trace)
		run_words_add(&w, "--trace");
	return w.n;
}
