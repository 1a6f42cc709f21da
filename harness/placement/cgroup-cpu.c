/* cgroups with the cpu controller (cgroup-cpu.h). The file helpers and the
 * careful removal are the cpuset backends' (confine-backend.h). */
#include "config.h"
#include "harness/placement/cgroup-cpu.h"
#include "harness/placement/confine-backend.h"
#include "harness/placement/subtree-control.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CGCPU_V1_SHARES_PER_WEIGHT (1024.0 / 100)	/* weight 100 is 1024 shares */

static bool cgcpu_probe_v2(struct cgcpu *cg)
{
	char list[512];

	if (!confine_find_mount("cgroup2", NULL, cg->root, sizeof(cg->root)) ||
	    !confine_file_exists(cg->root, "cgroup.controllers") ||
	    confine_read_file(cg->root, "cgroup.controllers", list, sizeof(list)) < 0 ||
	    !subtree_word_in(list, "cpu"))
		return false;
	cg->version = 2;
	cg->v2_enable = !subtree_control_has(cg->root, "cpu");
	/* the root has no cpu.max: the kernel config shows in a child's files,
	 * which exist once the controller is on; assume the usual build */
	cg->bandwidth = cg->weight = true;
	cg->uclamp = confine_file_exists("/proc/sys/kernel", "sched_util_clamp_min");
	return true;
}

static bool cgcpu_probe_v1(struct cgcpu *cg)
{
	if (!confine_find_mount("cgroup", "cpu", cg->root, sizeof(cg->root)))
		return false;
	cg->version = 1;
	cg->bandwidth = confine_file_exists(cg->root, "cpu.cfs_quota_us");
	cg->weight = confine_file_exists(cg->root, "cpu.shares");
	cg->uclamp = confine_file_exists(cg->root, "cpu.uclamp.min");
	cg->rt_group = confine_file_exists(cg->root, "cpu.rt_runtime_us");
	return true;
}

bool cgcpu_probe(struct cgcpu *cg, char *reason, size_t len)
{
	char v2[256] = "";

	memset(cg, 0, sizeof(*cg));
	if (cgcpu_probe_v2(cg) || (memset(cg, 0, sizeof(*cg)), cgcpu_probe_v1(cg))) {
		if (access(cg->root, W_OK) < 0) {
			snprintf(reason, len, "cpu controller in cgroup v%d at %s, not writable "
				 "(needs root)", cg->version, cg->root);
			cg->version = 0;
			return false;
		}
		snprintf(reason, len, "cpu controller in cgroup v%d at %s: cpu.max %s, "
			 "cpu.weight %s, cpu.uclamp %s", cg->version, cg->root,
			 cg->bandwidth ? "yes" : "no (CONFIG_CFS_BANDWIDTH)",
			 cg->weight ? "yes" : "no", cg->uclamp ? "yes" : "no (CONFIG_UCLAMP_TASK_GROUP)");
		return true;
	}
	confine_find_mount("cgroup2", NULL, v2, sizeof(v2));
	snprintf(reason, len, "no cgroup hierarchy has the cpu controller (cgroup2 %s%s; no "
		 "cgroup v1 mount with 'cpu')", *v2 ? "at " : "not mounted", v2);
	return false;
}

int cgcpu_parent(const struct cgcpu *cg, char *out, size_t len)
{
	if (snprintf(out, len, "%s/starve-%d", cg->root, (int)getpid()) >= (int)len)
		return error("cgroup path under %s is too long", cg->root);
	return 0;
}

int cgcpu_make(const struct cgcpu *cg, const char *dir, bool parent)
{
	if (mkdir(dir, 0755) < 0)
		return errno == EEXIST ?
		       error("cgroup %s already exists (left by a crashed run? 'starve restore')", dir) :
		       error_errno("cannot create cgroup %s", dir);
	/* our own directory: it goes, and the setting with it, at the end */
	if (cg->version == 2 && parent && subtree_control_set(dir, "cpu", true) < 0)
		return -1;
	return 0;
}

static int cgcpu_write_num(const char *dir, const char *file, long long v)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", v);
	return confine_write_file(dir, file, text);
}

static int cgcpu_set_max(const struct cgcpu *cg, const char *dir, const struct cgcpu_knobs *k)
{
	char text[64];

	if (cg->version == 2) {
		if (k->quota_us < 0)
			snprintf(text, sizeof(text), "max %lld", (long long)k->period_us);
		else
			snprintf(text, sizeof(text), "%lld %lld", (long long)k->quota_us,
				 (long long)k->period_us);
		return confine_write_file(dir, "cpu.max", text);
	}
	/* v1 checks quota against the period already there: quota first to -1 */
	if (cgcpu_write_num(dir, "cpu.cfs_quota_us", -1) < 0 ||
	    cgcpu_write_num(dir, "cpu.cfs_period_us", k->period_us) < 0)
		return -1;
	return cgcpu_write_num(dir, "cpu.cfs_quota_us", k->quota_us < 0 ? -1 : k->quota_us);
}

static int cgcpu_set_uclamp(const char *dir, const char *file, double pct)
{
	char text[32];

	snprintf(text, sizeof(text), "%.2f", pct);
	return confine_write_file(dir, file, text);
}

int cgcpu_set(const struct cgcpu *cg, const char *dir, const struct cgcpu_knobs *k)
{
	if (k->quota_us && (!cg->bandwidth ? error("cpu.max: this kernel has no CPU bandwidth "
						   "control (CONFIG_CFS_BANDWIDTH)") :
			    cgcpu_set_max(cg, dir, k)) < 0)
		return -1;
	if (k->weight) {
		if (cg->version == 2 ? cgcpu_write_num(dir, "cpu.weight", k->weight) :
		    cgcpu_write_num(dir, "cpu.shares",
				    (long long)(k->weight * CGCPU_V1_SHARES_PER_WEIGHT + 0.5)))
			return -1;
	}
	if ((k->uclamp_min >= 0 || k->uclamp_max >= 0) && !cg->uclamp)
		return error("cpu.uclamp: this kernel has no utilization clamping for cgroups "
			     "(CONFIG_UCLAMP_TASK_GROUP)");
	if (k->uclamp_max >= 0 && cgcpu_set_uclamp(dir, "cpu.uclamp.max", k->uclamp_max) < 0)
		return -1;
	if (k->uclamp_min >= 0 && cgcpu_set_uclamp(dir, "cpu.uclamp.min", k->uclamp_min) < 0)
		return -1;
	return 0;
}

int cgcpu_attach(const struct cgcpu *cg, const char *dir, pid_t pid)
{
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	if (confine_write_file(dir, "cgroup.procs", text) == 0)
		return 0;
	if (cg->rt_group)
		return error("a fifo or rr task enters a cgroup v1 cpu group only with a "
			     "cpu.rt_runtime_us there (CONFIG_RT_GROUP_SCHED): keep RT loads "
			     "out of cgroups");
	return -1;
}

int cgcpu_read_stat(const struct cgcpu *cg, const char *dir, struct cgcpu_stat *st)
{
	char buf[1024], *line, *save;
	unsigned long long v;
	char path[512];

	/* quietly: the watcher reads it every tick, and a vanished group is no news */
	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	if (fs_read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "nr_periods %llu", &v) == 1)
			st->nr_periods = v;
		else if (sscanf(line, "nr_throttled %llu", &v) == 1)
			st->nr_throttled = v;
		else if (cg->version == 2 && sscanf(line, "throttled_usec %llu", &v) == 1)
			st->throttled_ns = v * 1000;
		else if (cg->version == 1 && sscanf(line, "throttled_time %llu", &v) == 1)
			st->throttled_ns = v;
	}
	return 0;
}

int cgcpu_remove(const struct cgcpu *cg, const char *dir)
{
	struct confine_handle h;

	(void)cg;
	memset(&h, 0, sizeof(h));
	if (snprintf(h.path, sizeof(h.path), "%s", dir) >= (int)sizeof(h.path))
		return error("cgroup path %s is too long", dir);
	return confine_remove_dir(&h, "cgroup.procs");
}

void cgcpu_controllers(char *v2, size_t v2_len, char *v1, size_t v1_len)
{
	char root[256], name[64], line[256];
	int hier, num, enabled;
	size_t used = 0;
	FILE *f;

	v2[0] = v1[0] = '\0';
	if (confine_find_mount("cgroup2", NULL, root, sizeof(root)) &&
	    confine_file_exists(root, "cgroup.controllers"))
		confine_read_file(root, "cgroup.controllers", v2, v2_len);
	f = fopen("/proc/cgroups", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %d %d %d", name, &hier, &num, &enabled) == 4 && hier > 0 &&
		    enabled && used + strlen(name) + 2 < v1_len)
			used += (size_t)snprintf(v1 + used, v1_len - used, "%s%s", used ? " " : "",
						 name);
	fclose(f);
}
