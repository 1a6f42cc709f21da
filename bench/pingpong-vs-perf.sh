# Benchmark: pipe-pingpong round trips per second against `perf bench sched
# pipe` on the same CPU (pu:1), alternating the two, BENCH_ROUNDS rounds of
# each, threads against `perf bench -T` and processes against plain perf
# bench. Target: our median at least 0.95 of perf's.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
bench_need perf linux-perf
bench_need taskset util-linux
perf bench sched pipe -l 1000 >/dev/null 2>&1 || bench_skip "perf bench does not run here"

DURATION=3
# perf bench runs a loop count, not a time: size it from our first round
# so both sides run for about the same time.
for mode in threads processes; do
	case $mode in threads) perf_flag=-T;; *) perf_flag=;; esac
	ours="" theirs="" loops=""
	for r in $(seq "$BENCH_ROUNDS"); do
		out=$BENCH_TMP/pp-$mode-$r.json
		"$STARVE" load pipe-pingpong --mode "$mode" --cpus pu:1 --duration ${DURATION}s --json >"$out" ||
			bench_skip "starve load pipe-pingpong failed"
		rate=$(bench_metric "$out" throughput)
		[ -n "$rate" ] || bench_skip "no throughput in starve load --json output"
		ours="$ours $rate"
		[ -n "$loops" ] || loops=$(bench_int "$rate * $DURATION")
		prate=$(taskset -c 1 perf bench sched pipe $perf_flag -l "$loops" 2>/dev/null |
			awk '/ops\/sec/ { print $1 }')
		[ -n "$prate" ] || bench_skip "cannot read ops/sec from perf bench"
		theirs="$theirs $prate"
		echo "  round $r ($mode): starve $rate/s, perf $prate/s"
	done
	# shellcheck disable=SC2086
	m_ours=$(bench_median $ours) m_theirs=$(bench_median $theirs)
	echo "pipe-pingpong $mode on pu:1: starve median $m_ours round trips/s, perf bench${perf_flag:+ $perf_flag} median $m_theirs ops/s"
	bench_judge "ratio starve/perf ($mode)" "$(bench_calc "$m_ours / $m_theirs")" ge 0.95
done
bench_exit
