/* result.json I/O (reports/result/result.h). Writing is atomic (temporary file in
 * the same directory, fsync, rename, fsync of the directory) so a run killed
 * half-way never leaves a truncated result behind, except into an existing
 * non-regular file such as /dev/null, which is written in place; reading
 * checks the format marker and version before anything downstream trusts
 * the tree. */
#include "config.h"
#include "reports/result/result.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fsync the directory holding PATH so the rename itself is durable. */
static int result_sync_dir(const char *path)
{
	char copy[4096];
	int fd, ret = 0;

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return error("path '%s' is too long", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open the directory of '%s'", path);
	if (fsync(fd) < 0 && errno != EINVAL)	/* some filesystems refuse: harmless */
		ret = error_errno("cannot sync the directory of '%s'", path);
	close(fd);
	return ret;
}

/* Run FN into F; then flush and, when DURABLE, fsync. errno is kept. */
static int result_fill(FILE *f, const char *name, result_writer_fn fn, const void *data,
		       bool durable)
{
	if (fn(f, data) < 0 || fflush(f) == EOF || ferror(f))
		return error_errno("cannot write '%s'", name);
	if (durable && fsync(fileno(f)) < 0)
		return error_errno("cannot sync '%s'", name);
	return 0;
}

/* PATH exists and is not a regular file (/dev/null, a FIFO, a terminal, a
 * symbolic link such as /dev/stdout): write into it directly, since renaming
 * over it would replace the device or link with a regular file. */
static int result_write_special(const char *path, result_writer_fn fn, const void *data)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return error_errno("cannot open '%s'", path);
	if (result_fill(f, path, fn, data, false) < 0) {
		fclose(f);
		return -1;
	}
	if (fclose(f) == EOF)
		return error_errno("cannot close '%s'", path);
	return 0;
}

int result_write_with(const char *path, result_writer_fn fn, const void *data, bool durable)
{
	char tmp[4096];
	struct stat st;
	FILE *f;

	/* lstat: /dev/stdout and /proc/self/fd/N are links to what must be
	 * written, and a rename would replace the link itself */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return result_write_special(path, fn, data);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return error("path '%s' is too long", path);
	unlink(tmp);	/* left by a killed run with our pid (containers reuse pids) */
	/* messages name PATH, the file the user asked for: the temporary one
	 * is gone by the time they read it */
	f = fopen(tmp, "wxe");	/* O_EXCL: never follow a planted link */
	if (!f)
		return error_errno("cannot create '%s'", path);
	if (result_fill(f, path, fn, data, durable) < 0) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) == EOF) {
		int saved = errno;

		unlink(tmp);
		errno = saved;
		return error_errno("cannot write '%s'", path);
	}
	if (rename(tmp, path) < 0) {
		int saved = errno;

		unlink(tmp);
		errno = saved;
		return error_errno("cannot write '%s' (renaming its temporary file)", path);
	}
	return durable ? result_sync_dir(path) : 0;
}

static int result_dump(FILE *f, const void *result)
{
	if (json_dumpf(result, f, JSON_INDENT(2)) < 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

int result_write(const char *path, const json_t *result)
{
	return result_write_with(path, result_dump, result, true);
}

/* The "format" and "format_version" checks; fills why and returns -1. */
static int result_check_format(const char *path, const json_t *root, char *why, size_t why_len)
{
	const json_t *format, *version;

	if (!json_is_object(root)) {
		snprintf(why, why_len, "%s: not a starve result (not a JSON object)", path);
		return -1;
	}
	format = json_object_get(root, "format");
	if (!format) {
		snprintf(why, why_len, "%s: not a starve result (no \"format\" key)", path);
		return -1;
	}
	if (!json_is_string(format) || strcmp(json_string_value(format), RESULT_FORMAT)) {
		snprintf(why, why_len, "%s: not a starve result (format is '%s')", path,
			 json_is_string(format) ? json_string_value(format) : "not a string");
		return -1;
	}
	version = json_object_get(root, "format_version");
	if (!json_is_integer(version)) {
		snprintf(why, why_len, "%s: starve result without an integer \"format_version\"",
			 path);
		return -1;
	}
	if (json_integer_value(version) < RESULT_FORMAT_OLDEST ||
	    json_integer_value(version) > RESULT_FORMAT_VERSION) {
		snprintf(why, why_len,
			 "%s: starve result format version %" JSON_INTEGER_FORMAT
			 " is not supported (this starve reads versions %d to %d)",
			 path, json_integer_value(version), RESULT_FORMAT_OLDEST,
			 RESULT_FORMAT_VERSION);
		return -1;
	}
	return 0;
}

/* PATH opened for reading when it is a regular file: O_NONBLOCK, so a FIFO
 * (or a device) named as a result is refused at once instead of blocking
 * `report` and `compare` until a writer comes. -1 with WHY filled. */
static int result_open(const char *path, char *why, size_t why_len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "%s: not a regular file (%s); a result is a file starve "
			 "run wrote", path, S_ISFIFO(st.st_mode) ? "a FIFO" :
			 S_ISDIR(st.st_mode) ? "a directory" : "a device or socket");
		close(fd);
		return -1;
	}
	return fd;
}

json_t *result_read(const char *path, char *why, size_t why_len)
{
	json_error_t jerr;
	json_t *root;
	int fd = result_open(path, why, why_len);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (!f) {
		if (fd >= 0) {
			snprintf(why, why_len, "%s: %s", path, strerror(errno));
			close(fd);
		}
		return NULL;
	}
	/* through stdio: json_loadfd reads one byte per read(2) */
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!root) {
		snprintf(why, why_len, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column,
			 jerr.text);
		return NULL;
	}
	if (result_check_format(path, root, why, why_len) < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---- the closed vocabularies ---- */

static const char *const result_status_names[] = {
	[RESULT_OK] = "ok", [RESULT_SKIPPED] = "skipped",
	[RESULT_INCOMPLETE] = "incomplete", [RESULT_ERROR] = "error",
};
static const char *const verdict_names[] = {
	[VERDICT_SKIP] = "skip", [VERDICT_PASS] = "pass",
	[VERDICT_UNDECIDED] = "undecided", [VERDICT_FAIL] = "fail",
};
static const char *const verdict_uppers[] = {
	[VERDICT_SKIP] = "SKIP", [VERDICT_PASS] = "PASS",
	[VERDICT_UNDECIDED] = "UNDECIDED", [VERDICT_FAIL] = "FAIL",
};
static const char *const result_op_names[] = { [RESULT_BELOW] = "below", [RESULT_ABOVE] = "above" };

/* The index of NAME in NAMES (N of them), or -1. */
static int result_lookup(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}
#define RESULT_LOOKUP(names, name) \
	result_lookup(names, sizeof(names) / sizeof(names[0]), name)

const char *result_status_name(enum result_status s)
{
	return result_status_names[s];
}

int result_status_parse(const char *name)
{
	return RESULT_LOOKUP(result_status_names, name);
}

const char *verdict_name(enum verdict_kind v)
{
	return verdict_names[v];
}

const char *verdict_upper(enum verdict_kind v)
{
	return verdict_uppers[v];
}

int verdict_parse(const char *name)
{
	return RESULT_LOOKUP(verdict_names, name);
}

const char *result_op_name(enum result_op op)
{
	return result_op_names[op];
}

int result_op_parse(const char *name)
{
	return RESULT_LOOKUP(result_op_names, name);
}
