#!/bin/sh
# A victim and a probe starved for the whole window (FIFO below an RT hog on
# pu:1, starved-to-the-end.yaml) run again only after the window, once the
# hog has stopped. Their in-band starvation_max must still be the whole
# window: each worker's stretch still open at the window's end is closed by
# the in-band summary (record_open_stretch), and the probe's wait from the
# gate's opening counts. Before, both read 0 s (on 6.1 in a guest, 0 s for
# a 5 s wait: `starve vm` then called an improvement a regression).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_rt_hog_on_pu1
out="$TMPDIR_TEST/out"
"$STARVE" run --quiet -o "$out" "$PROFILES/starved-to-the-end.yaml" || fail "starve run exited $?"
r="$out/result.json"
check_json "$r" '(.runs | length) == 1 and .runs[0].status == "ok"' "the run is not ok"
check_schema "$r"
jq -r '.runs[0] as $run | $run.loads[] | select(.name != "hog") | "\(.name): in-band \
\(.metrics.starvation_max_inband) s, sampler \(.metrics.starvation_max_sampler // .metrics.starvation_max) s, \
window \($run.duration_s) s"' "$r"
# the scenario itself: the sampler saw both waiting the whole window
jq -e '.runs[0] as $run | [$run.loads[] | select(.name != "hog")
	| (.metrics.starvation_max_sampler // .metrics.starvation_max) >= 0.9 * $run.duration_s]
	| all' "$r" >/dev/null || skip "the hog did not starve the FIFO victim and probe here"
check_json "$r" '.runs[0] as $run | [$run.loads[] | select(.name != "hog")
	| .metrics.starvation_max_inband >= 0.9 * $run.duration_s
	and .metrics.starvation_max_inband <= $run.duration_s + 0.001] | all' \
	"in-band starvation_max is not the whole window for a worker starved to its end"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB changed"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left behind"
