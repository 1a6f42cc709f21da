#!/bin/sh
# Checked before any knob is written (issue 10, 7, 8): a FIFO as the profile;
# an output that is not a
# directory and a load's CPUs beyond the machine refuse the run at once,
# with the knob untouched and no journal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
# a FIFO as the profile is refused at once, not read forever
mkfifo "$TMPDIR_TEST/fifo" || skip "cannot make a FIFO"
timeout 5 "$STARVE" check "$TMPDIR_TEST/fifo" > "$TMPDIR_TEST/log" 2>&1; rc=$?
[ "$rc" = 2 ] || fail "a FIFO profile: exit $rc, expected 2: $(cat "$TMPDIR_TEST/log")"
grep -q "is not a regular file" "$TMPDIR_TEST/log" || fail "unclear: $(cat "$TMPDIR_TEST/log")"
need_root
guard_knob
n=$(nproc)
check_refused() {	# $1 what, then the command
	what=$1; shift
	"$@" > "$TMPDIR_TEST/log" 2>&1; rc=$?
	[ "$rc" = 2 ] || [ "$rc" = 3 ] || fail "$what: exit $rc, expected 2 or 3: $(cat "$TMPDIR_TEST/log")"
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$what: $RT_KNOB was written"
	[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "$what: a journal was created"
}
check_refused "-o /dev/null" "$STARVE" run --quiet -o /dev/null "$PROFILES/knob-change.yaml"
grep -q "'/dev/null' is not a directory" "$TMPDIR_TEST/log" || fail "unclear: $(cat "$TMPDIR_TEST/log")"
: > "$TMPDIR_TEST/file"
check_refused "-o FILE" "$STARVE" run --quiet -o "$TMPDIR_TEST/file" "$PROFILES/knob-change.yaml"
sed "s/pu:1/pu:$n/" "$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/beyond.yaml"
check_refused "pu:$n" "$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$TMPDIR_TEST/beyond.yaml"
grep -q "load 'hogs': cpu spec 'pu:$n'" "$TMPDIR_TEST/log" || fail "unclear: $(cat "$TMPDIR_TEST/log")"
