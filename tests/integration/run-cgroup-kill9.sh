#!/bin/sh
# kill -9 of the controller and of its watchdog during a cgroup setting: the
# journal holds the cgroup directories, and `starve restore` removes them,
# so no starve-<pid> cgroup is left in the cpu controller's hierarchy.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
root=$("$STARVE" env --json | jq -r 'if .cgroups.cpu.usable then .cgroups.cpu.root else empty end')
[ -n "$root" ] || skip "no usable cpu controller: $("$STARVE" env --json | jq -r .cgroups.cpu.reason)"
trap 'cleanup_run' EXIT
"$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$PROFILES/cgroup-quota.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
i=0
while [ ! -d "$root/starve-$ctl/box" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -d "$root/starve-$ctl/box" ] || { cat "$TMPDIR_TEST/log" >&2; fail "no cgroup $root/starve-$ctl/box"; }
grep -q "starve-$ctl/box" "$STARVE_STATE_DIR/journal" ||
	fail "the cgroup is not in the journal: $(cat "$STARVE_STATE_DIR/journal")"
[ -n "$(cat "$root/starve-$ctl/box/cgroup.procs")" ] || fail "no load in the cgroup"
# the watchdog too, so only the journal can undo it
wd=$(ps -e -o pid=,ppid=,comm= | awk -v c=$ctl '$2 == c && $3 == "starve-watchdog" { print $1 }')
[ -n "$wd" ] || fail "cannot find the watchdog of $ctl"
pids=$(wait_our_pids $ctl 3) || fail "found only these processes: $pids"
kill -9 $wd $ctl
wait $ctl 2>/dev/null
wait_gone $pids
[ -d "$root/starve-$ctl" ] || fail "the cgroup vanished without a restore: nothing tested"
"$STARVE" restore > "$TMPDIR_TEST/restore.log" 2>&1 ||
	fail "starve restore failed: $(cat "$TMPDIR_TEST/restore.log")"
[ ! -e "$root/starve-$ctl" ] || fail "starve restore left $root/starve-$ctl"
ls "$root" | grep -q "^starve-$ctl" && fail "a starve-$ctl cgroup is left under $root"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "the journal is still there after the restore"
exit 0
