#!/bin/sh
# kill -9 of the controller mid-run: the watchdog kills every load and puts
# kernel.sched_rt_runtime_us back from the journal; nothing of ours remains.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob
[ "$KNOB_BEFORE" != 960000 ] || skip "$RT_KNOB is already 960000: the setting would change nothing"
"$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || { cat "$TMPDIR_TEST/log"; fail "the setting was never applied"; }
[ -f "$STARVE_STATE_DIR/journal" ] || fail "no journal while a knob is changed"
# the watchdog, the load's leader and its two worker processes
pids=$(wait_our_pids $ctl 4) ||
	{ ps -e -o pid,ppid,pgid,comm | grep starve >&2; fail "found only these processes: $pids"; }
kill -9 $ctl
wait $ctl 2>/dev/null
wait_gone $pids
wait_knob "$KNOB_BEFORE" || fail "$RT_KNOB is $(cat "$RT_KNOB"), not restored to $KNOB_BEFORE"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "the journal was not removed after restoring"
"$STARVE" restore > "$TMPDIR_TEST/restore.log" 2>&1 || fail "starve restore failed afterwards"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB changed"
