/* Results of `starve vm` (summary.h): the "vm" header in result.json
 * (doc/result-format.md), the verdict table, and the comparison through
 * reports/compare/compare.h, the same code `starve compare` runs. */
#include "config.h"
#include "harness/vm/summary.h"
#include "lib/error.h"
#include "reports/compare/compare.h"
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

/* Write the table T to DIR/compare-PROFILE.EXT through PRINT. */
static void vm_compare_file(const char *dir, const char *profile, const char *ext,
			    const struct cmp_table *t, void (*print)(const struct cmp_table *, FILE *))
{
	char path[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/compare-%s.%s", dir, profile, ext);
	if (!(f = fopen(path, "we"))) {
		error_errno("cannot write %s", path);
		return;
	}
	print(t, f);
	if (fclose(f) != 0)
		error_errno("cannot write %s", path);
}

static void vm_print_json(const struct cmp_table *t, FILE *f)
{
	json_t *doc = cmp_to_json(t);

	json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	fputc('\n', f);
	json_decref(doc);
}

static void vm_print_html(const struct cmp_table *t, FILE *f)
{
	cmp_write_html(t, f);	/* a write error shows at fclose */
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
		       const char *formats, int undecided)
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
		cmp_print_text(&t, stdout);
		vm_compare_file(dir, profile, "txt", &t, cmp_print_text);
		vm_compare_file(dir, profile, "json", &t, vm_print_json);
		vm_compare_file(dir, profile, "html", &t, vm_print_html);
		if (formats && strstr(formats, "markdown"))
			vm_compare_file(dir, profile, "md", &t, cmp_print_markdown);
		ret = cmp_exit_status(&t);
		cmp_free(&t);
	} else {
		printf("UNDECIDED in %s: fewer than two kernels have a result, nothing to "
		       "compare\n", profile);
	}
	results_free(&r);
	return ret;
}
