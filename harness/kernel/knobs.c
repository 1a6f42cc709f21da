/* Scheduler knobs (harness/kernel/knobs.h): name checking, mapping names to files
 * under /proc/sys or the sched debugfs directory, and reading, probing and
 * writing them as text. Names are checked strictly because they come from
 * profiles and are turned into paths that a root process writes to. */
#include "config.h"
#include "harness/kernel/knobs.h"
#include "harness/kernel/knob-features.h"
#include "harness/kernel/knob-write.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KNOB_SYSCTL_ROOT "/proc/sys"
#define KNOB_DEBUGFS_PREFIX "debugfs:"
#define KNOB_DEBUGFS_SCHED "debugfs:sched/"
#define KNOB_DEBUGFS_DEFAULT "/sys/kernel/debug"

const char *const knob_known[] = {
	"kernel.sched_rt_runtime_us",
	"kernel.sched_rt_period_us",
	"kernel.sched_autogroup_enabled",
	"kernel.sched_g1",
	"kernel.sched_g2",
	"debugfs:sched/features",
	"debugfs:sched/base_slice_ns",
	"debugfs:sched/preempt",
	/* The deadline fair server is per CPU (fair_server/cpu<N>/{runtime,
	 * period}); cpu0's stands for all of them in this list. */
	"debugfs:sched/fair_server/cpu0/runtime",
	"debugfs:sched/fair_server/cpu0/period",
	NULL,
};

static bool knob_is_debugfs(const char *name)
{
	return strncmp(name, KNOB_DEBUGFS_PREFIX, strlen(KNOB_DEBUGFS_PREFIX)) == 0;
}

/* "debugfs:sched/<rel>": rel is relative, made of [A-Za-z0-9_.-] components
 * separated by single slashes, none of them "." or "..". */
static int knob_check_debugfs(const char *name, char *why, size_t why_len)
{
	const char *rel, *p, *comp;
	size_t n;

	if (strncmp(name, KNOB_DEBUGFS_SCHED, strlen(KNOB_DEBUGFS_SCHED)) != 0)
		return error_why(why, why_len, "knob name '%s' is not under debugfs:sched/ "
				"(only the scheduler's debugfs files are knobs)", name);
	rel = name + strlen(KNOB_DEBUGFS_SCHED);
	if (!*rel)
		return error_why(why, why_len, "knob name '%s' names no file under debugfs:sched/",
				name);
	for (comp = rel;; comp = p + 1) {
		p = comp + strcspn(comp, "/");
		n = (size_t)(p - comp);
		if ((n == 2 && !strncmp(comp, "..", 2)) || (n == 1 && comp[0] == '.') ||
		    (n == 0 && comp == rel))
			return error_why(why, why_len, "knob name '%s' would leave %s/sched",
					name, KNOB_DEBUGFS_DEFAULT);
		if (n == 0)
			return error_why(why, why_len, "knob name '%s' has an empty path component",
					name);
		for (const char *c = comp; c < p; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_.-", *c))
				return error_why(why, why_len, "knob name '%s' has a bad character '%c' "
						"(debugfs knobs use [A-Za-z0-9_.-] and '/')",
						name, *c);
		if (!*p)
			return 0;
	}
}

/* A sysctl name: [a-z0-9_]+ parts separated by single dots, two parts at least. */
static int knob_check_sysctl(const char *name, char *why, size_t why_len)
{
	size_t parts = 1, len = 0;

	if (strchr(name, '/') || strspn(name, ".") == strlen(name)) {
		if (name[0] == '/' || name[0] == '.' || strstr(name, ".."))
			return error_why(why, why_len, "knob name '%s' would leave %s",
					name, KNOB_SYSCTL_ROOT);
		return error_why(why, why_len, "knob name '%s' has a '/': write sysctl names "
				"with dots (kernel.sched_rt_period_us)", name);
	}
	for (const char *c = name; *c; c++) {
		if (*c == '.') {
			if (len == 0)
				break;
			parts++;
			len = 0;
		} else if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_') {
			len++;
		} else {
			return error_why(why, why_len, "knob name '%s' has a bad character '%c' "
					"(sysctl names use [a-z0-9_] and dots)", name, *c);
		}
	}
	if (len == 0)
		return error_why(why, why_len, "knob name '%s' has an empty part "
				"(a doubled, leading or trailing dot)", name);
	if (parts < 2)
		return error_why(why, why_len, "knob name '%s' needs at least two dotted parts "
				"(kernel.sched_rt_period_us)", name);
	return 0;
}

int knob_name_check(const char *name, char *why, size_t why_len)
{
	if (!name || !*name)
		return error_why(why, why_len, "knob name is empty");
	if (knob_is_debugfs(name))
		return knob_check_debugfs(name, why, why_len);
	return knob_check_sysctl(name, why, why_len);
}

/* Where debugfs is mounted, or "" when it is not. */
static void knob_debugfs_mount(char *buf, size_t len)
{
	struct mntent ent, *m;
	char strings[1024];
	FILE *f = setmntent("/proc/self/mounts", "r");

	buf[0] = '\0';
	if (!f)
		return;
	while ((m = getmntent_r(f, &ent, strings, sizeof(strings)))) {
		if (!strcmp(m->mnt_type, "debugfs")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			break;
		}
	}
	endmntent(f);
}

bool knob_debugfs_dir(char *dir, size_t len)
{
	knob_debugfs_mount(dir, len);
	return dir[0] != '\0';
}

/* Like knob_path() but reports failures in why instead of printing. */
static int knob_path_why(const char *name, char *path, size_t len, char *why, size_t why_len)
{
	char mnt[256];
	int n;

	if (knob_name_check(name, why, why_len) < 0)
		return -1;
	if (knob_is_debugfs(name)) {
		knob_debugfs_mount(mnt, sizeof(mnt));
		n = snprintf(path, len, "%s/%s", *mnt ? mnt : KNOB_DEBUGFS_DEFAULT,
			     name + strlen(KNOB_DEBUGFS_PREFIX));
	} else {
		/* kernel.sched_rt_period_us -> /proc/sys/kernel/sched_rt_period_us */
		n = snprintf(path, len, "%s/%s", KNOB_SYSCTL_ROOT, name);
		for (char *c = path + strlen(KNOB_SYSCTL_ROOT); n > 0 && (size_t)n < len && *c; c++)
			if (*c == '.')
				*c = '/';
	}
	if (n < 0 || (size_t)n >= len)
		return error_why(why, why_len, "path for knob '%s' is too long", name);
	return 0;
}

int knob_path(const char *name, char *path, size_t len)
{
	char why[256];

	if (knob_path_why(name, path, len, why, sizeof(why)) < 0)
		return error("%s", why);
	return 0;
}

/* Read a whole small text file into buf without its trailing newline; -1
 * with errno set on failure. *truncated says the value did not fit. The
 * file is read whole into a page-sized buffer because sysctl integer
 * handlers return EOF to any read at a non-zero offset. */
static int knob_read_file(const char *path, char *buf, size_t len, bool *truncated)
{
	char page[4096];
	size_t got = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (got + 1 < sizeof(page) && (r = read(fd, page + got, sizeof(page) - 1 - got))) {
		if (r < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		got += (size_t)r;
	}
	close(fd);
	while (got && page[got - 1] == '\n')
		got--;
	*truncated = got >= len;
	if (*truncated)
		got = len - 1;
	memcpy(buf, page, got);
	buf[got] = '\0';
	return 0;
}

/* Explain an errno from opening or writing a knob; EPERM for root almost
 * always means kernel lockdown (debugfs sched files). */
static const char *knob_errno_hint(int err)
{
	switch (err) {
	case EPERM:
		return geteuid() == 0 ? " (kernel lockdown?)" : " (needs root)";
	case EACCES:
		return geteuid() == 0 ? "" : " (needs root)";
	case EROFS:
		return " (read-only, e.g. in a container)";
	default:
		return "";
	}
}

static bool knob_debugfs_missing(const char *name)
{
	char mnt[256];

	if (!knob_is_debugfs(name))
		return false;
	knob_debugfs_mount(mnt, sizeof(mnt));
	return !*mnt;
}

/* Whether the knob could be written, found without writing anything:
 * opening a /proc/sys or debugfs file for writing does not change it, and
 * that open is where lockdown refuses (EPERM) even when access() agrees. */
static void knob_probe_write(const char *path, struct knob_state *st)
{
	int fd;

	if (access(path, W_OK) < 0) {
		error_why(st->reason, sizeof(st->reason), "not writable: %s%s",
			 strerror(errno), knob_errno_hint(errno));
		return;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		error_why(st->reason, sizeof(st->reason), "not writable: %s%s",
			 strerror(errno), knob_errno_hint(errno));
		return;
	}
	close(fd);
	st->writable = true;
}

int knob_probe(const char *name, struct knob_state *st)
{
	char path[512];
	bool truncated;
	struct stat sb;

	memset(st, 0, sizeof(*st));
	if (knob_path_why(name, path, sizeof(path), st->reason, sizeof(st->reason)) < 0)
		return -1;
	if (knob_debugfs_missing(name)) {
		error_why(st->reason, sizeof(st->reason), "debugfs is not mounted");
		return 0;
	}
	if (stat(path, &sb) < 0) {
		error_why(st->reason, sizeof(st->reason), "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " (not in this kernel)" : knob_errno_hint(errno));
		return 0;
	}
	st->present = true;
	if (knob_read_file(path, st->value, sizeof(st->value), &truncated) < 0) {
		error_why(st->reason, sizeof(st->reason), "not readable: %s%s",
			 strerror(errno), knob_errno_hint(errno));
		return 0;
	}
	st->readable = true;
	knob_probe_write(path, st);
	return 0;
}

int knob_read(const char *name, char *value, size_t len)
{
	char path[512];
	bool truncated;

	if (knob_path(name, path, sizeof(path)) < 0)
		return -1;
	if (knob_debugfs_missing(name))
		return error("cannot read knob '%s': debugfs is not mounted", name);
	if (knob_read_file(path, value, len, &truncated) < 0)
		return error("cannot read knob '%s' (%s): %s%s", name, path, strerror(errno),
			     knob_errno_hint(errno));
	if (truncated)
		return error("value of knob '%s' is longer than %zu bytes", name, len - 1);
	return 0;
}

int knob_write(const char *name, const char *value, char *why, size_t why_len)
{
	char path[512];
	bool opened;
	int err;

	if (knob_path_why(name, path, sizeof(path), why, why_len) < 0)
		return -1;
	if (knob_debugfs_missing(name))
		return error_why(why, why_len, "cannot write knob '%s': debugfs is not mounted",
				name);
	if (kfeat_is_knob(name)) {	/* one feature per write */
		err = kfeat_write_tokens(path, value);
		return err ? error_why(why, why_len, "cannot write '%s' to knob '%s': %s%s", value,
				      name, strerror(err), knob_errno_hint(err)) : 0;
	}
	err = knob_write_line(path, value, strlen(value), 0, &opened);
	if (err == E2BIG)
		return error_why(why, why_len, "value for knob '%s' is too long", name);
	if (err && !opened)
		return error_why(why, why_len, "cannot open knob '%s' (%s) for writing: %s%s",
				name, path, strerror(err), knob_errno_hint(err));
	if (err)
		return error_why(why, why_len, "cannot write '%s' to knob '%s': %s%s", value, name,
				strerror(err), err == EINVAL ? " (the kernel rejected the value)"
				: knob_errno_hint(err));
	return 0;
}
