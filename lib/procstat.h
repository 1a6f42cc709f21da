/* A /proc/<pid>/stat line, parsed: pure functions on buffers (lib/procstat.c). */
#ifndef STARVE_PROCSTAT_H
#define STARVE_PROCSTAT_H

#include <stddef.h>

/* stat: "pid (comm) S ...": the comm may hold spaces and ')', so it ends at
 * the LAST ')'. Fills STATE (R, S, D, T, Z...) and, if COMM is non-NULL, the
 * comm (truncated to COMM_LEN - 1). Returns -1 on a malformed line. */
int procstat_parse_stat(const char *buf, size_t len, char *state, char *comm, size_t comm_len);

/* The same line further on, for the process-group walk: STATE, the process
 * group and the PF_* flags (PF_KTHREAD marks a kernel thread). BUF must be
 * NUL-terminated. Returns -1 on a malformed line. */
#define PROCSTAT_PF_KTHREAD 0x00200000UL
int procstat_parse_pgrp(const char *buf, size_t len, char *state, long *pgrp,
			unsigned long *flags);
/* Its parent's pid (field 4). */
int procstat_parse_ppid(const char *buf, size_t len, char *state, long *ppid);
/* Its start time (field 22), in clock ticks (sysconf(_SC_CLK_TCK)) since boot. */
int procstat_parse_starttime(const char *buf, size_t len, unsigned long long *ticks);
/* Its state and its pending signals (field 31; bit N - 1 for signal N): a
 * thread with SIGKILL pending is dying, even while an fsync holds it. */
int procstat_parse_signal(const char *buf, size_t len, char *state, unsigned long long *pending);

#endif
