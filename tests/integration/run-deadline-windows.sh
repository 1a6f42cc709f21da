#!/bin/sh
# No window with a knob changed and no watchdog deadline (issue 20, 5): the
# controller stops itself (STARVE_TEST_STOP_AT, a test's SIGSTOP at a named
# point) right after the setting's knob is written, before any load exists,
# where the window opens (every load running: the deadline must move to the
# window's end), and after the loads were stopped, before the knob is
# restored. At each point the watchdog's deadline is armed: it restores the
# knob while the controller is still stopped; resumed, the run is an error
# (exit 3). Last, the watchdog is killed at the window's opening: the
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
	echo "$point: the watchdog restored the knob ~$((i / 10)) s into the stop"
	kill -CONT $ctl
	wait $ctl; rc=$?
	[ "$rc" = 3 ] || fail "$point: the resumed controller exited $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
	check_json "$TMPDIR_TEST/out/result.json" \
		'.runs[0].status == "error" and (.runs[0].reason | test("deadline"))' \
		"$point: the run is not an error about the deadline"
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$point: $RT_KNOB left at $(cat "$RT_KNOB")"
	[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "$point: a journal was left"
done

run_stopped_at window-open 100
wd=$(pgrep -P $ctl -x starve-watchdog) || fail "window-open: no watchdog"
kill -9 "$wd"
wait_gone "$wd"	# its end of the socket closed before the controller talks to it
kill -CONT $ctl
wait $ctl; rc=$?
[ "$rc" = 3 ] || fail "watchdog gone: the controller exited $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
check_json "$TMPDIR_TEST/out/result.json" \
	'.runs[0].status == "error" and (.runs[0].reason | test("watchdog could not be given"))' \
	"watchdog gone: the run is not an error about the watchdog's deadline"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "watchdog gone: $RT_KNOB left at $(cat "$RT_KNOB")"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "watchdog gone: a journal was left"
echo "watchdog gone at the window's opening: exit 3, the knob restored by the run"
