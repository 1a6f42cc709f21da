/* Booting and watching a guest (qemu.h). The loop polls: qemu writes each
 * serial line into a file as the guest writes it, and every 50 ms the loop
 * reads what is new. Polling files keeps qemu independent of us: it never
 * blocks on a reader, and what it wrote stays for the console log. */
#include "config.h"
#include "harness/run/signals.h"
#include "harness/vm/exec.h"
#include "harness/vm/qemu.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define VM_POLL_NS (50 * NSEC_PER_MSEC)
#define VM_POWEROFF_NS (10 * NSEC_PER_SEC)	/* from "done" to qemu's exit */

static void vm_cmd_add(struct vm_qemu_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vm_cmd_add(struct vm_qemu_cmd *c, const char *fmt, ...)
{
	size_t room = sizeof(c->text) - c->used;
	va_list ap;
	int n;

	if (c->argc == VM_QEMU_MAX_ARGS)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->text + c->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return;
	c->argv[c->argc++] = c->text + c->used;
	c->argv[c->argc] = NULL;
	c->used += (size_t)n + 1;
}

/* PATH with its commas doubled, as qemu's option syntax wants. */
static void vm_escape(const char *path, char *out, size_t len)
{
	char *o = out;

	for (const char *p = path; *p && o < out + len - 2; p++) {
		if (*p == ',')
			*o++ = ',';
		*o++ = *p;
	}
	*o = '\0';
}

/* -chardev file for serial line ID writing to PATH. */
static void vm_cmd_serial(struct vm_qemu_cmd *c, int id, const char *path)
{
	char escaped[8192];

	vm_escape(path, escaped, sizeof(escaped));
	vm_cmd_add(c, "-chardev");
	vm_cmd_add(c, "file,id=ttyS%d,path=%s", id, escaped);
	vm_cmd_add(c, "-serial");
	vm_cmd_add(c, "chardev:ttyS%d", id);
}

/* The fast channel: a virtio-serial port named VM_VIRTIO_PORT writing to
 * PATH. The 8250 takes an interrupt per 16 bytes, which under TCG costs a
 * PREEMPT_RT kernel's threaded handler 40-95 s for 400 KB of results; a
 * virtio port moves whole buffers. Kernels without virtio_console built
 * in (Debian's 6.1 has it as a module) ignore it and init.sh stays on
 * ttyS1. */
static void vm_cmd_virtio_port(struct vm_qemu_cmd *c, const char *path)
{
	char escaped[8192];

	vm_escape(path, escaped, sizeof(escaped));
	vm_cmd_add(c, "-device");
	vm_cmd_add(c, "virtio-serial-pci,id=vser");
	vm_cmd_add(c, "-chardev");
	vm_cmd_add(c, "file,id=vport,path=%s", escaped);
	vm_cmd_add(c, "-device");
	vm_cmd_add(c, "virtserialport,bus=vser.0,chardev=vport,name=" VM_VIRTIO_PORT);
}

bool vm_common_clock(const struct vm_guest *g)
{
	return g->accel == VM_ACCEL_TCG && !g->own_clocksource &&
	       !(g->append && strstr(g->append, "clocksource="));
}

void vm_qemu_command(const struct vm_guest *g, struct vm_qemu_cmd *c)
{
	char path[8192];

	memset(c, 0, sizeof(*c));
	vm_cmd_add(c, VM_QEMU);
	vm_cmd_add(c, "-accel");
	vm_cmd_add(c, "%s", vm_accel_name(g->accel));
	/* RDRAND, which random.trust_cpu=on below credits: the CRNG is ready at
	 * boot instead of after 30-90 s of timer jitter under TCG (the Debian
	 * kernels build virtio-rng as a module, which the initramfs has not) */
	vm_cmd_add(c, "-cpu");
	vm_cmd_add(c, "%s", g->accel == VM_ACCEL_KVM ? "host" : "qemu64,+rdrand");
	vm_cmd_add(c, "-m");
	vm_cmd_add(c, "%s", g->memory);
	/* One package of N cores: with qemu's default of one socket per CPU,
	 * wakeups never look for an idle core in another socket. */
	vm_cmd_add(c, "-smp");
	vm_cmd_add(c, "%d,sockets=1,cores=%d,threads=1", g->cpus, g->cpus);
	vm_cmd_add(c, "-nodefaults");
	vm_cmd_add(c, "-no-user-config");
	vm_cmd_add(c, "-display");
	vm_cmd_add(c, "none");
	vm_cmd_add(c, "-no-reboot");	/* a panic (panic=-1 reboots) ends qemu */
	vm_cmd_add(c, "-kernel");
	vm_cmd_add(c, "%s", g->kernel->image);
	vm_cmd_add(c, "-initrd");
	vm_cmd_add(c, "%s", g->initrd);
	snprintf(path, sizeof(path), "%s/console.log", g->outdir);
	vm_cmd_serial(c, 0, path);
	snprintf(path, sizeof(path), "%s/ttyS1", g->workdir);
	vm_cmd_serial(c, 1, path);
	snprintf(path, sizeof(path), "%s/ttyS2", g->workdir);
	vm_cmd_serial(c, 2, path);
	snprintf(path, sizeof(path), "%s/vport", g->workdir);
	vm_cmd_virtio_port(c, path);
	/* earlyprintk: the boot decompressor's errors reach the serial console
	 * too. noirqdebug: under TCG a PREEMPT_RT kernel's threaded 8250
	 * handler finds most of its interrupts already served, and the
	 * spurious-IRQ check would disable the channel's IRQ ("irq 3: nobody
	 * cared"), slowing it to a crawl. */
	vm_cmd_add(c, "-append");
	vm_cmd_add(c, "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 noirqdebug random.trust_cpu=on quiet%s%s%s%s",
		   vm_common_clock(g) ? " " : "", vm_common_clock(g) ? VM_TCG_CLOCKSOURCE : "",
		   g->append ? " " : "", g->append ? g->append : "");
}

/* A file qemu writes, read as it grows. */
struct vm_tail {
	char path[8192];
	int fd;
};

static ssize_t vm_tail_read(struct vm_tail *t, char *buf, size_t len)
{
	ssize_t n;

	if (t->fd < 0)
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC);	/* qemu may not have made it yet */
	if (t->fd < 0)
		return 0;
	n = read(t->fd, buf, len);
	return n < 0 ? 0 : n;
}

static void vm_tail_close(struct vm_tail *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

struct vm_watch {
	const struct vm_guest *g;
	struct vm_boot *b;
	struct vm_tail chan, vport, err, console;
	int64_t started, done_at;
	int prev_profile;
	bool prev_hello, prev_sending;
};

/* Keep the last part of the console in B->console. */
static void vm_watch_console(struct vm_watch *w, const char *data, size_t n)
{
	char *c = w->b->console;
	size_t have = strlen(c), keep = sizeof(w->b->console) - 1;

	if (n >= keep) {
		data += n - keep;
		n = keep;
	}
	if (have + n > keep) {
		memmove(c, c + (have + n - keep), keep - n);
		have = keep - n;
	}
	memcpy(c + have, data, n);
	c[have + n] = '\0';
}

/* The progress stage follows what the guest announced. */
static void vm_watch_stage(struct vm_watch *w)
{
	const struct vm_channel *ch = &w->b->ch;
	char stage[160];

	if (ch->hello == w->prev_hello && ch->profile_i == w->prev_profile &&
	    ch->sending == w->prev_sending)
		return;
	w->prev_hello = ch->hello;
	w->prev_profile = ch->profile_i;
	w->prev_sending = ch->sending;
	if (ch->sending)
		snprintf(stage, sizeof(stage), "copying back %zu files", ch->files_announced);
	else if (ch->profile_i && ch->profile_n > 1)
		snprintf(stage, sizeof(stage), "%s (%d/%d)", ch->profile, ch->profile_i, ch->profile_n);
	else if (ch->profile_i)
		snprintf(stage, sizeof(stage), "%s", ch->profile);
	else
		snprintf(stage, sizeof(stage), ch->hello ? "starve env" : "booting");
	vm_progress_stage(w->g->progress, stage);
}

/* When the guest first said hello and started a profile (within a poll). */
static void vm_watch_times(struct vm_watch *w)
{
	int64_t since = mono_ns() - w->started;

	if (w->b->ch.hello && !w->b->boot_ns)
		w->b->boot_ns = since;
	if (w->b->ch.profile_i && !w->b->first_run_ns)
		w->b->first_run_ns = since;
}

/* Read whatever qemu wrote since the last call. */
static void vm_watch_read(struct vm_watch *w)
{
	char buf[65536];
	ssize_t n;

	/* the guest writes the channel to one of the two, never to both */
	while ((n = vm_tail_read(&w->chan, buf, sizeof(buf))) > 0)
		vm_channel_feed(&w->b->ch, buf, (size_t)n);
	while ((n = vm_tail_read(&w->vport, buf, sizeof(buf))) > 0) {
		w->b->virtio = true;
		vm_channel_feed(&w->b->ch, buf, (size_t)n);
	}
	vm_watch_times(w);
	while ((n = vm_tail_read(&w->err, buf, sizeof(buf))) > 0)
		vm_progress_guest(w->g->progress, buf, (size_t)n);
	while ((n = vm_tail_read(&w->console, buf, sizeof(buf))) > 0)
		vm_watch_console(w, buf, (size_t)n);
	vm_watch_stage(w);
}

/* Why to stop now, or -1 to go on. */
static int vm_watch_verdict(struct vm_watch *w, int64_t now)
{
	const struct vm_guest *g = w->g;
	const struct vm_channel *ch = &w->b->ch;

	if (signals_caught())
		return VM_END_INTERRUPTED;
	if (ch->done && !w->done_at)
		w->done_at = now;
	if (w->done_at && now - w->done_at > VM_POWEROFF_NS)
		return VM_END_DONE;	/* sent everything; its poweroff did not end qemu */
	if (g->hello_ns && !ch->hello && now - w->started > g->hello_ns)
		return VM_END_NO_HELLO;
	/* the boot decompressor's last words before it spins forever */
	if (!ch->hello && strstr(w->b->console, "-- System halted"))
		return VM_END_HALTED;
	if (now - w->started > g->timeout_ns)
		return VM_END_TIMEOUT;
	return -1;
}

/* Watch PID until it ends or a verdict stops it; returns how it ended. */
static enum vm_end vm_watch(struct vm_watch *w, pid_t pid)
{
	int64_t next_draw = 0;
	int status, verdict;

	for (;;) {
		int64_t now = mono_ns();
		pid_t r = waitpid(pid, &status, WNOHANG);

		vm_watch_read(w);
		if (r == pid) {
			w->b->qemu_status = WIFEXITED(status) ? WEXITSTATUS(status) :
					    128 + WTERMSIG(status);
			vm_watch_read(w);	/* what it wrote last */
			return w->b->ch.done ? VM_END_DONE : VM_END_EXITED;
		}
		if ((verdict = vm_watch_verdict(w, now)) >= 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			vm_watch_read(w);
			return (enum vm_end)verdict;
		}
		if (now >= next_draw) {
			vm_progress_draw(w->g->progress);
			next_draw = now + NSEC_PER_SEC;
		}
		sleep_until_ns(now + VM_POLL_NS);
	}
}

static void vm_last_qemu_line(const char *log, char *buf, size_t len)
{
	char text[4096];
	FILE *f = fopen(log, "re");
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(text, sizeof(text), f))
		if (text[strspn(text, " \n")] && ++n)
			snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	fclose(f);
}

void vm_qemu_boot(const struct vm_guest *g, struct vm_boot *b)
{
	struct vm_watch w = { .g = g, .b = b, .prev_profile = -1 };
	char log[8192];
	pid_t pid, parent = getpid();

	memset(b, 0, sizeof(*b));
	vm_qemu_command(g, &b->cmd);
	vm_channel_init(&b->ch, g->outdir);
	snprintf(w.chan.path, sizeof(w.chan.path), "%s/ttyS1", g->workdir);
	snprintf(w.vport.path, sizeof(w.vport.path), "%s/vport", g->workdir);
	snprintf(w.err.path, sizeof(w.err.path), "%s/ttyS2", g->workdir);
	snprintf(w.console.path, sizeof(w.console.path), "%s/console.log", g->outdir);
	snprintf(log, sizeof(log), "%s/qemu.log", g->workdir);
	w.chan.fd = w.vport.fd = w.err.fd = w.console.fd = -1;
	/* an earlier boot's lines must not be read as this one's */
	unlink(w.chan.path);
	unlink(w.vport.path);
	unlink(w.err.path);
	unlink(w.console.path);
	w.started = mono_ns();
	pid = fork();
	if (pid == 0)
		vm_exec_group_child((const char *const *)b->cmd.argv, log, O_TRUNC, parent);
	if (pid < 0) {
		b->end = VM_END_NOT_STARTED;
		snprintf(b->qemu_said, sizeof(b->qemu_said), "fork: %s", strerror(errno));
		return;
	}
	signals_add_group(pid);	/* a second ^C kills it at once */
	b->end = vm_watch(&w, pid);
	signals_remove_group(pid);
	vm_channel_finish(&b->ch);
	b->elapsed_ns = mono_ns() - w.started;
	vm_last_qemu_line(log, b->qemu_said, sizeof(b->qemu_said));
	vm_tail_close(&w.chan);
	vm_tail_close(&w.vport);
	vm_tail_close(&w.err);
	vm_tail_close(&w.console);
}

const char *vm_boot_console_tail(const struct vm_boot *b, int n, char *buf, size_t len)
{
	const char *line[16];
	size_t line_len[16];
	int count = 0;

	if (n > 16)
		n = 16;
	for (const char *l = b->console; *l;) {	/* the last N non-blank lines, in a ring */
		size_t k = strcspn(l, "\n"), t = k;

		while (t && (l[t - 1] == '\r' || l[t - 1] == ' '))
			t--;
		if (t) {
			line[count % n] = l;
			line_len[count % n] = t;
			count++;
		}
		l += k + (l[k] == '\n');
	}
	buf[0] = '\0';
	for (int i = count > n ? count - n : 0; i < count; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "  | %.*s\n", (int)line_len[i % n],
			 line[i % n]);
	return buf;
}
