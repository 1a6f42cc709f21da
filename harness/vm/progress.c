/* The progress line of `starve vm` (progress.h). The guest's starve writes
 * "\r<line>\033[K" for each update of its own line and ordinary lines ended
 * by "\n" for messages; the escape sequences are dropped here. */
#include "config.h"
#include "harness/vm/progress.h"
#include "lib/timeutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void vm_progress_init(struct vm_progress *p, bool enabled, size_t n_kernels)
{
	memset(p, 0, sizeof(*p));
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->n_kernels = n_kernels;
}

void vm_progress_kernel(struct vm_progress *p, size_t i, const char *label, const char *accel)
{
	p->kernel = i + 1;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->accel, sizeof(p->accel), "%s", accel);
	p->stage[0] = p->guest[0] = '\0';
	p->pending_len = 0;
	p->kernel_started_ns = mono_ns();
}

void vm_progress_stage(struct vm_progress *p, const char *stage)
{
	snprintf(p->stage, sizeof(p->stage), "%s", stage);
	p->guest[0] = '\0';
	vm_progress_draw(p);
}

const char *vm_progress_format(const struct vm_progress *p, int64_t now_ns, char *buf, size_t len)
{
	long s = (long)((now_ns - p->kernel_started_ns) / NSEC_PER_SEC);

	snprintf(buf, len, "[%zu/%zu %s %s %ld:%02ld] %s%s%s", p->kernel, p->n_kernels, p->label,
		 p->accel, s / 60, s % 60, p->stage, p->guest[0] ? ": " : "", p->guest);
	return buf;
}

void vm_progress_clear(struct vm_progress *p)
{
	if (p->enabled && p->shown && write(STDERR_FILENO, "\r\033[K", 4) < 0)
		return;
	p->shown = 0;
}

void vm_progress_draw(struct vm_progress *p)
{
	struct winsize ws;
	char text[512], line[600];
	size_t width = 80;
	int n;

	if (!p->enabled)
		return;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col;
	vm_progress_format(p, mono_ns(), text, sizeof(text));
	if (strlen(text) > width - 1)	/* a wrapped line cannot be rewritten with \r */
		text[width - 1] = '\0';
	n = snprintf(line, sizeof(line), "\r%s\033[K", text);
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n) > 0)
		p->shown = strlen(text);
}

/* TEXT without its escape sequences ("\033[K"). */
static void vm_progress_strip(char *text)
{
	char *out = text;

	for (char *in = text; *in; in++) {
		if (*in == '\033' && in[1] == '[') {
			in += 2;
			while (*in && (*in < '@' || *in > '~'))
				in++;
			if (!*in)
				break;
			continue;
		}
		*out++ = *in;
	}
	*out = '\0';
}

/* A message line of the guest's starve: on the host's stderr, labelled. */
static void vm_progress_message(struct vm_progress *p, char *text)
{
	vm_progress_strip(text);
	if (!*text)
		return;
	vm_progress_clear(p);
	fprintf(stderr, "[%s] %s\n", p->label, text);
	fflush(stderr);
	vm_progress_draw(p);
}

void vm_progress_guest(struct vm_progress *p, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = data[i];

		if (c != '\r' && c != '\n') {
			if (p->pending_len < sizeof(p->pending) - 1)
				p->pending[p->pending_len++] = c;
			continue;
		}
		p->pending[p->pending_len] = '\0';
		p->pending_len = 0;
		if (c == '\n') {
			vm_progress_message(p, p->pending);
			continue;
		}
		vm_progress_strip(p->pending);	/* the end of one update of its line */
		if (p->pending[0])
			snprintf(p->guest, sizeof(p->guest), "%.255s", p->pending);
	}
}
