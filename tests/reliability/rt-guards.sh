#!/bin/sh
# An RT load never outlives both guards (issue 20, 2): rt-throttle's
# unthrottled setting (kernel.sched_rt_runtime_us -1, a FIFO hog on CPU 1,
# at PRIORITY, default 98: the highest a load may take, one below its
# leader's) for RUN_S (default 10 s); one second after the knob reads -1
# the watchdog and then the controller are killed with -9. Nobody is left
# to kill the loads but the loads' own guards (loads/guard.c): the hog must
# be gone within 1 s of the watchdog's death, every trial; `starve restore`
# then puts the knob back. TRIALS (default 20). Opt-in (make
# check-reliability), root, live knob; takes the test suite's lock.
. "${top_srcdir:-.}/tests/reliability/common.sh"
: "${TRIALS:=20}" "${RUN_S:=10}" "${PRIORITY:=98}"
worst_ms=0
reliability_start
[ "$BEFORE" != -1 ] || { echo "SKIP: $KNOB is -1 already"; exit 77; }
export STARVE_STATE_DIR="$WORK/state" STARVE_LOCK_WAIT=10
PROFILE="$WORK/rt-throttle.yaml"
sed "s/^    priority: 50$/    priority: $PRIORITY/" "$top_srcdir/profiles/rt-throttle.yaml" > "$PROFILE"
grep -q "^    priority: $PRIORITY$" "$PROFILE" || { echo "FAIL: rt-throttle.yaml's hog is not at priority 50"; exit 1; }

# Live (not zombie) processes named $1.
live() { not_zombies $(pgrep -x "$1"); }
cleanup() {
	for p in $(live starve-hog) $(live starve-victim); do kill -9 "$p" 2>/dev/null; done
	"$STARVE" restore > /dev/null 2>&1
	reliability_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

trial() {
	"$STARVE" run --quiet --only unthrottled --duration "${RUN_S}s" -o "$WORK/out" \
		"$PROFILE" > "$WORK/log" 2>&1 &
	ctl=$!
	i=0
	while [ "$(cat "$KNOB")" != -1 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ "$(cat "$KNOB")" = -1 ] || { bad "$1" "the knob never read -1: $(cat "$WORK/log")"; wait $ctl; return; }
	sleep 1
	wd=$(pgrep -P $ctl -x starve-watchdog)
	[ -n "$(live starve-hog)" ] || { bad "$1" "no hog running"; kill -9 $ctl; wait $ctl; return; }
	[ -n "$wd" ] || { bad "$1" "no watchdog"; kill -9 $ctl; wait $ctl; return; }
	t0=$(now_ms)
	kill -9 "$wd" $ctl
	while [ -n "$(live starve-hog)" ] && [ $(( $(now_ms) - t0 )) -lt 3000 ]; do sleep 0.02; done
	gone_ms=$(( $(now_ms) - t0 ))
	wait $ctl 2>/dev/null
	[ $gone_ms -le "$worst_ms" ] || worst_ms=$gone_ms
	[ -z "$(live starve-hog)" ] || { bad "$1" "the hog still runs 3 s after both guards died"; return; }
	[ $gone_ms -le 1000 ] || bad "$1" "the hog took $gone_ms ms to go (over 1 s)"
	"$STARVE" restore > "$WORK/restore" 2>&1 || bad "$1" "starve restore failed: $(cat "$WORK/restore")"
	[ "$(cat "$KNOB")" = "$BEFORE" ] || bad "$1" "$KNOB at $(cat "$KNOB") after starve restore"
	i=0
	while [ -n "$(live starve-victim)" ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
	[ -z "$(live starve-victim)" ] || bad "$1" "the victim load outlived its controller by 2 s"
}

echo "rt guards: $TRIALS trials, rt-throttle unthrottled ${RUN_S}s, hog at FIFO $PRIORITY, watchdog and controller killed -9"
reliability_trials
printf '%-44s %s\n' "hog gone within 1 s of both guards' death:" \
	"$((TRIALS - failures))/$TRIALS (slowest ${worst_ms} ms)"
[ $failures = 0 ]
