/* Exact mode without libtracefs (harness/trace/trace.h): this starve was
 * built without libtracefs and libtraceevent, so exact mode says so. */
#include "config.h"
#include "harness/trace/trace.h"

#include <stdio.h>
#include <unistd.h>

bool trace_built_in(void)
{
	return false;
}

void trace_instance_name(char *buf, size_t len)
{
	snprintf(buf, len, "starve-%d", (int)getpid());
}

bool trace_available(char *why, size_t len)
{
	snprintf(why, len, "this starve was built without libtracefs and libtraceevent "
		 "(install libtracefs-dev and libtraceevent-dev, then configure and make again)");
	return false;
}

struct trace *trace_start(const cpu_set_t *cpus, char *why, size_t len)
{
	(void)cpus;
	trace_available(why, len);
	return NULL;
}

int trace_stop(struct trace *t, int64_t end_ns, char *why, size_t len)
{
	(void)t;
	(void)end_ns;
	return trace_available(why, len) ? 0 : -1;
}

void trace_free(struct trace *t)
{
	(void)t;
}

const struct tsched *trace_sched(const struct trace *t)
{
	(void)t;
	return NULL;
}

uint64_t trace_lost(const struct trace *t)
{
	(void)t;
	return 0;
}

uint64_t trace_events(const struct trace *t)
{
	(void)t;
	return 0;
}

double trace_cpu_s(const struct trace *t)
{
	(void)t;
	return 0;
}

void trace_set_window(struct trace *t, int64_t from_ns, int64_t until_ns)
{
	(void)t;
	(void)from_ns;
	(void)until_ns;
}

void trace_covered(const struct trace *t, int64_t *on_ns, int64_t *off_ns)
{
	(void)t;
	*on_ns = *off_ns = 0;
}
