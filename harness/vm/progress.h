/* The progress line of `starve vm` on a terminal (stderr a TTY, no
 * --quiet): "[1/2 6.1.0-57-cloud-amd64 tcg 0:41] rt-throttle: unthrottled
 * rep 2/3 ...", kernel 1 of 2, rewritten in place. The stage comes from the
 * guest's messages (booting, a profile, copying back); the rest is the
 * guest's own `starve run` progress line, relayed from its stderr. Other
 * lines the guest's starve writes there (warnings, errors) are printed on the
 * host's stderr with the kernel's label in front. */
#ifndef STARVE_VM_PROGRESS_H
#define STARVE_VM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vm_progress {
	bool enabled;
	size_t n_kernels, kernel;	/* kernel counts from 1 */
	char label[128], accel[16];
	char stage[160];		/* "booting", "rt-throttle 1/2", "copying back" */
	char guest[256];		/* the guest's progress line, "" when none */
	char pending[512];		/* guest stderr not yet ended by \r or \n */
	size_t pending_len;
	int64_t kernel_started_ns;
	size_t shown;			/* characters on screen, 0 when none */
};

void vm_progress_init(struct vm_progress *p, bool enabled, size_t n_kernels);
/* Kernel I (0-based) starts, under ACCEL ("tcg", "kvm"). */
void vm_progress_kernel(struct vm_progress *p, size_t i, const char *label, const char *accel);
void vm_progress_stage(struct vm_progress *p, const char *stage);
/* LEN more bytes of the guest's starve stderr. */
void vm_progress_guest(struct vm_progress *p, const char *data, size_t len);
/* Redraw (the elapsed time moves on). */
void vm_progress_draw(struct vm_progress *p);
/* Erase the line before other output. */
void vm_progress_clear(struct vm_progress *p);

/* The line itself, for tests. */
const char *vm_progress_format(const struct vm_progress *p, int64_t now_ns, char *buf, size_t len);

#endif
