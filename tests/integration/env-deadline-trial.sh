#!/bin/sh
# starve env tries SCHED_DEADLINE in a child with a 100 us budget a second,
# and the child leaves it at once: exiting as a deadline task can outlast
# that budget many times under emulation, each overrun a 1 s throttle (a
# fresh qemu TCG guest waited minutes in `starve env`). strace shows the
# child's two sched_setattr calls, in and out.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd strace
t=$TMPDIR_TEST
strace -f -o "$t/trace" -e trace=sched_setattr "$STARVE" env --json > "$t/env.json" 2> "$t/err" ||
	fail "starve env under strace: $(cat "$t/err")"
grep -q 'sched_policy=SCHED_DEADLINE.*) = 0' "$t/trace" ||
	skip "SCHED_DEADLINE was not admitted here: $(grep -m1 SCHED_DEADLINE "$t/trace")"
pid=$(grep -m1 'sched_policy=SCHED_DEADLINE.*) = 0' "$t/trace" | cut -d' ' -f1)
grep "^$pid " "$t/trace" | grep -A1 'SCHED_DEADLINE' | grep -q 'sched_policy=SCHED_OTHER.*) = 0' ||
	fail "the trial child did not leave SCHED_DEADLINE: $(grep "^$pid " "$t/trace")"
exit 0
