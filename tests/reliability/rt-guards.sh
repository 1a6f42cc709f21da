#!/bin/sh
# An RT load never outlives both guards (issue 20, 2): rt-throttle's
# unthrottled setting (kernel.sched_rt_runtime_us -1, a FIFO 50 hog on CPU
# 1) for RUN_S (default 10 s); one second after the knob reads -1 the
# watchdog and then the controller are killed with -9. Nobody is left to
# kill the loads but the loads' own guards (loads/guard.c): the hog must be
# gone within 1 s of the watchdog's death, every trial; `starve restore`
# then puts the knob back. TRIALS (default 20). Opt-in (make
# check-reliability), root, live knob; takes the test suite's lock.
set -u
: "${top_srcdir:=.}" "${STARVE:=./starve}" "${TRIALS:=20}" "${RUN_S:=10}"
KNOB=/proc/sys/kernel/sched_rt_runtime_us
WORK=$(mktemp -d)
failures=0
worst_ms=0
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
[ -w "$KNOB" ] || { echo "SKIP: $KNOB not writable"; exit 77; }
exec 9>>/tmp/starve-check.lock
flock -w 900 9 || { echo "FAIL: the test suite's lock stayed busy"; exit 1; }
BEFORE=$(cat "$KNOB")
[ "$BEFORE" != -1 ] || { echo "SKIP: $KNOB is -1 already"; exit 77; }
export STARVE_STATE_DIR="$WORK/state" STARVE_LOCK_WAIT=10

# Live (not zombie) processes named $1.
live() {
	for p in $(pgrep -x "$1"); do
		state=$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null) || continue
		[ "$state" = Z ] || echo "$p"
	done
}
cleanup() {
	for p in $(live starve-hog) $(live starve-victim); do kill -9 "$p" 2>/dev/null; done
	"$STARVE" restore > /dev/null 2>&1
	if [ "$(cat "$KNOB")" != "$BEFORE" ]; then
		echo "$BEFORE" > "$KNOB"
		echo "cleanup: had to restore $KNOB to $BEFORE" >&2
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
bad() { echo "  trial $1: $2" >&2; failures=$((failures + 1)); }

trial() {
	"$STARVE" run --quiet --only unthrottled --duration "${RUN_S}s" -o "$WORK/out" \
		"$top_srcdir/profiles/rt-throttle.yaml" > "$WORK/log" 2>&1 &
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

echo "rt guards: $TRIALS trials, rt-throttle unthrottled ${RUN_S}s, watchdog and controller killed -9"
n=1
while [ $n -le "$TRIALS" ]; do
	trial $n
	n=$((n + 1))
done
printf '%-44s %s\n' "hog gone within 1 s of both guards' death:" \
	"$((TRIALS - failures))/$TRIALS (slowest ${worst_ms} ms)"
[ $failures = 0 ]
