#!/bin/sh
# A controller held up between starting the loads and opening the window
# longer than a whole run (600 threads on 2 CPUs starved it for seconds)
# must still measure the loads: they end themselves only after the window
# that was opened, late. The test holds it up by stopping it where the
# window opens (STARVE_TEST_STOP_AT) for 2.5 s, more than the 1 s run plus
# the 1 s the loads outlive it. Before, the loads' own end was set when they
# started, so they had ended before the window opened: the run measured
# nothing, and called it "load 'victim': none of its 1 tasks was watched".
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob
out="$TMPDIR_TEST/out"
STARVE_TEST_STOP_AT=window-open "$STARVE" run --quiet -o "$out" "$PROFILES/late-window.yaml" \
	>"$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
i=0
while ! stopped $ctl && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stopped $ctl || fail "the controller never stopped where the window opens: $(cat "$TMPDIR_TEST/log")"
sleep 2.5
kill -CONT $ctl
wait $ctl; rc=$?
[ "$rc" = 0 ] || fail "the resumed controller exited $rc: $(cat "$TMPDIR_TEST/log")"
r="$out/result.json"
check_json "$r" '.runs[0].status == "ok"' "the run is not ok"
check_schema "$r"
check_json "$r" '[.runs[0].loads[] | .metrics.throughput > 0 and .tasks_seen >= 1] | all' \
	"a load did nothing in the window, or was not watched"
jq -r '.runs[0].loads[] | "\(.name): throughput \(.metrics.throughput), tasks seen \(.tasks_seen)"' "$r"
