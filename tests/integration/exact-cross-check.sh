#!/bin/sh
# Exact mode as the judge of the other two measurements: rt-throttle (the
# throttled setting) and sleep-hog-starvation, one short run each with
# --trace. In every run the exact starvation_max of the victim lies within
# the sampler's bounds (starvation_max_sampler to its upper bound, when
# waits merged), give or take one sample period (plus one per tick it
# missed); the in-band one is within IN_BAND_TOL of exact (0.5 ms on
# rt-throttle: in-band's gap also holds the kernel's path from the victim's
# last clock read to its switch-out and back, which the scheduler counts as
# running; in-band was 0.17-0.36 ms above exact in 11 runs on this VM, and
# 0.2 ms stays the goal make bench judges; on
# sleep-hog-starvation, where the victim is switched in
# and out again before it loops, in-band sees one gap where the scheduler
# saw two waits, and bench/exact-vs-sampler.sh measured 0.4-1.4 ms: held to
# one period here); the hog shows as who ran instead; the tracefs instance
# and the journal are gone afterwards. About 6 s. A stalled vCPU can only
# lengthen in-band (the scheduler counts the stall as the victim's running):
# in-band above exact by more than the tolerance in a run whose sampler
# missed ticks (the stall's trace) is tried again, saying so, up to three
# times; in-band below exact, or above it in a run that missed none, fails.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the loads stay on pu:1)"
avail=$("$STARVE" env --json | jq -r '.trace.available')
[ "$avail" = true ] || skip "exact mode unavailable: $("$STARVE" env --json | jq -r '.trace.reason')"
guard_knob
[ "$KNOB_BEFORE" != -1 ] || skip "RT throttling is off: the hog would own pu:1"

# cross_check PROFILE IN_BAND_TOL [ARGS...]: run it with --trace, check
# every run; 1 when the only disagreement was in-band above exact in a run
# that missed ticks.
cross_check() {
	prof=$1 tol=$2
	shift 2
	out="$TMPDIR_TEST/$prof"
	"$STARVE" run --quiet --trace --repeat 1 --duration 2s --warmup 500ms -o "$out" \
		"$@" "$top_srcdir/profiles/$prof.yaml" > "$TMPDIR_TEST/log" 2>&1
	rc=$?
	# 1 is a verdict: the profiles' expectations are set for their own
	# longer runs (rt-throttle's cpu_share floor of 0.04 is 20% under the
	# fair server's 50 ms a second over 5 s; a 2 s window holds 1.5 to 2
	# of its periods and read 0.0396-0.0399 in four runs this stop). This
	# test judges the measurements against each other, not the kernel.
	[ $rc = 0 ] || [ $rc = 1 ] || { cat "$TMPDIR_TEST/log"; fail "$prof: starve run exited $rc"; }
	stalled=
	jq -r '.runs[] | [.status, .sampler.target_hz, .sampler.missed_ticks, .exact.lost_events,
		(.loads[] | select(.name == "victim") | .metrics |
		 .starvation_max, .starvation_max_sampler, .starvation_max_inband,
		 (.starvation_max_sampler_upper // .starvation_max_sampler))] | @tsv' \
		"$out/result.json" > "$TMPDIR_TEST/figures"
	[ -s "$TMPDIR_TEST/figures" ] || fail "$prof: no runs"
	while IFS="$(printf '\t')" read -r status hz missed lost exact sampled inband upper; do
		echo "$prof: victim starvation_max exact ${exact}s, sampler ${sampled}s" \
		     "(up to ${upper}s), in-band ${inband}s (${hz} Hz, $missed ticks missed," \
		     "$lost events lost)"
		[ "$status" = ok ] || fail "$prof: run $status"
		[ "$lost" = 0 ] || fail "$prof: the trace lost $lost events"
		awk -v e="$exact" -v s="$sampled" -v u="$upper" -v i="$inband" -v hz="$hz" \
		    -v m="$missed" -v t="$tol" 'BEGIN {
			p = (1 + m) / hz
			if (e < s - p || e > u + p) {
				printf "exact %.6fs outside the sampler'"'"'s %.6f-%.6fs +- %.6fs\n", e, s, u, p
				exit 1 }
			d = i - e; if (d < 0) d = -d
			if (d > t) { printf "in-band off by %.6fs (more than %ss)\n", d, t
				if (i > e && m > 0) exit 2
				exit 1 } }'
		case $? in
		0) ;;
		2) stalled=1 ;;
		*) fail "$prof: the measurements disagree with exact mode" ;;
		esac
	done < "$TMPDIR_TEST/figures"
	[ -z "$stalled" ] || return 1
	[ "$(jq '[.runs[].loads[] | select(.name == "victim") | .exact.longest.ran_instead[]
		 | select(.comm | startswith("starve-hog"))] | length' "$out/result.json")" -gt 0 ] ||
		fail "$prof: the hog is not named as who ran instead"
}

# cross_check_3 PROFILE IN_BAND_TOL [ARGS...]: cross_check, tried again
# after a stalled run, up to three times.
cross_check_3() {
	for n in 1 2 3; do
		cross_check "$@" && return 0
		[ $n -lt 3 ] || fail "$1: in-band above exact in 3 runs, each with ticks missed"
		echo "attempt $n: in-band above exact in a run that missed ticks (a stalled" \
		     "vCPU), trying again" >&2
	done
}

cross_check_3 rt-throttle 0.0005 --only throttled
jq -e '.runs[0].loads[] | select(.name == "victim") | .exact.longest.ran_instead[0] |
	.policy == "FIFO" and .priority == 50' "$TMPDIR_TEST/rt-throttle/result.json" >/dev/null ||
	fail "rt-throttle: the FIFO 50 hog is not first among who ran instead"
cross_check_3 sleep-hog-starvation 0.004
for d in /sys/kernel/tracing/instances /sys/kernel/debug/tracing/instances; do
	[ -d "$d" ] || continue
	! ls "$d" | grep -q '^starve-' || fail "a starve tracefs instance was left in $d"
done
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left behind"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB changed"
echo "ok"
