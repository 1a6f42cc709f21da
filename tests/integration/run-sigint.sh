#!/bin/sh
# SIGINT mid-run: exit 3, result.json written with "complete": false and the
# interrupted run "incomplete", the knob restored, no load left; a second
# run started meanwhile is refused (exit 3): the machine's lock is taken.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd python3
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob
[ "$KNOB_BEFORE" != 960000 ] || skip "$RT_KNOB is already 960000: the setting would change nothing"
out="$TMPDIR_TEST/out"
"$STARVE" run --quiet -o "$out" "$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || { cat "$TMPDIR_TEST/log"; fail "the setting was never applied"; }
sleep 1
# a second run while this one holds the journal is refused with exit 3
"$STARVE" run --quiet -o "$TMPDIR_TEST/second" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/second.log" 2>&1
rc=$?
[ $rc = 3 ] || { cat "$TMPDIR_TEST/second.log"; fail "a second run exited $rc, expected 3"; }
grep -q "another starve run (pid $ctl) is changing" "$TMPDIR_TEST/second.log" ||
	fail "the refusal does not name the run holding the machine's lock: $(cat "$TMPDIR_TEST/second.log")"
pids=$(wait_our_pids $ctl 4) || fail "the loads did not start: $pids"
kill -INT $ctl
wait $ctl
rc=$?
cat "$TMPDIR_TEST/log"
[ $rc = 3 ] || fail "exit status $rc after SIGINT, expected 3"
wait_gone $pids
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB not restored"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "journal left behind"
check_result "$out/result.json" '
assert r["complete"] is False, "complete should be false"
run, = r["runs"]
assert run["status"] == "incomplete", run["status"]
assert "SIGINT" in run["reason"] or "nterrupt" in run["reason"], run["reason"]
assert run["duration_s"] < 5, run["duration_s"]
assert {l["name"] for l in run["loads"]} == {"hogs"}, run["loads"]
'
python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" \
	"$out/result.json"
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail "the partial result does not match the schema"
