/* The search of `starve bisect` (bisect.h): the good end, the bad end, then
 * halve the interval between the last good and the first bad kernel until
 * they are neighbours. A kernel that cannot be tested is skipped (said so)
 * and a neighbour inside the interval is tried instead; when none is left,
 * the answer is the interval, undecided. Each kernel boots into DIR/kNN/;
 * every finished step is in DIR/bisect.log before the next boots, so a
 * resumed search reuses it. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/timeutil.h"
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
	if (rc == EXIT_USAGE) {
		c->usage_error = true;
		return error("starve vm refused the options (see %s)", log);
	}
	return rc;
}

/* Judge kernel I's LOOKS looks against the baseline's into S. */
static void bisect_judge_looks(struct bisect_ctx *c, size_t i, size_t looks,
			       const struct bisect_rule *rule, struct bisect_step *s)
{
	char base[BISECT_MAX_LOOKS][4096], dirs[BISECT_MAX_LOOKS][4096];
	const char *bp[BISECT_MAX_LOOKS], *dp[BISECT_MAX_LOOKS];

	for (size_t l = 0; l < looks && l < BISECT_MAX_LOOKS; l++) {
		bisect_look_dir(c, i, l + 1, true, base[l], sizeof(base[l]));
		bisect_look_dir(c, i, l + 1, false, dirs[l], sizeof(dirs[l]));
		bp[l] = base[l];
		dp[l] = dirs[l];
	}
	s->state = bisect_judge(&(struct bisect_sides){ bp, looks, dp, looks }, rule, s->figure,
				sizeof(s->figure));
	s->looks = looks;
}

/* --until-decided: more looks while kernel I is unsure and the planned
 * looks and the budget allow; each boots the baseline, then kernel I. */
static int bisect_more_looks(struct bisect_ctx *c, size_t i, struct bisect_rule *rule,
			     int64_t started_ns)
{
	struct bisect_step *s = &c->steps[i];
	char dir[4096];

	for (size_t look = 2; s->state == BISECT_UNSURE && look <= rule->looks; look++) {
		if (c->o->rule.budget_ns && mono_ns() - started_ns > c->o->rule.budget_ns)
			break;
		printf("  kernel %zu/%zu %s: %s: look %zu of %zu\n", i + 1, c->o->n_kernels,
		       c->o->kernels[i], s->figure, look, rule->looks);
		bisect_look_dir(c, i, look, true, dir, sizeof(dir));
		if (bisect_boot_into(c, c->o->kernels[0], dir) < 0)
			return -1;
		bisect_look_dir(c, i, look, false, dir, sizeof(dir));
		if (bisect_boot_into(c, c->o->kernels[i], dir) < 0)
			return -1;
		bisect_judge_looks(c, i, look, rule, s);
	}
	return 0;
}

/* Boot kernel I (unless the log has it) and judge it against kernel 0. */
static int bisect_test(struct bisect_ctx *c, size_t i)
{
	const struct bisect_options *o = c->o;
	struct bisect_step *s = &c->steps[i];
	struct bisect_rule rule = o->rule;
	int64_t started_ns = mono_ns();
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
	/* the planned looks: --max-repeat over the runs one boot gives */
	rule.looks = rule.until_decided && bisect_runs(dir) ?
		     (rule.max_repeat / bisect_runs(dir) ? rule.max_repeat / bisect_runs(dir) : 1) : 1;
	if (rule.looks > BISECT_MAX_LOOKS)
		rule.looks = BISECT_MAX_LOOKS;
	bisect_judge_looks(c, i, 1, &rule, s);
	if (i == 0)	/* the baseline: it only has to be there */
		snprintf(s->figure, sizeof(s->figure), "%s",
			 s->state == BISECT_SKIP ? "no result" : "the baseline");
	if (i == 0 && s->state != BISECT_SKIP)
		s->state = BISECT_GOOD;
	if (i && bisect_more_looks(c, i, &rule, started_ns) < 0)
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

static int bisect_found(struct bisect_ctx *c, size_t lo, size_t hi)
{
	const struct bisect_options *o = c->o;
	char good[BISECT_MAX_LOOKS][4096], bad[BISECT_MAX_LOOKS][4096];
	const char *gp[BISECT_MAX_LOOKS], *bp[BISECT_MAX_LOOKS];
	size_t ng = c->steps[lo].looks ? c->steps[lo].looks : 1;
	size_t nb = c->steps[hi].looks ? c->steps[hi].looks : 1;

	ng = ng < BISECT_MAX_LOOKS ? ng : BISECT_MAX_LOOKS;
	nb = nb < BISECT_MAX_LOOKS ? nb : BISECT_MAX_LOOKS;

	printf("\nfirst bad: %s\nlast good: %s\n%zu boots, %zu steps from the log\n",
	       o->kernels[hi], o->kernels[lo], c->booted, c->reused);
	for (size_t l = 0; l < BISECT_MAX_LOOKS; l++) {
		bisect_look_dir(c, lo, l + 1, false, good[l], sizeof(good[l]));
		bisect_look_dir(c, hi, l + 1, false, bad[l], sizeof(bad[l]));
		gp[l] = good[l];
		bp[l] = bad[l];
	}
	bisect_evidence(&(struct bisect_sides){ .dirs = gp, .n = ng },
			&(struct bisect_sides){ .dirs = bp, .n = nb },
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
			BISECT_UNDECIDED);
	hi = bisect_bad_end(c, &state);
	if (!hi || state < 0)
		return c->usage_error ? EXIT_USAGE :
		       (error("no kernel after %s could be tested", o->kernels[0]), BISECT_UNDECIDED);
	if (state == BISECT_GOOD) {
		printf("\nno change found: %s against %s (%s)\n", o->kernels[hi], o->kernels[0],
		       c->steps[hi].figure);
		return BISECT_NO_CHANGE;
	}
	if (state == BISECT_UNSURE) {
		printf("\ncould not decide: %s against %s is undecided within the budget (%s)\n",
		       o->kernels[hi], o->kernels[0], c->steps[hi].figure);
		return BISECT_UNDECIDED;
	}
	while (hi - lo > 1) {
		long pick = bisect_pick(c, lo, hi);

		if (pick < 0) {
			printf("\ncould not decide: the first bad kernel is after %s and at or "
			       "before %s, whose kernels between could not be tested or decided\n",
			       o->kernels[lo], o->kernels[hi]);
			return BISECT_UNDECIDED;
		}
		state = bisect_test(c, (size_t)pick);
		if (state < 0)
			return c->usage_error ? EXIT_USAGE : BISECT_UNDECIDED;
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
		return error_errno("cannot create '%s'", o->dir), BISECT_UNDECIDED;
	if (bisect_log_start(o->dir, o->args, o->n_args) < 0)
		return BISECT_UNDECIDED;
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
