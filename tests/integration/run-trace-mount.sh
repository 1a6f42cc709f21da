#!/bin/sh
# Exact mode where tracefs is not mounted: starve run --trace mounts it at
# /sys/kernel/tracing (journaled as a "mount" entry), traces, and unmounts
# it at the end, leaving it as it found it. Under the suite lock; when
# tracefs was mounted, it is unmounted for the test and mounted again
# afterwards (other runs use it), and the test skips if it is busy. A
# journal entry left by a crash is undone by starve restore. About 3 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd jq
need_cmd mountpoint
suite_lock
[ "$("$STARVE" env --json | jq -r .trace.built_in)" = true ] || skip "built without libtracefs"
grep -q '	tracefs$' /proc/filesystems || skip "this kernel has no tracefs"
T="$TMPDIR_TEST"
at=/sys/kernel/tracing
is_tracefs() { [ "$(stat -f -c %T "$at" 2>/dev/null)" = tracefs ]; }
# /sys/kernel/debug/tracing would do for starve as well: unmounted tracefs
# must be unmounted everywhere for this test
grep -q ' /sys/kernel/debug/tracing tracefs ' /proc/mounts &&
	skip "tracefs is also mounted under debugfs"
was_mounted=
if is_tracefs; then
	umount "$at" 2>"$T/err" || skip "tracefs is busy: $(cat "$T/err")"
	was_mounted=1
fi
cleanup() {
	if [ -n "$was_mounted" ] && ! is_tracefs; then
		mount -t tracefs nodev "$at" || echo "could not mount tracefs again at $at" >&2
	elif [ -z "$was_mounted" ] && is_tracefs; then
		umount "$at"
	fi
	rm -rf "$TMPDIR_TEST"
}
trap cleanup EXIT
export STARVE_STATE_DIR="$T/state"
is_tracefs && fail "test setup: tracefs still mounted"
[ "$("$STARVE" env --json | jq -r .trace.available)" = true ] ||
	fail "env says exact mode is unavailable without tracefs: $("$STARVE" env --json | jq -r .trace.reason)"
STARVE_LOCK_WAIT=600 "$STARVE" run --trace --repeat 1 --only a --duration 1s --warmup 100ms -q \
	-o "$T/out" "$top_srcdir/tests/profiles/run/quick.yaml" >"$T/run.out" 2>&1
rc=$?
judged "$rc" || fail "starve run --trace: exit $rc: $(cat "$T/run.out")"
[ "$(jq '.runs[0].exact.events' "$T/out/result.json")" -gt 0 ] || fail "no events traced"
is_tracefs && fail "tracefs is left mounted after the run"
[ ! -s "$STARVE_STATE_DIR/journal" ] || ! grep -q '^mount ' "$STARVE_STATE_DIR/journal" ||
	fail "the journal still holds the mount: $(cat "$STARVE_STATE_DIR/journal")"

# a crashed run's mount: starve restore unmounts it
mkdir -p "$STARVE_STATE_DIR"
mount -t tracefs nodev "$at" || fail "cannot mount tracefs for the restore check"
printf 'starve-journal 2\npid 999999 1 2026-01-01T00:00:00Z\nmount tracefs\n' \
	> "$STARVE_STATE_DIR/journal"
STARVE_LOCK_WAIT=600 "$STARVE" restore >"$T/restore.out" 2>&1 ||
	fail "starve restore: $(cat "$T/restore.out")"
is_tracefs && fail "starve restore left the journaled tracefs mounted"
exit 0
