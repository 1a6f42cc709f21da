#!/bin/sh
# Exact mode and BPF mode against an independent capture:
# tests/integration/schedcap records sched_switch and sched_wakeup(_new) in a
# tracefs instance of its own, as text, while starve runs
# sleep-hog-starvation (three 1 s runs) with --trace (exact mode), then
# without (BPF mode, the default where it can run); for each run it computes
# the victim's longest runnable-but-not-running stretch inside the run's
# window (result.json's window, one time origin for every source), and
# starve's figure must be within 10 us of it. Before exact mode covered the
# window (it started 143-231 ms late), a longest wait in the uncovered start
# missed by up to 0.9 ms. About 10 s.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the loads stay on pu:1)"
# schedcap reads tracefs itself: where it is not mounted, run in a mount
# namespace of our own with tracefs mounted there, so the machine's mounts
# stay as they are
if [ ! -d /sys/kernel/tracing/instances ] && [ -z "${STARVE_TEST_UNSHARED:-}" ] &&
   command -v unshare > /dev/null; then
	STARVE_TEST_UNSHARED=1 exec unshare -m --propagation private sh -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec sh "$0"' "$0"
fi
[ -d /sys/kernel/tracing/instances ] || skip "tracefs is not mounted at /sys/kernel/tracing"
env_json=$("$STARVE" env --json)
trace_ok=$(echo "$env_json" | jq -r '.trace.available')
bpf_ok=$(echo "$env_json" | jq -r '.bpf.available')
[ "$trace_ok" = true ] || [ "$bpf_ok" = true ] ||
	skip "neither exact mode nor BPF mode can run: $(echo "$env_json" | jq -r '.trace.reason')"
guard_knob
CAP="$top_builddir/tests/integration/schedcap"
TOL_NS=10000

# against_once SOURCE [ARGS...]: three runs captured alongside; every one
# within TOL_NS, else 1.
against_once() {
	src=$1
	shift
	"$CAP" record "schedcap-$$" "$TMPDIR_TEST/capture" > "$TMPDIR_TEST/cap.out" 2>&1 &
	CTL_PIDS=$!
	i=0
	until grep -qx ready "$TMPDIR_TEST/cap.out"; do
		[ $i -lt 50 ] || fail "schedcap did not start: $(cat "$TMPDIR_TEST/cap.out")"
		sleep 0.1; i=$((i + 1))
	done
	out="$TMPDIR_TEST/$src"
	"$STARVE" run --quiet --repeat 3 --duration 1s --warmup 300ms -o "$out" "$@" \
		"$top_srcdir/profiles/sleep-hog-starvation.yaml" > "$TMPDIR_TEST/log" 2>&1
	rc=$?
	kill -TERM "$CTL_PIDS"
	wait "$CTL_PIDS"
	caprc=$?
	CTL_PIDS=
	[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TMPDIR_TEST/log"; fail "$src: starve run exited $rc"; }
	[ $caprc = 0 ] || fail "schedcap exited $caprc: $(cat "$TMPDIR_TEST/cap.out")"
	[ ! -d "/sys/kernel/tracing/instances/schedcap-$$" ] || fail "schedcap left its instance"
	jq -r '.runs[] | [.status, .figures.source, .window.from_ns, .window.until_ns,
		(.loads[] | select(.name == "victim") | .exact.longest.tid,
		 .metrics.starvation_max)] | @tsv' "$out/result.json" > "$TMPDIR_TEST/runs"
	[ "$(wc -l < "$TMPDIR_TEST/runs")" = 3 ] || fail "$src: expected 3 runs: $(cat "$TMPDIR_TEST/runs")"
	while IFS="$(printf '\t')" read -r status source from until tid figure; do
		[ "$status" = ok ] || fail "$src: run $status"
		[ "$source" = "$src" ] || fail "the figures came from $source, not $src"
		set -- $("$CAP" longest "$TMPDIR_TEST/capture" "$tid" "$from" "$until")
		[ $# = 2 ] || fail "schedcap longest gave no figure"
		echo "$src: victim $tid ${figure}s, capture $1 ns (from $((($2 - from) / 1000)) us)"
		awk -v e="$figure" -v c="$1" -v t="$TOL_NS" 'BEGIN {
			d = e * 1e9 - c; if (d < 0) d = -d
			if (c <= 0 || d > t) { printf "off the capture by %.0f ns\n", d; exit 1 } }' ||
			{ echo "$src disagrees with the independent capture"; return 1; }
	done < "$TMPDIR_TEST/runs"
}

# against SOURCE [ARGS...]: a second attempt where the first disagreed, once
# (seen: BPF 29 us off while a qemu guest ran beside it); two are a failure.
against() {
	against_once "$@" && return 0
	echo "attempt 2: $1 disagreed once (the machine is shared)"
	against_once "$@" || fail "$1 disagrees with the independent capture in two attempts"
}

if [ "$trace_ok" = true ]; then against trace --trace; else echo "exact mode cannot run here"; fi
if [ "$bpf_ok" = true ]; then against bpf; else echo "BPF mode cannot run here"; fi
echo "ok"
