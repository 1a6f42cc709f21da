#!/bin/sh
# A stalled controller (SIGSTOP) cannot keep its loads running: an exec
# load's orphaned grandchild, which nothing else would kill, is killed by the
# watchdog at the run's deadline (end + 5 s + a quarter of the run); once
# resumed, the controller records the run as an error and exits 3.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_cmd jq
suite_lock
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the profile uses pu:1)"
out="$TMPDIR_TEST/out"
"$STARVE" run -q -o "$out" "$PROFILES/stall.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
trap 'kill -CONT $ctl 2>/dev/null; kill -9 $ctl 2>/dev/null; rm -rf "$TMPDIR_TEST"' EXIT
# the watchdog, the load's leader, its shell and the sleep
pids=$(wait_our_pids $ctl 4) || fail "the load did not start: $pids"
kill -STOP $ctl
orphan=
for p in $pids; do [ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ] && orphan=$p; done
[ -n "$orphan" ] || fail "no sleep among $pids"
sleep 3		# the load's own deadline (end + 1 s) has passed: the shell is gone
alive $orphan || fail "the orphan died before the watchdog's deadline"
i=0
while alive $orphan && [ $i -lt 70 ]; do sleep 0.1; i=$((i + 1)); done
alive $orphan && fail "the orphan (pid $orphan) outlived the run's deadline"
kill -CONT $ctl
wait $ctl
rc=$?
cat "$TMPDIR_TEST/log"
[ $rc = 3 ] || fail "exit status $rc after an overrun, expected 3"
check_json "$out/result.json" '(.runs | length) == 1 and .runs[0].status == "error"
	and (.runs[0].reason | contains("deadline"))' "not one run in error naming the deadline"
