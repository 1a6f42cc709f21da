#!/bin/sh
# A controller held up between starting the loads and opening the window
# longer than a whole run (600 threads on 2 CPUs starved it for seconds)
# must still measure the loads: they end themselves only after the window
# that was opened, late. The test holds it up where the window opens for
# 2.5 s, more than the 1 s run plus
# the 1 s the loads outlive it. Before, the loads' own end was set when they
# started, so they had ended before the window opened: the run measured
# nothing, and called it "load 'victim': none of its 1 tasks was watched".
# Held up, not stopped (STARVE_TEST_HOLD_AT): the watchdog ends a stopped
# controller's run within 0.2 s (issue 33).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_run
STARVE_TEST_HOLD_AT=window-open:2500 "$STARVE" run --quiet -o "$TMPDIR_TEST/out" \
	"$PROFILES/late-window.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "the resumed controller exited $rc: $(cat "$TMPDIR_TEST/log")"
r="$TMPDIR_TEST/out/result.json"
check_json "$r" '.runs[0].status == "ok"' "the run is not ok"
check_schema "$r"
check_json "$r" '[.runs[0].loads[] | .metrics.throughput > 0 and .tasks_seen >= 1] | all' \
	"a load did nothing in the window, or was not watched"
jq -r '.runs[0].loads[] | "\(.name): throughput \(.metrics.throughput), tasks seen \(.tasks_seen)"' "$r"
