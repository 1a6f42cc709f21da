/* The run's output against a full disk (output.h). */
#include "config.h"
#include "harness/run/output.h"
#include "harness/kernel/journal.h"
#include "harness/run/signals.h"
#include "lib/error.h"
#include "reports/result/result.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_PER_LOAD_RUN 8192	/* a load's metrics, histograms, series in one run */
#define OUTPUT_MIN (64 * 1024)
#define OUTPUT_MAX (16 * 1024 * 1024)	/* a test write, not a copy of the disk */

/* Write LEN zero bytes into a new file at TMP, synced; removed after. */
static int output_try_room(const char *tmp, off_t len)
{
	static const char zeros[8192];
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), err = 0;

	if (fd < 0)
		return errno;
	for (off_t done = 0; done < len && !err; ) {
		size_t n = len - done < (off_t)sizeof(zeros) ? (size_t)(len - done) : sizeof(zeros);
		ssize_t w = write(fd, zeros, n);

		if (w < 0)
			err = errno;
		else
			done += w;
	}
	if (!err && fsync(fd) < 0)
		err = errno;
	close(fd);
	unlink(tmp);
	return err;
}

int output_check(const char *path, const struct result_doc *doc, size_t n_runs,
		 size_t n_tasks)
{
	const json_t *header = result_doc_tree(doc);
	char tmp[4096];
	struct stat st;
	off_t need;
	int err;

	if (result_write(path, header) < 0)
		return error("the result cannot be written; nothing was changed");
	if (stat(path, &st) < 0)
		return error_errno("cannot stat '%s'", path);
	/* the result, and the report formats written beside it */
	need = 2 * (st.st_size + (off_t)(n_runs * (n_tasks + 1) * OUTPUT_PER_LOAD_RUN));
	if (need < OUTPUT_MIN)
		need = OUTPUT_MIN;
	if (need > OUTPUT_MAX)
		need = OUTPUT_MAX;
	if (snprintf(tmp, sizeof(tmp), "%s.room.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return error("path '%s' is too long", path);
	err = output_try_room(tmp, need);
	if (err)
		return error("no room for the result beside '%s' (it needs about %lld KiB): %s; "
			     "nothing was changed", path, (long long)need / 1024, strerror(err));
	return 0;
}

int output_keep(const json_t *result, char *kept, size_t len)
{
	if ((size_t)snprintf(kept, len, "%s/result-%ld.json", journal_state_dir(),
			     (long)getpid()) >= len)
		return error("state directory path too long");
	mkdir(journal_state_dir(), 0700);
	return result_write(kept, result);
}

static void output_error_to(const char *msg, void *data)
{
	snprintf(data, 256, "%s", msg);
}

void output_partial(const char *path, const struct result_doc *doc, bool *failed)
{
	const json_t *result = result_doc_tree(doc);
	char why[256] = "";

	if (*failed)
		return;
	error_set_sink(output_error_to, why);
	*failed = result_write(path, result) < 0;
	error_set_sink(NULL, NULL);
	if (*failed)
		warning("the partial result cannot be written (%.200s); the run goes on", why);
}

/* json_dump_callback's sink: to the file, until a signal asks to stop. */
static int output_dump_chunk(const char *buf, size_t size, void *f)
{
	if (signals_caught())
		return -1;
	return fwrite(buf, 1, size, f) == size ? 0 : -1;
}

static int output_dump(FILE *f, const void *result)
{
	if (json_dump_callback(result, output_dump_chunk, f, JSON_INDENT(2)) < 0 ||
	    fputc('\n', f) == EOF)
		return -1;
	return 0;
}

int output_final(const char *path, const json_t *result)
{
	char why[256] = "";
	int ret;

	error_set_sink(output_error_to, why);
	ret = result_write_with(path, output_dump, result, true);
	error_set_sink(NULL, NULL);
	if (ret < 0 && signals_caught())
		return OUTPUT_INTERRUPTED;	/* the temporary file is gone, PATH as it was */
	if (ret < 0)
		error("%s", why);
	return ret;
}
