#!/bin/sh
# Loads never outlive a controller stuck in fsync (issue 33): a --trace run
# of rt-throttle's unthrottled setting (a FIFO hog beside a victim on CPU
# 1) whose controller, once its loads run, is moved into a blkio cgroup
# that lets IOPS (default 5) writes a second reach its disk: a busy disk,
# on which the fsync ending the window (exact mode's tracefs instance
# leaves the journal) takes about a second, as the campaign measured (936
# ms). Caught in that fsync, the controller and its watchdog are killed
# with -9; the controller takes that second to die, but no load may live
# LIMIT_MS (default 300) past the kill, every trial. `starve restore` then
# puts the knob back. TRIALS (default 20). Opt-in (make check-reliability),
# root, live knob, cgroup v1 blkio; takes the test suite's lock.
. "${top_srcdir:-.}/tests/reliability/common.sh"
: "${TRIALS:=20}" "${IOPS:=5}" "${LIMIT_MS:=300}"
worst_ms=0 worst_ctl_ms=0 in_fsync=0
BLKIO=/sys/fs/cgroup/blkio
[ -w "$BLKIO/cgroup.procs" ] || { echo "SKIP: no cgroup v1 blkio to make the disk busy"; exit 77; }
reliability_start
[ "$BEFORE" != -1 ] || { echo "SKIP: $KNOB is -1 already"; exit 77; }
export STARVE_STATE_DIR="$WORK/state" STARVE_LOCK_WAIT=10
# the whole disk under the state directory (blkio throttles disks, not partitions)
dev=$(findmnt -no SOURCE -T "$WORK")
disk=$(lsblk -no PKNAME "$dev" 2>/dev/null)
[ -n "$disk" ] || disk=${dev##*/}
[ -r "/sys/class/block/$disk/dev" ] || { echo "SKIP: $WORK is not on a block device ($dev)"; exit 77; }
SLOW=$BLKIO/starve-fsync-guards-$$
mkdir "$SLOW" && echo "$(cat "/sys/class/block/$disk/dev") $IOPS" > "$SLOW/blkio.throttle.write_iops_device" ||
	{ echo "SKIP: cannot throttle $disk's writes"; rmdir "$SLOW" 2>/dev/null; exit 77; }

# Live (not zombie) processes of the loads.
live() { not_zombies $(pgrep -x starve-hog; pgrep -x starve-victim); }
cleanup() {
	for p in $(live); do kill -9 "$p" 2>/dev/null; done
	"$STARVE" restore > /dev/null 2>&1
	rmdir "$SLOW" 2>/dev/null
	reliability_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
state_of() { sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null; }
# Wait up to 5 s for the controller to be in an fsync; 0 if it was.
wait_fsync() {
	i=0
	while [ $i -lt 500 ] && kill -0 "$1" 2>/dev/null; do
		[ "$(state_of "$1")" = D ] && grep -q 'sync_file\|fdatawait\|file_write_and_wait' \
			"/proc/$1/stack" 2>/dev/null && return 0
		sleep 0.01; i=$((i + 1))
	done
	return 1
}

trial() {
	"$STARVE" run --trace --quiet --only unthrottled --repeat 1 --duration 2s --warmup 200ms \
		-o "$WORK/out" "$top_srcdir/profiles/rt-throttle.yaml" > "$WORK/log" 2>&1 &
	ctl=$!
	i=0
	while { [ "$(cat "$KNOB")" != -1 ] || [ -z "$(live)" ]; } && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ "$(cat "$KNOB")" = -1 ] || { bad "$1" "the knob never read -1: $(cat "$WORK/log")"; wait $ctl; return; }
	sleep 0.3
	wd=$(pgrep -P $ctl -x starve-watchdog)
	[ -n "$wd" ] || { bad "$1" "no watchdog"; kill -9 $ctl; wait $ctl; return; }
	echo $ctl > "$SLOW/cgroup.procs"	# its loads and watchdog stay where they are
	wait_fsync $ctl && in_fsync=$((in_fsync + 1))
	[ -n "$(live)" ] || { bad "$1" "no load running at the kill: $(cat "$WORK/log")"; wait $ctl; return; }
	t0=$(now_ms)
	kill -9 "$wd" $ctl
	while [ -n "$(live)" ] && [ $(( $(now_ms) - t0 )) -lt 5000 ]; do sleep 0.01; done
	gone_ms=$(( $(now_ms) - t0 ))
	while [ "$(state_of $ctl)" = D ]; do sleep 0.01; done
	ctl_ms=$(( $(now_ms) - t0 ))
	wait $ctl 2>/dev/null
	[ $gone_ms -le "$worst_ms" ] || worst_ms=$gone_ms
	[ $ctl_ms -le "$worst_ctl_ms" ] || worst_ctl_ms=$ctl_ms
	[ $gone_ms -le "$LIMIT_MS" ] ||
		bad "$1" "a load lived $gone_ms ms past the kill (over $LIMIT_MS ms; the controller took $ctl_ms ms to die)"
	"$STARVE" restore > "$WORK/restore" 2>&1 || bad "$1" "starve restore failed: $(cat "$WORK/restore")"
	[ "$(cat "$KNOB")" = "$BEFORE" ] || bad "$1" "$KNOB at $(cat "$KNOB") after starve restore"
}

echo "fsync guards: $TRIALS trials, rt-throttle unthrottled --trace, $disk at $IOPS writes/s, watchdog and controller killed -9 in fsync"
reliability_trials
printf '%-44s %s\n' "loads gone within $LIMIT_MS ms of the kill:" \
	"$((TRIALS - failures))/$TRIALS (slowest ${worst_ms} ms; controller killed in fsync $in_fsync times, slowest to die ${worst_ctl_ms} ms)"
[ $failures = 0 ]
