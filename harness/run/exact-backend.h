/* Private to the exact sources (harness/run/exact*.c): the operations every
 * backend implements; the engine uses harness/run/exact.h. */
#ifndef STARVE_RUN_EXACT_BACKEND_H
#define STARVE_RUN_EXACT_BACKEND_H

#include "harness/run/exact.h"

struct exact_backend {
	const char *name;		/* "trace", "bpf": the source in result.json */
	bool covers_attached;		/* sees attached processes wherever they run */
	/* Usable here? WHY says why not, or what start will do first; must
	 * not change anything on the machine. */
	bool (*probe)(char *why, size_t len);
	/* Start recording; NULL with WHY filled, nothing left changed. */
	void *(*start)(struct journal *j, const cpu_set_t *cpus, char *why, size_t len);
	/* Count process TGID too; NULL for a source that cannot be told. */
	int (*watch)(void *impl, pid_t tgid);
	void (*set_window)(void *impl, int64_t from_ns, int64_t until_ns);
	int (*stop)(void *impl, struct journal *j, int64_t end_ns, char *why, size_t len);
	void (*collect)(const void *impl, struct load_record *loads, size_t n_loads);
	void (*stats)(const void *impl, struct run_exact *out);
	void (*free)(void *impl);
};

#ifdef HAVE_LIBTRACEFS
extern const struct exact_backend exact_tracefs;
#endif
#ifdef HAVE_BPF
extern const struct exact_backend exact_bpf;
#endif

#endif
