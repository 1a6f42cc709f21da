# Benchmark: `starve report` scales linearly with the runs of a result. The
# six runs of tests/results/multi.json repeated 100 and 1000 times (600 and
# 6000 runs, 1.6 and 16 MB), read, checked against the schema, judged again
# and written in every format, alternating, BENCH_ROUNDS rounds each. Target:
# ten times the runs take at most fifteen times as long (linear is ten; a
# report that compares every run with every other, as the HTML report once
# did, takes a hundred).
. "${top_srcdir:-.}/bench/lib.sh"
[ -x "$STARVE" ] || bench_skip "no starve binary at $STARVE (run make first)"
bench_need jq jq

for n in 100 1000; do
	jq --argjson n "$n" '.runs as $r | .runs = [range(0; $n) as $i | $r[] | .repetition = $i]' \
		"$top_srcdir/tests/results/multi.json" >"$BENCH_TMP/runs-$n.json" ||
		bench_skip "jq could not build the results"
done

# seconds of one full `starve report` of FILE
report_time() {
	t0=$(date +%s%N)
	"$STARVE" report "$1" --recompute --table --html /dev/null --junit /dev/null \
		--ktap /dev/null --markdown /dev/null --json /dev/null >/dev/null 2>&1
	[ $? -le 4 ] || bench_skip "starve report failed on $1"
	bench_calc "($(date +%s%N) - $t0) / 1e9"
}

small="" large=""
for r in $(seq "$BENCH_ROUNDS"); do
	s=$(report_time "$BENCH_TMP/runs-100.json")
	l=$(report_time "$BENCH_TMP/runs-1000.json")
	echo "  round $r: 600 runs ${s}s, 6000 runs ${l}s"
	small="$small $s" large="$large $l"
done
# shellcheck disable=SC2086
m_small=$(bench_median $small) m_large=$(bench_median $large)
echo "starve report, every format: 600 runs median ${m_small}s, 6000 runs median ${m_large}s"
bench_judge "time(6000 runs) / time(600 runs)" "$(bench_calc "$m_large / $m_small")" le 15
bench_exit
