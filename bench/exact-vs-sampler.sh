# Benchmark: exact mode (the scheduler's events, --trace) as the reference
# for the sampler's and the in-band starvation_max of the victim, on
# rt-throttle (throttled setting) and sleep-hog-starvation, BENCH_ROUNDS runs
# of 3 s each; and what exact mode costs beside the sampler in the same runs
# (CPU time of its draining thread and of the sampler, per second of run).
# Goals: the sampler within one sample period of exact in every run, in-band
# within 0.2 ms in every run, exact mode at most 2% of one CPU (median).
# Every figure min/median/max over the runs. Root, tracefs; else SKIP.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
[ "$(id -u)" = 0 ] || bench_skip "exact mode needs root"
[ "$("$STARVE" env --json | jq -r '.trace.available')" = true ] ||
	bench_skip "exact mode unavailable: $("$STARVE" env --json | jq -r '.trace.reason')"
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != -1 ] || bench_skip "RT throttling is off"

# one_profile NAME [ARGS...]
one_profile() {
	name=$1
	shift
	out=$BENCH_TMP/$name
	"$STARVE" run --quiet --trace --repeat "$BENCH_ROUNDS" --duration 3s --warmup 500ms \
		-o "$out" "$@" "${top_srcdir}/profiles/$name.yaml" >"$out.out" 2>&1
	[ -s "$out/result.json" ] || bench_skip "$name: starve run wrote no result: $(bench_why "$out.out")"
	jq -r '.runs[] | select(.status == "ok") | [.sampler.target_hz, .duration_s,
		.sampler.cpu_s, .exact.cpu_s, .exact.lost_events,
		(.loads[] | select(.name == "victim") | .metrics |
		 .starvation_max, .starvation_max_sampler, .starvation_max_inband)] | @tsv' \
		"$out/result.json" >"$BENCH_TMP/rows"
	[ -s "$BENCH_TMP/rows" ] || bench_skip "$name: no run ended ok"
	s_err="" i_err="" t_cost="" s_cost="" lost=0 period=""
	while IFS="$(printf '\t')" read -r hz dur scpu tcpu l exact smp inb; do
		period=$(bench_calc "1 / $hz")
		s_err="$s_err $(bench_calc "($smp > $exact ? $smp - $exact : $exact - $smp) * 1000")"
		i_err="$i_err $(bench_calc "($inb > $exact ? $inb - $exact : $exact - $inb) * 1000")"
		t_cost="$t_cost $(bench_calc "$tcpu / $dur")" s_cost="$s_cost $(bench_calc "$scpu / $dur")"
		lost=$((lost + l))
	done <"$BENCH_TMP/rows"
	# shellcheck disable=SC2086
	echo "$name: victim starvation_max error against exact mode, ms: sampler $(bench_mmm $s_err)," \
	     "in-band $(bench_mmm $i_err); CPU share: exact mode $(bench_mmm $t_cost), sampler" \
	     "$(bench_mmm $s_cost); $lost events lost (min/median/max of $(wc -l <"$BENCH_TMP/rows") runs)"
	# shellcheck disable=SC2086
	bench_judge "$name: sampler error, worst run (ms)" \
		"$(printf '%s\n' $s_err | sort -g | tail -n 1)" le "$(bench_calc "$period * 1000")"
	# shellcheck disable=SC2086
	bench_judge "$name: in-band error, worst run (ms)" \
		"$(printf '%s\n' $i_err | sort -g | tail -n 1)" le 0.2
	# shellcheck disable=SC2086
	bench_judge "$name: exact mode's share of one CPU (median)" "$(bench_median $t_cost)" le 0.02
	bench_judge "$name: events lost" "$lost" le 0
}

one_profile rt-throttle --only throttled
one_profile sleep-hog-starvation
bench_exit
