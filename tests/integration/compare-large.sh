#!/bin/sh
# `starve compare` of huge results (issue 20), generated here with jq: the
# rank test's interval listed every pairwise difference (20k runs a side:
# 400M doubles, killed after 2 minutes), each value looked its row up by
# scanning every row, and every row of one run a side was bootstrapped 4000
# times (20k loads: over 2 minutes). The checks are on what is printed;
# `timeout` only guards against a hang.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
need_cmd timeout
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# 3000 runs a side (the rank test's interval listed all 9M pairwise
# differences), and 2000 loads of one run a side (a row lookup scanned every
# row for each value; each row bootstraps): every row once, judged.
n=3000
jq --argjson n $n '.runs[0] as $r | .profile.repeat = $n |
	.runs = [range($n) as $i | $r | .repetition = $i | .verdicts |= map(.repetition = $i) |
		.loads[0].metrics.cpu_share = 0.05 + 0.00001 * ($i % 97)]' \
	"$R/pass.json" >"$T/runs.json" || fail "jq could not generate the runs"
timeout 60 "$STARVE" compare "$T/runs.json" "$T/runs.json" >"$T/out" 2>"$T/err"
[ $? = 0 ] || fail "compare of $n runs a side: $(head -c 300 "$T/err")"
grep -Eq '^hog +cpu_share .* \+0\.0% \[-[0-9.]*%, \+[0-9.]*%\] .* U += equivalent( \(info\))?$' "$T/out" ||
	fail "compare of $n runs a side: no rank-test row for cpu_share: $(grep cpu_share "$T/out")"

n=2000
for side in old new; do
	jq --argjson n $n '.runs[0].loads as $l | .profile.expect = [] |
		.runs[0].loads = [range($n) as $i | $l[$i % 2] | .name = "l\($i)"] |
		.profile.loads = [range($n) as $i | .profile.loads[$i % 2] | .name = "l\($i)"]' \
		"$top_srcdir/tests/compare/rt-$side.json" >"$T/loads-$side.json" ||
		fail "jq could not generate the loads"
done
timeout 60 "$STARVE" compare "$T/loads-old.json" "$T/loads-new.json" >"$T/out" 2>"$T/err"
[ $? = 4 ] || fail "compare of $n loads (one run a side: undecided): $(head -c 300 "$T/err")"
[ "$(grep -c '^l[0-9]*  *cpu_share .* Bw  ? one run a side$' "$T/out")" = $n ] ||
	fail "compare of $n loads: not one bootstrapped cpu_share row per load"
[ "$(awk '$1 ~ /^l[0-9]/ { print $1, $2 }' "$T/out" | sort | uniq -d | wc -l)" = 0 ] ||
	fail "compare of $n loads: a (load, metric) row twice"
exit 0
