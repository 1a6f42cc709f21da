/* The journal (harness/kernel/journal.h). The file is small text:
 *   starve-journal 2
 *   pid <pid> <start in clock ticks> <start, UTC ISO 8601>
 *   sysctl <name> <old value>        (%XX-escaped)
 *   debugfs <name> <old value>
 *   tracefs <instance>
 *   cgroup <directory>
 * Version 1 files ("knob <name> <value>", "knob tracefs:<instance> -") are
 * still read, so a journal left by an older starve can be restored.
 * It is rewritten whole on every change (temporary file, fsync, rename,
 * directory fsync), so a crash leaves either the old or the new version;
 * the first version is linked into place, so it exists whole or not at all.
 * The state directory's flock serialises every writer and `starve restore`. */
#include "config.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/journal-registry.h"
#include "harness/kernel/journal-undo.h"
#include "harness/kernel/knobs.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/procstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL_MAGIC "starve-journal 2"
#define JOURNAL_MAGIC_V1 "starve-journal 1"
#define JOURNAL_TMP_PREFIX "journal.tmp."
#define JOURNAL_LINE_MAX (3 * (JOURNAL_PATH_MAX + JOURNAL_VALUE_MAX) + 16)
#define JOURNAL_V1_TRACEFS "tracefs:"

static const char *const journal_kind_names[] = {
	[JOURNAL_SYSCTL] = "sysctl", [JOURNAL_DEBUGFS] = "debugfs",
	[JOURNAL_TRACEFS] = "tracefs", [JOURNAL_CGROUP] = "cgroup",
	[JOURNAL_CONTROLLER] = "controller", [JOURNAL_MOUNT] = "mount",
};

const char *journal_kind_name(enum journal_kind kind)
{
	return kind <= JOURNAL_MOUNT ? journal_kind_names[kind] : "?";
}

const char *journal_state_dir(void)
{
	const char *dir = getenv("STARVE_STATE_DIR");

	return dir && *dir ? dir : JOURNAL_DEFAULT_DIR;
}

static bool journal_plain(unsigned char c)
{
	return c > ' ' && c < 0x7f && c != '%' && c != '\\';
}

int journal_escape(const char *in, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)in; *c; c++) {
		if (journal_plain(*c)) {
			if (o + 1 >= len)
				return -1;
			out[o++] = (char)*c;
		} else {
			if (o + 3 >= len)
				return -1;
			out[o++] = '%';
			out[o++] = hex[*c >> 4];
			out[o++] = hex[*c & 15];
		}
	}
	if (o >= len)
		return -1;
	out[o] = '\0';
	return 0;
}

static int journal_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int journal_unescape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (const char *c = in; *c; c++) {
		int v = (unsigned char)*c;

		if (*c == '%') {
			int hi = journal_hexval(c[1]), lo = hi < 0 ? -1 : journal_hexval(c[2]);

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return -1;
			v = hi * 16 + lo;
			c += 2;
		} else if (!journal_plain((unsigned char)*c)) {
			return -1;
		}
		if (o + 1 >= len)
			return -1;
		out[o++] = (char)v;
	}
	out[o] = '\0';
	return 0;
}

/* Field 22 of /proc/PID/stat (start time in clock ticks), 0 if unknown. */
static uint64_t journal_starttime(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long ticks;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = fs_read_small(path, buf, sizeof(buf));
	return n < 0 || procstat_parse_starttime(buf, (size_t)n, &ticks) < 0 ? 0 : ticks;
}

bool journal_writer_alive(const struct journal *j)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (j->pid <= 0 || (kill(j->pid, 0) < 0 && errno == ESRCH))
		return false;
	if (j->pid_starttime && journal_starttime(j->pid) != j->pid_starttime)
		return false;	/* the pid was reused */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)j->pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, "starve");
}

static int journal_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("cannot open %s", dir);
	if (fsync(fd) < 0) {
		close(fd);
		return error_errno("cannot fsync %s", dir);
	}
	close(fd);
	return 0;
}


static bool journal_is_knob(enum journal_kind kind)
{
	return kind == JOURNAL_SYSCTL || kind == JOURNAL_DEBUGFS;
}

/* Whether KIND's lines have a second field: "KIND NAME VALUE". */
static bool journal_kind_has_value(enum journal_kind kind)
{
	return journal_is_knob(kind) || kind == JOURNAL_CONTROLLER;
}

static int journal_write_lines(FILE *f, const struct journal *j)
{
	char name[3 * JOURNAL_PATH_MAX], value[3 * JOURNAL_VALUE_MAX];

	fprintf(f, "%s\npid %d %llu %s\n", JOURNAL_MAGIC, (int)j->pid,
		(unsigned long long)j->pid_starttime, j->started);
	for (size_t i = 0; i < j->n; i++) {
		const struct journal_entry *e = &j->entries[i];
		bool two = journal_kind_has_value(e->kind);

		/* a controller's second field is its directory */
		if (journal_escape(e->kind == JOURNAL_CGROUP ? e->path : e->name, name,
				   sizeof(name)) < 0 ||
		    journal_escape(e->kind == JOURNAL_CONTROLLER ? e->path : e->value, value,
				   sizeof(value)) < 0)
			return error("journal entry for '%s' is too long", e->name);
		fprintf(f, "%s %s%s%s\n", journal_kind_name(e->kind), name, two ? " " : "",
			two ? value : "");
	}
	return 0;
}

/* Write J into a new temporary file of its directory, fsync'd; its name
 * into TMP (LEN bytes). */
static int journal_write_tmp(const struct journal *j, char *tmp, size_t len)
{
	FILE *f;
	int fd, ok;

	snprintf(tmp, len, "%s/%s%d", j->dir, JOURNAL_TMP_PREFIX, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_errno("cannot write journal %s", tmp);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return error_errno("cannot write journal %s", tmp);
	}
	ok = journal_write_lines(f, j) == 0 && fflush(f) == 0 && fsync(fd) == 0;
	if (!ok)
		error_errno("cannot write journal %s", tmp);
	if (fclose(f) != 0)
		ok = 0;
	if (!ok) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Replace the journal file with J's contents, durably. */
static int journal_save(const struct journal *j)
{
	char tmp[JOURNAL_PATH_MAX + 32];

	if (journal_write_tmp(j, tmp, sizeof(tmp)) < 0)
		return -1;
	if (rename(tmp, j->file) < 0) {
		error_errno("cannot rename %s to %s", tmp, j->file);
		unlink(tmp);
		return -1;
	}
	return journal_fsync_dir(j->dir);
}

/* Create the journal file whole and exclusively: link() of a complete
 * temporary file fails if a journal exists, and never shows a partial one. */
static int journal_create(const struct journal *j)
{
	char tmp[JOURNAL_PATH_MAX + 32];
	int ret = 0;

	if (journal_write_tmp(j, tmp, sizeof(tmp)) < 0)
		return -1;
	if (link(tmp, j->file) < 0)
		ret = errno == EEXIST ?
		      error("another run has just started and holds the journal %s", j->file) :
		      error_errno("cannot create journal %s", j->file);
	unlink(tmp);
	return ret < 0 ? -1 : journal_fsync_dir(j->dir);
}

static int journal_set_dir(struct journal *j, const char *dir)
{
	memset(j, 0, sizeof(*j));
	j->dir_lock = -1;
	if (!dir)
		dir = journal_state_dir();
	if ((size_t)snprintf(j->dir, sizeof(j->dir), "%s", dir) >= sizeof(j->dir) ||
	    (size_t)snprintf(j->file, sizeof(j->file), "%s/journal", dir) >= sizeof(j->file))
		return error("state directory path '%s' is too long", dir);
	journal_registry_pointer(dir, j->pointer, sizeof(j->pointer));
	return 0;
}

/* ---- reading ---- */

/* A new entry of KIND from the file; checks what a tampered file could abuse. */
static int journal_parse_entry(struct journal *j, enum journal_kind kind, const char *name,
			       const char *value, const char *where)
{
	struct journal_entry *e = &j->entries[j->n];
	char why[256];

	if (j->n == JOURNAL_MAX_ENTRIES)
		return error("%s: more than %d entries", where, JOURNAL_MAX_ENTRIES);
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	if (journal_unescape(value, e->value, sizeof(e->value)) < 0)
		return error("%s: bad escaping or too long", where);
	switch (kind) {
	case JOURNAL_TRACEFS:
		if (journal_unescape(name, e->name, sizeof(e->name)) < 0 ||
		    !journal_tracefs_name_ok(e->name))
			return error("%s: bad tracefs instance name '%s'", where, name);
		break;
	case JOURNAL_CGROUP:
		if (journal_unescape(name, e->name, sizeof(e->name)) < 0 ||
		    !journal_cgroup_path_ok(e->name))
			return error("%s: bad cgroup directory '%s' (not under %s?)", where, name,
				     JOURNAL_CGROUP_ROOT);
		_Static_assert(JOURNAL_PATH_MAX >= JOURNAL_NAME_MAX, "a cgroup name is its path");
		memcpy(e->path, e->name, sizeof(e->name));
		break;
	case JOURNAL_CONTROLLER:
		if (journal_unescape(name, e->name, sizeof(e->name)) < 0 ||
		    !journal_controller_name_ok(e->name))
			return error("%s: bad controller name '%s'", where, name);
		memcpy(e->path, e->value, sizeof(e->value));	/* the second field */
		e->value[0] = '\0';
		if (!journal_controller_dir_ok(e->path))
			return error("%s: bad cgroup directory '%s' (not under %s?)", where,
				     e->path, JOURNAL_CGROUP_ROOT);
		break;
	case JOURNAL_MOUNT:
		if (journal_unescape(name, e->name, sizeof(e->name)) < 0 ||
		    !journal_mount_point(e->name))
			return error("%s: bad file system '%s' (tracefs or debugfs)", where, name);
		snprintf(e->path, sizeof(e->path), "%s", journal_mount_point(e->name));
		break;
	case JOURNAL_SYSCTL:
	case JOURNAL_DEBUGFS:
		if (journal_unescape(name, e->name, sizeof(e->name)) < 0)
			return error("%s: bad escaping or too long", where);
		if (knob_name_check(e->name, why, sizeof(why)) < 0)
			return error("%s: %s", where, why);
		if ((kind == JOURNAL_DEBUGFS) != !strncmp(e->name, "debugfs:", 8))
			return error("%s: '%s' is not a %s knob", where, e->name,
				     journal_kind_name(kind));
		if (knob_path(e->name, e->path, sizeof(e->path)) < 0)
			return -1;
		break;
	}
	j->n++;
	return 0;
}

/* "KIND NAME [VALUE]": the kind's word, then its fields. */
static int journal_parse_line(struct journal *j, char *line, bool v1, const char *where)
{
	char *name = strchr(line, ' '), *value;
	bool two;
	int kind = -1;

	if (!name)
		return error("%s: unknown line", where);
	*name++ = '\0';
	value = strchr(name, ' ');
	if (value)
		*value++ = '\0';
	if (v1 && !strcmp(line, "knob")) {
		/* version 1: "knob NAME VALUE", tracefs as "knob tracefs:NAME -" */
		if (!strncmp(name, JOURNAL_V1_TRACEFS, strlen(JOURNAL_V1_TRACEFS)))
			return value && !strcmp(value, "-") ?
			       journal_parse_entry(j, JOURNAL_TRACEFS,
						   name + strlen(JOURNAL_V1_TRACEFS), "", where) :
			       error("%s: expected 'knob tracefs:NAME -'", where);
		kind = strncmp(name, "debugfs:", 8) ? JOURNAL_SYSCTL : JOURNAL_DEBUGFS;
	}
	for (int k = 0; !v1 && k <= JOURNAL_MOUNT; k++)
		if (!strcmp(line, journal_kind_names[k]))
			kind = k;
	if (kind < 0)
		return error("%s: unknown line", where);
	two = journal_kind_has_value((enum journal_kind)kind);
	if (two != (value != NULL) || (value && strchr(value, ' ')))
		return error("%s: expected '%s NAME%s'", where, v1 ? "knob" : line,
			     !two ? "" : kind == JOURNAL_CONTROLLER ? " DIRECTORY" : " VALUE");
	return journal_parse_entry(j, (enum journal_kind)kind, name, value ? value : "", where);
}

static int journal_parse_header(struct journal *j, const char *line, const char *where)
{
	int pid, len = 0;
	unsigned long long st;

	if (sscanf(line, "pid %d %llu %31s%n", &pid, &st, j->started, &len) != 3 ||
	    line[len] != '\0' || pid <= 0)
		return error("%s: expected 'pid PID STARTTIME STARTED'", where);
	j->pid = pid;
	j->pid_starttime = st;
	return 0;
}

/* Returns 0, -1 (message printed), or 1 for an empty or header-less file. */
static int journal_parse(struct journal *j, FILE *f)
{
	char line[JOURNAL_LINE_MAX], where[JOURNAL_PATH_MAX + 16];
	int lineno = 0;
	bool v1 = false;

	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		snprintf(where, sizeof(where), "%s:%d", j->file, ++lineno);
		if (!n || line[n - 1] != '\n')
			return lineno <= 2 ? 1 : error("%s: line too long or truncated", where);
		line[n - 1] = '\0';
		if (lineno == 1) {
			v1 = !strcmp(line, JOURNAL_MAGIC_V1);
			if (!v1 && strcmp(line, JOURNAL_MAGIC))
				return error("%s: not a starve journal (no '%s' line)", where,
					     JOURNAL_MAGIC);
		} else if (lineno == 2) {
			if (journal_parse_header(j, line, where) < 0)
				return -1;
		} else if (journal_parse_line(j, line, v1, where) < 0) {
			return -1;
		}
	}
	return lineno < 2 ? 1 : 0;
}

static int journal_read(struct journal *j)
{
	FILE *f;
	int ret;

	f = fopen(j->file, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return error_errno("cannot read journal %s", j->file);
	}
	ret = journal_parse(j, f);
	fclose(f);
	if (ret < 0)
		return -1;
	if (ret > 0) {
		/* Only a starve of before version 2 could leave one (it created
		 * the file empty, then wrote it): nothing was changed yet. */
		memset(j->entries, 0, sizeof(j->entries));
		j->n = 0;
		j->partial = true;
		return 0;
	}
	j->is_open = true;
	return 1;
}

int journal_load(struct journal *j, const char *dir)
{
	return journal_set_dir(j, dir) < 0 ? -1 : journal_read(j);
}

/* ---- claiming ---- */

static int journal_lock_dir(struct journal *j)
{
	int fd = open(j->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("cannot open state directory %s", j->dir);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		close(fd);
		if (err == EWOULDBLOCK)
			return error("a run is in progress: it holds the state directory %s "
				     "(or its watchdog is restoring after it died)", j->dir);
		errno = err;
		return error_errno("cannot lock state directory %s", j->dir);
	}
	j->dir_lock = fd;
	return 0;
}

/* Only close: a watchdog forked after the lock was taken shares it, and
 * keeps it until it is done restoring. */
static void journal_unlock_dir(struct journal *j)
{
	if (j->dir_lock >= 0)
		close(j->dir_lock);
	j->dir_lock = -1;
}

void journal_release(struct journal *j)
{
	journal_unlock_dir(j);
}

int journal_load_locked(struct journal *j, const char *dir)
{
	int ret;

	if (journal_set_dir(j, dir) < 0)
		return -1;
	if (access(j->dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (journal_lock_dir(j) < 0)
		return -1;
	ret = journal_read(j);
	if (ret <= 0 && !j->partial)
		journal_unlock_dir(j);
	return ret;
}

/* Temporary files a writer killed inside a save left: under the lock no
 * other writer exists, so all of them are stale. */
static void journal_remove_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[JOURNAL_PATH_MAX + 300];

	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, JOURNAL_TMP_PREFIX, strlen(JOURNAL_TMP_PREFIX))) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (unlink(path) == 0)
				warning("removed %s, a journal save a killed run left unfinished",
					path);
		}
	closedir(d);
}

int journal_refuse(const struct journal *j, const char *where)
{
	if (journal_writer_alive(j))
		return error("a run is in progress: pid %d (started %s) has changed knobs (its "
			     "journal %s%s); wait for it to end, it restores them itself",
			     (int)j->pid, j->started, j->file, where);
	return error("an unrestored journal from pid %d (started %s) exists at %s%s; run "
		     "'starve restore' first%s", (int)j->pid, j->started, j->file, where,
		     *where ? " (it restores every state directory's)" : "");
}

/* An existing journal: remove it if it holds nothing to undo and its
 * writer is dead, else refuse to start. Runs under the directory's lock. */
static int journal_check_existing(const char *dir)
{
	struct journal *old = malloc(sizeof(*old));
	int ret;

	if (!old)
		return error("out of memory");
	ret = journal_load(old, dir);
	if (ret > 0 && journal_writer_alive(old)) {
		ret = error("a run is in progress: pid %d (started %s) holds the journal %s",
			    (int)old->pid, old->started, old->file);
	} else if (ret == 0 && old->partial) {
		warning("removed %s: an empty journal a run killed as it started left (nothing "
			"was changed yet)", old->file);
		ret = unlink(old->file) < 0 ? error_errno("cannot remove %s", old->file) : 0;
	} else if (ret > 0 && old->n == 0) {
		ret = unlink(old->file) < 0 ? error_errno("cannot remove %s", old->file) : 0;
	} else if (ret > 0) {
		ret = journal_refuse(old, "");
	} else if (ret < 0) {
		error("run 'starve restore' to restore what it can, or inspect and remove it");
	}
	free(old);
	return ret;
}

int journal_open(struct journal *j, const char *dir)
{
	time_t now = time(NULL);
	struct tm tm;

	if (journal_set_dir(j, dir) < 0)
		return -1;
	if (mkdir(j->dir, 0700) < 0 && errno != EEXIST)
		return error_errno("cannot create state directory %s", j->dir);
	if (journal_lock_dir(j) < 0)
		return -1;
	journal_remove_stale_tmp(j->dir);
	j->pid = getpid();
	j->pid_starttime = journal_starttime(j->pid);
	gmtime_r(&now, &tm);
	strftime(j->started, sizeof(j->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (journal_check_existing(j->dir) < 0 || journal_create(j) < 0) {
		journal_unlock_dir(j);
		return -1;
	}
	j->is_open = true;
	return 0;
}

/* ---- recording ---- */

static int journal_add(struct journal *j, enum journal_kind kind, const char *name,
		       const char *path, const char *value)
{
	struct journal_entry *e;

	if (!j->is_open)
		return error("journal is not open");
	for (size_t i = 0; i < j->n; i++)
		if (j->entries[i].kind == kind && !strcmp(j->entries[i].name, name))
			return 0;	/* keep the oldest value */
	if (j->n == JOURNAL_MAX_ENTRIES)
		return error("too many entries for the journal (%d at most)", JOURNAL_MAX_ENTRIES);
	e = &j->entries[j->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	if ((size_t)snprintf(e->name, sizeof(e->name), "%s", name) >= sizeof(e->name) ||
	    (size_t)snprintf(e->path, sizeof(e->path), "%s", path) >= sizeof(e->path) ||
	    (size_t)snprintf(e->value, sizeof(e->value), "%s", value) >= sizeof(e->value))
		return error("'%s' or its value is too long for the journal", name);
	j->n++;
	if (journal_save(j) < 0) {
		j->n--;
		return -1;
	}
	return 0;
}

int journal_record_path(struct journal *j, const char *knob, const char *path,
			const char *old_value)
{
	return journal_add(j, strncmp(knob, "debugfs:", 8) ? JOURNAL_SYSCTL : JOURNAL_DEBUGFS,
			   knob, path, old_value);
}

int journal_record(struct journal *j, const char *knob, const char *old_value)
{
	char path[JOURNAL_PATH_MAX];

	if (knob_path(knob, path, sizeof(path)) < 0)
		return -1;
	return journal_record_path(j, knob, path, old_value);
}

int journal_record_tracefs(struct journal *j, const char *instance)
{
	if (!journal_tracefs_name_ok(instance))
		return error("tracefs instance name '%s' is not starve-<pid>", instance);
	return journal_add(j, JOURNAL_TRACEFS, instance, "", "");
}

int journal_record_cgroup(struct journal *j, const char *dir)
{
	if (strlen(dir) >= JOURNAL_NAME_MAX || !journal_cgroup_path_ok(dir))
		return error("cgroup directory '%s' is not a plain path under %s (at most %d "
			     "bytes)", dir, JOURNAL_CGROUP_ROOT, JOURNAL_NAME_MAX - 1);
	return journal_add(j, JOURNAL_CGROUP, dir, dir, "");
}

int journal_record_controller(struct journal *j, const char *dir, const char *controller)
{
	if (!journal_controller_name_ok(controller))
		return error("'%s' is not a cgroup controller's name", controller);
	if (strlen(dir) >= JOURNAL_VALUE_MAX || !journal_controller_dir_ok(dir))
		return error("cgroup directory '%s' is not a plain path under %s (at most %d "
			     "bytes)", dir, JOURNAL_CGROUP_ROOT, JOURNAL_VALUE_MAX - 1);
	return journal_add(j, JOURNAL_CONTROLLER, controller, dir, "");
}

int journal_record_mount(struct journal *j, const char *fstype)
{
	const char *at = journal_mount_point(fstype);

	if (!at)
		return error("starve mounts only tracefs and debugfs, not '%s'", fstype);
	return journal_add(j, JOURNAL_MOUNT, fstype, at, "");
}

bool journal_has(const struct journal *j, enum journal_kind kind, const char *name)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->entries[i].kind == kind && !strcmp(j->entries[i].name, name))
			return true;
	return false;
}

int journal_forget(struct journal *j, enum journal_kind kind, const char *name)
{
	size_t kept = 0;

	for (size_t i = 0; i < j->n; i++)
		if (j->entries[i].kind != kind || strcmp(j->entries[i].name, name))
			j->entries[kept++] = j->entries[i];
	if (kept == j->n)
		return 0;
	j->n = kept;
	return journal_save(j);
}

/* ---- restoring ---- */

/* The kernel's reason when it refused a knob that its deadline bandwidth
 * admission checks (EBUSY): the root domain's count of the fair servers'
 * bandwidth can fall short of what they hold (6.12.118 after every
 * sched_rt_runtime_us write), and then any lowering is refused
 * (doc/kernels.md). "" otherwise. */
static const char *journal_dl_refused(const struct journal_entry *e, int err)
{
	if (err != EBUSY || (!strstr(e->name, "fair_server/") && !strstr(e->name, "sched_rt_runtime_us")))
		return "";
	return " (the kernel's deadline bandwidth admission refused it: its root domain counts "
	       "less than the servers hold; taking a CPU offline and online recounts it, "
	       "doc/kernels.md)";
}

int journal_undo_one(struct journal *j, enum journal_kind kind, const char *name)
{
	for (size_t i = 0; i < j->n; i++) {
		int err;

		if (j->entries[i].kind != kind || strcmp(j->entries[i].name, name))
			continue;
		err = journal_undo(&j->entries[i]);
		return err ? err : journal_forget(j, kind, name) < 0 ? EIO : 0;
	}
	return 0;
}

/* Undo the entries (all, or the knobs only), keeping the failed ones and
 * those not undone, in their order. */
static int journal_restore(struct journal *j, bool knobs_only)
{
	bool keep[JOURNAL_MAX_ENTRIES] = { false };
	size_t order[JOURNAL_MAX_ENTRIES], kept = 0;
	int failed = 0;

	journal_undo_order(j, order);
	for (size_t k = 0; k < j->n; k++) {
		struct journal_entry *e = &j->entries[order[k]];
		int err;

		if (knobs_only && !journal_is_knob(e->kind)) {
			keep[order[k]] = true;
			continue;
		}
		err = journal_undo(e);
		if (!err)
			continue;
		if (journal_is_knob(e->kind))
			error("%s: cannot restore '%s' (%s): %s%s", e->name, e->value, e->path,
			      strerror(err), journal_dl_refused(e, err));
		else if (e->kind == JOURNAL_CONTROLLER)
			error("controller %s in %s: cannot disable it: %s", e->name, e->path,
			      strerror(err));
		else
			error("%s %s: cannot remove it: %s", journal_kind_name(e->kind), e->name,
			      strerror(err));
		keep[order[k]] = true;
		failed++;
	}
	/* the failed ones (and those left alone) stay, for a later 'starve restore' */
	for (size_t i = 0; i < j->n; i++)
		if (keep[i])
			j->entries[kept++] = j->entries[i];
	j->n = kept;
	if (j->is_open && journal_save(j) < 0)
		return failed + 1;
	return failed;
}

int journal_restore_all(struct journal *j)
{
	return journal_restore(j, false);
}

int journal_restore_knobs(struct journal *j)
{
	return journal_restore(j, true);
}

int journal_restore_from_signal(struct journal *j)
{
	size_t order[JOURNAL_MAX_ENTRIES];
	int failed = 0;

	journal_undo_order(j, order);
	for (size_t k = 0; k < j->n; k++)
		if (journal_undo(&j->entries[order[k]]))
			failed++;
	if (!failed) {
		j->n = 0;
		unlink(j->file);
		if (j->pointer[0])
			unlink(j->pointer);	/* after the file: never a journal unregistered */
		j->is_open = false;
	}
	return failed;
}

int journal_close(struct journal *j)
{
	if (!j->is_open) {
		journal_unlock_dir(j);
		return 0;
	}
	if (j->n) {
		journal_unlock_dir(j);
		return error("%zu entr%s not restored; the journal stays at %s: run 'starve "
			     "restore'", j->n, j->n == 1 ? "y" : "ies", j->file);
	}
	return journal_remove(j);
}

int journal_remove(struct journal *j)
{
	int ret = 0;

	if (unlink(j->file) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove journal %s", j->file);
	else
		j->is_open = false;
	if (ret == 0 && j->pointer[0])
		unlink(j->pointer);	/* after the file: never a journal unregistered */
	if (ret == 0)
		ret = journal_fsync_dir(j->dir);
	journal_unlock_dir(j);
	return ret;
}
