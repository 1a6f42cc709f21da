/* What a guest sends back on its second serial line (init.sh writes it):
 * lines "STARVE-VM <what> ...": hello RELEASE, profile I N NAME, status NAME
 * CODE, left NAME WHY (NAME left a change `starve restore` could not undo),
 * note NAME TEXT (something the host should say about NAME),
 * script, sending N, error MESSAGE, done; and files (each profile's as soon
 * as it ends, the rest after "sending"), each as "STARVE-VM
 * file SIZE SHA256 PATH", its base64 lines, "STARVE-VM end". A file is
 * written under the kernel's output directory only when its size and digest
 * match; a damaged or truncated one is counted, never kept. */
#ifndef STARVE_VM_CHANNEL_H
#define STARVE_VM_CHANNEL_H

#include "lib/sha256.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define VM_CHANNEL_MAX_STATUS 64

struct vm_channel_status {
	char name[128];		/* a profile's name in the guest, or "script" */
	int code;		/* its exit status */
};

/* A profile that left the guest's kernel changed (its journal was set
 * aside so the next one could run, init.sh), or a note about one. */
struct vm_channel_left {
	char name[128];
	char why[512];		/* starve restore's first complaint, the note */
	bool note;		/* a note, nothing left changed */
};

struct vm_channel {
	char dir[PATH_MAX];		/* where files go */
	char line[8192];		/* the line being received */
	size_t len;
	bool overlong;			/* the current line did not fit: dropped */
	/* the file being received */
	bool in_file;			/* between "file" and "end" */
	FILE *file;
	char path[PATH_MAX], part[PATH_MAX + 8];
	size_t size, got;
	char digest[SHA256_HEX_LEN];
	struct sha256 sum;
	bool file_bad;
	/* what the guest said so far */
	bool hello, sending, done;
	char release[128];
	char profile[128];		/* the one running, "" before the first */
	int profile_i, profile_n;
	char error[1024];		/* "STARVE-VM error ..." */
	size_t files_announced, files_ok, files_bad;
	char first_bad[256];		/* the first damaged file's path */
	struct vm_channel_status status[VM_CHANNEL_MAX_STATUS];
	size_t n_status;
	struct vm_channel_left left[VM_CHANNEL_MAX_STATUS];
	size_t n_left;
};

/* Receive into DIR (created as files arrive). */
void vm_channel_init(struct vm_channel *ch, const char *dir);
/* Feed LEN more bytes of the serial stream. */
void vm_channel_feed(struct vm_channel *ch, const char *data, size_t len);
/* The stream ended: a file still open counts as damaged. */
void vm_channel_finish(struct vm_channel *ch);
/* The exit status the guest reported for NAME, or -1 when none. */
int vm_channel_status(const struct vm_channel *ch, const char *name);

#endif
