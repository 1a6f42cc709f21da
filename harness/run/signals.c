/* Signal handling for `starve run` (signals.h). Everything the handler
 * touches is a sig_atomic_t flag, a table of pids published through an
 * atomic pointer (grown by copying; an old table is kept until uninstall,
 * as a handler may be reading it) or the journal's fixed-size struct. */
#include "config.h"
#include "harness/run/signals.h"
#include "lib/descendants.h"
#include "lib/error.h"

#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int sig_handled[] = { SIGINT, SIGTERM, SIGHUP };
#define N_HANDLED (sizeof(sig_handled) / sizeof(sig_handled[0]))

struct sig_table {
	struct sig_table *retired;	/* the table this one replaced */
	size_t cap;
	_Atomic pid_t pgid[];		/* 0: a free slot */
};

static volatile sig_atomic_t sig_first;
static volatile sig_atomic_t sig_armed;	/* a second signal acts at once */
static _Atomic(struct sig_table *) sig_groups;
static struct journal *sig_journal;
static volatile sig_atomic_t sig_spared;	/* the watchdog: it restores after us */

static void sig_handler(int sig)
{
	static const char msg[] = "\nstarve: second signal: killing loads, restoring knobs\n";
	struct sig_table *t = atomic_load(&sig_groups);

	if (!sig_first || !sig_armed) {
		if (!sig_first)
			sig_first = sig;
		return;
	}

	/* first what left the loads' groups (a setsid'd command), while the
	 * leaders, their subreapers, still hold it in our tree */
	descendants_kill((pid_t)sig_spared);
	for (size_t i = 0; t && i < t->cap; i++) {
		pid_t g = atomic_load(&t->pgid[i]);

		if (g > 1)
			kill(-g, SIGKILL);
	}
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(EXIT_RUNTIME);
	if (sig_journal)
		journal_restore_from_signal(sig_journal);
	_exit(EXIT_RUNTIME);
}

void signals_install(struct journal *j)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_HANDLED; i++)
		sigaddset(&sa.sa_mask, sig_handled[i]);
	/* a signal caught already (before the run began) stays caught */
	sig_journal = j;
	for (size_t i = 0; i < N_HANDLED; i++)
		sigaction(sig_handled[i], &sa, NULL);
}

void signals_uninstall(void)
{
	struct sig_table *t = atomic_exchange(&sig_groups, NULL);

	for (size_t i = 0; i < N_HANDLED; i++)
		signal(sig_handled[i], SIG_DFL);
	sig_journal = NULL;
	sig_spared = 0;
	sig_first = 0;
	sig_armed = 0;
	while (t) {
		struct sig_table *next = t->retired;

		free(t);
		t = next;
	}
}

void signals_spare(pid_t pid)
{
	sig_spared = pid;
}

void signals_arm_second(bool armed)
{
	sig_armed = armed;
}

int signals_caught(void)
{
	return sig_first;
}

/* A table twice as large holding OLD's groups, published whole. */
static int signals_grow(struct sig_table *old)
{
	size_t cap = old ? 2 * old->cap : 64;
	struct sig_table *t = calloc(1, sizeof(*t) + cap * sizeof(t->pgid[0]));

	if (!t)
		return error("out of memory for the signal handler's load groups");
	t->cap = cap;
	t->retired = old;
	for (size_t i = 0; old && i < old->cap; i++)
		atomic_store(&t->pgid[i], atomic_load(&old->pgid[i]));
	atomic_store(&sig_groups, t);
	return 0;
}

int signals_add_group(pid_t pgid)
{
	for (;;) {
		struct sig_table *t = atomic_load(&sig_groups);

		for (size_t i = 0; t && i < t->cap; i++)
			if (!atomic_load(&t->pgid[i])) {
				atomic_store(&t->pgid[i], pgid);
				return 0;
			}
		if (signals_grow(t) < 0)
			return -1;
	}
}

void signals_remove_group(pid_t pgid)
{
	struct sig_table *t = atomic_load(&sig_groups);

	for (size_t i = 0; t && i < t->cap; i++)
		if (atomic_load(&t->pgid[i]) == pgid)
			atomic_store(&t->pgid[i], 0);
}
