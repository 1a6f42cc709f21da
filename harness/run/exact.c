/* The run's exact source (harness/run/exact.h): which backend, and the one
 * path every call takes to it. */
#include "config.h"
#include "harness/run/exact-backend.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct exact {
	const struct exact_backend *b;
	void *impl;
	struct journal *j;
	bool stopped;
};

/* Every source starve knows, built in or not: what to install when not. */
static const struct {
	const char *name;
	const struct exact_backend *b;
	const char *missing;
} exact_sources[] = {
#ifdef HAVE_LIBTRACEFS
	{ "trace", &exact_tracefs, NULL },
#else
	{ "trace", NULL, "this starve was built without libtracefs and libtraceevent (install "
	  "libtracefs-dev and libtraceevent-dev, then configure and make again)" },
#endif
#ifdef HAVE_BPF
	{ "bpf", &exact_bpf, NULL },
#else
	{ "bpf", NULL, "this starve was built without BPF mode (install clang, bpftool and "
	  "libbpf-dev, then configure and make again)" },
#endif
};

/* SOURCE's backend, or NULL with WHY saying why there is none. */
static const struct exact_backend *exact_find(const char *source, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(exact_sources) / sizeof(exact_sources[0]); i++) {
		if (strcmp(exact_sources[i].name, source))
			continue;
		if (!exact_sources[i].b)
			snprintf(why, len, "%s", exact_sources[i].missing);
		return exact_sources[i].b;
	}
	snprintf(why, len, "no exact source named '%s'", source);
	return NULL;
}

bool exact_built_in(const char *source)
{
	char why[256];

	return exact_find(source, why, sizeof(why)) != NULL;
}

bool exact_available(const char *source, char *why, size_t len)
{
	const struct exact_backend *b = exact_find(source, why, len);

	return b && b->probe(why, len);
}

int exact_check(void)
{
	char why[256];

	if (exact_available("trace", why, sizeof(why)))
		return 0;
	return error("exact mode (trace: true, --trace) cannot run here: %s", why);
}

int exact_start(struct exact **out, struct journal *j, bool trace, const cpu_set_t *cpus,
		char *why, size_t len)
{
	const char *env = getenv(EXACT_BPF_ENV);
	const struct exact_backend *b;
	struct exact *x;

	*out = NULL;
	if (!trace && env && !strcmp(env, "0")) {
		snprintf(why, len, EXACT_BPF_ENV "=0");
		return 0;
	}
	b = exact_find(trace ? "trace" : "bpf", why, len);
	if (!b || !b->probe(why, len))
		return trace ? -1 : 0;
	x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(why, len, "out of memory");
		return trace ? -1 : 0;
	}
	why[0] = '\0';
	x->b = b;
	x->j = j;
	x->impl = b->start(j, cpus, why, len);
	if (!x->impl) {
		free(x);
		return trace ? -1 : 0;
	}
	*out = x;
	return 0;
}

int exact_watch(struct exact *x, pid_t tgid)
{
	return x && x->b->watch ? x->b->watch(x->impl, tgid) : -1;
}

bool exact_covers_loads(const struct exact *x)
{
	return x != NULL;
}

bool exact_covers_attached(const struct exact *x)
{
	return x && x->b->covers_attached;
}

void exact_set_window(struct exact *x, int64_t from_ns, int64_t until_ns)
{
	if (x)
		x->b->set_window(x->impl, from_ns, until_ns);
}

int exact_stop(struct exact *x, int64_t end_ns, char *why, size_t len)
{
	if (!x || x->stopped)
		return 0;
	x->stopped = true;
	return x->b->stop(x->impl, x->j, end_ns, why, len);
}

void exact_collect(const struct exact *x, struct load_record *loads, size_t n_loads)
{
	if (x)
		x->b->collect(x->impl, loads, n_loads);
}

void exact_stats(const struct exact *x, struct run_exact *out)
{
	*out = (struct run_exact){ 0 };
	if (!x)
		return;
	out->present = true;
	out->source = x->b->name;
	x->b->stats(x->impl, out);
}

void exact_free(struct exact *x)
{
	char why[256];

	if (!x)
		return;
	if (exact_stop(x, mono_ns(), why, sizeof(why)) < 0)
		warning("exact source %s: %s", x->b->name, why);
	x->b->free(x->impl);
	free(x);
}
