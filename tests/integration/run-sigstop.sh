#!/bin/sh
# A stopped controller does not keep knobs changed (issue 10, 5): SIGSTOP
# mid-run; at the run's deadline the watchdog kills the loads and restores
# the knob while the controller is still stopped; resumed, the controller
# reports the run as an error (exit 3) and leaves nothing behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
# deadline = end + 5 s + a quarter of the run: about 6.3 s after the start
"$STARVE" run --quiet --duration 1s -o "$TMPDIR_TEST/out" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || { cat "$TMPDIR_TEST/log"; fail "the setting was never applied"; }
pids=$(wait_our_pids $ctl 4) || fail "found only these processes: $pids"
kill -STOP $ctl
t=0
while [ "$(cat "$RT_KNOB")" != "$KNOB_BEFORE" ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] ||
	{ kill -CONT $ctl; fail "$RT_KNOB still $(cat "$RT_KNOB") 10 s into the stop"; }
grep -q "^State:	T" /proc/$ctl/status || fail "the controller was resumed before the knob came back"
echo "knob restored by the watchdog after ~$((t / 10)) s of the stop"
kill -CONT $ctl
wait $ctl; rc=$?
[ "$rc" = 3 ] || fail "the resumed controller exited $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
jq -e '.runs[0].status == "error" and (.runs[0].reason | test("deadline"))' \
	"$TMPDIR_TEST/out/result.json" > /dev/null ||
	fail "the run is not an error about the deadline: $(jq -c '.runs[0] | {status, reason}' "$TMPDIR_TEST/out/result.json")"
for p in $pids; do [ "$p" = "$ctl" ] || ! alive "$p" || fail "pid $p still alive"; done
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB left at $(cat "$RT_KNOB")"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left"
