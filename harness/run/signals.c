/* Signal handling for `starve run` (signals.h). Everything the handler
 * touches is a sig_atomic_t flag, a fixed array of pids or the journal's
 * fixed-size struct. */
#include "config.h"
#include "harness/run/signals.h"
#include "lib/error.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int sig_handled[] = { SIGINT, SIGTERM, SIGHUP };
#define N_HANDLED (sizeof(sig_handled) / sizeof(sig_handled[0]))

static volatile sig_atomic_t sig_first;
static volatile pid_t sig_groups[SIGNALS_MAX_GROUPS];
static struct journal *sig_journal;

static void sig_handler(int sig)
{
	static const char msg[] = "\nstarve: second signal: killing loads, restoring knobs\n";

	if (!sig_first) {
		sig_first = sig;
		return;
	}
	for (size_t i = 0; i < SIGNALS_MAX_GROUPS; i++)
		if (sig_groups[i] > 1)
			kill(-sig_groups[i], SIGKILL);
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
	sig_journal = j;
	sig_first = 0;
	for (size_t i = 0; i < N_HANDLED; i++)
		sigaction(sig_handled[i], &sa, NULL);
}

void signals_uninstall(void)
{
	for (size_t i = 0; i < N_HANDLED; i++)
		signal(sig_handled[i], SIG_DFL);
	sig_journal = NULL;
}

int signals_caught(void)
{
	return sig_first;
}

void signals_add_group(pid_t pgid)
{
	for (size_t i = 0; i < SIGNALS_MAX_GROUPS; i++)
		if (!sig_groups[i]) {
			sig_groups[i] = pgid;
			return;
		}
}

void signals_remove_group(pid_t pgid)
{
	for (size_t i = 0; i < SIGNALS_MAX_GROUPS; i++)
		if (sig_groups[i] == pgid)
			sig_groups[i] = 0;
}
