/* Test helper for tests/integration/cpuset.sh: drives harness/cpuset.c
 * from a script. "cpuset-ctl probe" lists the backends; "cpuset-ctl NAME
 * CPUS PID" creates cpuset NAME with the cpu spec CPUS, attaches PID,
 * prints "<backend> <path>", waits for end of input, then destroys it. */
#include "config.h"
#include "harness/placement/confine.h"
#include "harness/placement/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ctl_probe(void)
{
	struct confine_probe_report r[8];
	size_t n;
	const char *chosen = confine_probe(r, 8, &n);

	for (size_t i = 0; i < n; i++)
		printf("%s %s %s\n", r[i].name, r[i].usable ? "usable" : "unusable", r[i].reason);
	printf("chosen %s\n", chosen);
	return 0;
}

int main(int argc, char **argv)
{
	struct confine_handle h;
	cpu_set_t cpus;
	char why[160], line[64];
	int ret = 0;

	if (argc == 2 && !strcmp(argv[1], "probe"))
		return ctl_probe();
	if (argc != 4) {
		fprintf(stderr, "usage: cpuset-ctl probe | cpuset-ctl NAME CPUS PID\n");
		return 2;
	}
	if (topology_cpus(argv[2], &cpus, why, sizeof(why)) < 0) {
		fprintf(stderr, "cpuset-ctl: %s\n", why);
		return 1;
	}
	if (confine_create(&h, argv[1], &cpus) < 0)
		return 1;
	if (confine_attach(&h, (pid_t)atoi(argv[3])) < 0)
		ret = 1;
	printf("%s %s\n", confine_backend_name(&h), h.path[0] ? h.path : "-");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	if (confine_destroy(&h) < 0)
		ret = 1;
	return ret;
}
