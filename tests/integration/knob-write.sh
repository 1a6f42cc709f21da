#!/bin/sh
# knob_write() as root: writes kernel.sched_rt_period_us's current value back
# (never a different value) through the unit test's opt-in "write-back" case.
. "$top_srcdir/tests/lib.sh"
need_root
suite_lock	# it writes a live knob (its own value): not while a run test changes it
bin="$top_builddir/tests/unit/test-knobs"
[ -x "$bin" ] || skip "test-knobs was not built (no Check)"
before=$(cat /proc/sys/kernel/sched_rt_period_us)
CK_RUN_CASE=write-back "$bin" || fail "write-back case failed"
after=$(cat /proc/sys/kernel/sched_rt_period_us)
[ "$before" = "$after" ] || fail "sched_rt_period_us changed from $before to $after"
