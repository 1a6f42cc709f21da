/* exec: a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits.
 * One worker per copy forks the shell (in the load's process group, with a
 * death signal: loads/child.c) and waits for it. Records: iterations =
 * starts, wakeups = exits. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	OPT_COMMAND,
	OPT_RESTART,
};

static const struct opt_spec options[] = {
	[OPT_COMMAND] = { "command", OPT_STRING, NULL, 0, 0, NULL,
		"shell command to run (required)", NULL },
	[OPT_RESTART] = { "restart", OPT_BOOL, NULL, 0, 0, "false",
		"start the command again each time it exits", NULL },
};

static void exec_copy(struct load_ctx *ctx, unsigned record, void *arg)
{
	struct worker_record *rec = worker_begin(ctx, record);
	const char *command = ctx->spec->opts[OPT_COMMAND].s;
	int status;

	(void)arg;
	do {
		char *argv[] = { "sh", "-c", (char *)command, NULL };
		pid_t pid = load_child_start("/bin/sh", argv, NULL);

		if (pid < 0) {
			worker_fail(rec, "cannot fork: %s", strerror(errno));
			break;
		}
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->iterations++;
		status = load_child_wait(ctx, pid, NULL);	/* sampled: its pgroup */
		if (status == -1)
			break;
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->wakeups++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
			worker_fail(rec, "command not found or not executable: %s", command);
			break;
		}
	} while (ctx->spec->opts[OPT_RESTART].b && !load_should_stop(ctx));
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	return load_run_workers(ctx, (unsigned)ctx->spec->count, exec_copy, NULL) ? EXIT_RUNTIME : 0;
}

const struct load_type load_exec = {
	.name = "exec",
	.summary = "a real command as a load (make -j4, hackbench ...), run through /bin/sh -c, optionally restarted when it exits",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = LOAD_TRACK_PGROUP,
	.run = run,
};
