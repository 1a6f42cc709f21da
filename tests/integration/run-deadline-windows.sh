#!/bin/sh
# No window with a knob changed and no watchdog deadline (issue 20, 5): the
# controller stops itself (STARVE_TEST_STOP_AT, a test's SIGSTOP at a named
# point) right after the setting's knob is written, before any load exists,
# where the window opens (every load running: the deadline must move to the
# window's end), and after the loads were stopped, before the knob is
# restored. At each point the watchdog's deadline is armed, and the watchdog
# sees the controller stopped: it restores the knob within 1 s, while the
# controller is still stopped; resumed, the run is an error (exit 3). Last, the watchdog is killed at the window's opening: the
# deadline cannot be moved, so the run stops, restores itself and exits 3.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
for point in ${STOP_POINTS:-knobs-written window-open loads-stopped}; do
	run_stopped_at $point 100
	[ "$(cat "$RT_KNOB")" = 960000 ] || fail "$point: the knob was not changed at the stop"
	i=0
	while [ "$(cat "$RT_KNOB")" != "$KNOB_BEFORE" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] ||
		{ kill -CONT $ctl; fail "$point: $RT_KNOB still 960000 10 s into the stop: no deadline"; }
	stopped $ctl || fail "$point: the controller was resumed before the knob came back"
	# two looks 100 ms apart find it stopped (issue 33): not the deadline, seconds away
	[ $i -le 10 ] || fail "$point: the knob came back only ~$((i / 10)) s into the stop, not within 1 s"
	echo "$point: the watchdog restored the knob ~$((i * 100)) ms into the stop"
	kill -CONT $ctl
	expect_run_error stopped "$point"
done

run_stopped_at window-open 100
wd=$(pgrep -P $ctl -x starve-watchdog) || fail "window-open: no watchdog"
kill -9 "$wd"
wait_gone "$wd"	# its end of the socket closed before the controller talks to it
kill -CONT $ctl
expect_run_error "watchdog could not be given" "watchdog gone"
echo "watchdog gone at the window's opening: exit 3, the knob restored by the run"
