/* The kernel config check of `starve vm` (kconfig.h): one table of what the
 * guest needs, read against the config's "CONFIG_X=y" lines. */
#include "config.h"
#include "harness/vm/kconfig.h"
#include "lib/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct vm_kconfig_need {
	const char *options;	/* "A B": every one must be y */
	bool required;		/* else recommended */
	bool may_be_gone;	/* later kernels dropped it: skip when the config never names it */
	const char *why;
};

static const struct vm_kconfig_need needs[] = {
	{ "CONFIG_64BIT", true, false, "starve in the guest is a 64-bit program" },
	{ "CONFIG_BLK_DEV_INITRD", true, false, "the initramfs holding starve" },
	{ "CONFIG_BINFMT_ELF CONFIG_BINFMT_SCRIPT", true, false, "starve, busybox and the /init script" },
	{ "CONFIG_DEVTMPFS", true, false, "/dev in the guest" },
	{ "CONFIG_PROC_FS CONFIG_SYSFS CONFIG_TMPFS", true, false, "/proc, /sys and /run for starve" },
	{ "CONFIG_SERIAL_8250 CONFIG_SERIAL_8250_CONSOLE", true, false,
	  "the console and the serial lines results come back on" },
	{ "CONFIG_FUTEX", true, false, "threads in starve" },
	{ "CONFIG_FILE_LOCKING", true, false, "starve's machine lock (flock)" },
	{ "CONFIG_NET CONFIG_UNIX", true, false, "the watchdog's socket (AF_UNIX)" },
	{ "CONFIG_SCHED_INFO", false, false, "per-task run and wait times, /proc/PID/schedstat" },
	{ "CONFIG_DEBUG_FS", false, false, "debugfs scheduler knobs" },
	{ "CONFIG_SCHED_DEBUG", false, true, "/sys/kernel/debug/sched/" },
	{ "CONFIG_CGROUPS CONFIG_CPUSETS", false, false, "cpusets (--cpuset, 'cpuset: true')" },
	{ "CONFIG_HIGH_RES_TIMERS", false, false, "the loads' short sleeps" },
};

const char *vm_kconfig_get(const char *text, const char *option, char *buf, size_t len)
{
	size_t n = strlen(option);

	for (const char *p = text; (p = strstr(p, option)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + n + 1, "\n"), p + n + 1);
			return buf;
		}
	return NULL;
}

/* The value of OPTION in the config text: "y", "m", "" when unset. */
static const char *vm_kconfig_value(const char *text, const char *option)
{
	char value[8];
	const char *v = vm_kconfig_get(text, option, value, sizeof(value));

	return !v ? "" : !strcmp(v, "y") ? "y" : !strcmp(v, "m") ? "m" : "";
}

int vm_kconfig_read(const char *path, char *text, size_t len, char *why, size_t why_len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return error_why(why, why_len, "cannot read %s: %s", path, strerror(errno));
	n = fread(text, 1, len - 1, f);
	fclose(f);
	text[n] = '\0';
	if (!strstr(text, "CONFIG_"))
		return error_why(why, why_len, "%s is not a kernel config (no CONFIG_ line)", path);
	return 0;
}

/* "CONFIG_A=m" or "CONFIG_A" for each option of NEED that is not y. */
static void vm_kconfig_lacks(const char *text, const struct vm_kconfig_need *need, char *out,
			     size_t len)
{
	const char *o = need->options;

	out[0] = '\0';
	while (*o) {
		size_t n = strcspn(o, " ");
		char option[64];
		const char *v;

		snprintf(option, sizeof(option), "%.*s", (int)n, o);
		v = vm_kconfig_value(text, option);
		if (strcmp(v, "y"))
			snprintf(out + strlen(out), len - strlen(out), "%s%s%s", out[0] ? " " : "",
				 option, *v ? "=m" : "");
		o += n + (o[n] == ' ');
	}
}

static void vm_kconfig_add(char *list, size_t len, const char *lacks, const char *why)
{
	snprintf(list + strlen(list), len - strlen(list), "%s%s (%s)", list[0] ? ", " : "", lacks,
		 why);
}

int vm_kconfig_check(const char *path, struct vm_kconfig_report *r, char *why, size_t why_len)
{
	static char text[VM_KCONFIG_MAX];

	r->missing[0] = r->degraded[0] = '\0';
	if (vm_kconfig_read(path, text, sizeof(text), why, why_len) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		char lacks[256];

		/* "CONFIG_X=" or "# CONFIG_X is not set" */
		if (needs[i].may_be_gone && !strstr(text, needs[i].options))
			continue;
		vm_kconfig_lacks(text, &needs[i], lacks, sizeof(lacks));
		if (lacks[0] && needs[i].required)
			vm_kconfig_add(r->missing, sizeof(r->missing), lacks, needs[i].why);
		else if (lacks[0])
			vm_kconfig_add(r->degraded, sizeof(r->degraded), lacks, needs[i].why);
	}
	return 0;
}
