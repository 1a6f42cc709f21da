/* DIR/bisect.log: what `starve bisect --resume DIR` continues from. The
 * command line first (one "arg WORD" line each), then a line per finished
 * step ("step INDEX good|bad|skip|undecided LOOKS FIGURE"), each written whole and synced
 * before the next kernel boots, so a search killed at any moment loses at
 * most the kernel it was booting. */
#include "config.h"
#include "harness/bisect/bisect.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const bisect_state_names[] = {
	[BISECT_GOOD] = "good", [BISECT_BAD] = "bad", [BISECT_SKIP] = "skip",
	[BISECT_UNSURE] = "undecided",
};

static void bisect_log_path(const char *dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/bisect.log", dir);
}

/* Append LINE to DIR's log and sync it. */
static int bisect_log_append(const char *dir, const char *line)
{
	char path[4096];
	FILE *f;
	int ret = 0;

	bisect_log_path(dir, path, sizeof(path));
	f = fopen(path, "a");
	if (!f)
		return error_errno("cannot write %s", path);
	if (fputs(line, f) == EOF || fflush(f) == EOF || fsync(fileno(f)) < 0)
		ret = error_errno("cannot write %s", path);
	if (fclose(f) == EOF && !ret)
		ret = error_errno("cannot write %s", path);
	return ret;
}

int bisect_log_start(const char *dir, char *const *args, size_t n)
{
	char path[4096];

	bisect_log_path(dir, path, sizeof(path));
	if (access(path, F_OK) == 0)
		return 0;	/* resumed: the log has the command line */
	for (size_t i = 0; i < n; i++) {
		char *line;
		int ret;

		if (strchr(args[i], '\n'))
			return error("an argument holds a newline: '%s'", args[i]);
		line = xasprintf("arg %s\n", args[i]);
		ret = bisect_log_append(dir, line);
		free(line);
		if (ret < 0)
			return -1;
	}
	return 0;
}

int bisect_log_step(const char *dir, size_t i, const struct bisect_step *s)
{
	char *line = xasprintf("step %zu %s %zu %s\n", i, bisect_state_names[s->state], s->looks,
			       s->figure);
	int ret = bisect_log_append(dir, line);

	free(line);
	return ret;
}

static int bisect_state_of(const char *name)
{
	for (size_t i = 0; i < sizeof(bisect_state_names) / sizeof(bisect_state_names[0]); i++)
		if (bisect_state_names[i] && !strcmp(bisect_state_names[i], name))
			return (int)i;
	return -1;
}

/* Call EACH on every line of DIR's log; -1 when there is none. */
static int bisect_log_each(const char *dir, void (*each)(void *data, char *line), void *data)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	bisect_log_path(dir, path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break;	/* a line cut by a crash: not finished */
		line[len - 1] = '\0';
		each(data, line);
	}
	free(line);
	fclose(f);
	return 0;
}

struct bisect_steps_read {
	struct bisect_step *steps;
	size_t n;
};

static void bisect_read_step(void *data, char *line)
{
	struct bisect_steps_read *r = data;
	char state[16];
	size_t i, looks;
	int at = 0, kind;

	if (sscanf(line, "step %zu %15s %zu %n", &i, state, &looks, &at) < 3 || !at || i >= r->n)
		return;
	kind = bisect_state_of(state);
	if (kind < 0)
		return;
	r->steps[i].state = kind;
	r->steps[i].looks = looks;
	snprintf(r->steps[i].figure, sizeof(r->steps[i].figure), "%s", line + at);
}

void bisect_log_steps(const char *dir, struct bisect_step *steps, size_t n)
{
	struct bisect_steps_read r = { steps, n };

	bisect_log_each(dir, bisect_read_step, &r);
}

struct bisect_args_read {
	char **v;
	size_t n;
};

static void bisect_read_arg(void *data, char *line)
{
	struct bisect_args_read *r = data;

	if (strncmp(line, "arg ", 4))
		return;
	r->v = xreallocarray(r->v, r->n + 2, sizeof(*r->v));
	r->v[r->n++] = xstrdup(line + 4);
	r->v[r->n] = NULL;
}

char **bisect_log_args(const char *dir, size_t *n)
{
	struct bisect_args_read r = { NULL, 0 };

	if (bisect_log_each(dir, bisect_read_arg, &r) < 0 || !r.n) {
		error("%s/bisect.log: no such log of a bisection (or it is empty)", dir);
		free(r.v);
		return NULL;
	}
	*n = r.n;
	return r.v;
}
