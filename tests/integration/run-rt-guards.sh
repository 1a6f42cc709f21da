#!/bin/sh
# An RT load does not outlive both guards (issue 20, 2), the short form of
# tests/reliability/rt-guards.sh: a FIFO 50 hog on CPU 1 with
# kernel.sched_rt_runtime_us at -1; the watchdog, then the controller,
# killed with -9. The leader waits above its worker (FIFO 99) and the
# worker watches the controller, so the hog is gone within 1 s, long
# before the run would have ended it (3 s of run left).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob
[ "$KNOB_BEFORE" != -1 ] || skip "$RT_KNOB is -1 already"
cleanup_hog() {
	for p in $(pgrep -x starve-hog) $(pgrep -x starve-victim); do kill -9 "$p" 2>/dev/null; done
	"$STARVE" restore > /dev/null 2>&1
	cleanup_run
}
trap cleanup_hog EXIT
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
hog_alive() { for p in $(pgrep -x starve-hog); do alive "$p" && return 0; done; return 1; }
"$STARVE" run --quiet --only unthrottled --warmup 0s --duration 4s -o "$TMPDIR_TEST/out" \
	"$top_srcdir/profiles/rt-throttle.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob -1 || { cat "$TMPDIR_TEST/log"; fail "the setting was never applied"; }
pids=$(wait_our_pids $ctl 3) || fail "found only these processes: $pids"
hog_alive || fail "no hog running"
wd=$(pgrep -P $ctl -x starve-watchdog) || fail "no watchdog"
t0=$(now_ms)
kill -9 "$wd" $ctl
while hog_alive && [ $(( $(now_ms) - t0 )) -lt 2000 ]; do sleep 0.02; done
gone_ms=$(( $(now_ms) - t0 ))
wait $ctl 2>/dev/null
! hog_alive || fail "the FIFO hog still runs 2 s after the watchdog and the controller died"
[ $gone_ms -le 1000 ] || fail "the hog took $gone_ms ms to go"
echo "hog gone $gone_ms ms after both guards died"
wait_gone $pids
"$STARVE" restore > "$TMPDIR_TEST/restore.log" 2>&1 || fail "starve restore failed: $(cat "$TMPDIR_TEST/restore.log")"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB left at $(cat "$RT_KNOB")"
