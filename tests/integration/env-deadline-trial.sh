#!/bin/sh
# starve env tries SCHED_DEADLINE in a child with a 10 ms budget a second
# (1%), and the child leaves it at once: exiting as a deadline task can
# outlast its budget many times under emulation, each overrun a 1 s
# throttle (a fresh qemu TCG guest waited minutes in `starve env`). The
# kernel gives the bandwidth back only at the child's 0-lag time, 100 times
# the time it spent in the class at 1% (seconds later at the old 0.01%,
# once the trial overran): a cgroup v1 cpuset change in between wrapped
# the root domain's count and every sched_rt_runtime_us write failed
# (doc/kernels.md). strace shows the child's two sched_setattr calls, in
# and out, and the budget.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd strace
t=$TMPDIR_TEST
strace -f -o "$t/trace" -e trace=sched_setattr "$STARVE" env --json > "$t/env.json" 2> "$t/err" ||
	fail "starve env under strace: $(cat "$t/err")"
grep -q 'sched_policy=SCHED_DEADLINE.*) = 0' "$t/trace" ||
	skip "SCHED_DEADLINE was not admitted here: $(grep -m1 SCHED_DEADLINE "$t/trace")"
pid=$(grep -m1 'sched_policy=SCHED_DEADLINE.*) = 0' "$t/trace" | cut -d' ' -f1)
grep -m1 'sched_policy=SCHED_DEADLINE.*) = 0' "$t/trace" |
	grep -q 'sched_runtime=10000000, sched_deadline=1000000000, sched_period=1000000000' ||
	fail "the trial is not 10 ms a second: $(grep -m1 SCHED_DEADLINE "$t/trace")"
grep "^$pid " "$t/trace" | grep -A1 'SCHED_DEADLINE' | grep -q 'sched_policy=SCHED_OTHER.*) = 0' ||
	fail "the trial child did not leave SCHED_DEADLINE: $(grep "^$pid " "$t/trace")"
exit 0
