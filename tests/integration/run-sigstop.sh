#!/bin/sh
# A stopped controller does not keep knobs changed (issue 10, 5): SIGSTOP
# mid-run; the watchdog sees it stopped (issue 33: within 0.2 s, not at the
# run's deadline), kills the loads and restores the knob while the
# controller is still stopped; resumed, the controller reports the run as
# an error (exit 3) and leaves nothing behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
run_knob_change 1s
kill -STOP $ctl
t=0
while [ "$(cat "$RT_KNOB")" != "$KNOB_BEFORE" ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] ||
	{ kill -CONT $ctl; fail "$RT_KNOB still $(cat "$RT_KNOB") 10 s into the stop"; }
grep -q "^State:	T" /proc/$ctl/status || fail "the controller was resumed before the knob came back"
[ $t -le 10 ] || fail "the knob came back only ~$((t / 10)) s into the stop, not within 1 s"
echo "knob restored by the watchdog after ~$((t * 100)) ms of the stop"
kill -CONT $ctl
expect_run_error stopped "SIGSTOP"
for p in $pids; do [ "$p" = "$ctl" ] || ! alive "$p" || fail "pid $p still alive"; done
