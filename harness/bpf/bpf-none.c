/* BPF mode without clang, bpftool or libbpf at build time
 * (harness/bpf/bpf-sched.h): it says so, and the run falls back. */
#include "config.h"
#include "harness/bpf/bpf-sched.h"

#include <stdio.h>

bool bpfsched_built_in(void)
{
	return false;
}

bool bpfsched_available(char *why, size_t len)
{
	snprintf(why, len, "this starve was built without BPF mode (install clang, bpftool and "
		 "libbpf-dev, then configure and make again)");
	return false;
}

struct bpfsched *bpfsched_start(char *why, size_t len)
{
	bpfsched_available(why, len);
	return NULL;
}

void bpfsched_free(struct bpfsched *b)
{
	(void)b;
}

int bpfsched_watch(struct bpfsched *b, pid_t tgid)
{
	(void)b;
	(void)tgid;
	return -1;
}

void bpfsched_set_window(struct bpfsched *b, int64_t from_ns, int64_t until_ns)
{
	(void)b;
	(void)from_ns;
	(void)until_ns;
}

int bpfsched_read(const struct bpfsched *b, pid_t tid, struct sb_task *out)
{
	(void)b;
	(void)tid;
	(void)out;
	return -1;
}

uint64_t bpfsched_events(const struct bpfsched *b)
{
	(void)b;
	return 0;
}

uint64_t bpfsched_lost(const struct bpfsched *b)
{
	(void)b;
	return 0;
}

double bpfsched_cpu_s(const struct bpfsched *b)
{
	(void)b;
	return 0;
}
