/* What besides the kernel differs between the sides of a comparison
 * (reports/compare/compare.h): the clock source, emulation, preemption model, HZ,
 * nohz, command line, CPU, governor, mitigations and steal, read from each
 * result's "confounders" and kernel objects. compare names those that differ
 * in its first lines, and a metric a difference invalidates (a clock-polling
 * loop's throughput across clock sources: under TCG the HPET is an emulated
 * MMIO read, 16 times slower than the TSC) is "not comparable" instead of a
 * regression or an improvement, so it cannot gate. */
#include "config.h"
#include "reports/compare/compare.h"
#include "lib/xalloc.h"
#include "reports/format/xml-writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steal above this share of CPU time on one side and not the other differs. */
#define CONF_STEAL_HIGH 0.02

typedef void conf_text_fn(const struct result_view *v, char *buf, size_t len);

static void conf_clocksource(const struct result_view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v->confounders.clocksource ? v->confounders.clocksource : "");
}

static void conf_machine(const struct result_view *v, char *buf, size_t len)
{
	const struct rv_confounders *c = &v->confounders;

	if (c->emulated < 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s%s%s%s", c->emulated == 1 ? "emulated" :
			 c->virtualised == 1 ? "virtual" : "hardware", c->hypervisor ? " (" : "",
			 c->hypervisor ? c->hypervisor : "", c->hypervisor ? ")" : "");
}

static void conf_preempt(const struct result_view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v->kernel.preempt ? v->kernel.preempt : "");
}

static void conf_hz(const struct result_view *v, char *buf, size_t len)
{
	if (v->kernel.hz == RV_NONE)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%ld", v->kernel.hz);
}

static void conf_nohz(const struct result_view *v, char *buf, size_t len)
{
	const struct rv_confounders *c = &v->confounders;

	snprintf(buf, len, "%s%s%s", c->nohz ? c->nohz : "", c->nohz_full ? ", nohz_full=" : "",
		 c->nohz_full ? c->nohz_full : "");
}

/* The command line without BOOT_IMAGE=, which names each kernel's own file. */
static void conf_cmdline(const struct result_view *v, char *buf, size_t len)
{
	const char *s = v->confounders.cmdline;
	size_t n = 0;

	buf[0] = '\0';
	while (s && *s) {
		size_t word = strcspn(s, " ");

		if (strncmp(s, "BOOT_IMAGE=", 11) && n + word + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)word, s);
		s += word + strspn(s + word, " ");
	}
}

static void conf_cpu(const struct result_view *v, char *buf, size_t len)
{
	const char *model = v->confounders.cpu_model;

	snprintf(buf, len, "%s%s%ld CPUs%s%s", model ? model : "", model ? ", " : "",
		 v->host.nr_cpus, v->host.topology ? ", " : "",
		 v->host.topology ? v->host.topology : "");
}

static void conf_governor(const struct result_view *v, char *buf, size_t len)
{
	if (!v->confounders.present)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s", v->confounders.governor ? v->confounders.governor : "none");
}

/* Every file's text: two sides differ when any one does. Shown as the
 * vulnerable count, which is what a reader weighs. */
static void conf_mitigations(const struct result_view *v, char *buf, size_t len)
{
	const struct rv_confounders *c = &v->confounders;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n_mitigations && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s=%s;", c->mitigations[i].name,
				      c->mitigations[i].value);
}

static void conf_mitigations_shown(const struct result_view *v, char *buf, size_t len)
{
	const struct rv_confounders *c = &v->confounders;
	size_t vulnerable = 0;

	for (size_t i = 0; i < c->n_mitigations; i++)
		vulnerable += !strncmp(c->mitigations[i].value, "Vulnerable", 10);
	snprintf(buf, len, "%zu of %zu vulnerable", vulnerable, c->n_mitigations);
}

static void conf_steal(const struct result_view *v, char *buf, size_t len)
{
	double s = v->confounders.steal_share;

	if (isnan(s))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s", s > CONF_STEAL_HIGH ? "high" : "low");
}

static void conf_steal_shown(const struct result_view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f%% since boot", v->confounders.steal_share * 100);
}

/* One confounder: KEY decides whether two sides differ ("" unknown: no
 * verdict on that side), SHOWN (or KEY) is what the reader sees. */
static const struct conf_def {
	const char *name;
	conf_text_fn *key, *shown;
} conf_defs[] = {
	{ "clocksource", conf_clocksource, NULL },
	{ "machine", conf_machine, NULL },
	{ "preempt", conf_preempt, NULL },
	{ "hz", conf_hz, NULL },
	{ "nohz", conf_nohz, NULL },
	{ "cmdline", conf_cmdline, NULL },
	{ "cpu", conf_cpu, NULL },
	{ "governor", conf_governor, NULL },
	{ "mitigations", conf_mitigations, conf_mitigations_shown },
	{ "steal", conf_steal, conf_steal_shown },
};
#define CONF_NDEFS (sizeof(conf_defs) / sizeof(conf_defs[0]))

/* Load types whose throughput counts iterations of a loop that reads the
 * clock: cpu-victim's loop is one clock_gettime, pipe-pingpong times every
 * round trip. Duty-cycle loads (sleep-hog, rt-hog) count cycles of CPU
 * time and are not: 21.3 and 21.5 cycles/s on HPET and TSC guests. */
static const char *const conf_clock_polling[] = { "cpu-victim", "pipe-pingpong", NULL };

/* A metric a confounder invalidates, for the loads named. */
static const struct conf_rule {
	const char *confounder, *metric;
	const char *const *load_types;
	const char *why;
} conf_rules[] = {
	{ "clocksource", "throughput", conf_clock_polling,
	  "a clock-polling loop runs at the clock source's speed" },
};

static bool conf_in(const char *const *list, const char *s)
{
	for (; s && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* The texts of confounder D on every column, or false when a side does
 * not know it or all agree. */
static bool conf_differs(const struct cmp_table *t, const struct conf_def *d, char **keys)
{
	bool differ = false, known = true;
	char buf[4096];

	for (size_t c = 0; c < t->n_columns; c++) {
		d->key(t->columns[c].view, buf, sizeof(buf));
		keys[c] = xstrdup(buf);
		known = known && buf[0];
		differ = differ || strcmp(keys[c], keys[0]);
	}
	return known && differ;
}

static void conf_add(struct cmp_table *t, const struct conf_def *d, char **keys)
{
	struct cmp_confounder *x;
	char buf[512];

	t->confounders = xreallocarray(t->confounders, t->n_confounders + 1,
				       sizeof(*t->confounders));
	x = &t->confounders[t->n_confounders++];
	x->name = d->name;
	x->keys = keys;
	x->shown = xcalloc(t->n_columns, sizeof(*x->shown));
	for (size_t c = 0; c < t->n_columns; c++) {
		if (d->shown)
			d->shown(t->columns[c].view, buf, sizeof(buf));
		x->shown[c] = d->shown ? xstrdup(buf) : xstrdup(keys[c]);
	}
}

static void conf_free_keys(char **keys, size_t n)
{
	for (size_t c = 0; c < n; c++)
		free(keys[c]);
	free(keys);
}

static const struct cmp_confounder *conf_find(const struct cmp_table *t, const char *name)
{
	for (size_t i = 0; i < t->n_confounders; i++)
		if (!strcmp(t->confounders[i].name, name))
			return &t->confounders[i];
	return NULL;
}

/* The load type of ROW, from any run that has it. */
static const char *conf_row_type(const struct cmp_table *t, const struct cmp_row *row)
{
	for (size_t c = 0; c < t->n_columns; c++)
		if (row->cells[c].n)
			return row->cells[c].loads[0]->type;
	return NULL;
}

static void conf_mark(struct cmp_table *t, const struct conf_rule *rule)
{
	const struct cmp_confounder *x = conf_find(t, rule->confounder);

	for (size_t r = 0; x && r < t->n_rows; r++) {
		struct cmp_row *row = &t->rows[r];

		if (strcmp(row->metric, rule->metric) ||
		    !conf_in(rule->load_types, conf_row_type(t, row)))
			continue;
		for (size_t c = 1; c < t->n_columns; c++) {
			struct cmp_cell *cell = &row->cells[c];

			if (cell->flip >= 0 || !strcmp(x->keys[c], x->keys[0]))
				continue;
			cell->verdict = CMP_NOT_COMPARABLE;
			cell->not_comparable_why = rule->why;
			t->not_comparable++;
		}
	}
}

void cmp_confounders_find(struct cmp_table *t)
{
	if (t->mode != CMP_RESULTS)
		return;
	for (size_t i = 0; i < CONF_NDEFS; i++) {
		char **keys = xcalloc(t->n_columns, sizeof(*keys));

		if (conf_differs(t, &conf_defs[i], keys))
			conf_add(t, &conf_defs[i], keys);
		else
			conf_free_keys(keys, t->n_columns);
	}
	for (size_t i = 0; i < sizeof(conf_rules) / sizeof(conf_rules[0]); i++)
		conf_mark(t, &conf_rules[i]);
}

void cmp_confounders_free(struct cmp_table *t)
{
	for (size_t i = 0; i < t->n_confounders; i++) {
		conf_free_keys(t->confounders[i].keys, t->n_columns);
		conf_free_keys(t->confounders[i].shown, t->n_columns);
	}
	free(t->confounders);
	t->confounders = NULL;
	t->n_confounders = 0;
}

/* Results from before starve recorded confounders compare as they did. */
static bool conf_any_recorded(const struct cmp_table *t)
{
	for (size_t c = 0; c < t->n_columns; c++)
		if (t->columns[c].view->confounders.present)
			return true;
	return false;
}

static const char *conf_first_why(const struct cmp_table *t)
{
	for (size_t r = 0; r < t->n_rows; r++)
		for (size_t c = 1; c < t->n_columns; c++)
			if (t->rows[r].cells[c].not_comparable_why)
				return t->rows[r].cells[c].not_comparable_why;
	return "";
}

static bool conf_all_recorded(const struct cmp_table *t)
{
	for (size_t c = 0; c < t->n_columns; c++)
		if (!t->columns[c].view->confounders.present)
			return false;
	return true;
}

/* "differs besides the kernel: clocksource (6.1: hpet, 6.12: tsc); ..." and
 * what it invalidated; nothing in settings mode, where one machine ran all. */
void cmp_confounders_print(const struct cmp_table *t, FILE *out, const char *eol)
{
	if (t->mode != CMP_RESULTS || !conf_any_recorded(t))
		return;
	for (size_t c = 0; c < t->n_columns; c++)
		if (!t->columns[c].view->confounders.present)
			fprintf(out, "confounders: %s recorded none (written by an older starve): "
				     "its clock source, mitigations... are unknown%s",
				t->columns[c].label, eol);
	if (!t->n_confounders && conf_all_recorded(t)) {
		fprintf(out, "confounders: none differ between the sides (clock source, "
			     "preemption, HZ, CPU, mitigations...)%s", eol);
		return;
	}
	for (size_t i = 0; i < t->n_confounders; i++) {
		const struct cmp_confounder *x = &t->confounders[i];

		fprintf(out, "confounder: %s differs:", x->name);
		for (size_t c = 0; c < t->n_columns; c++)
			fprintf(out, "%s %s %s", c ? "," : "", t->columns[c].label, x->shown[c]);
		fputs(eol, out);
	}
	if (t->not_comparable)
		fprintf(out, "not comparable: %zu cell%s (%s), marked so and never gating%s",
			t->not_comparable, t->not_comparable == 1 ? "" : "s", conf_first_why(t), eol);
}

json_t *cmp_confounders_json(const struct cmp_table *t)
{
	json_t *differ = json_array();

	for (size_t i = 0; i < t->n_confounders; i++) {
		const struct cmp_confounder *x = &t->confounders[i];
		json_t *values = json_object();

		for (size_t c = 0; c < t->n_columns; c++)
			json_object_set_new(values, t->columns[c].label, json_string(x->shown[c]));
		json_array_append_new(differ, json_pack("{s:s, s:o}", "name", x->name,
							"values", values));
	}
	return json_pack("{s:o, s:I}", "differ", differ, "not_comparable",
			 (json_int_t)t->not_comparable);
}

/* The page's paragraph: the same lines as the text's first. */
void cmp_confounders_html(struct xml_writer *w, const struct cmp_table *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	cmp_confounders_print(t, mem, "\n");
	fclose(mem);
	if (len) {
		xml_open(w, "p");
		xml_attr(w, "class", t->n_confounders ? "bad" : NULL);
		xml_text(w, text);
		xml_close(w);
	}
	free(text);
}
