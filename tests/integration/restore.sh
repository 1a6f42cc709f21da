#!/bin/sh
# `starve restore` on forged journals in a private state dir: a journal
# holding kernel.sched_rt_period_us at its CURRENT value is restored (so the
# live machine does not change) and removed; a journal naming a missing
# knob fails with a clear error (exit 3) and is kept; no journal is a no-op.
. "$top_srcdir/tests/lib.sh"
need_root
suite_lock	# it writes a live knob (its own value): not while a run test changes it
[ -r /proc/sys/kernel/sched_rt_period_us ] || skip "no kernel.sched_rt_period_us"
STARVE_STATE_DIR="$TMPDIR_TEST/state"
export STARVE_STATE_DIR
mkdir -p "$STARVE_STATE_DIR"
journal="$STARVE_STATE_DIR/journal"
before=$(cat /proc/sys/kernel/sched_rt_period_us)

# pid 1 is alive but is not a starve, so its journal is a crash's leftover.
forge() { printf 'starve-journal 1\npid 1 0 2026-12-03T09:00:00Z\n%s\n' "$1" > "$journal"; }

out=$("$STARVE" restore 2>&1) || fail "restore without a journal failed: $out"
echo "$out" | grep -q "nothing to restore" || fail "no 'nothing to restore' in: $out"

forge "knob kernel.sched_rt_period_us $before"
out=$("$STARVE" restore --dry-run 2>&1) || fail "dry run failed: $out"
[ -f "$journal" ] || fail "--dry-run removed the journal"
echo "$out" | grep -q "kernel.sched_rt_period_us: $before -> $before" ||
	fail "dry run does not show 'current -> journaled': $out"

out=$("$STARVE" restore 2>&1) || fail "restore failed: $out"
[ ! -e "$journal" ] || fail "journal still there after a successful restore"
after=$(cat /proc/sys/kernel/sched_rt_period_us)
[ "$before" = "$after" ] || fail "sched_rt_period_us changed from $before to $after"

forge "knob kernel.sched_no_such_knob_for_starve 5"
out=$("$STARVE" restore 2>&1); rc=$?
[ "$rc" = 3 ] || fail "restoring a missing knob exited $rc, expected 3: $out"
echo "$out" | grep -q "kernel.sched_no_such_knob_for_starve: cannot restore '5'" ||
	fail "unclear error for a missing knob: $out"
echo "$out" | grep -q "No such file or directory" || fail "error does not say why: $out"
[ -f "$journal" ] || fail "journal removed although a knob failed"

# A journal naming something outside /proc/sys is refused outright.
forge "knob kernel/../../etc/passwd x"
out=$("$STARVE" restore 2>&1); rc=$?
[ "$rc" = 3 ] || fail "a journal with a bad knob name exited $rc, expected 3: $out"
echo "$out" | grep -q "would leave" || fail "no reason for a bad knob name: $out"
rm -f "$journal"

runtime_before=$(cat /proc/sys/kernel/sched_rt_runtime_us)
bin="$top_builddir/tests/unit/test-journal"
if [ -x "$bin" ]; then
	CK_RUN_CASE=live-knobs "$bin" || fail "live-knobs case of test-journal failed"
else
	echo "test-journal not built (no Check): live-knobs case not run"
fi
[ "$(cat /proc/sys/kernel/sched_rt_period_us)" = "$before" ] || fail "sched_rt_period_us changed"
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "$runtime_before" ] ||
	fail "sched_rt_runtime_us changed"
exit 0
