# Benchmark: exact mode (--trace) and BPF mode (the default) against an
# independent capture (tests/integration/schedcap: the tracefs text of an
# instance of its own, libc only): the victim's longest runnable stretch in
# each run's window, on sleep-hog-starvation, massive-intr (short waits) and
# rt-throttle's throttled setting (an RT blocker), BENCH_RUNS runs of 2 s
# each (default 9). Prints each source's figure / the capture's as
# min/median/max ratios and the worst absolute difference; goal: every run
# within 10 us, no event lost. Root, tracefs at /sys/kernel/tracing; else SKIP.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
[ "$(id -u)" = 0 ] || bench_skip "needs root"
cap=$(dirname "$STARVE")/tests/integration/schedcap
[ -x "$cap" ] || bench_skip "no $cap (make check builds it)"
[ -d /sys/kernel/tracing/instances ] || bench_skip "tracefs is not mounted at /sys/kernel/tracing"
: "${BENCH_RUNS:=9}"
env_json=$("$STARVE" env --json)

# one SOURCE PROFILE [ARGS...]: BENCH_RUNS runs captured alongside
one() {
	src=$1 name=$2
	shift 2
	out=$BENCH_TMP/$src-$name
	"$cap" record "schedcap-$$" "$BENCH_TMP/capture" >"$BENCH_TMP/cap.out" 2>&1 &
	cpid=$!
	BENCH_PIDS="$BENCH_PIDS $cpid"
	i=0
	until grep -qx ready "$BENCH_TMP/cap.out"; do
		[ $i -lt 50 ] || bench_skip "schedcap did not start: $(cat "$BENCH_TMP/cap.out")"
		sleep 0.1; i=$((i + 1))
	done
	"$STARVE" run --quiet --repeat "$BENCH_RUNS" --duration 2s --warmup 300ms -o "$out" "$@" \
		"${top_srcdir}/profiles/$name.yaml" >/dev/null 2>&1
	kill -TERM "$cpid"
	wait "$cpid" || echo "  (schedcap: $(cat "$BENCH_TMP/cap.out"))"
	jq -r '.runs[] | select(.status == "ok") | [.figures.source, .window.from_ns,
		.window.until_ns, (.trace.lost_events // .bpf.lost_tasks // 0),
		(.loads[] | select(.name == "victim") | (.trace // .bpf).longest.tid,
		 .metrics.starvation_max)] | @tsv' "$out/result.json" >"$BENCH_TMP/rows" 2>/dev/null
	ratio="" worst=0 lost=0 n=0
	while IFS="$(printf '\t')" read -r source from until l tid figure; do
		[ "$source" = "$src" ] || { echo "  $name: figures from $source, not $src"; continue; }
		truth=$("$cap" longest "$BENCH_TMP/capture" "$tid" "$from" "$until" | cut -d' ' -f1)
		[ "${truth:-0}" -gt 0 ] || continue
		ratio="$ratio $(bench_calc "$figure * 1e9 / $truth")"
		d=$(bench_calc "($figure * 1e9 > $truth ? $figure * 1e9 - $truth : $truth - $figure * 1e9) / 1000")
		worst=$(bench_calc "$d > $worst ? $d : $worst")
		lost=$((lost + l)) n=$((n + 1))
	done <"$BENCH_TMP/rows"
	[ "$n" -gt 0 ] || { echo "  $src $name: no run to compare"; BENCH_MISSED=1; return; }
	# shellcheck disable=SC2086
	echo "$src $name: victim starvation_max / capture $(bench_mmm $ratio)" \
	     "(min/median/max of $n runs), worst difference ${worst} us, $lost lost"
	bench_judge "$src $name: worst difference (us)" "$worst" le 10
	bench_judge "$src $name: events or tasks lost" "$lost" le 0
}

for src in trace bpf; do
	avail=$(echo "$env_json" | jq -r ".$src.available")
	[ "$avail" = true ] || { echo "$src mode unavailable: $(echo "$env_json" | jq -r ".$src.reason")"; continue; }
	flag=
	[ "$src" = trace ] && flag=--trace
	one "$src" sleep-hog-starvation $flag
	one "$src" massive-intr $flag
	[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || one "$src" rt-throttle $flag --only throttled
done
bench_exit
