/* BPF aggregation mode with libbpf (harness/bpf/bpf-sched.h): the skeleton
 * bpftool generated from sched.bpf.c at build time, loaded with CO-RE
 * against the running kernel's BTF. */
#include "config.h"
#include "harness/bpf/bpf-sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness/bpf/sched.skel.h"

#define BPFSCHED_BTF "/sys/kernel/btf/vmlinux"
#define BPFSCHED_MAX_TASKS_ENV "STARVE_BPF_MAX_TASKS"

struct bpfsched {
	struct sched_bpf *skel;
	int64_t from_ns, until_ns;	/* the window, to close open waits at */
	int stats_fd;			/* run-time statistics on while held */
};

bool bpfsched_available(char *why, size_t len)
{
	why[0] = '\0';
	if (geteuid() != 0) {
		snprintf(why, len, "BPF mode needs root (it loads a BPF program)");
		return false;
	}
	if (access(BPFSCHED_BTF, R_OK) < 0) {
		snprintf(why, len, "the kernel has no BTF (%s: %s; CONFIG_DEBUG_INFO_BTF)",
			 BPFSCHED_BTF, strerror(errno));
		return false;
	}
	return true;
}

/* libbpf's own messages only matter when loading fails: keep them quiet. */
static int bpfsched_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* $STARVE_BPF_MAX_TASKS: a smaller task table, so that tests can make the
 * program lose tasks on purpose. */
static int bpfsched_limit_tasks(struct sched_bpf *skel)
{
	const char *env = getenv(BPFSCHED_MAX_TASKS_ENV);
	char *end;
	unsigned long n;

	if (!env)
		return 0;
	n = strtoul(env, &end, 10);
	if (*end || !n || n > SB_MAX_TASKS)
		return -1;
	return bpf_map__set_max_entries(skel->maps.tasks, (__u32)n) ? -1 : 0;
}

struct bpfsched *bpfsched_start(char *why, size_t len)
{
	struct bpfsched *b;
	int err;

	if (!bpfsched_available(why, len))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	libbpf_set_print(bpfsched_quiet);
	b->stats_fd = -1;
	b->skel = sched_bpf__open();
	if (b->skel && bpfsched_limit_tasks(b->skel) < 0) {
		snprintf(why, len, "%s must be a number of tasks from 1", BPFSCHED_MAX_TASKS_ENV);
		bpfsched_free(b);
		return NULL;
	}
	if (b->skel && sched_bpf__load(b->skel)) {
		sched_bpf__destroy(b->skel);
		b->skel = NULL;
	}
	if (!b->skel) {
		snprintf(why, len, "cannot load the BPF program: %s (CONFIG_BPF_SYSCALL? "
			 "lockdown?)", strerror(errno));
		bpfsched_free(b);
		return NULL;
	}
	b->skel->bss->root_tgid = (__u32)getpid();	/* what it forks is watched */
	err = sched_bpf__attach(b->skel);
	if (err) {
		snprintf(why, len, "cannot attach to the sched tracepoints: %s", strerror(-err));
		bpfsched_free(b);
		return NULL;
	}
	b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return b;
}

void bpfsched_free(struct bpfsched *b)
{
	if (!b)
		return;
	sched_bpf__destroy(b->skel);
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	free(b);
}

int bpfsched_watch(struct bpfsched *b, pid_t tgid)
{
	__u32 key = (__u32)tgid;

	return bpf_map__update_elem(b->skel->maps.watched, &key, sizeof(key), &key, sizeof(key),
				    BPF_ANY) ? -1 : 0;
}

void bpfsched_set_window(struct bpfsched *b, int64_t from_ns, int64_t until_ns)
{
	b->from_ns = from_ns;
	b->until_ns = until_ns;
	/* until first: a stretch must never count against an open end */
	__atomic_store_n(&b->skel->data->window_until, (__u64)until_ns, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->skel->data->window_from, (__u64)from_ns, __ATOMIC_SEQ_CST);
}

/* A wait still open when the map is read (an attached task that never got
 * the CPU back) counts up to the window's end, as the program would. */
static void bpfsched_close_open(const struct bpfsched *b, struct sb_task *r)
{
	int64_t from = (int64_t)r->wait_since > b->from_ns ? (int64_t)r->wait_since : b->from_ns;
	int64_t ns = b->until_ns - from;

	if (!(r->flags & SB_RUNNABLE) || !b->until_ns || ns < 0)
		return;
	r->stretches++;
	r->wait_ns += (uint64_t)ns;
	if ((uint64_t)ns > r->longest_ns) {
		r->longest_ns = (uint64_t)ns;
		r->longest_from = (uint64_t)from;
		r->instead_pid = 0;
		snprintf(r->instead_comm, sizeof(r->instead_comm), "?");
	}
}

int bpfsched_read(const struct bpfsched *b, pid_t tid, struct sb_task *out)
{
	__u32 key = (__u32)tid;

	if (bpf_map__lookup_elem(b->skel->maps.tasks, &key, sizeof(key), out, sizeof(*out), 0))
		return -1;
	bpfsched_close_open(b, out);
	return 0;
}

/* KEY's values in per-CPU MAP, one of SIZE bytes for each possible CPU
 * (*NCPUS of them); NULL when it has none or memory is short. Free it. */
static void *bpfsched_per_cpu(const struct bpf_map *map, __u32 key, size_t size, int *ncpus)
{
	void *values;

	*ncpus = libbpf_num_possible_cpus();
	if (*ncpus <= 0 || !(values = calloc((size_t)*ncpus, size)))
		return NULL;
	if (bpf_map__lookup_elem(map, &key, sizeof(key), values, (size_t)*ncpus * size, 0)) {
		free(values);
		return NULL;
	}
	return values;
}

int bpfsched_read_exited(const struct bpfsched *b, pid_t group, struct sb_task *out)
{
	int ncpus;
	struct sb_task *per_cpu = bpfsched_per_cpu(b->skel->maps.exited, (__u32)group,
						   sizeof(*per_cpu), &ncpus);

	memset(out, 0, sizeof(*out));
	if (!per_cpu)
		return -1;
	for (int i = 0; i < ncpus; i++)
		sb_merge(out, &per_cpu[i]);
	out->group = (__u32)group;
	free(per_cpu);
	return 0;
}

uint64_t bpfsched_events(const struct bpfsched *b)
{
	int ncpus;
	uint64_t *per_cpu = bpfsched_per_cpu(b->skel->maps.events, 0, sizeof(*per_cpu), &ncpus),
		 sum = 0;

	for (int i = 0; per_cpu && i < ncpus; i++)
		sum += per_cpu[i];
	free(per_cpu);
	return sum;
}

uint64_t bpfsched_lost(const struct bpfsched *b)
{
	return __atomic_load_n(&b->skel->bss->lost, __ATOMIC_RELAXED);
}

static uint64_t bpfsched_prog_ns(const struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 size = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &size))
		return 0;
	return info.run_time_ns;
}

double bpfsched_cpu_s(const struct bpfsched *b)
{
	uint64_t ns = bpfsched_prog_ns(b->skel->progs.sb_wakeup) +
		      bpfsched_prog_ns(b->skel->progs.sb_wakeup_new) +
		      bpfsched_prog_ns(b->skel->progs.sb_switch) +
		      bpfsched_prog_ns(b->skel->progs.sb_fork) +
		      bpfsched_prog_ns(b->skel->progs.sb_exit);

	return (double)ns / 1e9;
}
