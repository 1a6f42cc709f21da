# Benchmark: wakeup-probe against cyclictest, same settings (SCHED_FIFO 80,
# 1 ms interval, CPU 1, 3 s), alternating, BENCH_ROUNDS rounds each, under
# the same background load: a sleep-hog on CPU 1 started here and stopped by
# its PID. Compares median p50 and p99 wakeup latency; target: within 15%.
. "${top_srcdir:-.}/bench/lib.sh"
[ "$(id -u)" = 0 ] || bench_skip "SCHED_FIFO needs root"
bench_need_starve
bench_need cyclictest rt-tests
[ "$(nproc)" -ge 2 ] || bench_skip "needs 2 CPUs (the RT probe runs on CPU 1 only)"

DURATION=3
HIST_US=10000	# cyclictest histogram range; later values are overflows

# p50 and p99 (us) from cyclictest's -h histogram on stdin: "bucket count"
# lines, one microsecond each; a value in bucket k lies in [k, k+1), so the
# middle of the bucket is reported, as our own histogram does. Overflows
# count above the range.
cyclictest_percentiles() {
	awk '
	/^[0-9]+ [0-9]+$/ { b[n] = $1 + 0; c[n] = $2 + 0; total += $2; n++ }
	/^# Histogram Overflows:/ { over = $4 + 0 }
	END {
		total += over
		split("50 99", ps, " ")
		for (i = 1; i <= 2; i++) {
			want = total * ps[i] / 100; acc = 0; v = -1
			for (k = 0; k < n; k++) { acc += c[k]; if (acc >= want) { v = b[k] + 0.5; break } }
			printf "%s%s", (i > 1 ? " " : ""), (v < 0 ? "overflow" : v)
		}
		print ""
	}'
}

"$STARVE" load sleep-hog --cpus pu:1 --duration $((BENCH_ROUNDS * 2 * (DURATION + 2) + 10))s \
	>/dev/null 2>&1 &
BENCH_PIDS="$BENCH_PIDS $!"
sleep 1

p50s="" p99s="" c50s="" c99s=""
for r in $(seq "$BENCH_ROUNDS"); do
	out=$BENCH_TMP/probe-$r.json
	"$STARVE" load wakeup-probe --interval 1ms --policy fifo --priority 80 --cpus pu:1 \
		--duration ${DURATION}s --json >"$out" || bench_skip "starve load wakeup-probe failed"
	p50=$(bench_metric "$out" wakeup_p50) p99=$(bench_metric "$out" wakeup_p99)
	[ -n "$p50" ] && [ -n "$p99" ] || bench_skip "no wakeup_p50/p99 in starve load --json output"
	p50=$(bench_calc "$p50 * 1e6") p99=$(bench_calc "$p99 * 1e6")	# seconds -> us
	# shellcheck disable=SC2046 # two words, split on purpose
	set -- $(cyclictest -t1 -a1 -i1000 -p80 -D$DURATION -q -m -h $HIST_US 2>/dev/null |
		cyclictest_percentiles)
	[ $# = 2 ] || bench_skip "cannot read cyclictest's histogram"
	echo "  round $r: starve p50 ${p50}us p99 ${p99}us; cyclictest p50 ${1}us p99 ${2}us"
	p50s="$p50s $p50" p99s="$p99s $p99" c50s="$c50s $1" c99s="$c99s $2"
done
# shellcheck disable=SC2086
m50=$(bench_median $p50s) m99=$(bench_median $p99s) n50=$(bench_median $c50s) n99=$(bench_median $c99s)
echo "wakeup latency on pu:1 beside a sleep-hog: starve p50 ${m50}us p99 ${m99}us, cyclictest p50 ${n50}us p99 ${n99}us"
bench_judge "p50 ratio starve/cyclictest" "$(bench_calc "$m50 / $n50")" within 0.15
bench_judge "p99 ratio starve/cyclictest" "$(bench_calc "$m99 / $n99")" within 0.15
bench_exit
