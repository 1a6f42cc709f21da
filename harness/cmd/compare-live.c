/* starve compare --until-decided A.yaml B.yaml (compare-live.h): the two
 * sides are two profiles run on this kernel, each look a `starve run` of
 * the profile into DIR/a-L or DIR/b-L (a child process: one run, one
 * journal, one machine lock at a time), A before B so both see the same
 * drift of the machine; when to stop and at which alpha is
 * reports/compare/compare-looks.h's, as for starve vm and starve bisect. */
#include "config.h"
#include "harness/cmd/compare-live.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/xalloc.h"
#include "reports/compare/compare-looks.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct live_ctx {
	const struct compare_live *l;
	char dir[3800];			/* room for /a-L in a 4096-byte path */
};

static void live_dir(void *data, size_t side, size_t look, char *buf, size_t len)
{
	const struct live_ctx *c = data;

	snprintf(buf, len, "%s/%c-%zu", c->dir, side ? 'b' : 'a', look);
}

/* `starve run -q -o DIR RUN-ARGS PROFILE` in a child whose output goes to
 * DIR.log; the child gets SIGTERM (and restores what it changed) if we die. */
static pid_t live_spawn(const struct live_ctx *c, size_t side, const char *dir, const char *log)
{
	size_t n = 0;
	char **argv = xcalloc(c->l->n_run_args + 8, sizeof(*argv));
	pid_t parent = getpid(), pid;
	int fd;

	argv[n++] = (char *)"starve";
	argv[n++] = (char *)"run";
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)"-o";
	argv[n++] = (char *)dir;
	for (size_t i = 0; i < c->l->n_run_args; i++)
		argv[n++] = c->l->run_args[i];
	argv[n++] = (char *)c->l->profiles[side];
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(EXIT_RUNTIME);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	free(argv);
	return pid;
}

/* A look of one side; -1 stops the looks (a usage error or no child). */
static int live_run(void *data, size_t side, size_t look)
{
	const struct live_ctx *c = data;
	char dir[4096], log[4200];
	int status;
	pid_t pid;

	live_dir(data, side, look, dir, sizeof(dir));
	snprintf(log, sizeof(log), "%s.log", dir);
	if (fs_remove_tree(dir) < 0)
		return error_errno("cannot remove '%s'", dir);
	pid = live_spawn(c, side, dir, log);
	if (pid < 0)
		return error_errno("cannot start starve run");
	while (waitpid(pid, &status, 0) < 0)
		;
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("look %zu: %s (%s): starve run exit %d, %zu runs ok (%s)\n", look, side ? "B" : "A",
	       c->l->profiles[side], status, looks_runs(dir), log);
	fflush(stdout);
	if (status == EXIT_USAGE)
		return error("starve run refused %s (see %s)", c->l->profiles[side], log);
	return status >= 128 ? -1 : 0;	/* killed: we are being stopped */
}

/* The comparison of every run of A against every run of B, at the alpha
 * of one look. */
static void live_print(const struct live_ctx *c, const struct looks_rule *rule,
		       const struct looks_outcome *out)
{
	char a[LOOKS_MAX][4096], b[LOOKS_MAX][4096];
	const char *ap[LOOKS_MAX], *bp[LOOKS_MAX];
	struct looks_results ra, rb;
	const char *load, *labels[2] = { "A", "B" };
	struct cmp_options opt = looks_cmp_options(rule, &load);

	for (size_t l = 0; l < out[1].looks && l < LOOKS_MAX; l++) {
		live_dir((void *)c, 0, l + 1, a[l], sizeof(a[l]));
		live_dir((void *)c, 1, l + 1, b[l], sizeof(b[l]));
		ap[l] = a[l];
		bp[l] = b[l];
	}
	looks_collect(ap, out[1].looks, &ra);
	looks_collect(bp, out[1].looks, &rb);
	for (size_t i = 0; i < ra.n; i++) {
		const struct result_view *views[2] = { ra.v[i], looks_find(&rb, ra.v[i]->profile.name) };
		struct cmp_table t;

		if (!views[1] || cmp_build_results(&t, views, labels, 2, &opt) < 0)
			continue;
		putchar('\n');
		cmp_print_text(&t, stdout);
		cmp_free(&t);
	}
	looks_results_free(&ra);
	looks_results_free(&rb);
}

static void live_default_dir(char *buf, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "results/ab-%s", stamp);
}

int compare_live_run(const struct compare_live *l)
{
	struct live_ctx c = { .l = l };
	const char *names[2] = { "B", "B" };
	struct looks_driver d = {
		.rule = { .alpha = l->opt->alpha, .until_decided = true, .max_repeat = l->max_repeat,
			  .budget_ns = l->budget_ns, .cmp = l->opt },
		.n = 1, .dir = live_dir, .run = live_run, .data = &c, .names = names,
	};
	struct looks_outcome out[2];
	int planned;

	if (l->output)
		snprintf(c.dir, sizeof(c.dir), "%s", l->output);
	else
		live_default_dir(c.dir, sizeof(c.dir));
	if (fs_mkdirs(c.dir) < 0)
		return error_errno("cannot create '%s'", c.dir), EXIT_RUNTIME;
	printf("A/B until decided: A %s, B %s; runs in %s\n", l->profiles[0], l->profiles[1], c.dir);
	if (live_run(&c, 0, 1) < 0 || live_run(&c, 1, 1) < 0)
		return EXIT_USAGE;
	planned = looks_decide(&d, out);
	if (planned < 0)
		return EXIT_RUNTIME;
	d.rule.looks = (size_t)planned;
	live_print(&c, &d.rule, out);
	printf("\n%s after %zu look%s of %d planned (alpha %g, %.2g a look): A %zu runs, B %zu runs: "
	       "%s\n", looks_state_name(&d.rule, out[1].state), out[1].looks, out[1].looks == 1 ? "" : "s",
	       planned, l->opt->alpha, l->opt->alpha / planned, out[1].runs_base, out[1].runs,
	       out[1].figure);
	return out[1].state == LOOKS_CHANGED ? EXIT_VERDICT_FAIL :
	       out[1].state == LOOKS_SAME ? EXIT_PASS :
	       out[1].state == LOOKS_OPEN ? cmp_undecided_exit(l->opt->undecided) : EXIT_RUNTIME;
}
