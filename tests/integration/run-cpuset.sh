#!/bin/sh
# Runs with "cpuset: true" (root): the load runs in a cpuset of the chosen
# backend holding only its CPUs, result.json names that backend, and no
# starve-<pid>-* directory outlives the run: removed at the end, removed by
# the watchdog after kill -9 of the controller, and `starve restore`
# removes those of dead pids (and keeps those of live ones).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob	# the lock: pu:1 should not be shared with another run test
backend=$("$STARVE" env | sed -n 's/^cpuset  *//p')
case $backend in
cgroup-v1) root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuset(,|$)/ { print $2; exit }
		       $3 == "cpuset" { print $2; exit }' /proc/self/mounts) ;;
cgroup-v2) root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts) ;;
libcpuset) root=/dev/cpuset ;;
*) skip "no cpuset backend usable here (starve env says '$backend')" ;;
esac
[ -d "$root" ] || fail "no cpuset root for $backend"
LIVE_DIR="$root/starve-$$-live"
# on failure too: no cpuset of ours outlives the test
cleanup_cpusets() {
	cleanup_run
	rmdir "$LIVE_DIR" 2>/dev/null
	[ -z "${dead:-}" ] || rmdir "$root/starve-$dead-stale" 2>/dev/null
	for p in $CTL_PIDS; do rmdir "$root"/starve-"$p"-* 2>/dev/null; done
	return 0
}
trap cleanup_cpusets EXIT

# start_run OUT DURATION: a run in the background; sets ctl
start_run() {
	"$STARVE" run --quiet -o "$TMPDIR_TEST/$1" --duration "$2" "$PROFILES/cpuset.yaml" \
		> "$TMPDIR_TEST/$1.log" 2>&1 &
	ctl=$!
	CTL_PIDS="$CTL_PIDS $ctl"
}

# wait_dir DIR: up to 5 s for the load's cpuset to appear
wait_dir() {
	for _ in $(seq 50); do [ -d "$1" ] && return 0; sleep 0.1; done
	return 1
}

# 1. a whole run: confined while it lasts, nothing left after
start_run out 2s
dir="$root/starve-$ctl-victim"
wait_dir "$dir" || { cat "$TMPDIR_TEST/out.log"; fail "no cpuset $dir during the run"; }
procs=$(cat "$dir/cgroup.procs" 2>/dev/null || cat "$dir/tasks")
[ -n "$procs" ] || fail "cpuset $dir holds no process"
for p in $procs; do
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status")
	[ "$allowed" = 1 ] || fail "pid $p in $dir may run on '$allowed', not CPU 1"
done
wait "$ctl" || { cat "$TMPDIR_TEST/out.log"; fail "starve run exited $?"; }
check_json "$TMPDIR_TEST/out/result.json" '.cpuset_backend == $b and .profile and .runs[0].status == "ok"' \
	"the result does not name backend $backend, or its run is not ok" --arg b "$backend"
left=$(ls -d "$root"/starve-"$ctl"-* 2>/dev/null)
[ -z "$left" ] || fail "cpusets left after the run: $left"

# 2. kill -9 of the controller: the watchdog kills the load, removes its cpuset
start_run killed 20s
dir="$root/starve-$ctl-victim"
wait_dir "$dir" || { cat "$TMPDIR_TEST/killed.log"; fail "no cpuset $dir during the run"; }
pids=$(wait_our_pids "$ctl" 2) || fail "found only these processes: $pids"
kill -9 "$ctl"
wait "$ctl" 2>/dev/null
wait_gone $pids
for _ in $(seq 30); do [ -e "$dir" ] || break; sleep 0.1; done
[ ! -e "$dir" ] || fail "$dir still exists 3 s after kill -9 of the controller"

# 3. starve restore: a dead pid's cpuset goes (--dry-run only names it), a
# live one's stays
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir "$root/starve-$dead-stale" "$LIVE_DIR" || fail "cannot make test cpusets under $root"
"$STARVE" restore --dry-run > "$TMPDIR_TEST/dry.log" 2>&1 || fail "starve restore --dry-run failed"
grep -q "would remove cpuset $root/starve-$dead-stale" "$TMPDIR_TEST/dry.log" ||
	{ cat "$TMPDIR_TEST/dry.log"; fail "restore --dry-run does not name the stale cpuset"; }
[ -d "$root/starve-$dead-stale" ] || fail "restore --dry-run removed a cpuset"
"$STARVE" restore > "$TMPDIR_TEST/restore.log" 2>&1 ||
	{ cat "$TMPDIR_TEST/restore.log"; fail "starve restore failed"; }
grep -q "removed cpuset $root/starve-$dead-stale" "$TMPDIR_TEST/restore.log" ||
	{ cat "$TMPDIR_TEST/restore.log"; fail "restore did not say it removed the stale cpuset"; }
[ ! -e "$root/starve-$dead-stale" ] || fail "restore left the dead pid's cpuset"
[ -d "$LIVE_DIR" ] || fail "restore removed the cpuset of a live pid"
