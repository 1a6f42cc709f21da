#!/bin/sh
# A stopped controller never keeps a knob changed (issue 33): rt-throttle's
# unthrottled setting (kernel.sched_rt_runtime_us -1) for 10 s, its
# controller stopped with SIGSTOP for STOP_S (default 15) at a random time
# in the first 3.5 s after the knob reads -1 (before the window, in the
# warm-up, in the window), then resumed. The watchdog looks at it every
# 100 ms and acts at two looks that found it stopped: the knob must be back
# within LIMIT_MS (default 500) of the stop, every trial, and the resumed
# run must be an error (exit 3), never "ok". TRIALS (default 10). Opt-in
# (make check-reliability), root, live knob; takes the test suite's lock.
. "${top_srcdir:-.}/tests/reliability/common.sh"
: "${TRIALS:=10}" "${STOP_S:=15}" "${LIMIT_MS:=500}"
worst_ms=0 failed_trials=0
reliability_start
[ "$BEFORE" != -1 ] || { echo "SKIP: $KNOB is -1 already"; exit 77; }
export STARVE_STATE_DIR="$WORK/state" STARVE_LOCK_WAIT=10

cleanup() {
	[ -z "${ctl:-}" ] || { kill -CONT $ctl; kill -9 $ctl; } 2>/dev/null
	"$STARVE" restore > /dev/null 2>&1
	reliability_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
rand_ms() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 )); }
ms_to_s() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

trial() {
	before=$failures
	rm -rf "$WORK/out"
	"$STARVE" run --quiet --only unthrottled --repeat 1 --duration 10s -o "$WORK/out" \
		"$top_srcdir/profiles/rt-throttle.yaml" > "$WORK/log" 2>&1 &
	ctl=$!
	i=0
	while [ "$(cat "$KNOB")" != -1 ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
	[ "$(cat "$KNOB")" = -1 ] || { bad "$1" "the knob never read -1: $(cat "$WORK/log")"; wait $ctl; return; }
	at=$(rand_ms 3500)
	sleep "$(ms_to_s "$at")"
	kill -STOP $ctl
	t0=$(now_ms)
	while [ "$(cat "$KNOB")" = -1 ] && [ $(( $(now_ms) - t0 )) -lt $((STOP_S * 1000)) ]; do sleep 0.01; done
	back_ms=$(( $(now_ms) - t0 ))
	[ "$(cat "$KNOB")" != -1 ] || back_ms=$((STOP_S * 1000))
	sleep "$(ms_to_s $((STOP_S * 1000 - back_ms)))"
	kill -CONT $ctl
	wait $ctl; rc=$?
	ctl=
	[ $back_ms -le "$worst_ms" ] || worst_ms=$back_ms
	[ $back_ms -le "$LIMIT_MS" ] ||
		bad "$1" "stopped ${at} ms after the knob write: the knob read -1 for $back_ms ms of the stop (over $LIMIT_MS ms)"
	status=$(jq -r '.runs[0].status' "$WORK/out/result.json" 2>/dev/null)
	[ "$rc" = 3 ] && [ "$status" = error ] ||
		bad "$1" "stopped ${at} ms after the knob write: resumed, exit $rc, status '$status': $(jq -r '.runs[0].reason' "$WORK/out/result.json" 2>/dev/null)"
	[ "$(cat "$KNOB")" = "$BEFORE" ] || bad "$1" "$KNOB at $(cat "$KNOB") after the run"
	[ ! -e "$STARVE_STATE_DIR/journal" ] || bad "$1" "a journal was left"
	[ $failures = $before ] || failed_trials=$((failed_trials + 1))
}

echo "early stop: $TRIALS trials, rt-throttle unthrottled 10 s, SIGSTOP ${STOP_S} s in the first 3.5 s"
reliability_trials
printf '%-44s %s\n' "knob back within $LIMIT_MS ms, the run an error:" \
	"$((TRIALS - failed_trials))/$TRIALS (slowest knob ${worst_ms} ms into the stop)"
[ $failures = 0 ]
