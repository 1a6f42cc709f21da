/* starve vm --until-decided (looks.h): the kernels as the sides of
 * reports/compare/compare-looks.h's looks, side I being kernel I. */
#include "config.h"
#include "harness/vm/looks.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "reports/compare/compare-looks.h"
#include "reports/compare/compare.h"

#include <stdio.h>
#include <stdlib.h>

void vm_look_dir(const char *dir, const char *label, size_t look, char *buf, size_t len)
{
	if (look <= 1)
		snprintf(buf, len, "%s/%s", dir, label);
	else
		snprintf(buf, len, "%s/%s-look%zu", dir, label, look);
}

static void vm_looks_dir(void *data, size_t side, size_t look, char *buf, size_t len)
{
	const struct vm_looks *l = data;

	vm_look_dir(l->dir, l->labels[side], look, buf, len);
}

static int vm_looks_boot(void *data, size_t side, size_t look)
{
	const struct vm_looks *l = data;

	return l->boot(l->data, side, look);
}

/* Each kernel's outcome and the runs it took; the exit status. */
static int vm_looks_print(const struct vm_looks *l, const struct looks_rule *rule,
			  const struct looks_outcome *out, int planned)
{
	int code = EXIT_PASS;

	printf("\n== until decided: alpha %g spent over %d planned look%s (%.2g a look), at most "
	       "%zu runs a kernel\n", CMP_DEFAULT_ALPHA, planned, planned == 1 ? "" : "s",
	       CMP_DEFAULT_ALPHA / planned, l->max_repeat);
	printf("%-32s %-13s %zu runs in %zu look%s (the baseline)\n", l->labels[0], "",
	       out[0].runs, out[0].looks, out[0].looks == 1 ? "" : "s");
	for (size_t i = 1; i < l->n; i++) {
		const struct looks_outcome *o = &out[i];

		printf("%-32s %-13s %zu runs in %zu look%s: %s\n", l->labels[i],
		       looks_state_name(rule, o->state), o->runs, o->looks, o->looks == 1 ? "" : "s",
		       o->figure);
		if (o->state == LOOKS_CHANGED)
			code = EXIT_VERDICT_FAIL;
		else if (o->state == LOOKS_MISSING && code != EXIT_VERDICT_FAIL)
			code = EXIT_RUNTIME;
		else if (o->state == LOOKS_OPEN && code == EXIT_PASS)
			code = l->undecided;
	}
	return code;
}

int vm_looks_run(const struct vm_looks *l)
{
	struct looks_driver d = {
		.rule = { .alpha = CMP_DEFAULT_ALPHA, .until_decided = true,
			  .max_repeat = l->max_repeat, .budget_ns = l->budget_ns },
		.n = l->n - 1, .dir = vm_looks_dir, .run = vm_looks_boot, .data = (void *)l,
		.names = l->labels,
	};
	struct looks_outcome *out = xcalloc(l->n, sizeof(*out));
	int planned, code;

	printf("\n== until decided: each kernel against %s\n", l->labels[0]);
	fflush(stdout);
	planned = looks_decide(&d, out);
	code = planned < 0 ? EXIT_RUNTIME : vm_looks_print(l, &d.rule, out, planned);
	free(out);
	return code;
}
