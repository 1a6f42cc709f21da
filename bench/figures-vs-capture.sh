# Benchmark: exact mode (--trace) and BPF mode (the default) against an
# independent capture (tests/integration/schedcap: the tracefs text of an
# instance of its own, libc only): the victim's longest runnable stretch in
# each run's window, on sleep-hog-starvation, massive-intr (short waits) and
# rt-throttle's throttled setting (an RT blocker), BENCH_RUNS runs of 2 s
# each (default 9). Prints each source's figure / the capture's as
# min/median/max ratios and the worst absolute difference; goal: every run
# within 10 us, no event lost. Root; else SKIP. Where tracefs is not mounted,
# the script runs in a mount namespace of its own with tracefs mounted there
# (as tests/integration/exact-vs-capture.sh), so the machine's mounts stay.
if [ ! -d /sys/kernel/tracing/instances ] && [ -z "${BENCH_UNSHARED:-}" ] &&
   [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	BENCH_UNSHARED=1 exec unshare -m --propagation private sh -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec sh "$0"' "$0"
fi
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
[ "$(id -u)" = 0 ] || bench_skip "needs root"
cap=$(dirname "$STARVE")/tests/integration/schedcap
[ -x "$cap" ] || bench_skip "no $cap (make check builds it)"
[ -d /sys/kernel/tracing/instances ] || bench_skip "tracefs is not mounted at /sys/kernel/tracing"
: "${BENCH_RUNS:=9}"
env_json=$("$STARVE" env --json)

# bench_absdiff_us SECONDS NS: |SECONDS - NS| in us (no ?: in mawk's printf)
bench_absdiff_us() {
	awk -v s="$1" -v ns="$2" 'BEGIN { d = s * 1e9 - ns; if (d < 0) d = -d; printf "%.3f\n", d / 1000 }'
}

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
	# a row per load with a longest wait (massive-intr has no victim: its
	# processes are the load); in-band is the cpu-victim's own figure
	jq -r '.runs[] | select(.status == "ok") | . as $r | .loads[] |
		select(.exact.longest.tid != null) | [$r.figures.source,
		$r.window.from_ns, $r.window.until_ns,
		($r.exact.lost_events + $r.exact.lost_tasks), .name,
		.exact.longest.tid, .metrics.starvation_max,
		(.metrics.starvation_max_inband // "-")] | @tsv' "$out/result.json" >"$BENCH_TMP/rows"
	ratio="" diffs="" inband="" lost=0 n=0
	while IFS="$(printf '\t')" read -r source from until l load tid figure ib; do
		[ "$source" = "$src" ] || { echo "  $name: figures from $source, not $src"; continue; }
		truth=$("$cap" longest "$BENCH_TMP/capture" "$tid" "$from" "$until" | cut -d' ' -f1)
		[ "${truth:-0}" -gt 0 ] || continue
		ratio="$ratio $(bench_calc "$figure * 1e9 / $truth")"
		d=$(bench_absdiff_us "$figure" "$truth") diffs="$diffs $d"
		awk -v d="$d" 'BEGIN { exit !(d > 10) }' &&
			echo "  $src $name: $load (tid $tid) $d us off the capture ($figure s, $truth ns)"
		[ "$ib" = - ] || inband="$inband $(bench_absdiff_us "$ib" "$truth")"
		lost=$((lost + l)) n=$((n + 1))
	done <"$BENCH_TMP/rows"
	[ "$n" -gt 0 ] || { echo "  $src $name: no run to compare"; BENCH_MISSED=1; return; }
	# shellcheck disable=SC2086
	worst=$(printf '%s\n' $diffs | sort -g | tail -n 1)
	# shellcheck disable=SC2086
	echo "$src $name: starvation_max / capture $(bench_mmm $ratio) (min/median/max of" \
	     "$n load-runs), difference $(bench_mmm $diffs) us, $lost lost" \
	     "${inband:+; in-band difference $(bench_mmm $inband) us}"
	bench_judge "$src $name: worst difference (us)" "$worst" le 10
	bench_judge "$src $name: events or tasks lost" "$lost" le 0
	# shellcheck disable=SC2086
	[ -z "$inband" ] || bench_judge "$src $name: worst in-band difference (us)" \
		"$(printf '%s\n' $inband | sort -g | tail -n 1)" le 200
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
