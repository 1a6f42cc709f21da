/* The search of `starve bisect` (bisect.h): the good end, the bad end, then
 * halve the interval between the last good and the first bad kernel until
 * they are neighbours. A kernel that cannot be tested, or whose comparison
 * stays undecided, is skipped (said so) and a neighbour inside the interval
 * is tried instead; when none is left, the answer is the interval and the
 * kernels skipped in it, undecided. Each kernel boots into DIR/kNN/;
 * every finished step is in DIR/bisect.log before the next boots, so a
 * resumed search reuses it. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bisect_ctx {
	const struct bisect_options *o;
	struct bisect_step *steps;
	size_t booted, reused;
	size_t said;			/* steps printed */
	bool usage_error;		/* starve vm refused the options: stop */
};

/* The last path component of a kernel: its name in the evidence table. */
static const char *bisect_short(const char *kernel)
{
	const char *slash = strrchr(kernel, '/');

	return slash && slash[1] ? slash + 1 : kernel;
}

/* Append the first "error:" line of LOG (why starve vm could not test the
 * kernel) to FIGURE. */
static void bisect_why(const char *log, char *figure, size_t len)
{
	char line[512];
	FILE *f = fopen(log, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "error: ")) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(figure + strlen(figure), len - strlen(figure), ": %s",
				 strstr(line, "error: ") + 7);
			break;
		}
	fclose(f);
}

static void bisect_say(struct bisect_ctx *c, size_t i, const char *how)
{
	static const char *const word[] = { [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
					    [BISECT_SKIP] = "cannot be tested, skipped",
					    [BISECT_UNSURE] = "undecided" };
	const struct bisect_step *s = &c->steps[i];

	printf("step %zu: kernel %zu/%zu %s: %s: %s%s\n", ++c->said, i + 1,
	       c->o->n_kernels, c->o->kernels[i], word[s->state], s->figure, how);
	fflush(stdout);
}

/* The directory of kernel I's look L (1: DIR/kNN; then DIR/kNN-L), or with
 * BASE that of the baseline's boot beside it (DIR/k00 for look 1; then
 * DIR/kNN-base-L: the baseline boots again beside each look, interleaved,
 * so both sides see the same drift of the machine). */
static void bisect_look_dir(const struct bisect_ctx *c, size_t i, size_t look, bool base,
			    char *buf, size_t len)
{
	if (look <= 1)
		snprintf(buf, len, "%s/k%02zu", c->o->dir, base ? (size_t)0 : i);
	else
		snprintf(buf, len, "%s/k%02zu-%s%zu", c->o->dir, i, base ? "base-" : "", look);
}

/* Boot KERNEL into DIR (its output in DIR.log). Returns starve vm's exit
 * status, or -1 when it refused the options (printed). */
static int bisect_boot_into(struct bisect_ctx *c, const char *kernel, const char *dir)
{
	char log[4200];
	int rc;

	snprintf(log, sizeof(log), "%s.log", dir);
	printf("booting %s (log: %s)\n", kernel, log);
	fflush(stdout);
	rc = c->o->boot(c->o->boot_data, kernel, dir, log);
	c->booted++;
	if (rc < 0)
		return error("interrupted while %s booted: its step is not logged; `starve bisect "
			     "--resume %s` continues", kernel, c->o->dir);
	if (rc == EXIT_USAGE) {
		c->usage_error = true;
		return error("starve vm refused the options (see %s)", log);
	}
	return rc;
}

/* Kernel I's looks against the first's (reports/compare/compare-looks.h): look L of
 * side 0 boots the first kernel, of side 1 kernel I. */
struct bisect_looks {
	struct bisect_ctx *c;
	size_t i;
};

static void bisect_looks_dir(void *data, size_t side, size_t look, char *buf, size_t len)
{
	const struct bisect_looks *l = data;

	bisect_look_dir(l->c, l->i, look, side == 0, buf, len);
}

static int bisect_looks_run(void *data, size_t side, size_t look)
{
	struct bisect_looks *l = data;
	char dir[4096];

	bisect_look_dir(l->c, l->i, look, side == 0, dir, sizeof(dir));
	return bisect_boot_into(l->c, l->c->o->kernels[side ? l->i : 0], dir) < 0 ? -1 : 0;
}

/* Kernel I, its first look booted, against kernel 0: with --until-decided
 * more looks while it is undecided. */
static int bisect_decide(struct bisect_ctx *c, size_t i, struct bisect_step *s)
{
	struct bisect_looks l = { c, i };
	const char *names[2] = { c->o->kernels[0], c->o->kernels[i] };
	struct looks_driver d = { .rule = c->o->rule, .n = 1, .dir = bisect_looks_dir,
				  .run = bisect_looks_run, .data = &l, .names = names };
	struct looks_outcome out[2];
	int rc = looks_decide(&d, out);

	s->state = out[1].state;
	s->looks = out[1].looks;
	snprintf(s->figure, sizeof(s->figure), "%s", out[1].figure);
	return rc < 0 ? -1 : 0;
}

/* The first kernel: it only has to have results. */
static void bisect_baseline(const struct bisect_ctx *c, const char *dir, struct bisect_step *s)
{
	char figure[400];

	s->state = looks_judge(&(struct looks_sides){ &dir, 1, &dir, 1 }, &c->o->rule, figure,
			       sizeof(figure)) == BISECT_SKIP ? BISECT_SKIP : BISECT_GOOD;
	snprintf(s->figure, sizeof(s->figure), "%s",
		 s->state == BISECT_SKIP ? "no result" : "the baseline");
	s->looks = 1;
}

/* Boot kernel I (unless the log has it) and judge it against kernel 0. */
static int bisect_test(struct bisect_ctx *c, size_t i)
{
	const struct bisect_options *o = c->o;
	struct bisect_step *s = &c->steps[i];
	char dir[4096];
	int rc;

	if (s->state != BISECT_UNTESTED) {
		c->reused++;
		bisect_say(c, i, " (from the log)");
		return s->state;
	}
	bisect_look_dir(c, i, 1, false, dir, sizeof(dir));
	rc = bisect_boot_into(c, o->kernels[i], dir);
	if (rc < 0)
		return -1;
	if (i == 0)
		bisect_baseline(c, dir, s);
	else if (bisect_decide(c, i, s) < 0)
		return -1;
	if (s->state == BISECT_SKIP) {
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), ".log");
		bisect_why(dir, s->figure, sizeof(s->figure));
		snprintf(s->figure + strlen(s->figure), sizeof(s->figure) - strlen(s->figure),
			 " (starve vm exit %d, see %.300s)", rc, dir);
	}
	bisect_say(c, i, "");
	if (bisect_log_step(o->dir, i, s) < 0)
		return -1;
	return s->state;
}

/* Worth a boot: neither untestable nor left undecided by its budget. */
static bool bisect_usable(const struct bisect_ctx *c, size_t i)
{
	return c->steps[i].state != BISECT_SKIP && c->steps[i].state != BISECT_UNSURE;
}

/* A kernel strictly between LO and HI to test next: the middle, else the
 * nearest to it not yet skipped; -1 when every one was. */
static long bisect_pick(const struct bisect_ctx *c, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;

	for (size_t d = 0; d < hi - lo; d++) {
		if (mid + d < hi && bisect_usable(c, mid + d))
			return (long)(mid + d);
		if (d && mid - d > lo && bisect_usable(c, mid - d))
			return (long)(mid - d);
	}
	return -1;
}

/* The kernels strictly between LO and HI that were skipped, and why. */
static void bisect_list_skipped(const struct bisect_ctx *c, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++)
		printf("  %s: %s (%s)\n", c->o->kernels[i],
		       c->steps[i].state == BISECT_UNSURE ? "undecided" : "cannot be tested",
		       c->steps[i].figure);
}

/* " (its subject)" of kernel I when the kernels are commits, else "". */
static const char *bisect_note(const struct bisect_options *o, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s%.280s%s", o->notes ? " (" : "", o->notes ? o->notes[i] : "",
		 o->notes ? ")" : "");
	return buf;
}

static int bisect_found(struct bisect_ctx *c, size_t lo, size_t hi)
{
	const struct bisect_options *o = c->o;
	char good[LOOKS_MAX][4096], bad[LOOKS_MAX][4096];
	char note_bad[300], note_good[300];
	const char *gp[LOOKS_MAX], *bp[LOOKS_MAX];
	size_t ng = c->steps[lo].looks ? c->steps[lo].looks : 1;
	size_t nb = c->steps[hi].looks ? c->steps[hi].looks : 1;

	ng = ng < LOOKS_MAX ? ng : LOOKS_MAX;
	nb = nb < LOOKS_MAX ? nb : LOOKS_MAX;

	printf("\nfirst bad: %s%s\nlast good: %s%s\n%zu boots, %zu steps from the log\n",
	       o->kernels[hi], bisect_note(o, hi, note_bad, sizeof(note_bad)), o->kernels[lo],
	       bisect_note(o, lo, note_good, sizeof(note_good)), c->booted, c->reused);
	for (size_t l = 0; l < LOOKS_MAX; l++) {
		bisect_look_dir(c, lo, l + 1, false, good[l], sizeof(good[l]));
		bisect_look_dir(c, hi, l + 1, false, bad[l], sizeof(bad[l]));
		gp[l] = good[l];
		bp[l] = bad[l];
	}
	bisect_evidence(&(struct looks_sides){ .dirs = gp, .n = ng },
			&(struct looks_sides){ .dirs = bp, .n = nb },
			bisect_short(o->kernels[lo]), bisect_short(o->kernels[hi]), &o->rule);
	return BISECT_FOUND;
}

/* The bad end: the last kernel, or the nearest one before it that can be
 * tested. Returns its index, 0 when none can (or on an error). */
static size_t bisect_bad_end(struct bisect_ctx *c, int *state)
{
	for (size_t hi = c->o->n_kernels - 1; hi > 0; hi--) {
		*state = bisect_test(c, hi);
		if (*state < 0 || *state != BISECT_SKIP)
			return *state < 0 ? 0 : hi;
	}
	return 0;
}

static int bisect_search(struct bisect_ctx *c)
{
	const struct bisect_options *o = c->o;
	size_t lo = 0, hi;
	int state = bisect_test(c, 0);

	if (state != BISECT_GOOD)
		return c->usage_error ? EXIT_USAGE :
		       (error("the first (good) kernel %s could not be tested", o->kernels[0]),
			BISECT_ERROR);
	hi = bisect_bad_end(c, &state);
	if (!hi || state < 0)
		return c->usage_error ? EXIT_USAGE :
		       (error("no kernel after %s could be tested", o->kernels[0]), BISECT_ERROR);
	if (state == BISECT_GOOD) {
		printf("\nno change: %s is equivalent to %s (%s)\n", o->kernels[hi], o->kernels[0],
		       c->steps[hi].figure);
		return BISECT_NO_CHANGE;
	}
	if (state == BISECT_UNSURE) {
		printf("\nundecided: %s against %s could not be decided within the budget (%s); "
		       "more runs (--max-repeat, --budget) or a quieter host would\n",
		       o->kernels[hi], o->kernels[0], c->steps[hi].figure);
		return BISECT_UNDECIDED;
	}
	while (hi - lo > 1) {
		long pick = bisect_pick(c, lo, hi);

		if (pick < 0) {
			printf("\nundecided: the first bad kernel is after %s and at or before %s; "
			       "the kernels between were skipped:\n", o->kernels[lo], o->kernels[hi]);
			bisect_list_skipped(c, lo, hi);
			return BISECT_UNDECIDED;
		}
		state = bisect_test(c, (size_t)pick);
		if (state < 0)
			return c->usage_error ? EXIT_USAGE : BISECT_ERROR;
		if (state == BISECT_BAD)
			hi = (size_t)pick;
		else if (state == BISECT_GOOD)
			lo = (size_t)pick;
	}
	return bisect_found(c, lo, hi);
}

int bisect_run(const struct bisect_options *o)
{
	struct bisect_ctx c = { .o = o };
	int ret;

	if (o->n_kernels < 2)
		return error("bisect needs at least two kernels, the good one first"), EXIT_USAGE;
	if (fs_mkdirs(o->dir) < 0)
		return error_errno("cannot create '%s'", o->dir), BISECT_ERROR;
	if (bisect_log_start(o->dir, o->args, o->n_args) < 0)
		return BISECT_ERROR;
	c.steps = xcalloc(o->n_kernels, sizeof(*c.steps));
	for (size_t i = 0; i < o->n_kernels; i++)
		c.steps[i].state = BISECT_UNTESTED;
	bisect_log_steps(o->dir, c.steps, o->n_kernels);
	printf("bisecting %zu kernels from %s (good) to %s; log: %s/bisect.log\n", o->n_kernels,
	       o->kernels[0], o->kernels[o->n_kernels - 1], o->dir);
	ret = bisect_search(&c);
	free(c.steps);
	return ret;
}
