#!/bin/sh
# One lock per machine (issue 10, 2): while a run changes a knob, a second
# run that would change knobs is refused (exit 3, naming the first's pid)
# even with another state dir, and so is `starve restore`; the first run
# ends with the knob restored and no journal left in either dir. A run that
# changes no knob meanwhile is refused as one beside a run in progress.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
guard_knob
[ "$KNOB_BEFORE" != 960000 ] || skip "$RT_KNOB is already 960000: the setting would change nothing"
STARVE_LOCK_WAIT=0; export STARVE_LOCK_WAIT
"$STARVE" run --quiet --duration 3s -o "$TMPDIR_TEST/out1" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/log1" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
wait_knob 960000 || { cat "$TMPDIR_TEST/log1"; fail "the setting was never applied"; }
mkdir "$TMPDIR_TEST/state2"
STARVE_STATE_DIR="$TMPDIR_TEST/state2" "$STARVE" run --quiet --duration 1s \
	-o "$TMPDIR_TEST/out2" "$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/log2" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "a second run in another state dir exited $rc, expected 3: $(cat "$TMPDIR_TEST/log2")"
grep -q "another starve run (pid $ctl) is changing this machine's kernel settings" "$TMPDIR_TEST/log2" ||
	fail "the refusal does not say who holds the lock: $(cat "$TMPDIR_TEST/log2")"
[ ! -e "$TMPDIR_TEST/state2/journal" ] || fail "the refused run left a journal"
# the same state dir: refused by the directory's lock or the machine's
"$STARVE" run --quiet --duration 1s -o "$TMPDIR_TEST/out3" "$PROFILES/knob-change.yaml" \
	> "$TMPDIR_TEST/log3" 2>&1 && fail "a second run in the same state dir was not refused"
[ "$(cat "$RT_KNOB")" = 960000 ] || fail "a refused run changed $RT_KNOB"
# a run that changes no knob is refused too (it would measure under the
# first's), as a run in progress, not as a crash to 'starve restore'
"$STARVE" run --quiet --repeat 1 --duration 200ms -o "$TMPDIR_TEST/out5" \
	"$top_srcdir/tests/profiles/run/quick.yaml" > "$TMPDIR_TEST/log5" 2>&1 &&
	fail "a run without knobs was not refused while another's knobs were changed"
grep -q "a run is in progress: pid $ctl" "$TMPDIR_TEST/log5" ||
	fail "the knob-less run's refusal does not name the run in progress: $(cat "$TMPDIR_TEST/log5")"
grep -q "starve restore" "$TMPDIR_TEST/log5" &&
	fail "a run in progress is called a crash to restore: $(cat "$TMPDIR_TEST/log5")"
wait $ctl; rc=$?
judged "$rc" || fail "the first run exited $rc: $(cat "$TMPDIR_TEST/log1")"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB left at $(cat "$RT_KNOB")"
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "the first run left its journal"
# and with the lock free again, the second state dir works
STARVE_STATE_DIR="$TMPDIR_TEST/state2" "$STARVE" run --quiet --duration 200ms \
	-o "$TMPDIR_TEST/out4" "$PROFILES/knob-change.yaml" > "$TMPDIR_TEST/log4" 2>&1 ||
	judged $? || fail "a run after the first ended failed: $(cat "$TMPDIR_TEST/log4")"
[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$RT_KNOB left at $(cat "$RT_KNOB")"
