# Benchmark: starve compare's verdict flips scale linearly with the
# expectations. tests/compare/rt-new.json against rt-old.json with 2000 and
# 8000 expectations on the victim (thresholds 0.5 s + i us: each passes on
# one side and fails on the other, so each flips), 3 runs a side, compared
# alternately BENCH_ROUNDS rounds each. Target: four times the expectations
# take at most eight times as long (linear is four; looking each
# expectation's verdicts up by scanning every run's verdicts, as
# reports/compare/compare-gate.c once did, is sixteen: 28 s against 1.4 s here).
. "${top_srcdir:-.}/bench/lib.sh"
[ -x "$STARVE" ] || bench_skip "no starve binary at $STARVE (run make first)"
bench_need jq jq

expect='def rules: [range(0; $n) as $i | .profile.expect[0] | .threshold = (0.5 + $i * 1e-6)
	| .threshold_text = "\(.threshold)s"];
rules as $rules
| .runs |= [range(0; 3) as $r | .[0] | .repetition = $r
	| .loads |= map(.metrics |= map_values(. * (1 + 0.001 * $r)) | del(.timeseries))
	| .verdicts = [$rules[] as $e | .verdicts[0] + ($e | {threshold, threshold_text})
		| .verdict = (if .value < .threshold then "pass" else "fail" end)
		| .repetition = $r]]
| .profile.expect = $rules'
for n in 2000 8000; do
	for side in old new; do
		jq --argjson n "$n" "$expect" "$top_srcdir/tests/compare/rt-$side.json" \
			>"$BENCH_TMP/$side-$n.json" || bench_skip "jq could not build the results"
	done
done

# seconds of one `starve compare` of N expectations a side
compare_time() {
	t0=$(date +%s%N)
	"$STARVE" compare --json "$BENCH_TMP/new-$1.json" "$BENCH_TMP/old-$1.json" >/dev/null 2>&1
	[ $? = 1 ] || bench_skip "starve compare did not find the flips of $1 expectations"
	bench_calc "($(date +%s%N) - $t0) / 1e9"
}

small="" large=""
for r in $(seq "$BENCH_ROUNDS"); do
	s=$(compare_time 2000)
	l=$(compare_time 8000)
	echo "  round $r: 2000 expectations ${s}s, 8000 expectations ${l}s"
	small="$small $s" large="$large $l"
done
# shellcheck disable=SC2086
m_small=$(bench_median $small) m_large=$(bench_median $large)
echo "starve compare, every expectation flipped: 2000 median ${m_small}s, 8000 median ${m_large}s"
bench_judge "time(8000 expectations) / time(2000)" "$(bench_calc "$m_large / $m_small")" le 8
bench_exit
