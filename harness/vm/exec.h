/* Running the host's tools for `starve vm` (apt-get, dpkg-deb, ldd): a child
 * with stdin from /dev/null whose output is captured, waited for, its status
 * returned. qemu itself is started by qemu.c, which needs more control. */
#ifndef STARVE_VM_EXEC_H
#define STARVE_VM_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Run ARGV (argv[0] looked up in PATH) in directory DIR (NULL: here). Its
 * stdout and stderr go into OUT (OUT_LEN bytes, NUL-terminated, the first
 * ones kept; OUT may be NULL to discard them). Returns its exit status
 * (128 + N when signal N killed it), or -1 with OUT saying why when it could
 * not be started. */
int vm_exec(const char *const argv[], const char *dir, char *out, size_t out_len);

/* In a child just forked by PARENT: its own process group (a ^C on the
 * terminal reaches starve alone, which ends the group), killed if starve
 * dies, stdin from /dev/null, stdout and stderr into LOG (opened with
 * O_WRONLY | O_CREAT | LOG_FLAGS: O_TRUNC or O_APPEND), then ARGV. */
_Noreturn void vm_exec_group_child(const char *const argv[], const char *log, int log_flags,
				   pid_t parent);

/* The path of the executable NAME in PATH into BUF, or NULL. */
const char *vm_find_command(const char *name, char *buf, size_t len);
bool vm_have_command(const char *name);

/* The last line of TEXT that is not blank, copied into BUF (for messages
 * that quote a tool's complaint). */
const char *vm_last_line(const char *text, char *buf, size_t len);

#endif
