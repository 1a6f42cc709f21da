/* `starve bisect`: find the first kernel of an ordered list whose results
 * differ from the first (good) kernel's, booting about log2(N) of them
 * (doc/ci-gating.md, "Bisecting"). harness/cmd/bisect.c reads the command
 * line and boots each kernel through `starve vm` (the boot callback below);
 * this room orders the kernels (kernels.c), judges a kernel's results
 * against the baseline's with starve compare's gate (judge.c), keeps the
 * log that --resume continues (log.c) and runs the search (bisect.c).
 *
 * Guarantees and limits: each step is one comparison whose chance of calling
 * an unchanged kernel "bad" is at most alpha (Holm over the gated rows), and
 * a changed one "good" at most alpha (good is "equivalent": every gated row
 * shown inside its margin), so a search of k steps errs at most k * alpha.
 * A step the data cannot decide gets more boots (--until-decided, the
 * default) and is then skipped, as `git bisect skip` is: never guessed. The
 * search assumes one change point (good ... good bad ... bad). */
#ifndef STARVE_BISECT_H
#define STARVE_BISECT_H

#include "reports/compare/compare-looks.h"

#include <stdbool.h>
#include <stddef.h>

#define BISECT_MAX_KERNELS 256

/* The exit statuses of a bisection and of one --git-step (git bisect run
 * reads 125 as "skip this commit"). */
enum bisect_exit {
	BISECT_NO_CHANGE = 0,	/* the last kernel is equivalent to the first */
	BISECT_FOUND = 1,
	BISECT_ERROR = 3,	/* the first kernel, or every later one, could not be tested */
	BISECT_UNDECIDED = 4,	/* undecided steps hide the first bad kernel: a range */
	BISECT_GIT_SKIP = 125,
};

/* Boot KERNEL (a --kernel form of starve vm) with the profiles into OUTDIR,
 * its talk into LOG. Returns starve vm's exit status, or -1 when a signal
 * stopped it (the search stops; the kernel's step is not logged). */
typedef int bisect_boot_fn(void *data, const char *kernel, const char *outdir, const char *log);

struct bisect_options {
	char **kernels;			/* ordered; [0] is the good one */
	size_t n_kernels;
	const char *dir;		/* output directory, holding bisect.log */
	struct looks_rule rule;
	bisect_boot_fn *boot;
	void *boot_data;
	char **notes;			/* a line about each kernel (a commit's subject), or NULL */
	char *const *args;		/* the command line to record for --resume */
	size_t n_args;
};

/* kernels.c: expand the --kernel words into the ordered list: a directory
 * of images (sorted by version), "linux-image-A..linux-image-B" (the Debian
 * packages between the two, apt-cache's names, in Debian version order), or
 * the words as given. Returns the count, or -1 with an error printed. OUT
 * holds malloc'd strings (free with bisect_kernels_free). */
int bisect_kernels(char *const *words, size_t n, char **out, size_t max);
void bisect_kernels_free(char **k, size_t n);
/* commits.c: --git TREE --good A --bad B: "TREE@SHA" for A and each commit
 * after it up to B (first parents), with each one's subject in SUBJECTS.
 * Returns the count, or -1 with an error printed (bad input). */
int bisect_git_commits(const char *tree, const char *good, const char *bad, char **out,
		       char **subjects, size_t max);
/* Debian's version order (dpkg's verrevcmp) of A and B. */
int bisect_debian_vercmp(const char *a, const char *b);

/* The whole search; returns enum bisect_exit (or 2 for bad input). */
int bisect_run(const struct bisect_options *o);

/* --git-step: judge the results under DIR against those under BASELINE:
 * 0 equivalent, 1 bad, 125 when DIR has no result for a baseline profile or
 * the comparison is undecided (git skips the commit rather than guess). */
int bisect_git_judge(const char *baseline, const char *dir, const struct looks_rule *rule);

/* A step of the search, as the log keeps it. */
enum bisect_state {
	BISECT_GOOD = LOOKS_SAME, BISECT_BAD = LOOKS_CHANGED, BISECT_SKIP = LOOKS_MISSING,
	BISECT_UNSURE = LOOKS_OPEN, BISECT_UNTESTED
};

/* judge.c: the evidence printed at the end of a search (GOOD's and BAD's
 * dirs); whether a kernel is bad is looks_judge's (reports/compare/compare-looks.h). */
void bisect_evidence(const struct looks_sides *good, const struct looks_sides *bad,
		     const char *good_label, const char *bad_label, const struct looks_rule *rule);
struct bisect_step {
	int state;		/* enum bisect_state */
	char figure[400];	/* what decided it */
	size_t looks;		/* boots of the kernel (--until-decided: more than one) */
};

/* log.c: start DIR/bisect.log with the command line ARGS (kept when the log
 * exists: a resumed search), add a finished step, read the steps back. */
int bisect_log_start(const char *dir, char *const *args, size_t n);
int bisect_log_step(const char *dir, size_t i, const struct bisect_step *s);
void bisect_log_steps(const char *dir, struct bisect_step *steps, size_t n);

/* log.c: the command line recorded in DIR/bisect.log, for --resume: a
 * malloc'd vector (free with bisect_kernels_free) of *N words. */
char **bisect_log_args(const char *dir, size_t *n);

#endif
