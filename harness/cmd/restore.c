/* starve restore: write back the knob values a crashed or killed run left
 * in the journal (harness/kernel/journal.h), say what changes, remove the journal;
 * remove the cpusets ("starve-<pid>-*") of runs whose pid is gone.
 * Exit 0 when done or when there is nothing to do, 3 when a knob or a
 * cpuset failed. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/placement/confine.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/knobs.h"
#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_restore(int argc, char **argv);

struct restore_args {
	bool dry_run;
};

static const struct cmd_option restore_options[] = {
	CMD_FLAG("dry-run", struct restore_args, dry_run,
		 "print what would be restored or removed, change nothing", .short_name = 'n'),
	CMD_END
};

const struct cmd cmd_restore = {
	.name = "restore", .summary = "restore knobs from the journal a crashed run left",
	.options = restore_options, .run = run_restore,
	.notes = "The journal is $STARVE_STATE_DIR/journal (default " JOURNAL_DEFAULT_DIR
		 "/journal).\n",
};

/* "name: current -> journaled", newest first (the order of restoring). */
static void restore_print(const struct journal *j, bool dry_run)
{
	printf("%s %zu knob(s) from %s (written by pid %d, started %s):\n",
	       dry_run ? "would restore" : "restoring", j->n, j->file, (int)j->pid, j->started);
	for (size_t i = j->n; i-- > 0;) {
		const struct journal_entry *e = &j->entries[i];
		struct knob_state st;
		const char *cur;

		if (!strncmp(e->knob, JOURNAL_TRACEFS_PREFIX, strlen(JOURNAL_TRACEFS_PREFIX))) {
			printf("  %s: remove the tracefs instance (exact mode)\n", e->knob);
			continue;
		}
		knob_probe(e->knob, &st);
		cur = st.readable ? st.value : st.present ? "(unreadable)" : "(missing)";
		printf("  %s: %s -> %s%s\n", e->knob, cur, e->value,
		       st.readable && !strcmp(cur, e->value) ? " (unchanged)" : "");
	}
	fflush(stdout);
}

static int restore_journal(struct journal *j, bool dry_run)
{
	int failed;

	if (journal_writer_alive(j))
		return error("a run is in progress: pid %d (started %s) holds %s and restores "
			     "its knobs itself; stop it first", (int)j->pid, j->started, j->file),
		       EXIT_RUNTIME;
	if (j->n == 0) {
		printf("nothing to restore: the journal %s lists no knob%s\n", j->file,
		       dry_run ? "" : "; removed it");
		return dry_run || journal_remove(j) == 0 ? EXIT_PASS : EXIT_RUNTIME;
	}
	restore_print(j, dry_run);
	if (dry_run)
		return EXIT_PASS;
	failed = journal_restore_all(j);
	if (failed) {
		error("%d knob(s) could not be restored; the journal stays at %s (fix the cause "
		      "and run 'starve restore' again, or remove it once checked)", failed, j->file);
		return EXIT_RUNTIME;
	}
	if (journal_remove(j) < 0)
		return EXIT_RUNTIME;
	printf("restored; removed %s\n", j->file);
	return EXIT_PASS;
}

static int run_restore(int argc, char **argv)
{
	struct restore_args a = { .dry_run = false };
	struct cmd_words none;
	bool dry_run;
	struct journal *j;
	int ret;

	if (!cmd_parse(&cmd_restore, argc, argv, &a, &none, &ret))
		return ret;
	cmd_release(&cmd_restore, &a, &none);
	dry_run = a.dry_run;
	j = malloc(sizeof(*j));
	if (!j)
		return error("out of memory"), EXIT_RUNTIME;
	ret = journal_load(j, NULL);
	if (ret == 0)
		printf("nothing to restore: no journal in %s\n", journal_state_dir());
	ret = ret < 0 ? EXIT_RUNTIME : ret == 0 ? EXIT_PASS : restore_journal(j, dry_run);
	free(j);
	/* Only dead runs' cpusets: a live run removes its own. */
	if (confine_sweep(0, CONFINE_SWEEP_VERBOSE | (dry_run ? CONFINE_SWEEP_DRY_RUN : 0)) < 0)
		ret = EXIT_RUNTIME;
	return ret;
}
