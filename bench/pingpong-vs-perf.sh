# Benchmark: pipe-pingpong round trips against `perf bench sched pipe` on
# the same CPU (pu:1), alternating the two, BENCH_ROUNDS rounds of each:
# threads against `perf bench -T`, processes against plain perf bench.
# Two figures each: round trips per second of wall time (what both tools
# print), and round trips per CPU second of the pair (ours from the workers'
# CPU time, perf's from `perf stat -e task-clock`), which other tasks on a
# shared CPU do not skew. Target: our median at least 0.95 of perf's, judged
# per CPU second (the wall ratio is printed for information).
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
bench_need perf linux-perf
bench_need taskset util-linux
perf bench sched pipe -l 1000 >/dev/null 2>&1 || bench_skip "perf bench does not run here"

DURATION=3

# perf_round FLAG LOOPS: prints "ops_per_wall_second ops_per_cpu_second"
perf_round() {
	# shellcheck disable=SC2086 # an empty flag is no word
	perf stat -x, -e task-clock -o "$BENCH_TMP/stat" -- \
		taskset -c 1 perf bench sched pipe $1 -l "$2" >"$BENCH_TMP/bench" 2>&1 || return 1
	wall=$(awk '/ops\/sec/ { print $1 }' "$BENCH_TMP/bench")
	ms=$(awk -F, '$3 == "task-clock" { print $1 }' "$BENCH_TMP/stat")
	[ -n "$wall" ] && [ -n "$ms" ] && echo "$wall $(bench_int "$2 / ($ms / 1000)")"
}

for mode in threads processes; do
	case $mode in threads) perf_flag=-T;; *) perf_flag=;; esac
	ours="" ours_cpu="" theirs="" theirs_cpu="" loops=""
	for r in $(seq "$BENCH_ROUNDS"); do
		out=$BENCH_TMP/pp-$mode-$r.json
		"$STARVE" load pipe-pingpong --mode "$mode" --cpus pu:1 --duration ${DURATION}s --json >"$out" ||
			bench_skip "starve load pipe-pingpong failed"
		rate=$(bench_metric "$out" throughput)
		cpu_rate=$(bench_jq "$out" '.iterations / ([.workers[].cpu_s] | add) | floor')
		[ -n "$rate" ] && [ -n "$cpu_rate" ] || bench_skip "no throughput or workers' cpu_s in starve load --json output"
		# perf bench runs a loop count, not a time: size it from our first
		# round so both sides run for about as long.
		[ -n "$loops" ] || loops=$(bench_int "$rate * $DURATION")
		# shellcheck disable=SC2046 # two words, split on purpose
		set -- $(perf_round "$perf_flag" "$loops")
		[ $# = 2 ] || bench_skip "cannot read perf bench's ops/sec or perf stat's task-clock"
		echo "  round $r ($mode): starve $rate/s ($cpu_rate per CPU-s), perf $1/s ($2 per CPU-s)"
		ours="$ours $rate" ours_cpu="$ours_cpu $cpu_rate" theirs="$theirs $1" theirs_cpu="$theirs_cpu $2"
	done
	# shellcheck disable=SC2086
	m_ours=$(bench_median $ours) m_theirs=$(bench_median $theirs)
	# shellcheck disable=SC2086
	c_ours=$(bench_median $ours_cpu) c_theirs=$(bench_median $theirs_cpu)
	echo "pipe-pingpong $mode on pu:1: starve median $m_ours round trips/s ($c_ours per CPU-s), perf bench${perf_flag:+ $perf_flag} median $m_theirs/s ($c_theirs per CPU-s)"
	echo "  ratio starve/perf per wall second ($mode) = $(bench_calc "$m_ours / $m_theirs") (information)"
	bench_judge "ratio starve/perf per CPU second ($mode)" "$(bench_calc "$c_ours / $c_theirs")" ge 0.95
done
bench_exit
