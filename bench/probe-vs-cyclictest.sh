# Benchmark: wakeup-probe against cyclictest, same settings (SCHED_FIFO 80,
# 1 ms interval, CPU 1, 3 s, /dev/cpu_dma_latency held at 0 as cyclictest
# holds it by default: without, an idle CPU's deeper C-states add to the
# figures, 32 us for cyclictest --laptop against 18-23 us), alternating, BENCH_ROUNDS rounds each, under
# the same background load: a sleep-hog on CPU 1 started here and stopped by
# its PID. Compares p50 and p99 wakeup latency of all rounds pooled (a p99
# of one 3 s round rests on 30 samples; pooled, on 30 per round); target:
# within 15%. Per-round figures are printed too.
. "${top_srcdir:-.}/bench/lib.sh"
[ "$(id -u)" = 0 ] || bench_skip "SCHED_FIFO needs root"
bench_need_starve
bench_need cyclictest rt-tests
[ "$(nproc)" -ge 2 ] || bench_skip "needs 2 CPUs (the RT probe runs on CPU 1 only)"

DURATION=3
HIST_US=10000	# cyclictest histogram range; later values are overflows
OURS=$BENCH_TMP/ours.hist THEIRS=$BENCH_TMP/theirs.hist	# "value_us count" lines
: >"$OURS"
: >"$THEIRS"

# p50 and p99 of "value count" lines on stdin (rank: the first value whose
# cumulative count reaches p% of the total, as lib/histogram.c does).
percentiles() {
	sort -g | awk '
	BEGIN { n = 0 }	# an unset n would index the first line as ""
	{ v[n] = $1; c[n] = $2; total += $2; n++ }
	END {
		split("50 99", ps, " ")
		for (i = 1; i <= 2; i++) {
			want = total * ps[i] / 100; acc = 0
			for (k = 0; k < n; k++) { acc += c[k]; if (acc >= want) break }
			printf "%s%s", (i > 1 ? " " : ""), (k < n ? v[k] : "none")
		}
		print ""
	}'
}

# Our histogram (buckets of [lower_ns, count], each 1/32 of a power of two
# wide above 64 ns) as "middle_us count" lines.
ours_hist() {
	jq -r '.histograms.wakeup_latency.buckets[] | "\(.[0]) \(.[1])"' "$1" | awk '{
		w = 1; if ($1 >= 64) { w = 2 ^ (int(log($1) / log(2)) - 5) }
		printf "%.4f %d\n", ($1 + w / 2) / 1000, $2 }'
}

# cyclictest's -h histogram (1 us buckets) as "middle_us count" lines;
# overflows count as one value past the range.
theirs_hist() {
	awk -v top=$HIST_US '
	/^[0-9]+ [0-9]+$/ { if ($2 > 0) printf "%.1f %d\n", $1 + 0.5, $2 }
	/^# Histogram Overflows:/ { if ($4 > 0) printf "%d %d\n", top + 1, $4 }'
}

"$STARVE" load sleep-hog --cpus pu:1 --duration $((BENCH_ROUNDS * 2 * (DURATION + 2) + 10))s \
	>/dev/null 2>&1 &
BENCH_PIDS="$BENCH_PIDS $!"
sleep 1

for r in $(seq "$BENCH_ROUNDS"); do
	out=$BENCH_TMP/probe-$r.json
	"$STARVE" load wakeup-probe --interval 1ms --policy fifo --priority 80 --cpus pu:1 \
		--cpu_dma_latency 0 --duration ${DURATION}s --json >"$out" || bench_skip "starve load wakeup-probe failed"
	ours_hist "$out" >"$BENCH_TMP/o" && [ -s "$BENCH_TMP/o" ] ||
		bench_skip "no wakeup_latency histogram in starve load --json output"
	cyclictest -t1 -a1 -i1000 -p80 -D$DURATION -q -m -h $HIST_US 2>/dev/null | theirs_hist >"$BENCH_TMP/t"
	[ -s "$BENCH_TMP/t" ] || bench_skip "cannot read cyclictest's histogram"
	echo "  round $r: starve p50/p99 $(percentiles <"$BENCH_TMP/o" | sed 's| |us/|')us;" \
		"cyclictest p50/p99 $(percentiles <"$BENCH_TMP/t" | sed 's| |us/|')us"
	cat "$BENCH_TMP/o" >>"$OURS"
	cat "$BENCH_TMP/t" >>"$THEIRS"
done
# shellcheck disable=SC2046 # two words each, split on purpose
set -- $(percentiles <"$OURS") $(percentiles <"$THEIRS")
echo "wakeup latency on pu:1 beside a sleep-hog, $BENCH_ROUNDS rounds pooled:" \
	"starve p50 ${1}us p99 ${2}us, cyclictest p50 ${3}us p99 ${4}us"
bench_judge "p50 ratio starve/cyclictest" "$(bench_calc "$1 / $3")" within 0.15
bench_judge "p99 ratio starve/cyclictest" "$(bench_calc "$2 / $4")" within 0.15
bench_exit
