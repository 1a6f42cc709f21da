#!/bin/sh
# No child left (issue 10, 3): kill -9 of the controller and the watchdog
# together; the `sleep 120` grandchildren of an exec load die too (the
# leader's death signal kills its whole process group).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
trials=${TRIALS:-3}
t=0
while [ $t -lt "$trials" ]; do
	"$STARVE" run --quiet -o "$TMPDIR_TEST/out$t" "$PROFILES/exec-orphans.yaml" \
		> "$TMPDIR_TEST/log" 2>&1 &
	ctl=$!
	CTL_PIDS=$ctl
	# the watchdog, the leader (its worker is a thread), the shell, two sleeps
	pids=$(wait_our_pids $ctl 5) ||
		{ ps -e -o pid,ppid,pgid,comm | grep -E 'starve|sleep' >&2; fail "found only: $pids"; }
	sleeps=$(for p in $pids; do [ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ] && echo $p; done)
	[ -n "$sleeps" ] || fail "no sleep among $pids"
	wd=$(for p in $pids; do [ "$(cat /proc/$p/comm 2>/dev/null)" = starve-watchdog ] && echo $p; done)
	[ -n "$wd" ] || fail "no watchdog among $pids"
	kill -9 $ctl $wd
	wait $ctl 2>/dev/null
	wait_gone $pids
	t=$((t + 1))
done
echo "controller and watchdog killed together: $trials/$trials left no process (sleeps included)"
