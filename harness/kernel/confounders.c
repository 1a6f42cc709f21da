/* Probing the confounders (harness/kernel/confounders.h): small sysfs and
 * /proc files read once, at the start of `starve env` and of a run, never
 * on a hot path. */
#include "config.h"
#include "harness/kernel/confounders.h"
#include "lib/fsutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define CONF_CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/"
#define CONF_VULNERABILITIES "/sys/devices/system/cpu/vulnerabilities"

/* A one-line file into BUF without its trailing newline; "" when unreadable. */
static void conf_read_line(const char *path, char *buf, size_t len)
{
	ssize_t n = fs_read_small(path, buf, len);

	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

static void conf_cpu_model(struct confounders *c)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(c->cpu_model, sizeof(c->cpu_model), "%s", colon);
		break;
	}
	fclose(f);
}

static int conf_mitigation_order(const void *a, const void *b)
{
	return strcmp(((const struct confounder_mitigation *)a)->name,
		      ((const struct confounder_mitigation *)b)->name);
}

/* Every file under vulnerabilities/, sorted by name so two machines line up. */
static void conf_mitigations(struct confounders *c)
{
	DIR *d = opendir(CONF_VULNERABILITIES);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)) && c->n_mitigations < CONFOUNDERS_MAX_MITIGATIONS) {
		struct confounder_mitigation *m = &c->mitigations[c->n_mitigations];

		if (e->d_name[0] == '.')
			continue;
		snprintf(m->name, sizeof(m->name), "%.*s", (int)sizeof(m->name) - 1, e->d_name);
		snprintf(path, sizeof(path), "%s/%s", CONF_VULNERABILITIES, e->d_name);
		conf_read_line(path, m->text, sizeof(m->text));
		c->n_mitigations++;
	}
	closedir(d);
	qsort(c->mitigations, c->n_mitigations, sizeof(*c->mitigations), conf_mitigation_order);
}

/* Steal over all CPU time since boot, from /proc/stat's "cpu" line
 * (user nice system idle iowait irq softirq steal). */
static double conf_steal_share(void)
{
	unsigned long long v[8] = { 0 }, total = 0;
	char buf[512];

	if (fs_read_small("/proc/stat", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	for (int i = 0; i < 8; i++)
		total += v[i];
	return total ? (double)v[7] / (double)total : -1;
}

/* CPUID: the hypervisor bit (leaf 1, ECX 31) and the hypervisor's
 * signature (leaf 0x40000000, EBX ECX EDX). */
static void conf_cpuid(struct confounders *c)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, cx, d, sig[3];

	if (!__get_cpuid(1, &a, &b, &cx, &d) || !(cx & (1u << 31)))
		return;
	c->virtualised = true;
	__cpuid(0x40000000, a, sig[0], sig[1], sig[2]);
	memcpy(c->hypervisor, sig, sizeof(sig));
	c->hypervisor[sizeof(sig)] = '\0';
	for (size_t i = 0; i < sizeof(sig); i++)
		if (c->hypervisor[i] < ' ' || c->hypervisor[i] > '~')
			c->hypervisor[i] = '\0';
	for (size_t n = strlen(c->hypervisor); n > 0 && c->hypervisor[n - 1] == ' ';)
		c->hypervisor[--n] = '\0';
#else
	(void)c;
#endif
}

/* qemu's TCG says so in CPUID when it fills the hypervisor leaves; without
 * them, a "QEMU Virtual CPU" with no kvm-clock is emulated (KVM guests get
 * kvm-clock, and the host CPU's model under -cpu host). */
static bool conf_emulated(const struct confounders *c)
{
	if (!strcmp(c->hypervisor, "TCGTCGTCGTCG"))
		return true;
	if (!strncmp(c->hypervisor, "KVMKVMKVM", 9))
		return false;
	return !strncmp(c->cpu_model, "QEMU", 4) && !strstr(c->clocksources, "kvm-clock");
}

void confounders_probe(struct confounders *c, const struct kernel_info *kernel)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	conf_read_line(CONF_CLOCKSOURCE "current_clocksource", c->clocksource,
		       sizeof(c->clocksource));
	conf_read_line(CONF_CLOCKSOURCE "available_clocksource", c->clocksources,
		       sizeof(c->clocksources));
	c->nohz = kernel && kernel->nohz ? kernel->nohz : "unknown";
	conf_read_line("/sys/devices/system/cpu/nohz_full", c->nohz_full, sizeof(c->nohz_full));
	if (!strcmp(c->nohz_full, "(null)"))
		c->nohz_full[0] = '\0';
	conf_read_line("/proc/cmdline", c->cmdline, sizeof(c->cmdline));
	conf_cpu_model(c);
	c->cpus = cpus > 0 ? (int)cpus : 0;
	conf_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", c->governor,
		       sizeof(c->governor));
	conf_mitigations(c);
	c->steal_share = conf_steal_share();
	conf_cpuid(c);
	conf_read_line("/sys/class/dmi/id/sys_vendor", c->dmi_vendor, sizeof(c->dmi_vendor));
	c->emulated = conf_emulated(c);
	c->virtualised = c->virtualised || c->emulated || !strcmp(c->dmi_vendor, "QEMU");
}

static size_t conf_count_vulnerable(const struct confounders *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n_mitigations; i++)
		n += !strncmp(c->mitigations[i].text, "Vulnerable", 10);
	return n;
}

void confounders_print(const struct confounders *c)
{
	printf("clocksource  %s (available: %s)\n", c->clocksource[0] ? c->clocksource : "unknown",
	       c->clocksources[0] ? c->clocksources : "unknown");
	printf("nohz         %s%s%s\n", c->nohz, c->nohz_full[0] ? ", nohz_full=" : "",
	       c->nohz_full);
	printf("cpu          %s, %d online, governor %s\n",
	       c->cpu_model[0] ? c->cpu_model : "unknown model", c->cpus,
	       c->governor[0] ? c->governor : "none (no cpufreq)");
	printf("machine      %s%s%s%s, steal ", c->emulated ? "emulated" :
	       c->virtualised ? "virtual" : "hardware (no hypervisor bit)",
	       c->hypervisor[0] ? " (" : "", c->hypervisor, c->hypervisor[0] ? ")" : "");
	if (c->steal_share < 0)
		printf("unknown\n");
	else
		printf("%.2f%% of CPU time since boot\n", c->steal_share * 100);
	printf("mitigations  %zu files, %zu vulnerable (starve env --json lists them)\n",
	       c->n_mitigations, conf_count_vulnerable(c));
	printf("cmdline      %s\n", c->cmdline);
}
