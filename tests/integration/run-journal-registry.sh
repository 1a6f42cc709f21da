#!/bin/sh
# One journal per machine (issue 20, 3): a run killed with its watchdog
# leaves an unrestored journal in state dir A (kernel.sched_rt_runtime_us
# at 960000). A run with state dir B refuses (exit 3, naming A's journal)
# instead of journaling A's leftover as its own old value; `starve restore`
# in B says A's journal is pending and restores it; the knob is back and
# the machine's registry no longer points at A.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
A="$TMPDIR_TEST/a" B="$TMPDIR_TEST/b"
cleanup_dirs() {
	STARVE_STATE_DIR=$A "$STARVE" restore > /dev/null 2>&1
	STARVE_STATE_DIR=$B "$STARVE" restore > /dev/null 2>&1
	cleanup_run
}
trap cleanup_dirs EXIT
points_at_a() {
	for l in /run/starve.journals/*; do
		[ "$(readlink "$l" 2>/dev/null)" = "$(realpath "$A")" ] && return 0
	done
	return 1
}
STARVE_STATE_DIR=$A "$STARVE" run --quiet -o "$TMPDIR_TEST/outa" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/loga" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || { cat "$TMPDIR_TEST/loga"; fail "the setting was never applied"; }
pids=$(wait_our_pids $ctl 4) || fail "found only these processes: $pids"
wd=$(pgrep -P $ctl -x starve-watchdog) || fail "no watchdog"
kill -9 "$wd" $ctl
wait $ctl 2>/dev/null
wait_gone $pids
[ -s "$A/journal" ] || fail "no journal left in $A"
points_at_a || fail "the machine's registry does not name $A"
STARVE_STATE_DIR=$B "$STARVE" run --quiet --duration 1s -o "$TMPDIR_TEST/outb" \
	"$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/logb" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "a run in state dir B exited $rc with A's journal unrestored: $(cat "$TMPDIR_TEST/logb")"
grep -q "$A/journal" "$TMPDIR_TEST/logb" || fail "the refusal does not name $A/journal: $(cat "$TMPDIR_TEST/logb")"
[ ! -e "$B/journal" ] || fail "the refused run left a journal in B"
STARVE_STATE_DIR=$B "$STARVE" restore > "$TMPDIR_TEST/restore" 2>&1 ||
	fail "starve restore in B failed: $(cat "$TMPDIR_TEST/restore")"
grep -q "another state directory.*$A/journal" "$TMPDIR_TEST/restore" ||
	fail "starve restore in B did not say A's journal is pending: $(cat "$TMPDIR_TEST/restore")"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB at $(cat "$RT_KNOB") after starve restore"
[ ! -e "$A/journal" ] || fail "A's journal is still there"
! points_at_a || fail "the machine's registry still names $A"
STARVE_STATE_DIR=$A "$STARVE" restore > "$TMPDIR_TEST/restore" 2>&1 ||
	fail "starve restore in A failed afterwards: $(cat "$TMPDIR_TEST/restore")"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB changed by the second restore"
