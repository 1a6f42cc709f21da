/* The progress line (progress.h): "\r" + text + erase-to-end-of-line, written
 * with one write() so it never interleaves with other output mid-line. */
#include "config.h"
#include "harness/run/progress.h"
#include "lib/duration.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, bool enabled, int64_t total_ns)
{
	memset(p, 0, sizeof(*p));
	p->fd = STDERR_FILENO;
	p->enabled = enabled && isatty(p->fd);
	p->started_ns = mono_ns();
	p->total_ns = total_ns;
	p->setting = "";
}

void progress_run(struct progress *p, const char *setting, int rep, int n_reps)
{
	p->setting = setting;
	p->rep = rep + 1;
	p->n_reps = n_reps;
}

static const char *progress_clock(int64_t ns, char *buf, size_t len)
{
	long s = (long)(ns / NSEC_PER_SEC);

	if (s < 0)
		s = 0;
	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	return buf;
}

const char *progress_format(const struct progress *p, int64_t now_ns, char *buf, size_t len)
{
	char el[16], left[16], worst[32];
	int64_t elapsed = now_ns - p->started_ns;

	progress_clock(elapsed, el, sizeof(el));
	progress_clock(p->total_ns - elapsed, left, sizeof(left));
	duration_format(p->worst_ns, worst, sizeof(worst));
	snprintf(buf, len, "%s  rep %d/%d  %s elapsed, %s left  worst starvation %s",
		 p->setting, p->rep, p->n_reps, el, left, worst);
	return buf;
}

static void progress_write(struct progress *p, const char *text)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "\r%s\033[K", text);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (write(p->fd, line, (size_t)n) < 0)
		return;		/* a progress line is not worth an error */
	p->shown = strlen(text);
}

void progress_update(struct progress *p, int64_t now_ns, int64_t starvation_ns)
{
	char text[200];

	if (starvation_ns > p->worst_ns)
		p->worst_ns = starvation_ns;
	if (!p->enabled)
		return;
	progress_write(p, progress_format(p, now_ns, text, sizeof(text)));
}

void progress_clear(struct progress *p)
{
	if (!p->enabled || !p->shown)
		return;
	if (write(p->fd, "\r\033[K", 4) < 0)
		return;
	p->shown = 0;
}
