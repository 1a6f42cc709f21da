/* Results of `starve vm` (summary.h): the "vm" header in result.json
 * (doc/result-format.md), the verdict table, and the comparison through
 * reports/compare/compare.h, the same code `starve compare` runs. */
#include "config.h"
#include "harness/vm/summary.h"
#include "lib/error.h"
#include "reports/compare/compare.h"
#include "reports/formats.h"
#include "reports/result/result.h"
#include "reports/result/result-view.h"
#include "reports/result/results-dir.h"
#include "reports/format/table.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_t *vm_json_string_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* ARGV as a JSON array, after PREFIX when not NULL ("starve" before "vm"). */
static json_t *vm_json_argv(const char *prefix, char *const *argv, int argc)
{
	json_t *a = json_array();

	if (prefix)
		json_array_append_new(a, json_string(prefix));
	for (int i = 0; i < argc; i++)
		json_array_append_new(a, json_string(argv[i]));
	return a;
}

/* What PROFILE left changed in the guest's kernel (channel.h), or NULL. */
static json_t *vm_knobs_left(const struct vm_channel *ch, const char *profile)
{
	for (size_t i = 0; i < ch->n_left; i++)
		if (!ch->left[i].note && !strcmp(ch->left[i].name, profile))
			return json_string(ch->left[i].why[0] ? ch->left[i].why : "starve restore failed");
	return json_null();
}

static json_t *vm_header(const struct vm_kernel *k, const char *profile,
			 const struct vm_boot_facts *f)
{
	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:i, s:s, s:o, "
			 "s:f, s:f, s:f, s:o, s:o, s:s}",
			 "label", k->label, "kernel", k->spec,
			 "package", vm_json_string_or_null(k->package), "image", k->image,
			 "image_sha256", k->sha256, "version", vm_json_string_or_null(k->version),
			 "config", vm_json_string_or_null(k->config),
			 "config_from", vm_json_string_or_null(k->config_from),
			 "qemu", vm_json_argv(NULL, f->boot->cmd.argv, f->boot->cmd.argc),
			 "accel", f->accel, "accel_reason", vm_json_string_or_null(f->accel_reason),
			 "cpus", f->o->cpus, "memory", f->o->memory,
			 "append", vm_json_string_or_null(f->o->append),
			 "boot_s", (double)f->boot->boot_ns / 1e9,
			 "first_run_s", (double)f->boot->first_run_ns / 1e9,
			 "lifetime_s", (double)f->boot->elapsed_ns / 1e9,
			 "command_line", vm_json_argv("starve", f->o->argv, f->o->argc),
			 "knobs_left", vm_knobs_left(&f->boot->ch, profile),
			 "channel", f->boot->virtio ? "virtio-serial" : "serial");
}

int vm_summary_result(const char *path, const char *profile, const struct vm_kernel *k,
		      const struct vm_boot_facts *f)
{
	char why[1024];
	json_t *result = result_read(path, why, sizeof(why)), *header;
	struct result_view *v;
	int ret;

	if (!result)
		return error("kernel %s: %s", k->label, why);
	header = vm_header(k, profile, f);
	if (!header) {
		json_decref(result);
		return error("out of memory");
	}
	json_object_set_new(result, "vm", header);
	ret = result_write(path, result);
	v = rv_build(result, path, why, sizeof(why));	/* checks the header too */
	json_decref(result);
	if (!v)
		return error("kernel %s: %s", k->label, why);
	table_print(v, stdout);
	if (ret == 0)
		ret = v->summary.exit_code;
	rv_free(v);
	return ret;
}

/* Write the comparison T in every format compare prints (reports/formats.h)
 * to DIR/compare-PROFILE.EXT, EXT that of the format's own file. */
static void vm_compare_files(const char *dir, const char *profile, const struct cmp_table *t)
{
	for (size_t i = 0; i < report_format_count; i++) {
		const struct report_format *fmt = &report_formats[i];
		char path[PATH_MAX + 256];
		FILE *f;
		int ret;

		if (!fmt->compare)
			continue;
		snprintf(path, sizeof(path), "%s/compare-%s.%s", dir, profile,
			 strrchr(fmt->file, '.') + 1);
		if (!(f = fopen(path, "we"))) {
			error_errno("cannot write %s", path);
			continue;
		}
		ret = fmt->compare(t, f);
		if (fclose(f) != 0 || ret < 0)
			error_errno("cannot write %s", path);
	}
}

/* The results of PROFILE that came back (DIR/<label>/<profile>/, a results
 * folder: reports/result/results-dir.h) into R, with their labels; a
 * kernel without a readable one is left out, and said so. */
static void vm_compare_load(const char *dir, const struct vm_kernel *k, size_t n,
			    const char *profile, struct results *r, const char **labels)
{
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 512];
		size_t before = r->n;

		snprintf(path, sizeof(path), "%s/%s/%s", dir, k[i].label, profile);
		if (access(path, F_OK) != 0 || results_add(r, path) <= 0)
			printf("(%s has no result of %s: left out)\n", k[i].label, profile);
		else if (r->n == before)
			printf("(%s's result of %s could not be read: left out)\n", k[i].label,
			       profile);
		else
			for (size_t j = before; j < r->n; j++)
				labels[j] = k[i].label;
	}
}

int vm_summary_compare(const char *dir, const struct vm_kernel *k, size_t n, const char *profile,
		       int undecided)
{
	struct cmp_options opt = { .alpha = CMP_DEFAULT_ALPHA, .threshold = CMP_DEFAULT_THRESHOLD,
				   .undecided = (enum cmp_undecided)undecided };
	struct results r = { .n = 0 };
	const char *labels[RESULTS_MAX];
	struct cmp_table t;
	int ret = cmp_undecided_exit(opt.undecided);

	if (n > VM_MAX_KERNELS)
		n = VM_MAX_KERNELS;
	printf("\n== comparison of %s across %zu kernels\n", profile, n);
	vm_compare_load(dir, k, n, profile, &r, labels);
	if (r.n >= 2 && cmp_build_results(&t, (const struct result_view *const *)r.v, labels, r.n,
					  &opt) < 0) {
		ret = -1;
	} else if (r.n >= 2) {
		printf("baseline: %s\n", labels[0]);
		report_formats[RF_TABLE].compare(&t, stdout);
		vm_compare_files(dir, profile, &t);
		ret = cmp_exit_status(&t);
		cmp_free(&t);
	} else {
		printf("UNDECIDED in %s: fewer than two kernels have a result, nothing to "
		       "compare\n", profile);
	}
	results_free(&r);
	return ret;
}
