/* Kernel facts for `starve env` and result.json (harness/kernel/kernel.h). The
 * kernel config is read from /boot/config-<release> or /proc/config.gz
 * (through gzip, once per process, never on a hot path); what no config
 * says is measured (the tick) or taken from debugfs, the command line and
 * the uname version string, in that order of trust. */
#include "config.h"
#include "harness/kernel/kernel.h"
#include "harness/kernel/knobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define KERNEL_CAP_SYS_NICE 23

/* What the kernel config says, when there is one. */
struct kernel_config {
	int hz;
	bool dynamic, rt;
	const char *preempt;	/* none/voluntary/full/lazy, or NULL */
	const char *nohz;	/* periodic/idle/full, or NULL */
};

static void kernel_config_line(const char *line, struct kernel_config *cfg)
{
	static const struct { const char *opt, *model; } models[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" },
		{ "CONFIG_PREEMPT_LAZY=y", "lazy" },
	};

	if (!strncmp(line, "CONFIG_HZ=", 10))
		cfg->hz = atoi(line + 10);
	else if (!strncmp(line, "CONFIG_PREEMPT_DYNAMIC=y", 24))
		cfg->dynamic = true;
	else if (!strncmp(line, "CONFIG_PREEMPT_RT=y", 19))
		cfg->rt = true;
	else if (!strncmp(line, "CONFIG_HZ_PERIODIC=y", 20))
		cfg->nohz = "periodic";
	else if (!strncmp(line, "CONFIG_NO_HZ_IDLE=y", 19))
		cfg->nohz = "idle";
	else if (!strncmp(line, "CONFIG_NO_HZ_FULL=y", 19))
		cfg->nohz = "full";
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strncmp(line, models[i].opt, strlen(models[i].opt)))
			cfg->preempt = models[i].model;
}

/* Read the config; returns false when neither source exists. */
static bool kernel_read_config(struct kernel_info *info, struct kernel_config *cfg)
{
	char path[128], line[256];
	bool piped = false;
	FILE *f;

	memset(cfg, 0, sizeof(*cfg));
	snprintf(path, sizeof(path), "/boot/config-%s", info->release);
	f = fopen(path, "re");
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		/* A fixed command line: no shell quoting concerns. */
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "re");
		piped = f != NULL;
		snprintf(path, sizeof(path), "/proc/config.gz");
	}
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		kernel_config_line(line, cfg);
	if (piped)
		pclose(f);
	else
		fclose(f);
	if (!cfg->hz)
		return false;
	snprintf(info->config_source, sizeof(info->config_source), "%s", path);
	return true;
}

/* The coarse clocks advance once per tick, so their resolution is 1/HZ. */
static int kernel_measure_hz(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_REALTIME_COARSE, &res) < 0 || res.tv_sec || res.tv_nsec <= 0)
		return 0;
	return (int)((1000000000L + res.tv_nsec / 2) / res.tv_nsec);
}

const char *kernel_preempt_parse(const char *text)
{
	static const char *const names[] = { "none", "voluntary", "full", "lazy", "laziest" };
	const char *open = strchr(text, '('), *close = open ? strchr(open, ')') : NULL;

	if (!close)
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((size_t)(close - open - 1) == strlen(names[i]) &&
		    !strncmp(open + 1, names[i], strlen(names[i])))
			return names[i];
	return NULL;
}

static const char *kernel_preempt_debugfs(void)
{
	struct knob_state st;

	if (knob_probe("debugfs:sched/preempt", &st) < 0 || !st.readable)
		return NULL;
	return kernel_preempt_parse(st.value);
}

/* preempt=none|voluntary|full|lazy on the command line picks the model of
 * a dynamic kernel at boot. */
static const char *kernel_preempt_cmdline(void)
{
	static const char *const names[] = { "none", "voluntary", "full", "lazy" };
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "re");

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "--"))
			break;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(tok, "preempt=", 8) && !strcmp(tok + 8, names[i]))
				return names[i];
	}
	return NULL;
}

/* Last resort: "#1 SMP PREEMPT_DYNAMIC ..." or "#1 SMP PREEMPT_RT ...". */
static void kernel_preempt_uname(struct kernel_info *info)
{
	const char *v = info->version;

	info->preempt_source = "uname";
	info->preempt_dynamic = strstr(v, "PREEMPT_DYNAMIC") != NULL;
	if (strstr(v, "PREEMPT_RT"))
		info->preempt = "rt";
	else if (!info->preempt_dynamic && strstr(v, "PREEMPT "))
		info->preempt = "full";
	else
		info->preempt = "unknown";
}

static void kernel_probe_preempt(struct kernel_info *info, const struct kernel_config *cfg,
				 bool have_cfg)
{
	const char *m;

	if (!have_cfg)
		kernel_preempt_uname(info);
	else {
		info->preempt_dynamic = cfg->dynamic;
		info->preempt = cfg->rt ? "rt" : cfg->preempt ? cfg->preempt : "unknown";
		info->preempt_source = "config";
	}
	if (have_cfg && !cfg->dynamic)
		return;
	if (!strcmp(info->preempt, "rt")) {
		/* PREEMPT_RT stays the model; a dynamic one (6.12-rt) also
		 * switches between full and lazy: keep that sub-mode. */
		if (info->preempt_dynamic)
			info->preempt_rt_mode = kernel_preempt_debugfs();
		return;
	}
	if ((m = kernel_preempt_debugfs())) {
		info->preempt = m;
		info->preempt_source = "debugfs";
	} else if ((m = kernel_preempt_cmdline())) {
		info->preempt = m;
		info->preempt_source = "cmdline";
	}
}

/* CapEff from /proc/self/status, a hex mask. */
static bool kernel_has_cap(int cap)
{
	char line[256];
	bool has = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			has = (strtoull(line + 7, NULL, 16) >> cap) & 1;
			break;
		}
	fclose(f);
	return has;
}

/* sched_ext, BTF, the sched tracepoints, schedstats (kernel.h). tracefs is
 * looked for where it is mounted, or under debugfs as older set-ups have it. */
static void kernel_probe_features(struct kernel_info *info)
{
	FILE *f = fopen("/sys/kernel/sched_ext/state", "re");

	info->sched_ext = access("/sys/kernel/sched_ext", F_OK) == 0;
	info->sched_ext_state[0] = '\0';
	if (f) {
		if (fgets(info->sched_ext_state, sizeof(info->sched_ext_state), f))
			info->sched_ext_state[strcspn(info->sched_ext_state, "\n")] = '\0';
		fclose(f);
	}
	info->btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	info->sched_events = access("/sys/kernel/tracing/events/sched/sched_switch", F_OK) == 0 ||
			     access("/sys/kernel/debug/tracing/events/sched/sched_switch", F_OK) == 0;
	info->schedstats = access("/proc/sys/kernel/sched_schedstats", F_OK) == 0;
}

void kernel_probe(struct kernel_info *info)
{
	struct kernel_config cfg;
	struct utsname u;
	struct rlimit rl;
	bool have_cfg;

	memset(info, 0, sizeof(*info));
	if (uname(&u) == 0) {
		snprintf(info->release, sizeof(info->release), "%s", u.release);
		snprintf(info->version, sizeof(info->version), "%s", u.version);
	}
	have_cfg = kernel_read_config(info, &cfg);
	info->hz = have_cfg ? cfg.hz : kernel_measure_hz();
	info->hz_source = have_cfg ? "config" : "measured";
	info->nohz = have_cfg && cfg.nohz ? cfg.nohz : "unknown";
	kernel_probe_preempt(info, &cfg, have_cfg);
	info->schedstat_global = access("/proc/schedstat", R_OK) == 0;
	info->schedstat_task = access("/proc/self/schedstat", R_OK) == 0;
	kernel_probe_features(info);
	info->is_root = geteuid() == 0;
	info->cap_sys_nice = kernel_has_cap(KERNEL_CAP_SYS_NICE);
	info->rtprio_limit = -1;
	if (getrlimit(RLIMIT_RTPRIO, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		info->rtprio_limit = (long)rl.rlim_cur;
}

const char *kernel_preempt_text(const struct kernel_info *info, char *buf, size_t len)
{
	if (info->preempt_rt_mode)
		snprintf(buf, len, "%s (dynamic: %s)", info->preempt ? info->preempt : "unknown",
			 info->preempt_rt_mode);
	else
		snprintf(buf, len, "%s%s", info->preempt ? info->preempt : "unknown",
			 info->preempt_dynamic ? " (dynamic)" : "");
	return buf;
}
