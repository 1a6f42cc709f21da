/* KCIDB report (reports/format/kcidb.h). Object ids are built from what makes a
 * result unique (host, start time, profile) and never from the clock, so
 * submitting the same result twice updates the same objects instead of
 * doubling them. KCIDB allows no nulls: an absent field is left out. */
#include "config.h"
#include "reports/format/kcidb.h"
#include "reports/format/fleet.h"
#include "reports/result/verdict.h"
#include "lib/error.h"
#include "lib/metric.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define KCIDB_ID_MAX 1024

const char *kcidb_status(enum outcome o)
{
	static const char *const names[] = { [OUTCOME_PASS] = "PASS", [OUTCOME_FAIL] = "FAIL",
					     [OUTCOME_SKIP] = "SKIP" };
	return names[o];
}

/* ---- the command line's parameters ---- */

static bool kcidb_origin_valid(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

int kcidb_params_check(const struct report_params *p)
{
	const char *colon;

	if (p->kcidb_origin && !kcidb_origin_valid(p->kcidb_origin, strlen(p->kcidb_origin)))
		return error("--kcidb-origin '%s': an origin is lowercase letters, digits and '_' "
			     "(KCIDB's [a-z0-9_]+), e.g. 'my_lab'", p->kcidb_origin);
	if (!p->kcidb_build_id)
		return 0;
	colon = strchr(p->kcidb_build_id, ':');
	if (!colon || !kcidb_origin_valid(p->kcidb_build_id, (size_t)(colon - p->kcidb_build_id)))
		return error("--kcidb-build-id '%s': a KCIDB id is ORIGIN:ID, ORIGIN being "
			     "[a-z0-9_]+ (e.g. 'maestro:6694c11d')", p->kcidb_build_id);
	return 0;
}

/* ---- small builders: absent values are left out ---- */

static void kcidb_set(json_t *o, const char *key, json_t *value)
{
	if (value)
		json_object_set_new(o, key, value);
}

static void kcidb_set_str(json_t *o, const char *key, const char *s)
{
	if (s)
		kcidb_set(o, key, json_string(s));
}

static void kcidb_set_int(json_t *o, const char *key, long n)
{
	if (n != RV_NONE)
		kcidb_set(o, key, json_integer(n));
}

static void kcidb_set_real(json_t *o, const char *key, double x)
{
	if (isfinite(x))
		kcidb_set(o, key, json_real(x));
}

static json_t *kcidb_pairs(const struct rv_pair *pairs, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < n; i++)
		kcidb_set_str(o, pairs[i].name, pairs[i].value);
	return o;
}

static const char *kcidb_printf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static const char *kcidb_printf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

/* ---- what every object shares ---- */

struct kcidb_doc {
	const struct result_view *v;
	const char *origin;
	const char *build_id;
	char run_key[KCIDB_ID_MAX];	/* "HOST/STARTED/PROFILE": unique per result */
	char profile[FLEET_NAME_MAX];	/* the profile's name as a path word */
};

/* The kernel as it ran, for a stub's id: its release and a hash of its
 * version string (which carries the build number and date), since two
 * builds can share a release. */
static void kcidb_kernel_id(const struct kcidb_doc *d, char *buf, size_t len)
{
	const char *ver = d->v->kernel.version ? d->v->kernel.version : "";
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *ver; ver++)
		h = (h ^ (unsigned char)*ver) * 16777619u;
	snprintf(buf, len, "%s:linux-%s-%08x", d->origin, d->v->kernel.release, h);
}

/* The checkout and build that stand in for the kernel when the lab gave no
 * build id: KCIDB shows a test only once its build and checkout exist. */
static void kcidb_stubs(json_t *doc, const struct kcidb_doc *d, const char *id)
{
	const struct result_view *v = d->v;
	char comment[512];
	json_t *checkout = json_object(), *build = json_object(), *misc;

	kcidb_printf(comment, sizeof(comment),
		     "Linux %s as it ran under starve on %s (a stub: give --kcidb-build-id to "
		     "link the lab's own build)", v->kernel.release,
		     v->host.hostname ? v->host.hostname : "an unnamed host");
	kcidb_set_str(checkout, "id", id);
	kcidb_set_str(checkout, "origin", d->origin);
	kcidb_set_str(checkout, "comment", comment);
	misc = json_pack("{s:b, s:s}", "stub", 1, "kernel_release", v->kernel.release);
	kcidb_set_str(misc, "kernel_version", v->kernel.version);
	kcidb_set(checkout, "misc", json_copy(misc));
	kcidb_set_str(build, "id", id);
	kcidb_set_str(build, "checkout_id", id);
	kcidb_set_str(build, "origin", d->origin);
	kcidb_set_str(build, "comment", comment);
	kcidb_set_str(build, "status", "PASS");	/* it booted and ran: it was built */
	kcidb_set(build, "misc", misc);
	kcidb_set(doc, "checkouts", json_pack("[o]", checkout));
	kcidb_set(doc, "builds", json_pack("[o]", build));
}

/* Where the tests ran: the host, the kernel, and the knobs of RUN (NULL:
 * the whole result, with the knobs found before it started). */
static json_t *kcidb_environment(const struct result_view *v, const struct rv_run *run)
{
	json_t *env = json_object(), *misc = json_object();
	char comment[512];

	kcidb_set_str(misc, "hostname", v->host.hostname);
	kcidb_set_int(misc, "nr_cpus", v->host.nr_cpus);
	kcidb_set_str(misc, "topology", v->host.topology);
	kcidb_set_str(misc, "kernel_release", v->kernel.release);
	kcidb_set_str(misc, "kernel_version", v->kernel.version);
	kcidb_set_int(misc, "hz", v->kernel.hz);
	kcidb_set_str(misc, "hz_source", v->kernel.hz_source);
	kcidb_set_str(misc, "preempt", v->kernel.preempt);
	kcidb_set_str(misc, "cpuset_backend", v->cpuset_backend);
	if (run)
		kcidb_set(misc, "knobs", kcidb_pairs(run->knobs_applied, run->n_knobs_applied));
	kcidb_set(misc, "knobs_before", kcidb_pairs(v->knobs_before, v->n_knobs_before));
	kcidb_printf(comment, sizeof(comment), "%s: %ld CPUs, Linux %s, HZ %ld, preempt %s",
		     v->host.hostname ? v->host.hostname : "host", v->host.nr_cpus,
		     v->kernel.release, v->kernel.hz, v->kernel.preempt ? v->kernel.preempt : "?");
	kcidb_set_str(env, "comment", comment);
	kcidb_set(env, "misc", misc);
	return env;
}

/* A test object with what every test has. */
static json_t *kcidb_test(const struct kcidb_doc *d, const char *id, const char *path,
			  const char *status)
{
	json_t *t = json_object();

	kcidb_set_str(t, "id", id);
	kcidb_set_str(t, "origin", d->origin);
	kcidb_set_str(t, "build_id", d->build_id);
	kcidb_set_str(t, "path", path);
	kcidb_set_str(t, "status", status);
	return t;
}

/* ---- one test per expectation per run ---- */

/* The measured value with its unit: seconds scale with metric prefixes
 * (ms, us), ratios and counts are dimensionless. NULL when nothing was
 * measured or the test did not run. */
static json_t *kcidb_number(const struct rv_verdict *vd)
{
	const struct metric_def *m = metric_find(vd->rule.metric);
	json_t *n;

	if (!isfinite(vd->value) || vd->kind == VERDICT_SKIP)
		return NULL;
	n = json_pack("{s:f}", "value", vd->value);
	if (m && m->unit == METRIC_SECONDS)
		kcidb_set(n, "prefix", json_string("metric"));
	if (m && (m->unit == METRIC_SECONDS || m->unit == METRIC_PER_SECOND))
		kcidb_set_str(n, "unit", metric_unit_name(m->unit));
	return n;
}

static json_t *kcidb_expect_misc(const struct result_view *v, const struct rv_run *run,
				 const struct rv_verdict *vd)
{
	json_t *misc = json_object();

	kcidb_set_str(misc, "starve_verdict", verdict_name(vd->kind));
	kcidb_set_str(misc, "profile", v->profile.name);
	kcidb_set_str(misc, "setting", run->setting);
	kcidb_set_int(misc, "repetition", run->repetition);
	kcidb_set_str(misc, "run_status", result_status_name(run->status));
	kcidb_set_str(misc, "load", vd->rule.load);
	kcidb_set_str(misc, "metric", vd->rule.metric);
	kcidb_set_str(misc, "op", result_op_name(vd->rule.op));
	kcidb_set_real(misc, "threshold", vd->rule.threshold);
	kcidb_set_str(misc, "threshold_text", vd->rule.threshold_text);
	kcidb_set_real(misc, "other_cpu_share", run->other_cpu_share);
	if (run->sampler.present) {
		kcidb_set_real(misc, "sampler_target_hz", run->sampler.target_hz);
		kcidb_set_real(misc, "sampler_achieved_hz", run->sampler.achieved_hz);
	}
	return misc;
}

static json_t *kcidb_expect_test(const struct kcidb_doc *d, const struct rv_run *run,
				 const struct rv_verdict *vd)
{
	char name[FLEET_NAME_MAX], setting[FLEET_NAME_MAX], path[3 * FLEET_NAME_MAX];
	char id[KCIDB_ID_MAX + 4 * FLEET_NAME_MAX], label[512];
	json_t *t;

	fleet_case_name(d->v, run, vd, false, name, sizeof(name));
	fleet_word(run->setting, setting, sizeof(setting));
	kcidb_printf(path, sizeof(path), "starve.%s.%s.%s", d->profile, setting, name);
	kcidb_printf(id, sizeof(id), "%s:%s/%s/%ld/%s", d->origin, d->run_key, setting,
		     run->repetition, name);
	t = kcidb_test(d, id, path, kcidb_status(outcome_of(d->v, vd->kind)));
	kcidb_set_str(t, "comment", verdict_label(&vd->rule, label, sizeof(label)));
	kcidb_set_str(t, "log_excerpt", vd->reason);
	kcidb_set(t, "number", kcidb_number(vd));
	kcidb_set_str(t, "start_time", run->started);
	kcidb_set_real(t, "duration", run->duration_s);
	kcidb_set(t, "environment", kcidb_environment(d->v, run));
	kcidb_set(t, "misc", kcidb_expect_misc(d->v, run, vd));
	return t;
}

/* ---- the run as a whole ---- */

/* Seconds from A to B (both as starve writes them), or NAN. */
static double kcidb_seconds_between(const char *a, const char *b)
{
	struct tm ta = { 0 }, tb = { 0 };
	const char *fmt = "%Y-%m-%dT%H:%M:%S";

	if (!a || !b || !strptime(a, fmt, &ta) || !strptime(b, fmt, &tb))
		return NAN;
	return difftime(timegm(&tb), timegm(&ta));
}

static json_t *kcidb_run_misc(const struct result_view *v)
{
	const struct rv_summary *s = &v->summary;
	json_t *misc = json_pack("{s:I, s:I, s:I, s:I, s:i, s:b, s:b}", "pass", (json_int_t)s->pass,
				 "fail", (json_int_t)s->fail, "skip", (json_int_t)s->skip,
				 "undecided", (json_int_t)s->undecided, "exit_code", s->exit_code,
				 "undecided_fails", s->undecided_fails, "complete", v->complete);
	json_t *cmd = json_array();

	kcidb_set_str(misc, "starve_verdict", verdict_name(s->verdict));
	kcidb_set_str(misc, "profile", v->profile.name);
	kcidb_set_str(misc, "profile_file", v->profile.file);
	kcidb_set_str(misc, "description", v->profile.description);
	kcidb_set_str(misc, "tool_version", v->tool.version);
	for (size_t i = 0; cmd && i < v->tool.n_command_line; i++)
		json_array_append_new(cmd, json_string(v->tool.command_line[i]));
	kcidb_set(misc, "command_line", cmd);
	return misc;
}

static json_t *kcidb_run_test(const struct kcidb_doc *d)
{
	const struct result_view *v = d->v;
	char id[KCIDB_ID_MAX + 64], path[FLEET_NAME_MAX + 16], comment[512];
	json_t *t;

	kcidb_printf(id, sizeof(id), "%s:%s", d->origin, d->run_key);
	kcidb_printf(path, sizeof(path), "starve.%s", d->profile);
	t = kcidb_test(d, id, path, kcidb_status(outcome_of_result(v)));
	kcidb_set_str(t, "comment", fleet_run_summary(v, comment, sizeof(comment)));
	kcidb_set_str(t, "log_excerpt", v->summary.warning);
	kcidb_set_str(t, "start_time", v->started);
	kcidb_set_real(t, "duration", kcidb_seconds_between(v->started, v->ended));
	kcidb_set(t, "environment", kcidb_environment(v, NULL));
	kcidb_set(t, "misc", kcidb_run_misc(v));
	return t;
}

/* ---- the document ---- */

static json_t *kcidb_tests(const struct kcidb_doc *d)
{
	json_t *tests = json_array();

	json_array_append_new(tests, kcidb_run_test(d));
	for (size_t i = 0; tests && i < d->v->n_runs; i++) {
		const struct rv_run *run = &d->v->runs[i];

		for (size_t j = 0; j < run->n_verdicts; j++)
			json_array_append_new(tests, kcidb_expect_test(d, run, &run->verdicts[j]));
	}
	return tests;
}

int kcidb_write(const struct result_view *v, const struct report_params *p, FILE *f)
{
	struct kcidb_doc d = { .v = v, .origin = p->kcidb_origin ? p->kcidb_origin :
						  KCIDB_DEFAULT_ORIGIN };
	char stub_id[KCIDB_ID_MAX], host[FLEET_NAME_MAX];
	json_t *doc = json_pack("{s:{s:i, s:i}}", "version", "major", 5, "minor", 3);
	int ret;

	fleet_word(v->profile.name, d.profile, sizeof(d.profile));
	kcidb_printf(d.run_key, sizeof(d.run_key), "%s/%s/%s",
		     fleet_word(v->host.hostname, host, sizeof(host)), v->started, d.profile);
	d.build_id = p->kcidb_build_id;
	if (!d.build_id) {
		kcidb_kernel_id(&d, stub_id, sizeof(stub_id));
		d.build_id = stub_id;
		kcidb_stubs(doc, &d, stub_id);
	}
	kcidb_set(doc, "tests", kcidb_tests(&d));
	ret = doc ? json_dumpf(doc, f, JSON_INDENT(2)) : -1;
	json_decref(doc);
	if (ret < 0 || fputc('\n', f) == EOF)
		return -1;
	return fflush(f) == EOF || ferror(f) ? -1 : 0;
}
