#!/bin/sh
# SIGINT mid-run: exit 3, result.json written with "complete": false and the
# interrupted run "incomplete", the knob restored, no load left; a second
# run started meanwhile is refused (exit 3): the machine's lock is taken.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
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
r="$out/result.json"
check_json "$r" '.complete == false' "complete should be false"
check_json "$r" '(.runs | length) == 1 and .runs[0].status == "incomplete"' \
	"not one run with status incomplete"
check_json "$r" '.runs[0].reason | test("SIGINT|nterrupt")' "the reason does not say SIGINT"
check_json "$r" '.runs[0].duration_s < 5' "the interrupted run lasted 5 s or more"
check_json "$r" '[.runs[0].loads[].name] | unique == ["hogs"]' "the loads are not just 'hogs'"
check_schema "$r"
