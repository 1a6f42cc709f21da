/* Task discovery for the sampler (harness/sampler/sampler.h): the threads of
 * watched processes (/proc/<pid>/task), the processes of watched process
 * groups (one /proc walk per rescan for all of them) and the skip list.
 * The per-tick sampling is sampler.c. */
#include "config.h"
#include "harness/sampler/sampler.h"
#include "harness/sampler/sampler-internal.h"
#include "harness/sampler/taskstat.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/procstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A /proc directory entry's pid or tid, 0 for any other name. */
static pid_t sampler_dir_pid(const char *name)
{
	char *end;
	long id;

	if (name[0] < '0' || name[0] > '9')
		return 0;
	id = strtol(name, &end, 10);
	return *end ? 0 : (pid_t)id;
}

/* Add every thread of PROC not sampled yet; marks it gone when it vanished. */
static void sampler_scan(struct sampler *s, struct sampler_proc *proc)
{
	char path[64];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)proc->pid);
	dir = opendir(path);
	if (!dir) {
		proc->gone = true;
		return;
	}
	while ((de = readdir(dir))) {
		pid_t tid = sampler_dir_pid(de->d_name);

		if (tid > 0)
			sampler_add_task(s, proc->pid, tid, proc->group);
	}
	closedir(dir);
}

/* Watch process PID for GROUP and add its threads; -1 when out of memory. */
static int sampler_add_proc(struct sampler *s, pid_t pid, int group)
{
	struct sampler_proc *p;

	if (s->n_procs == s->cap_procs) {
		size_t cap = s->cap_procs ? s->cap_procs * 2 : 8;

		p = realloc(s->procs, cap * sizeof(*p));
		if (!p)
			return -1;
		s->procs = p;
		s->cap_procs = cap;
	}
	p = &s->procs[s->n_procs++];
	*p = (struct sampler_proc){ .pid = pid, .group = group };
	if (!sampler_group_get(s, group))
		return -1;
	sampler_scan(s, p);
	return 0;
}

int sampler_watch_process(struct sampler *s, pid_t pid, int group)
{
	if (group < 0)
		return error("sampler group %d is negative", group);
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return error("cannot watch process %d: no such process", (int)pid);
	return sampler_add_proc(s, pid, group) < 0 ? error("out of memory") : 0;
}

/* ---- process groups: one /proc walk per rescan for all of them ---- */

/* Room for one more (zeroed) element at the end of the array *ARR of *N
 * elements of SIZE bytes; NULL when out of memory. These arrays are short. */
static void *sampler_append(void *arr, size_t *n, size_t size)
{
	char **a = arr, *p = realloc(*a, (*n + 1) * size);

	if (!p)
		return NULL;
	*a = p;
	memset(p + *n * size, 0, size);
	return p + (*n)++ * size;
}

int sampler_skip_process(struct sampler *s, pid_t pid)
{
	pid_t *p = sampler_append(&s->skip, &s->n_skip, sizeof(*p));

	if (!p)
		return error("out of memory");
	*p = pid;
	return 0;
}

/* Whether the pgroup walk must not look at PID: sampled already (its
 * main thread, or a process watched whose main thread exited), or skipped. */
static bool sampler_pid_known(const struct sampler *s, pid_t pid)
{
	if (sampler_has_task(s, pid))
		return true;
	for (size_t i = 0; i < s->n_skip; i++)
		if (s->skip[i] == pid)
			return true;
	for (size_t i = 0; i < s->n_procs; i++)
		if (s->procs[i].pid == pid && !s->procs[i].gone)
			return true;
	return false;
}

/* The group of process PID if it is a live user process of a watched
 * process group, else -1 (another group, a kernel thread, a zombie, gone). */
static int sampler_pid_group(const struct sampler *s, pid_t pid)
{
	char path[32], buf[512], state;
	unsigned long flags;
	long pgrp;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = fs_read_small(path, buf, sizeof(buf));
	if (n < 0 || procstat_parse_pgrp(buf, (size_t)n, &state, &pgrp, &flags) < 0 ||
	    (flags & PROCSTAT_PF_KTHREAD) || state == 'Z' || state == 'X')
		return -1;
	for (size_t i = 0; i < s->n_pgroups; i++)
		if (s->pgroups[i].pgid == pgrp)
			return s->pgroups[i].group;
	return -1;
}

/* Watch every process of a watched group not known yet. Only processes
 * not sampled are read, so the walk costs one stat read per foreign one. */
static void sampler_walk_pgroups(struct sampler *s)
{
	struct dirent *de;
	DIR *dir;

	if (!s->n_pgroups || !(dir = opendir("/proc")))
		return;
	while ((de = readdir(dir))) {
		pid_t pid = sampler_dir_pid(de->d_name);
		int group;

		if (pid <= 0 || sampler_pid_known(s, pid))
			continue;
		group = sampler_pid_group(s, pid);
		if (group >= 0 && sampler_add_proc(s, pid, group) < 0)
			break;	/* out of memory: try again at the next rescan */
	}
	closedir(dir);
}

int sampler_watch_pgroup(struct sampler *s, pid_t pgid, int group)
{
	struct sampler_pgroup *g;

	if (group < 0)
		return error("sampler group %d is negative", group);
	if (pgid <= 0)
		return error("cannot watch process group %d", (int)pgid);
	g = sampler_append(&s->pgroups, &s->n_pgroups, sizeof(*g));
	if (!g || !sampler_group_get(s, group))
		return error("out of memory");
	*g = (struct sampler_pgroup){ .pgid = pgid, .group = group };
	sampler_walk_pgroups(s);
	return 0;
}

/* ---- slots: threads named by a table as they start ---- */

static void sampler_scan_slots(struct sampler *s, struct sampler_slots *w);

int sampler_watch_slots(struct sampler *s, sampler_slot_fn slot, void *data, size_t n,
			int group)
{
	struct sampler_slots *w;

	if (group < 0)
		return error("sampler group %d is negative", group);
	w = sampler_append(&s->slots, &s->n_slots, sizeof(*w));
	if (!w || !sampler_group_get(s, group) || !(w->done = calloc(n ? n : 1, sizeof(bool))))
		return error("out of memory");
	w->slot = slot;
	w->data = data;
	w->n = w->left = n;
	w->group = group;
	sampler_scan_slots(s, w);
	return 0;
}

/* Add the threads slots name by now; a thread gone already is done too. */
static void sampler_scan_slots(struct sampler *s, struct sampler_slots *w)
{
	for (size_t i = 0; i < w->n && w->left; i++) {
		pid_t pid, tid;

		if (w->done[i] || !w->slot(w->data, i, &pid, &tid) || tid <= 0)
			continue;
		if (sampler_add_task(s, pid, tid, w->group) == 0 || sampler_has_task(s, tid) ||
		    kill(tid, 0) < 0) {
			w->done[i] = true;
			w->left--;
		}
	}
}

void sampler_note_unsampled(struct sampler *s, pid_t tid, bool failed)
{
	for (size_t i = 0; i < s->n_unsampled; i++)
		if (s->unsampled[i] == tid) {
			if (!failed)
				s->unsampled[i] = s->unsampled[--s->n_unsampled];
			return;
		}
	if (!failed)
		return;
	if (s->n_unsampled == s->cap_unsampled) {
		size_t cap = s->cap_unsampled ? 2 * s->cap_unsampled : 16;
		pid_t *p = realloc(s->unsampled, cap * sizeof(*p));

		if (!p)
			return;
		s->unsampled = p;
		s->cap_unsampled = cap;
	}
	s->unsampled[s->n_unsampled++] = tid;
}

void sampler_free_discovery(struct sampler *s)
{
	for (size_t i = 0; i < s->n_slots; i++)
		free(s->slots[i].done);
	free(s->slots);
	free(s->unsampled);
	free(s->procs);
	free(s->pgroups);
	free(s->skip);
}

/* New threads of watched processes and slots, then new processes of watched
 * groups; processes found gone are dropped, so the list holds only live ones. */
void sampler_rescan(struct sampler *s)
{
	size_t live = 0;

	for (size_t i = 0; i < s->n_slots; i++)
		sampler_scan_slots(s, &s->slots[i]);
	for (size_t i = 0; i < s->n_procs; i++) {
		if (!s->procs[i].gone)
			sampler_scan(s, &s->procs[i]);
		if (!s->procs[i].gone)
			s->procs[live++] = s->procs[i];
	}
	s->n_procs = live;
	sampler_walk_pgroups(s);
}
