#!/bin/sh
# A full output directory loses nothing (issue 20, 6), on a small tmpfs.
# Full before the run (4 KiB free): refused before any knob write (exit 3,
# "nothing was changed"; a watcher never sees the knob changed). Filled
# during the run: the result is kept in the state directory as
# result-PID.json, where doc/design.md says, its path printed once, the
# table still printed (exit 3).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
MNT="$TMPDIR_TEST/mnt"
mkdir -p "$MNT"
mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null || skip "cannot mount a tmpfs"
cleanup_mnt() { umount "$MNT" 2>/dev/null; cleanup_run; }
trap cleanup_mnt EXIT
dd if=/dev/zero of="$MNT/fill" bs=4k count=15 2>/dev/null
( while :; do cat "$RT_KNOB"; sleep 0.01; done ) > "$TMPDIR_TEST/knobs" 2>/dev/null &
watcher=$!
"$STARVE" run --quiet --duration 2s -o "$MNT/out" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/log" 2>&1
rc=$?
sleep 0.1
kill $watcher 2>/dev/null; wait $watcher 2>/dev/null
[ "$rc" = 3 ] || fail "a run into a full directory exited $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
grep -q "nothing was changed" "$TMPDIR_TEST/log" || fail "the refusal does not say so: $(cat "$TMPDIR_TEST/log")"
! grep -qx 960000 "$TMPDIR_TEST/knobs" || fail "the knob was written before the output was found full"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left"
# room at the start, none at the end
rm -f "$MNT/fill" "$MNT/out/result.json"
mount -o remount,size=1m "$MNT" || fail "cannot grow the tmpfs"
"$STARVE" run --duration 1s --warmup 0s -o "$MNT/out" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/log" &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || fail "the setting was never applied: $(cat "$TMPDIR_TEST/log")"
dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
wait $ctl; rc=$?
[ "$rc" = 3 ] || fail "exit $rc with the output full at the end, expected 3: $(cat "$TMPDIR_TEST/log")"
kept=$(sed -n 's/.*the result is kept at \(.*\) instead.*/\1/p' "$TMPDIR_TEST/log")
[ -n "$kept" ] || fail "no path of a kept result: $(cat "$TMPDIR_TEST/log")"
# where doc/design.md ("Output") says it goes
case $kept in
"$STARVE_STATE_DIR"/result-[0-9]*.json) ;;
*) fail "the result was kept at $kept, not \$STARVE_STATE_DIR/result-PID.json" ;;
esac
grep -qF '`$STARVE_STATE_DIR/result-PID.json`' "$top_srcdir/doc/design.md" ||
	fail "doc/design.md does not say a result is kept at \$STARVE_STATE_DIR/result-PID.json"
[ "$(grep -c "kept at" "$TMPDIR_TEST/log")" = 1 ] || fail "the kept path was not printed once: $(cat "$TMPDIR_TEST/log")"
[ "$(grep -c "No space" "$TMPDIR_TEST/log")" -le 2 ] || fail "the same failure printed again and again: $(cat "$TMPDIR_TEST/log")"
check_json "$kept" '(.runs | length) == 1 and .runs[0].loads[0].name == "hogs"' "the kept result lacks the run"
grep -q "result: $kept" "$TMPDIR_TEST/out" || fail "no table and result line: $(cat "$TMPDIR_TEST/out")"
rm -f "$kept"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB left at $(cat "$RT_KNOB")"
