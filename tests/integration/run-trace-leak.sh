#!/bin/sh
# A tracefs instance that cannot be removed is not forgotten (issue 20, 4):
# while `run --trace` runs, this test holds the instance's buffer_size_kb
# open, so removing the instance fails (EBUSY). The run warns, naming the
# instance, keeps its journal entry (exit 3: the machine is not as found)
# and `starve restore` reports the failure while the file is held, then
# removes the instance and the journal once it is closed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
avail=$("$STARVE" env --json | jq -r '.trace.available' 2>/dev/null)
[ "$avail" = true ] || skip "exact mode unavailable here"
guard_knob
cleanup_trace() {
	exec 8<&-
	"$STARVE" restore > /dev/null 2>&1
	cleanup_run
}
trap cleanup_trace EXIT
"$STARVE" run --quiet --trace --only a --duration 1s -o "$TMPDIR_TEST/out" \
	"$PROFILES/quick.yaml" > "$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
# where tracefs is not mounted, starve mounts it for the run: look for the
# instance once it exists
i=0 T=/sys/kernel/tracing/instances
while [ $i -lt 100 ]; do
	for T in /sys/kernel/tracing/instances /sys/kernel/debug/tracing/instances; do
		[ -e "$T/starve-$ctl/buffer_size_kb" ] && break 2
	done
	sleep 0.05; i=$((i + 1))
done
exec 8< "$T/starve-$ctl/buffer_size_kb" || fail "no tracefs instance starve-$ctl: $(cat "$TMPDIR_TEST/log")"
wait $ctl; rc=$?
[ -d "$T/starve-$ctl" ] || skip "this kernel removed an instance with a file open"
[ "$rc" = 3 ] || fail "the run exited $rc with its instance left, expected 3: $(cat "$TMPDIR_TEST/log")"
grep -q "tracefs instance starve-$ctl cannot be removed" "$TMPDIR_TEST/log" ||
	fail "no warning naming the instance: $(cat "$TMPDIR_TEST/log")"
grep -q "^tracefs starve-$ctl\$" "$STARVE_STATE_DIR/journal" 2>/dev/null ||
	fail "the journal does not keep the instance: $(cat "$STARVE_STATE_DIR/journal" 2>&1)"
"$STARVE" restore > "$TMPDIR_TEST/restore" 2>&1; rc=$?
[ "$rc" = 3 ] || fail "starve restore exited $rc while the instance is held open, expected 3"
grep -q "starve-$ctl" "$TMPDIR_TEST/restore" || fail "starve restore did not name the instance: $(cat "$TMPDIR_TEST/restore")"
exec 8<&-
"$STARVE" restore > "$TMPDIR_TEST/restore" 2>&1 || fail "starve restore failed once the file was closed: $(cat "$TMPDIR_TEST/restore")"
[ ! -d "$T/starve-$ctl" ] || fail "the instance starve-$ctl is still there"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "the journal is still there"
