/* Parsers for a /proc/<pid>/stat (or task/<tid>/stat) line: the state, the
 * comm, the parent, the process group and flags, the start time. Pure
 * functions on buffers, no I/O or allocation: the sampler runs them for every
 * task at every tick, the journal and the stray reaper now and then. */
#include "config.h"
#include "lib/procstat.h"

#include <stdlib.h>
#include <string.h>

/* The ')' closing the comm in a stat line, or NULL when malformed. */
static const char *procstat_comm_end(const char *buf, size_t len, const char **open)
{
	*open = memchr(buf, '(', len);
	if (!*open)
		return NULL;
	/* The comm is whatever lies between the first '(' and the LAST ')':
	 * a thread may call itself "a) R (b". */
	for (const char *c = buf + len; c > *open;)
		if (*--c == ')')
			return c + 2 < buf + len && c[1] == ' ' ? c : NULL;
	return NULL;
}

int procstat_parse_stat(const char *buf, size_t len, char *state, char *comm, size_t comm_len)
{
	const char *open, *close = procstat_comm_end(buf, len, &open);

	if (!close)
		return -1;
	*state = close[2];
	if (comm && comm_len) {
		size_t n = (size_t)(close - open - 1);

		if (n >= comm_len)
			n = comm_len - 1;
		memcpy(comm, open + 1, n);
		comm[n] = '\0';
	}
	return 0;
}

/* The N numbers after the state of a stat line into V (field 4 on); its
 * state into STATE. -1 on a malformed or short line (BUF NUL-terminated). */
static int procstat_fields(const char *buf, size_t len, char *state, long long *v, int n)
{
	const char *open, *close = procstat_comm_end(buf, len, &open), *end = buf + len;
	char *next;

	if (!close)
		return -1;
	*state = close[2];
	next = (char *)close + 3;
	for (int i = 0; i < n; i++) {
		const char *p = next;

		if (p >= end || *p != ' ')
			return -1;
		v[i] = strtoll(p + 1, &next, 10);	/* tty_nr and tpgid may be < 0 */
		if (next == p + 1)
			return -1;
	}
	return 0;
}

/* After the state: ppid pgrp session tty_nr tpgid flags. */
int procstat_parse_ppid(const char *buf, size_t len, char *state, long *ppid)
{
	long long v[1];

	if (procstat_fields(buf, len, state, v, 1) < 0)
		return -1;
	*ppid = (long)v[0];
	return 0;
}


int procstat_parse_pgrp(const char *buf, size_t len, char *state, long *pgrp,
			unsigned long *flags)
{
	long long v[6];

	if (procstat_fields(buf, len, state, v, 6) < 0)
		return -1;
	*pgrp = (long)v[1];
	*flags = (unsigned long)v[5];
	return 0;
}

/* starttime is field 22: the 19th number after the state. */
int procstat_parse_starttime(const char *buf, size_t len, unsigned long long *ticks)
{
	long long v[19];
	char state;

	if (procstat_fields(buf, len, &state, v, 19) < 0 || v[18] < 0)
		return -1;
	*ticks = (unsigned long long)v[18];
	return 0;
}

/* signal is field 31: the 28th number after the state, the pending
 * signals of that thread (1 << (N - 1) for signal N; a group-wide SIGKILL
 * is put in every thread's). */
int procstat_parse_signal(const char *buf, size_t len, char *state, unsigned long long *pending)
{
	long long v[28];

	if (procstat_fields(buf, len, state, v, 28) < 0 || v[27] < 0)
		return -1;
	*pending = (unsigned long long)v[27];
	return 0;
}
