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
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bisect_ctx {
	const struct bisect_options *o;
	struct bisect_step *steps;
	size_t booted, reused;
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

static void bisect_kdir(const struct bisect_ctx *c, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/k%02zu", c->o->dir, i);
}

static void bisect_say(const struct bisect_ctx *c, size_t i, const char *how)
{
	static const char *const word[] = { [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
					    [BISECT_SKIP] = "cannot be tested, skipped" };
	const struct bisect_step *s = &c->steps[i];

	printf("step %zu: kernel %zu/%zu %s: %s: %s%s\n", c->booted + c->reused, i + 1,
	       c->o->n_kernels, c->o->kernels[i], word[s->state], s->figure, how);
	fflush(stdout);
}

/* Boot kernel I (unless the log has it) and judge it against kernel 0. */
static int bisect_test(struct bisect_ctx *c, size_t i)
{
	const struct bisect_options *o = c->o;
	struct bisect_step *s = &c->steps[i];
	char dir[4096], base[4096], log[4200];
	int rc, verdict;

	if (s->state != BISECT_UNTESTED) {
		c->reused++;
		bisect_say(c, i, " (from the log)");
		return s->state;
	}
	bisect_kdir(c, i, dir, sizeof(dir));
	bisect_kdir(c, 0, base, sizeof(base));
	snprintf(log, sizeof(log), "%s.log", dir);
	printf("booting kernel %zu/%zu %s (log: %s)\n", i + 1, o->n_kernels, o->kernels[i], log);
	fflush(stdout);
	rc = o->boot(o->boot_data, o->kernels[i], dir, log);
	if (rc == EXIT_USAGE) {
		c->usage_error = true;
		return error("starve vm refused the options (see %s)", log);
	}
	c->booted++;
	if (i == 0) {
		verdict = bisect_judge(dir, dir, &o->rule, s->figure, sizeof(s->figure));
		snprintf(s->figure, sizeof(s->figure), verdict < 0 ? "no result" : "the baseline");
		verdict = verdict < 0 ? -1 : 0;
	} else {
		verdict = bisect_judge(base, dir, &o->rule, s->figure, sizeof(s->figure));
	}
	if (verdict < 0) {
		bisect_why(log, s->figure, sizeof(s->figure));
		snprintf(s->figure + strlen(s->figure), sizeof(s->figure) - strlen(s->figure),
			 " (starve vm exit %d, see %.300s)", rc, log);
	}
	s->state = verdict < 0 ? BISECT_SKIP : verdict ? BISECT_BAD : BISECT_GOOD;
	bisect_say(c, i, "");
	if (bisect_log_step(o->dir, i, s) < 0)
		return -1;
	return s->state;
}

/* A kernel strictly between LO and HI to test next: the middle, else the
 * nearest to it not yet skipped; -1 when every one was. */
static long bisect_pick(const struct bisect_ctx *c, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;

	for (size_t d = 0; d < hi - lo; d++) {
		if (mid + d < hi && c->steps[mid + d].state != BISECT_SKIP)
			return (long)(mid + d);
		if (d && mid - d > lo && c->steps[mid - d].state != BISECT_SKIP)
			return (long)(mid - d);
	}
	return -1;
}

static int bisect_found(struct bisect_ctx *c, size_t lo, size_t hi)
{
	const struct bisect_options *o = c->o;
	char good[4096], bad[4096];

	printf("\nfirst bad: %s\nlast good: %s\n%zu kernels booted, %zu steps from the log\n",
	       o->kernels[hi], o->kernels[lo], c->booted, c->reused);
	bisect_kdir(c, lo, good, sizeof(good));
	bisect_kdir(c, hi, bad, sizeof(bad));
	bisect_evidence(good, bad, bisect_short(o->kernels[lo]), bisect_short(o->kernels[hi]),
			&o->rule);
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
	while (hi - lo > 1) {
		long pick = bisect_pick(c, lo, hi);

		if (pick < 0) {
			printf("\ncould not decide: the first bad kernel is after %s and at or "
			       "before %s, whose kernels between could not be tested\n",
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
