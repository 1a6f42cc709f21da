#!/bin/sh
# No load outlives the run (issue 10, 3): a command that leaves its load's
# process group (setsid; a daemon's double fork) is ended with the load, by
# `starve run` and by `starve load`, and the user is told; when the
# controller is killed (with the watchdog or not), the load's leader ends
# them; at a second Ctrl-C, the controller does. Without it the escaped sleeps would outlive starve by 20 minutes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
suite_lock
trap 'end_escaped; cleanup_run' EXIT

# The escaped sleeps are ours (their arguments are unique to this test).
escaped() { pgrep -f '^sleep 1237\.[56]$'; }
end_escaped() { for p in $(escaped); do kill -9 "$p" 2>/dev/null; done; }
[ -z "$(escaped)" ] || { end_escaped; sleep 0.2; }

check_ended() {	# $1: what ran, $2: its log
	grep -q 'ended 2 processes a load left outside its process group' "$2" ||
		{ cat "$2" >&2; fail "$1 did not say it ended 2 escaped processes"; }
	left=$(escaped)
	[ -z "$left" ] || { ps -o pid,ppid,sid,args -p "$(echo $left | tr ' ' ,)" >&2
		fail "$1 left escaped processes running: $left"; }
	echo "$1: both escaped processes ended"
}

"$STARVE" run -q -o "$TMPDIR_TEST/out" "$PROFILES/exec-escape.yaml" > "$TMPDIR_TEST/run.log" 2>&1 ||
	{ cat "$TMPDIR_TEST/run.log" >&2; fail "starve run failed"; }
check_ended "starve run" "$TMPDIR_TEST/run.log"

"$STARVE" load exec --duration 1s --cpus pu:0 \
	--command "setsid sleep 1237.5 & setsid sh -c 'sleep 1237.6 & exit 0'; wait" \
	> "$TMPDIR_TEST/load.log" 2>&1 || { cat "$TMPDIR_TEST/load.log" >&2; fail "starve load failed"; }
check_ended "starve load" "$TMPDIR_TEST/load.log"

# The crash: the leader, their subreaper, ends them when the controller dies,
# and a live watchdog waits for it before killing the load's group; a
# second SIGINT ends them from the controller's handler.
crash() {	# $1: "controller", "controller and watchdog" or "second SIGINT"
	"$STARVE" run -q -o "$TMPDIR_TEST/out-kill" --duration 20s "$PROFILES/exec-escape.yaml" \
		> "$TMPDIR_TEST/kill.log" 2>&1 &
	ctl=$!
	CTL_PIDS=$ctl
	i=0
	while [ "$(escaped | wc -l)" -lt 2 ]; do
		[ $i -lt 100 ] || { cat "$TMPDIR_TEST/kill.log" >&2; fail "the escaped sleeps did not start"; }
		sleep 0.1; i=$((i + 1))
	done
	wd=$(for p in $(our_pids $ctl); do [ "$(cat /proc/$p/comm 2>/dev/null)" = starve-watchdog ] && echo $p; done)
	[ -n "$wd" ] || fail "no watchdog"
	case $1 in
	*watchdog) kill -9 $ctl $wd ;;
	*SIGINT) kill -INT $ctl; kill -INT $ctl ;;
	*) kill -9 $ctl ;;
	esac
	wait $ctl 2>/dev/null
	i=0
	while [ -n "$(escaped)" ]; do
		[ $i -lt 30 ] || { left=$(escaped); ps -o pid,ppid,sid,stat,args -p "$(echo $left | tr ' ' ,)" >&2
			fail "escaped processes outlived the controller ($1): $left"; }
		sleep 0.1; i=$((i + 1))
	done
	wait_gone $wd
	echo "$1: both escaped processes ended"
}
crash "controller"
crash "controller and watchdog"
crash "second SIGINT"
