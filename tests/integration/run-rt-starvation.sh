#!/bin/sh
# An RT hog and a victim on pu:1 for 3 s: the victim's in-band starvation_max
# is 0.85-1.05 s (it gets ~50 ms a second), the out-of-band bounds hold it
# give or take two sample periods, the result is valid, no knob changed.
# The figures are judged on a run starve trusts: a run it finds too noisy
# (undecided: others used the loads' CPUs) is tried again, saying so, up to
# three times.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_rt_hog_on_pu1
for n in 1 2 3; do
	out="$TMPDIR_TEST/out$n"
	"$STARVE" run --quiet -o "$out" "$PROFILES/rt-starvation.yaml" > "$TMPDIR_TEST/log" 2>&1
	rc=$?
	cat "$TMPDIR_TEST/log"
	[ $rc = 0 ] || fail "starve run exited $rc"
	r="$out/result.json"
	check_json "$r" '.complete == true and (.runs | length) == 1 and .runs[0].status == "ok"' \
		"not one complete run with status ok"
	check_json "$r" '.summary.verdict == "pass" or .summary.verdict == "undecided"' \
		"the verdict is neither pass nor undecided"
	jq -e '.summary.verdict == "pass"' "$r" >/dev/null && break
	echo "attempt $n: undecided (other tasks used $(jq '.runs[0].noise.other_cpu_share' "$r") of pu:1), trying again" >&2
	[ $n -lt 3 ] || skip "the machine was too noisy: 3 runs undecided"
done
victim='(.runs[0].loads[] | select(.name == "victim") | .metrics)'
jq -r ".runs[0] as \$run | $victim | \"victim starvation: in-band \(.starvation_max_inband) s, \
out-of-band \(.starvation_max) s (upper \(.starvation_max_upper // .starvation_max) s), \
period \(1 / \$run.sampler.target_hz) s, \(\$run.sampler.missed_ticks) ticks missed, \
\(\$run.sampler.late_ticks) late\"" "$r"
check_json "$r" "$victim | .starvation_max_inband >= 0.85 and .starvation_max_inband <= 1.05" \
	"the victim's in-band starvation_max is not in 0.85..1.05 s"
# In-band within the sampler's bounds, give or take two periods, and a period
# more for each tick the busy machine made the sampler miss or take late (as
# in tests/unit/test-sampler.c): a late tick merges waits and widens them.
check_json "$r" ".runs[0].sampler as \$s | ((2 + \$s.missed_ticks + \$s.late_ticks) / \$s.target_hz) as \$m
	| $victim | .starvation_max_inband >= .starvation_max - \$m
	and .starvation_max_inband <= (.starvation_max_upper // .starvation_max) + \$m" \
	"in-band starvation_max outside the out-of-band bounds, give or take 2 + missed + late periods"
check_schema "$r"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB changed"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left behind"
