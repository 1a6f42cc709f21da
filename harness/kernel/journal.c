/* The knob journal (harness/kernel/journal.h). The file is small text:
 *   starve-journal 1
 *   pid <pid> <start in clock ticks> <start, UTC ISO 8601>
 *   knob <name> <old value>          (one per knob, %XX-escaped)
 * It is rewritten whole on every change (temporary file, fsync, rename,
 * directory fsync), so a crash leaves either the old or the new version. */
#include "config.h"
#include "harness/kernel/journal.h"
#include "harness/kernel/knobs.h"
#include "harness/kernel/knob-features.h"
#include "harness/kernel/knob-write.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL_MAGIC "starve-journal 1"
#define JOURNAL_LINE_MAX (3 * (JOURNAL_NAME_MAX + JOURNAL_VALUE_MAX) + 16)

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
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, field = 2;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold spaces and ')' */
	if (!p)
		return 0;
	while (*p && field < 22)
		if (*p++ == ' ')
			field++;
	return strtoull(p, NULL, 10);
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

static int journal_write_lines(FILE *f, const struct journal *j)
{
	char name[3 * JOURNAL_NAME_MAX], value[3 * JOURNAL_VALUE_MAX];

	fprintf(f, "%s\npid %d %llu %s\n", JOURNAL_MAGIC, (int)j->pid,
		(unsigned long long)j->pid_starttime, j->started);
	for (size_t i = 0; i < j->n; i++) {
		if (journal_escape(j->entries[i].knob, name, sizeof(name)) < 0 ||
		    journal_escape(j->entries[i].value, value, sizeof(value)) < 0)
			return error("journal entry for '%s' is too long", j->entries[i].knob);
		fprintf(f, "knob %s %s\n", name, value);
	}
	return 0;
}

/* Replace the journal file with J's contents, durably. */
static int journal_save(const struct journal *j)
{
	char tmp[JOURNAL_PATH_MAX + 32];
	FILE *f;
	int fd, ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", j->file, (int)getpid());
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
	if (!ok || rename(tmp, j->file) < 0) {
		if (ok)
			error_errno("cannot rename %s to %s", tmp, j->file);
		unlink(tmp);
		return -1;
	}
	return journal_fsync_dir(j->dir);
}

static int journal_set_dir(struct journal *j, const char *dir)
{
	memset(j, 0, sizeof(*j));
	if (!dir)
		dir = journal_state_dir();
	if ((size_t)snprintf(j->dir, sizeof(j->dir), "%s", dir) >= sizeof(j->dir) ||
	    (size_t)snprintf(j->file, sizeof(j->file), "%s/journal", dir) >= sizeof(j->file))
		return error("state directory path '%s' is too long", dir);
	return 0;
}

/* One "knob NAME VALUE" line into a new entry; the path comes from the name. */
/* ---- tracefs instances: entries "tracefs:NAME", undone by removing it ----
 * (a stopgap until the journal has kinds of entries: then this becomes one) */

static bool journal_is_tracefs(const char *knob)
{
	return !strncmp(knob, JOURNAL_TRACEFS_PREFIX, strlen(JOURNAL_TRACEFS_PREFIX));
}

/* Only "starve-<digits>": a tampered journal must not make us rmdir anything else. */
static bool journal_tracefs_name_ok(const char *name)
{
	if (strncmp(name, "starve-", 7) || !name[7])
		return false;
	for (const char *c = name + 7; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

/* Remove the instance wherever tracefs is mounted; async-signal-safe.
 * Returns 0 when it is gone (or was never made), else an errno. */
static int journal_remove_tracefs(const char *knob)
{
	static const char *const roots[] = { "/sys/kernel/tracing/instances/",
					     "/sys/kernel/debug/tracing/instances/" };
	const char *name = knob + strlen(JOURNAL_TRACEFS_PREFIX);
	char path[JOURNAL_PATH_MAX];
	int err = 0;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		size_t a = strlen(roots[i]), b = strlen(name);

		if (a + b >= sizeof(path))
			return ENAMETOOLONG;
		memcpy(path, roots[i], a);
		memcpy(path + a, name, b + 1);
		if (rmdir(path) < 0 && errno != ENOENT && errno != ENOTDIR)
			err = errno;
	}
	return err;
}

int journal_record_tracefs(struct journal *j, const char *instance)
{
	char knob[JOURNAL_NAME_MAX];

	if (!journal_tracefs_name_ok(instance))
		return error("tracefs instance name '%s' is not starve-<pid>", instance);
	snprintf(knob, sizeof(knob), "%s%s", JOURNAL_TRACEFS_PREFIX, instance);
	return journal_record_path(j, knob, "", "-");
}

int journal_forget_tracefs(struct journal *j, const char *instance)
{
	char knob[JOURNAL_NAME_MAX];
	size_t kept = 0;

	snprintf(knob, sizeof(knob), "%s%s", JOURNAL_TRACEFS_PREFIX, instance);
	for (size_t i = 0; i < j->n; i++)
		if (strcmp(j->entries[i].knob, knob))
			j->entries[kept++] = j->entries[i];
	if (kept == j->n)
		return 0;
	j->n = kept;
	return journal_save(j);
}

static int journal_parse_knob(struct journal *j, char *line, const char *where)
{
	struct journal_entry *e = &j->entries[j->n];
	char *name = line + 5, *value = strchr(name, ' '), why[256];

	if (!value || strchr(value + 1, ' '))
		return error("%s: expected 'knob NAME VALUE'", where);
	*value++ = '\0';
	if (j->n == JOURNAL_MAX_ENTRIES)
		return error("%s: more than %d knobs", where, JOURNAL_MAX_ENTRIES);
	if (journal_unescape(name, e->knob, sizeof(e->knob)) < 0 ||
	    journal_unescape(value, e->value, sizeof(e->value)) < 0)
		return error("%s: bad escaping or too long", where);
	if (journal_is_tracefs(e->knob)) {
		if (!journal_tracefs_name_ok(e->knob + strlen(JOURNAL_TRACEFS_PREFIX)))
			return error("%s: bad tracefs instance name '%s'", where, e->knob);
		e->path[0] = '\0';
		j->n++;
		return 0;
	}
	if (knob_name_check(e->knob, why, sizeof(why)) < 0)
		return error("%s: %s", where, why);
	if (knob_path(e->knob, e->path, sizeof(e->path)) < 0)
		return -1;
	j->n++;
	return 0;
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

static int journal_parse(struct journal *j, FILE *f)
{
	char line[JOURNAL_LINE_MAX], where[JOURNAL_PATH_MAX + 16];
	int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		snprintf(where, sizeof(where), "%s:%d", j->file, ++lineno);
		if (!n || line[n - 1] != '\n')
			return error("%s: line too long or truncated", where);
		line[n - 1] = '\0';
		if (lineno == 1) {
			if (strcmp(line, JOURNAL_MAGIC))
				return error("%s: not a starve journal (no '%s' line)", where,
					     JOURNAL_MAGIC);
		} else if (lineno == 2) {
			if (journal_parse_header(j, line, where) < 0)
				return -1;
		} else if (strncmp(line, "knob ", 5) || journal_parse_knob(j, line, where) < 0) {
			return strncmp(line, "knob ", 5) ? error("%s: unknown line", where) : -1;
		}
	}
	if (lineno < 2)
		return error("%s: truncated journal (no pid line)", j->file);
	return 0;
}

int journal_load(struct journal *j, const char *dir)
{
	FILE *f;
	int ret;

	if (journal_set_dir(j, dir) < 0)
		return -1;
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
	j->is_open = true;
	return 1;
}

/* An existing journal: remove it if it is empty and its writer is dead,
 * else refuse to start. */
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
	} else if (ret > 0 && old->n == 0) {
		ret = unlink(old->file) < 0 ? error_errno("cannot remove %s", old->file) : 0;
	} else if (ret > 0) {
		ret = error("an unrestored journal from pid %d (started %s) exists at %s; "
			    "run 'starve restore' first", (int)old->pid, old->started, old->file);
	} else if (ret < 0) {
		error("run 'starve restore' to restore what it can, or inspect and remove it");
	}
	free(old);
	return ret;
}

/* Create the file exclusively, so of two runs starting at once one loses
 * here instead of both writing a journal over the other's. */
static int journal_claim(const struct journal *j)
{
	int fd = open(j->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 && errno == EEXIST)
		return error("another run has just started and holds the journal %s", j->file);
	if (fd < 0)
		return error_errno("cannot create journal %s", j->file);
	close(fd);
	return 0;
}

int journal_open(struct journal *j, const char *dir)
{
	time_t now = time(NULL);
	struct tm tm;

	if (journal_set_dir(j, dir) < 0)
		return -1;
	if (mkdir(j->dir, 0700) < 0 && errno != EEXIST)
		return error_errno("cannot create state directory %s", j->dir);
	if (journal_check_existing(j->dir) < 0 || journal_claim(j) < 0)
		return -1;
	j->pid = getpid();
	j->pid_starttime = journal_starttime(j->pid);
	gmtime_r(&now, &tm);
	strftime(j->started, sizeof(j->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (journal_save(j) < 0) {
		unlink(j->file);
		return -1;
	}
	j->is_open = true;
	return 0;
}

int journal_record_path(struct journal *j, const char *knob, const char *path,
			const char *old_value)
{
	struct journal_entry *e;

	if (!j->is_open)
		return error("journal is not open");
	for (size_t i = 0; i < j->n; i++)
		if (!strcmp(j->entries[i].knob, knob))
			return 0;	/* keep the oldest value */
	if (j->n == JOURNAL_MAX_ENTRIES)
		return error("too many knobs for the journal (%d at most)", JOURNAL_MAX_ENTRIES);
	e = &j->entries[j->n];
	if ((size_t)snprintf(e->knob, sizeof(e->knob), "%s", knob) >= sizeof(e->knob) ||
	    (size_t)snprintf(e->path, sizeof(e->path), "%s", path) >= sizeof(e->path) ||
	    (size_t)snprintf(e->value, sizeof(e->value), "%s", old_value) >= sizeof(e->value))
		return error("knob '%s' or its value is too long for the journal", knob);
	j->n++;
	if (journal_save(j) < 0) {
		j->n--;
		return -1;
	}
	return 0;
}

int journal_record(struct journal *j, const char *knob, const char *old_value)
{
	char path[JOURNAL_PATH_MAX];

	if (knob_path(knob, path, sizeof(path)) < 0)
		return -1;
	return journal_record_path(j, knob, path, old_value);
}

/* The features knob takes one token per write (harness/kernel/knob-features.h). */
static int journal_write_entry(const struct journal_entry *e)
{
	if (journal_is_tracefs(e->knob))
		return journal_remove_tracefs(e->knob);
	if (kfeat_is_knob(e->knob))
		return kfeat_write_tokens(e->path, e->value);
	return knob_write_line(e->path, e->value, strlen(e->value), 0, NULL);
}

int journal_restore_all(struct journal *j)
{
	bool failed_at[JOURNAL_MAX_ENTRIES] = { false };
	size_t kept = 0;
	int failed = 0;

	/* Newest first, the reverse of the order they were changed in. */
	for (size_t i = j->n; i-- > 0;) {
		struct journal_entry *e = &j->entries[i];
		int err = journal_write_entry(e);

		if (err) {
			error("%s: cannot restore '%s' (%s): %s", e->knob, e->value, e->path,
			      strerror(err));
			failed_at[i] = true;
			failed++;
		}
	}
	/* Keep the failed entries, in their order, for a later 'starve restore'. */
	for (size_t i = 0; i < j->n; i++)
		if (failed_at[i])
			j->entries[kept++] = j->entries[i];
	j->n = kept;
	if (j->is_open && journal_save(j) < 0)
		return failed + 1;
	return failed;
}

int journal_restore_from_signal(struct journal *j)
{
	int failed = 0;

	for (size_t i = j->n; i-- > 0;)
		if (journal_write_entry(&j->entries[i]))
			failed++;
	if (!failed) {
		j->n = 0;
		unlink(j->file);
		j->is_open = false;
	}
	return failed;
}

int journal_close(struct journal *j)
{
	if (!j->is_open)
		return 0;
	if (j->n)
		return error("%zu knob(s) not restored; the journal stays at %s: "
			     "run 'starve restore'", j->n, j->file);
	return journal_remove(j);
}

int journal_remove(struct journal *j)
{
	if (unlink(j->file) < 0 && errno != ENOENT)
		return error_errno("cannot remove journal %s", j->file);
	j->is_open = false;
	return journal_fsync_dir(j->dir);
}
