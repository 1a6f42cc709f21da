/* kernel-build: the seed's `make -j5` without a kernel tree. `jobs` job
 * slots, like make's; each runs one job after another, and a job is what a
 * compiler invocation costs the scheduler: a fork, an exec of a large
 * dynamically linked binary (starve itself), CPU time for compiling, and an
 * object file written out. Every link_every-th job of a slot is a longer
 * link. Compile times vary 0.5-1.5x around `compile`, as translation units
 * do. Records: iterations = jobs finished, so throughput is jobs/s; the
 * jobs' CPU time (from wait4) is child_cpu_ns, in the in-band cpu_share and
 * in what the run counts as its own CPU: the sampler sees the slots only.
 *
 * The job runs in the exec'd starve before main(): a constructor below
 * notices argv[0] "starve-cc" and STARVE_BUILD_JOB, does the job and exits,
 * so no command or subcommand has to know about it. */
#include "config.h"
#include "loads/load.h"
#include "lib/error.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	OPT_JOBS,
	OPT_COMPILE,
	OPT_LINK_EVERY,
	OPT_LINK,
	OPT_OUTPUT,
};

static const struct opt_spec options[] = {
	[OPT_JOBS] = { "jobs", OPT_INT, NULL, 1, 256, "5",
		"parallel job slots, like make -jN", NULL },
	[OPT_COMPILE] = { "compile", OPT_DURATION, "ns", 100e3, 10e9, "40ms",
		"mean CPU time of a compile job (each one 0.5-1.5x this)", NULL },
	[OPT_LINK_EVERY] = { "link_every", OPT_INT, NULL, 0, 100000, "20",
		"every Nth job of a slot is a link; 0: no links", NULL },
	[OPT_LINK] = { "link", OPT_DURATION, "ns", 100e3, 10e9, "200ms",
		"CPU time of a link job", NULL },
	[OPT_OUTPUT] = { "output", OPT_INT, "bytes", 0, 64 << 20, "65536",
		"bytes of the object file each job writes", NULL },
};

#define BUILD_ENV "STARVE_BUILD_JOB"
#define BUILD_ARGV0 "starve-cc"
#define BUILD_CHUNK 65536

/* ---- the job, in the exec'd process ---- */

static void build_compute(int64_t ns)
{
	int64_t start = thread_cpu_ns();
	volatile unsigned long x = 1;

	while (thread_cpu_ns() - start < ns)
		for (int i = 0; i < 4096; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
}

static int build_write(const char *path, long long bytes)
{
	static char chunk[BUILD_CHUNK];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	memset(chunk, 0x90, sizeof(chunk));
	while (bytes > 0) {
		ssize_t w = write(fd, chunk, bytes < BUILD_CHUNK ? (size_t)bytes : BUILD_CHUNK);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		bytes -= w;
	}
	return close(fd);
}

__attribute__((constructor)) static void build_job_main(int argc, char **argv)
{
	const char *job = getenv(BUILD_ENV);
	long long ns, bytes;
	int at = 0;

	if (argc < 1 || !argv || !argv[0] || strcmp(argv[0], BUILD_ARGV0) || !job)
		return;
	if (sscanf(job, "%lld %lld %n", &ns, &bytes, &at) != 2 || !at || !job[at])
		_exit(126);
	prctl(PR_SET_NAME, BUILD_ARGV0);
	build_compute(ns);
	_exit(build_write(job + at, bytes) ? 125 : 0);
}

/* ---- the job slots, in the load ---- */

struct build {
	char exe[PATH_MAX];
	char dir[64];
};

/* The next job's CPU time: a link, or a compile 0.5-1.5x the mean. */
static int64_t build_job_ns(const struct load_spec *spec, unsigned long n, uint64_t *rnd)
{
	int64_t every = spec->opts[OPT_LINK_EVERY].i;

	if (every && n % (uint64_t)every == (uint64_t)every - 1)
		return spec->opts[OPT_LINK].i;
	*rnd = *rnd * 6364136223846793005ull + 1442695040888963407ull;
	return spec->opts[OPT_COMPILE].i / 2 +
	       (int64_t)((double)(*rnd >> 11) / 9007199254740992.0 * (double)spec->opts[OPT_COMPILE].i);
}

/* One job: fork, exec, wait; 0, 1 when stopped, -1 with the record failed. */
static int build_one(struct load_ctx *ctx, struct worker_record *rec, const struct build *b,
		     const char *obj, int64_t ns)
{
	char env[PATH_MAX + 64], *argv[] = { BUILD_ARGV0, NULL }, *envp[] = { env, NULL };
	pid_t pid;
	int status;

	snprintf(env, sizeof(env), BUILD_ENV "=%lld %lld %s", (long long)ns,
		 (long long)ctx->spec->opts[OPT_OUTPUT].i, obj);
	pid = load_child_start(b->exe, argv, envp);
	if (pid < 0) {
		worker_fail(rec, "cannot fork a job: %s", strerror(errno));
		return -1;
	}
	status = load_child_wait(ctx, pid, rec);
	if (status == -1)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		worker_fail(rec, "a job %s %d (127: cannot exec %s; 125: cannot write %s)",
			    WIFEXITED(status) ? "exited with" : "was killed by signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), b->exe, obj);
		return -1;
	}
	return 0;
}

static void build_slot(struct load_ctx *ctx, unsigned record, void *arg)
{
	const struct build *b = arg;
	struct worker_record *rec = worker_begin(ctx, record);
	uint64_t rnd = record * 0x9e3779b97f4a7c15ull + 1;
	char obj[sizeof(b->dir) + 32];

	snprintf(obj, sizeof(obj), "%s/slot-%u.o", b->dir, record - ctx->first_record);
	for (unsigned long n = 0; !load_should_stop(ctx); n++) {
		if (build_one(ctx, rec, b, obj, build_job_ns(ctx->spec, n, &rnd)))
			break;
		if (stats_measuring(ctx->stats, (uint64_t)mono_ns()))
			rec->iterations++;
	}
	unlink(obj);
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	static struct build b;	/* shared with the slots, as threads or forked copies */
	ssize_t n = readlink("/proc/self/exe", b.exe, sizeof(b.exe) - 1);
	const char *tmp = getenv("TMPDIR");
	int ret;

	if (n <= 0) {
		error_errno("load '%s': cannot find our own binary to exec", ctx->spec->name);
		return EXIT_RUNTIME;
	}
	b.exe[n] = '\0';
	snprintf(b.dir, sizeof(b.dir), "%.40s/starve-build-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(b.dir)) {
		error_errno("load '%s': cannot create a build directory %s", ctx->spec->name, b.dir);
		return EXIT_RUNTIME;
	}
	ret = load_run_workers(ctx, (unsigned)ctx->spec->opts[OPT_JOBS].i, build_slot, &b);
	if (rmdir(b.dir))
		warning("load '%s': cannot remove %s: %s", ctx->spec->name, b.dir, strerror(errno));
	return ret ? EXIT_RUNTIME : EXIT_PASS;
}

static unsigned records_needed(const struct load_spec *spec)
{
	return (unsigned)spec->opts[OPT_JOBS].i;
}

static int validate(const struct load_spec *spec, char *why, size_t why_len)
{
	if (spec->count != 1) {
		snprintf(why, why_len, "kernel-build takes 'jobs: N' (make -jN), not count");
		return -1;
	}
	if (spec->policy == POLICY_DEADLINE) {
		snprintf(why, why_len, "kernel-build cannot run as SCHED_DEADLINE (a deadline "
			 "task cannot fork its jobs)");
		return -1;
	}
	return 0;
}

const struct load_type load_kernel_build = {
	.name = "kernel-build",
	.summary = "make -jN without a kernel tree: job slots fork and exec short compile jobs that burn CPU and write an object file, with a longer link now and then; throughput is jobs/s",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_NONE,
	.flags = 0,	/* jobs live too briefly to sample: their CPU is child_cpu_ns */
	.records_needed = records_needed,
	.validate = validate,
	.run = run,
};
