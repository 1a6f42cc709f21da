#!/bin/sh
# Signals while the result is written (issue 20, 7): the controller stops
# itself where the writing begins (STARVE_TEST_STOP_AT=writing), after every
# load was stopped and the knob restored; SIGINT (then SIGTERM) is sent and
# it is resumed. It must stop writing within 1 s: exit 3, "interrupted while
# writing", result.json the partial result of the last run ("complete":
# false), the machine as found (knob, journal, processes).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
for sig in INT TERM; do
	run_stopped_at writing 150
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "SIG$sig: the knob is not restored before writing"
	check_json "$TMPDIR_TEST/out/result.json" '.complete == false and (.runs | length) == 1' \
		"SIG$sig: no partial result of the run before writing"
	kill -$sig $ctl
	t0=$(now_ms)
	kill -CONT $ctl
	wait $ctl; rc=$?
	ms=$(( $(now_ms) - t0 ))
	echo "SIG$sig while writing: exit $rc after $ms ms"
	[ "$rc" = 3 ] || fail "SIG$sig: exit $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
	[ "$ms" -le 1000 ] || fail "SIG$sig: $ms ms to exit (over 1 s)"
	grep -q "interrupted while writing" "$TMPDIR_TEST/log" ||
		fail "SIG$sig: no 'interrupted while writing': $(cat "$TMPDIR_TEST/log")"
	check_json "$TMPDIR_TEST/out/result.json" '.complete == false' \
		"SIG$sig: result.json is not the partial result"
	[ -z "$(ls "$TMPDIR_TEST/out" | grep -v '^result.json$')" ] ||
		fail "SIG$sig: files left beside the result: $(ls "$TMPDIR_TEST/out")"
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "SIG$sig: $RT_KNOB left at $(cat "$RT_KNOB")"
	[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "SIG$sig: a journal was left"
done
