/* /proc/stat per-CPU counters for the noise figure (noise.h). Read twice per
 * run, so plain stdio-free parsing of one buffer is plenty. */
#include "config.h"
#include "harness/sampler/noise.h"
#include "lib/timeutil.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "cpuN a b c ..." -> N and up to 8 counters; returns how many were read. */
static int noise_line(const char *line, long *cpu, uint64_t v[8])
{
	char *end;
	int n = 0;

	if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
		return 0;
	*cpu = strtol(line + 3, &end, 10);
	while (n < 8 && *end == ' ') {
		v[n++] = strtoull(end, &end, 10);
	}
	return n;
}

int noise_parse(const char *text, const cpu_set_t *cpus, struct noise_sample *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		uint64_t v[8] = { 0 };
		long cpu;

		if (noise_line(line, &cpu, v) < 4 || cpu < 0 || cpu >= CPU_SETSIZE ||
		    !CPU_ISSET((int)cpu, cpus))
			continue;
		/* user nice system idle iowait irq softirq steal */
		out->busy_ticks += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		out->total_ticks += v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		out->steal_ticks += v[7];
		out->cpus++;
	}
	return out->cpus ? 0 : -1;
}

int noise_sample(const cpu_set_t *cpus, struct noise_sample *out)
{
	/* the cpu lines come first; a truncated tail (the intr line) is fine */
	static char buf[65536];
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return noise_parse(buf, cpus, out);
}

double noise_other_share(const struct noise_sample *before, const struct noise_sample *after,
			 int64_t ours_ns)
{
	double tick_ns = (double)NSEC_PER_SEC / (double)sysconf(_SC_CLK_TCK);
	double total = (double)(after->total_ticks - before->total_ticks) * tick_ns;
	double other = (double)(after->busy_ticks - before->busy_ticks) * tick_ns - (double)ours_ns;

	if (total <= 0 || other <= 0)
		return 0;
	return other >= total ? 1 : other / total;
}

double noise_steal_share(const struct noise_sample *before, const struct noise_sample *after)
{
	uint64_t total = after->total_ticks - before->total_ticks;
	uint64_t steal = after->steal_ticks - before->steal_ticks;

	if (!total)
		return 0;
	return steal >= total ? 1 : (double)steal / (double)total;
}
