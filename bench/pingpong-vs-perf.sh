# Benchmark: pipe-pingpong round trips against `perf bench sched pipe` on
# the same CPU (pu:1), alternating the two, BENCH_ROUNDS rounds of each:
# threads against `perf bench -T`, processes against plain perf bench.
# Two figures each: round trips per second of wall time (what both tools
# print), and round trips per CPU second of the pair (ours from the workers'
# CPU time, perf's from its own accounting: the children's CPU time the
# shell's `times` reports, not `perf stat`, which slowed it by 3.5-11.5%),
# which other tasks on a shared CPU do not skew. Modes matched: threads
# against -T, processes against processes. Target: ours at least 0.95 of
# perf's per CPU second, judged on the median of the rounds' ratios: each
# round pairs the two runs back to back, and this VM's rate drifts by a
# third between rounds (58-78 thousand round trips a second in one run),
# which a ratio of the two medians would count against whichever side
# drew the slow rounds. The wall ratio is printed for information; every
# figure min/median/max over the rounds.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
bench_need perf linux-perf
bench_need taskset util-linux
perf bench sched pipe -l 1000 >/dev/null 2>&1 || bench_skip "perf bench does not run here"

DURATION=3

# perf_round FLAG LOOPS: prints "ops_per_wall_second ops_per_cpu_second"
perf_round() {
	bench_children_cpu before
	# shellcheck disable=SC2086 # an empty flag is no word
	taskset -c 1 perf bench sched pipe $1 -l "$2" >"$BENCH_TMP/bench" 2>&1 || return 1
	bench_children_cpu after
	cpu=$(bench_calc "$after - $before")
	wall=$(awk '/ops\/sec/ { print $1 }' "$BENCH_TMP/bench")
	[ -n "$wall" ] && [ -n "$cpu" ] && echo "$wall $(bench_int "$2 / $cpu")"
}

for mode in threads processes; do
	case $mode in threads) perf_flag=-T;; *) perf_flag=;; esac
	ours="" ours_cpu="" theirs="" theirs_cpu="" loops="" ratios=""
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
		perf_round "$perf_flag" "$loops" >"$BENCH_TMP/round" || true
		# shellcheck disable=SC2046 # two words, split on purpose
		set -- $(cat "$BENCH_TMP/round")
		[ $# = 2 ] || bench_skip "cannot read perf bench's ops/sec or perf stat's task-clock"
		echo "  round $r ($mode): starve $rate/s ($cpu_rate per CPU-s), perf $1/s ($2 per CPU-s)"
		ours="$ours $rate" ours_cpu="$ours_cpu $cpu_rate" theirs="$theirs $1" theirs_cpu="$theirs_cpu $2"
		ratios="$ratios $(bench_calc "$cpu_rate / $2")"
	done
	# shellcheck disable=SC2086
	m_ours=$(bench_median $ours) m_theirs=$(bench_median $theirs)
	# shellcheck disable=SC2086
	c_ours=$(bench_median $ours_cpu) c_theirs=$(bench_median $theirs_cpu)
	# shellcheck disable=SC2086
	echo "pipe-pingpong $mode on pu:1 (min/median/max of $BENCH_ROUNDS): starve $(bench_mmm $ours) round trips/s ($(bench_mmm $ours_cpu) per CPU-s), perf bench${perf_flag:+ $perf_flag} $(bench_mmm $theirs)/s ($(bench_mmm $theirs_cpu) per CPU-s)"
	echo "  ratio starve/perf per wall second ($mode) = $(bench_calc "$m_ours / $m_theirs") (information)"
	echo "  ratio of the medians per CPU second ($mode) = $(bench_calc "$c_ours / $c_theirs") (information)"
	# shellcheck disable=SC2086
	echo "  each round's ratio per CPU second ($mode): $(bench_mmm $ratios)"
	# shellcheck disable=SC2086
	bench_judge "ratio starve/perf per CPU second, median of the rounds ($mode)" \
		"$(bench_median $ratios)" ge 0.95
done
bench_exit
