/* starve restore: write back the knob values a crashed or killed run left
 * in the journal (harness/kernel/journal.h), say what changes, remove the journal;
 * remove the cpusets ("starve-<pid>-*") of runs whose pid is gone.
 * Exit 0 when done or when there is nothing to do, 3 when a knob or a
 * cpuset failed. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "harness/placement/confine.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/journal-registry.h"
#include "harness/kernel/knobs.h"
#include "harness/kernel/machine-lock.h"
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
		 "/journal).\nJournals of other state directories that the machine's registry\n"
		 "(" JOURNAL_REGISTRY_DIR ") names are restored too, each named.\n",
};

/* "name: current -> journaled", newest first (the order of restoring). */
static void restore_print(const struct journal *j, bool dry_run)
{
	size_t order[JOURNAL_MAX_ENTRIES];

	printf("%s %zu entr%s from %s (written by pid %d, started %s):\n",
	       dry_run ? "would restore" : "restoring", j->n, j->n == 1 ? "y" : "ies", j->file,
	       (int)j->pid, j->started);
	journal_undo_order(j, order);
	for (size_t k = 0; k < j->n; k++) {
		const struct journal_entry *e = &j->entries[order[k]];
		struct knob_state st;
		const char *cur;

		if (e->kind == JOURNAL_TRACEFS) {
			printf("  tracefs instance %s: remove it (exact mode)\n", e->name);
			continue;
		}
		if (e->kind == JOURNAL_CGROUP) {
			printf("  cgroup %s: kill what is left in it, remove it\n", e->path);
			continue;
		}
		if (e->kind == JOURNAL_CONTROLLER) {
			printf("  controller %s in %s/cgroup.subtree_control: disable it\n", e->name,
			       e->path);
			continue;
		}
		knob_probe(e->name, &st);
		cur = st.readable ? st.value : st.present ? "(unreadable)" : "(missing)";
		printf("  %s: %s -> %s%s\n", e->name, cur, e->value,
		       st.readable && !strcmp(cur, e->value) ? " (unchanged)" : "");
	}
	fflush(stdout);
}

static int restore_journal(struct journal *j, bool dry_run)
{
	int failed, lock;

	if (journal_writer_alive(j))
		return journal_release(j), error("a run is in progress: pid %d (started %s) holds %s and restores "
			     "its knobs itself; stop it first", (int)j->pid, j->started, j->file),
		       EXIT_RUNTIME;
	if (j->n == 0) {
		printf("nothing to restore: the journal %s lists no knob%s\n", j->file,
		       dry_run ? "" : "; removed it");
		if (dry_run)
			journal_release(j);
		return dry_run || journal_remove(j) == 0 ? EXIT_PASS : EXIT_RUNTIME;
	}
	restore_print(j, dry_run);
	if (dry_run)
		return journal_release(j), EXIT_PASS;
	/* a run in another state dir may be changing the same knobs */
	lock = machine_lock_take();
	if (lock < 0)
		return journal_release(j), EXIT_RUNTIME;
	failed = journal_restore_all(j);
	machine_lock_release(lock);
	if (failed) {
		journal_release(j);
		error("%d knob(s) could not be restored; the journal stays at %s (fix the cause "
		      "and run 'starve restore' again, or remove it once checked)", failed, j->file);
		return EXIT_RUNTIME;
	}
	if (journal_remove(j) < 0)
		return EXIT_RUNTIME;
	printf("restored; removed %s\n", j->file);
	return EXIT_PASS;
}

struct restore_others {
	bool dry_run;
	int ret;
};

/* A journal of another state directory the machine's registry names: say
 * so, and restore it too (one journal per machine: every run refuses while
 * it is there). */
static int restore_other(const char *dir, const char *pointer, void *arg)
{
	struct restore_others *ro = arg;
	struct journal *j = malloc(sizeof(*j));
	int r;

	(void)pointer;
	if (!j) {
		error("out of memory");
		ro->ret = EXIT_RUNTIME;
		return 0;
	}
	r = journal_load_locked(j, dir);
	if (r > 0 && j->n > 0) {
		printf("a journal of another state directory is pending: %s\n", j->file);
		r = restore_journal(j, ro->dry_run);
		if (r != EXIT_PASS)
			ro->ret = r;
	} else if (r > 0) {
		journal_release(j);
	} else if (r < 0) {
		ro->ret = EXIT_RUNTIME;
	}
	free(j);
	return 0;
}

static int run_restore(int argc, char **argv)
{
	struct restore_args a = { .dry_run = false };
	struct restore_others others = { .ret = EXIT_PASS };
	struct cmd_words none;
	bool dry_run, sweep_failed;
	struct journal *j;
	int ret;

	if (!cmd_parse(&cmd_restore, argc, argv, &a, &none, &ret))
		return ret;
	cmd_release(&cmd_restore, &a, &none);
	dry_run = a.dry_run;
	others.dry_run = dry_run;
	j = malloc(sizeof(*j));
	if (!j)
		return error("out of memory"), EXIT_RUNTIME;
	ret = journal_load_locked(j, NULL);
	if (ret == 0 && j->partial) {
		printf("nothing to restore: %s is empty (a run killed as it started left it)%s\n",
		       j->file, dry_run ? "" : "; removed it");
		if (dry_run)
			journal_release(j);
		else if (journal_remove(j) < 0)
			ret = -1;
	} else if (ret == 0) {
		printf("nothing to restore: no journal in %s\n", journal_state_dir());
	}
	/* Only dead runs' cpusets (a live run removes its own), and before the
	 * journal: a controller it turns off must not be in use by them. */
	sweep_failed = confine_sweep(0, CONFINE_SWEEP_VERBOSE |
					(dry_run ? CONFINE_SWEEP_DRY_RUN : 0)) < 0;
	ret = ret < 0 ? EXIT_RUNTIME : ret == 0 ? EXIT_PASS : restore_journal(j, dry_run);
	free(j);
	journal_registry_each(journal_state_dir(), restore_other, &others);
	if (others.ret != EXIT_PASS)
		ret = others.ret;
	return sweep_failed ? EXIT_RUNTIME : ret;
}
