/* One boot of one kernel under qemu-system-x86_64: the command line, the
 * process (its own process group, killed with the controller by
 * PR_SET_PDEATHSIG, killed by PID on every other way out), and the watch
 * loop that feeds the channel and the progress line until the guest says
 * "done", stops, or runs out of time. The serial lines are files qemu
 * writes and the loop reads as they grow: ttyS0 -> OUTDIR/console.log,
 * ttyS1 (the channel) and ttyS2 (the guest's stderr) -> WORKDIR, and the
 * virtio-serial port VM_VIRTIO_PORT -> WORKDIR/vport, which carries the
 * channel instead of ttyS1 where the kernel has virtio_console. */
#ifndef STARVE_VM_QEMU_H
#define STARVE_VM_QEMU_H

#include "harness/vm/accel.h"
#include "harness/vm/channel.h"
#include "harness/vm/image.h"
#include "harness/vm/progress.h"

#include <stdint.h>

#define VM_QEMU "qemu-system-x86_64"
#define VM_QEMU_MAX_ARGS 64
#define VM_VIRTIO_PORT "org.starve.results"	/* the virtio-serial port's name */
/* Appended under TCG unless told otherwise: Debian's 6.1 marks the emulated
 * TSC unstable ("TSCs unsynchronized") and runs on the HPET, 6.12 keeps the
 * TSC, and a clock-polling loop runs over ten times slower on the HPET, so
 * every guest gets the same clock source. */
#define VM_TCG_CLOCKSOURCE "clocksource=tsc tsc=reliable"

struct vm_guest {
	const struct vm_kernel *kernel;
	const char *initrd;
	const char *outdir;		/* console.log and the files the guest sends */
	const char *workdir;		/* the other serial lines, qemu's own output */
	int cpus;
	const char *memory;		/* as qemu's -m takes it: "1G" */
	const char *append;		/* more kernel command line, or NULL */
	enum vm_accel accel;		/* VM_ACCEL_KVM or VM_ACCEL_TCG */
	bool own_clocksource;		/* TCG: no VM_TCG_CLOCKSOURCE, the kernel picks */
	int64_t timeout_ns;		/* the whole boot */
	int64_t hello_ns;		/* 0, or the deadline for the guest's first message */
	struct vm_progress *progress;
};

enum vm_end {
	VM_END_DONE,		/* the guest sent everything and said "done" */
	VM_END_NO_HELLO,	/* hello_ns passed without a word from the guest */
	VM_END_EXITED,		/* qemu stopped before "done" (a panic, a reboot...) */
	VM_END_HALTED,		/* the console says the kernel halted (a bad image) */
	VM_END_TIMEOUT,
	VM_END_INTERRUPTED,	/* a signal to starve */
	VM_END_NOT_STARTED,
};

struct vm_qemu_cmd {
	char *argv[VM_QEMU_MAX_ARGS + 1];
	int argc;
	char text[8192];	/* the strings argv points into */
	size_t used;
};

struct vm_boot {
	enum vm_end end;
	int qemu_status;	/* its exit status, when it exited */
	int64_t elapsed_ns;	/* qemu's whole life */
	int64_t boot_ns;	/* from qemu's start to starve's /init saying hello, or 0 */
	int64_t first_run_ns;	/* to the first profile's start, or 0 */
	char qemu_said[512];	/* the last line qemu itself printed */
	char console[4096];	/* the end of the console */
	struct vm_qemu_cmd cmd;
	struct vm_channel ch;
	bool virtio;		/* the channel came over the virtio port */
};

/* The command line for G into CMD (for the boot and for result.json). */
void vm_qemu_command(const struct vm_guest *g, struct vm_qemu_cmd *cmd);
/* Whether G boots with VM_TCG_CLOCKSOURCE: under TCG, unless --own-clocksource
 * or a clocksource= in --append says otherwise. */
bool vm_common_clock(const struct vm_guest *g);

/* Boot G and watch it to its end, filling B. */
void vm_qemu_boot(const struct vm_guest *g, struct vm_boot *b);

/* The last N non-empty lines of B's console, each as "  | line\n". */
const char *vm_boot_console_tail(const struct vm_boot *b, int n, char *buf, size_t len);

#endif
