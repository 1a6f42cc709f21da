/* The harness's own precedence over its loads. The controller's measuring
 * thread and the watchdog run at RUN_NICE, the loads at their profile's nice
 * (0 unless it says otherwise): an instrument its loads can starve stops
 * measuring just when they overload the machine (600 threads waking every
 * 4 ms on 2 CPUs held a nice-0 controller up for seconds and its sampler
 * to 1 Hz), and a watchdog they can starve restores the knobs late. Nice is
 * a thread's on Linux and is inherited at fork and thread creation, so it
 * is raised only once the loads are forked, and put back before the next
 * run forks its loads. */
#ifndef STARVE_RUN_NICE_H
#define STARVE_RUN_NICE_H

#define RUN_NICE (-20)
#define RUN_NICE_UNCHANGED (-1000)	/* run_nice_raise did not change it */

/* Raise the calling thread to RUN_NICE; returns the nice it had, or
 * RUN_NICE_UNCHANGED where it may not (no CAP_SYS_NICE: left as it is). */
int run_nice_raise(void);
/* Put back what run_nice_raise returned. */
void run_nice_restore(int before);

#endif
