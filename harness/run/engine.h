/* Running a profile (doc/design.md "Data flow of starve run"): for each
 * repetition, for each setting (interleaved A B A B): apply the setting
 * through the journal, spawn the loads, warm up, sample, stop the loads,
 * restore, and hand the run, typed, to the serialiser (result-build.h). A
 * watchdog process and the signal handlers make sure no load outlives the
 * controller and no knob stays changed. */
#ifndef STARVE_RUN_H
#define STARVE_RUN_H

#include <stdbool.h>

#include "harness/profile/profile.h"
#include "harness/run/plan.h"
#include "harness/run/result-build.h"

struct run_options {
	const char *only;		/* run only this setting (NULL: all) */
	const char *result_path;	/* partial results are written here after each run */
	bool quiet;			/* no progress line */
	bool allow_rt_on_all_cpus;
	const struct run_plan *plan;	/* resolved by the caller; NULL: run_profile resolves it */
	int argc;			/* the command line, for result.json */
	char **argv;
};

enum run_status {
	RUN_DONE = 0,		/* every run attempted (some may be skipped or errors) */
	RUN_INTERRUPTED,	/* a signal stopped it: the result is partial */
	RUN_REFUSED,		/* nothing ran: unrestored journal, RT on every CPU... */
	RUN_FAILED,		/* a runtime error stopped it midway */
};

/* Run P. *RESULT receives the result (without verdicts; result_doc_tree)
 * whenever anything was built, even on failure; the caller owns it. Errors are
 * printed. The signal handlers stay installed, only noting signals, so the
 * caller writes its result whole; it calls signals_uninstall() after.
 * One run at a time per process (a nested or concurrent call is refused):
 * a run owns the process's signal handlers and the machine lock. */
enum run_status run_profile(const struct profile *p, const struct run_options *o,
			    struct result_doc **result);

#endif
