#!/bin/sh
# The cpuset backends end to end (root): create a cpuset holding CPU 1,
# attach a sleep started here, check the kernel confines it to CPU 1, then
# destroy the cpuset and check its directory is gone. Runs with the backend
# starve would choose and again with "affinity".
. "$top_srcdir/tests/lib.sh"
need_root
ctl="$top_builddir/tests/integration/cpuset-ctl"
[ -x "$ctl" ] || skip "cpuset-ctl was not built"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"

"$ctl" probe > "$TMPDIR_TEST/probe" || fail "cpuset-ctl probe failed"
cat "$TMPDIR_TEST/probe"
grep -q '^affinity usable ' "$TMPDIR_TEST/probe" || fail "affinity is not usable"
chosen=$(sed -n 's/^chosen //p' "$TMPDIR_TEST/probe")
[ -n "$chosen" ] || fail "no backend chosen"

sleeper=
ctl_pid=
cleanup() {
	[ -n "$ctl_pid" ] && kill "$ctl_pid" 2>/dev/null
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	rm -rf "$TMPDIR_TEST"
}
trap cleanup EXIT

# run_one BACKEND: the whole create/attach/check/destroy cycle
run_one() {
	backend=$1
	sleep 5 & sleeper=$!
	mkfifo "$TMPDIR_TEST/in.$backend"
	STARVE_CPUSET_BACKEND=$backend "$ctl" "starve-$$-test-$backend" pu:1 "$sleeper" \
		< "$TMPDIR_TEST/in.$backend" > "$TMPDIR_TEST/out.$backend" &
	ctl_pid=$!
	exec 3> "$TMPDIR_TEST/in.$backend"
	for _ in $(seq 50); do [ -s "$TMPDIR_TEST/out.$backend" ] && break; sleep 0.1; done
	read -r got path < "$TMPDIR_TEST/out.$backend" || fail "$backend: cpuset-ctl printed nothing"
	[ "$got" = "$backend" ] || fail "asked for backend $backend, got $got"
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$sleeper/status)
	[ "$allowed" = 1 ] || fail "$backend: sleep's Cpus_allowed_list is '$allowed', not 1"
	if [ "$path" != - ]; then
		[ -d "$path" ] || fail "$backend: cpuset directory $path does not exist"
		grep -qx "$sleeper" "$path/cgroup.procs" 2>/dev/null || grep -qx "$sleeper" "$path/tasks" ||
			fail "$backend: sleep $sleeper is not in $path"
	fi
	exec 3>&-
	wait "$ctl_pid" || fail "$backend: cpuset-ctl failed to destroy the cpuset"
	ctl_pid=
	if [ "$path" != - ]; then
		[ ! -e "$path" ] || fail "$backend: $path still exists after destroy"
		allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$sleeper/status)
		[ "$allowed" != 1 ] || fail "$backend: sleep still confined to CPU 1 after destroy"
	fi
	kill "$sleeper"; wait "$sleeper" 2>/dev/null; sleeper=
	echo "ok: $backend ($path)"
}

run_one "$chosen"
[ "$chosen" = affinity ] || run_one affinity
