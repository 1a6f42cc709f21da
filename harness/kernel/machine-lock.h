/* One lock per machine for everything that changes the kernel: a run that
 * writes knobs (or makes a tracefs instance or cgroups), and `starve
 * restore`. A flock on MACHINE_LOCK_FILE, whatever $STARVE_STATE_DIR says,
 * so two runs with different state dirs can never both change knobs (each
 * would journal the other's value as the "old" one). The holder's pid is
 * written into the file for the message of the one refused. A process
 * forked while it is held (the watchdog) shares it and keeps it until it
 * exits: a run that died is restored before the next one may start. */
#ifndef STARVE_MACHINE_LOCK_H
#define STARVE_MACHINE_LOCK_H

#define MACHINE_LOCK_FILE "/run/starve.lock"
#define MACHINE_LOCK_WAIT_ENV "STARVE_LOCK_WAIT"

/* Take the lock, waiting up to $STARVE_LOCK_WAIT seconds (default 0: do
 * not wait), and up to 5 s more when its holder is dead (its watchdog is
 * restoring). Returns its descriptor, or -1 with a message ("another starve
 * run (pid N) is changing this machine's kernel settings: ..."). */
int machine_lock_take(void);
/* Close our descriptor (a forked watchdog may still hold it). -1 is a no-op. */
void machine_lock_release(int fd);

#endif
