/* The guest-to-host channel (channel.h): split the stream into lines, act on
 * the protocol lines, decode the base64 of a file into PATH.part and rename
 * it once its size and SHA-256 check out. Paths are checked before use: a
 * file may only land inside the kernel's output directory. */
#include "config.h"
#include "harness/vm/channel.h"
#include "lib/base64.h"
#include "lib/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VM_TAG "STARVE-VM "

void vm_channel_init(struct vm_channel *ch, const char *dir)
{
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->dir, sizeof(ch->dir), "%s", dir);
}

/* Relative, no "..", no empty component: stays inside the output directory. */
static bool vm_channel_safe_path(const char *path)
{
	if (!*path || *path == '/')
		return false;
	for (const char *c = path; *c; c += strcspn(c, "/"), c += *c == '/') {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 2 && !strncmp(c, "..", 2)) || (n == 1 && *c == '.'))
			return false;
	}
	return true;
}

static void vm_channel_bad(struct vm_channel *ch, const char *path)
{
	if (!ch->files_bad++)
		snprintf(ch->first_bad, sizeof(ch->first_bad), "%s", path);
}

/* "file SIZE SHA256 PATH": open PATH.part under the output directory. */
static void vm_channel_file_start(struct vm_channel *ch, const char *args)
{
	char dir[PATH_MAX], *slash;
	int used = 0;

	ch->in_file = true;
	ch->file_bad = false;
	ch->got = 0;
	sha256_init(&ch->sum);
	if (sscanf(args, "%zu %64s %n", &ch->size, ch->digest, &used) != 2 || !used ||
	    args[used - 1] != ' ' || strlen(ch->digest) != 64 || !vm_channel_safe_path(args + used)) {
		vm_channel_bad(ch, strrchr(args, ' ') ? strrchr(args, ' ') + 1 : args);
		ch->file_bad = true;
		return;
	}
	if (snprintf(ch->path, sizeof(ch->path), "%s/%s", ch->dir, args + used) >=
	    (int)sizeof(ch->path)) {
		vm_channel_bad(ch, args + used);
		ch->file_bad = true;
		return;
	}
	snprintf(ch->part, sizeof(ch->part), "%s.part", ch->path);
	snprintf(dir, sizeof(dir), "%s", ch->path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (fs_mkdirs(dir) < 0 || !(ch->file = fopen(ch->part, "we"))) {
		vm_channel_bad(ch, args + used);
		ch->file_bad = true;
	}
}

/* "end": keep the file when it is whole. */
static void vm_channel_file_end(struct vm_channel *ch)
{
	char digest[SHA256_HEX_LEN];
	bool ok = ch->file && !ch->file_bad;

	if (!ch->in_file)
		return;
	ch->in_file = false;
	if (ch->file && (ferror(ch->file) | fclose(ch->file)))
		ok = false;
	ch->file = NULL;
	sha256_final_hex(&ch->sum, digest);
	ok = ok && ch->got == ch->size && !strcmp(digest, ch->digest);
	if (ok && rename(ch->part, ch->path) == 0) {
		ch->files_ok++;
		return;
	}
	if (!ch->file_bad)	/* already counted when it started badly */
		vm_channel_bad(ch, ch->path + strlen(ch->dir) + 1);
	unlink(ch->part);
}

static void vm_channel_data(struct vm_channel *ch, const char *line, size_t len)
{
	uint8_t bytes[sizeof(ch->line) / 4 * 3];
	ssize_t n;

	if (ch->file_bad)
		return;
	n = base64_decode(line, len, bytes);
	if (n < 0 || !ch->file) {
		ch->file_bad = true;
		vm_channel_bad(ch, ch->path + strlen(ch->dir) + 1);
		return;
	}
	fwrite(bytes, 1, (size_t)n, ch->file);
	sha256_update(&ch->sum, bytes, (size_t)n);
	ch->got += (size_t)n;
}

static void vm_channel_status_line(struct vm_channel *ch, const char *args)
{
	struct vm_channel_status *s = &ch->status[ch->n_status];

	if (ch->n_status < VM_CHANNEL_MAX_STATUS && sscanf(args, "%127s %d", s->name, &s->code) == 2)
		ch->n_status++;
}

static void vm_channel_left_line(struct vm_channel *ch, const char *args, bool note)
{
	struct vm_channel_left *l = &ch->left[ch->n_left];
	int used = 0;

	if (ch->n_left == VM_CHANNEL_MAX_STATUS || sscanf(args, "%127s%n", l->name, &used) != 1)
		return;
	snprintf(l->why, sizeof(l->why), "%s", args + used + (args[used] == ' '));
	l->note = note;
	ch->n_left++;
}

/* One protocol line, without the tag. */
static void vm_channel_command(struct vm_channel *ch, const char *cmd)
{
	const char *args = cmd + strcspn(cmd, " ");

	args += *args == ' ';
	if (!strncmp(cmd, "hello", 5)) {
		ch->hello = true;
		snprintf(ch->release, sizeof(ch->release), "%s", args);
	} else if (!strncmp(cmd, "profile ", 8)) {
		sscanf(args, "%d %d %127s", &ch->profile_i, &ch->profile_n, ch->profile);
	} else if (!strncmp(cmd, "status ", 7)) {
		vm_channel_status_line(ch, args);
	} else if (!strncmp(cmd, "left ", 5)) {
		vm_channel_left_line(ch, args, false);
	} else if (!strncmp(cmd, "note ", 5)) {
		vm_channel_left_line(ch, args, true);
	} else if (!strncmp(cmd, "script", 6)) {
		snprintf(ch->profile, sizeof(ch->profile), "guest script");
	} else if (!strncmp(cmd, "sending ", 8)) {
		ch->sending = true;
		ch->files_announced = strtoul(args, NULL, 10);
	} else if (!strncmp(cmd, "file ", 5)) {
		vm_channel_file_start(ch, args);
	} else if (!strcmp(cmd, "end")) {
		vm_channel_file_end(ch);
	} else if (!strncmp(cmd, "error ", 6)) {
		snprintf(ch->error, sizeof(ch->error), "%s", args);
	} else if (!strcmp(cmd, "done")) {
		ch->done = true;
	}
}

static void vm_channel_line(struct vm_channel *ch, char *line, size_t len)
{
	while (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (!strncmp(line, VM_TAG, strlen(VM_TAG)))
		vm_channel_command(ch, line + strlen(VM_TAG));
	else if (ch->in_file)
		vm_channel_data(ch, line, len);
}

void vm_channel_feed(struct vm_channel *ch, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] != '\n') {
			if (ch->len < sizeof(ch->line) - 1)
				ch->line[ch->len++] = data[i];
			else
				ch->overlong = true;
			continue;
		}
		ch->line[ch->len] = '\0';
		if (!ch->overlong)
			vm_channel_line(ch, ch->line, ch->len);
		else if (ch->in_file && !ch->file_bad)
			vm_channel_data(ch, "?", 1);	/* not base64: counts it damaged */
		ch->len = 0;
		ch->overlong = false;
	}
}

void vm_channel_finish(struct vm_channel *ch)
{
	if (ch->in_file && !ch->file_bad)
		vm_channel_data(ch, "?", 1);	/* cut short: counts it damaged */
	vm_channel_file_end(ch);
}

int vm_channel_status(const struct vm_channel *ch, const char *name)
{
	for (size_t i = 0; i < ch->n_status; i++)
		if (!strcmp(ch->status[i].name, name))
			return ch->status[i].code;
	return -1;
}
