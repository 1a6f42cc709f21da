#!/bin/sh
# One journal per machine, TRIALS times (default 10): the two-state-dir case
# of issue 20 (3), tests/integration/run-journal-registry.sh, each trial a
# run killed with its watchdog in state dir A, a run in state dir B that
# must refuse, and `starve restore` in B that must put the knob back.
# Every trial runs, under the one suite lock this script holds: a trial
# that cannot run (it skips) counts as a failure, with its reason.
. "${top_srcdir:-.}/tests/reliability/common.sh"
: "${TRIALS:=10}"
reliability_start
trap reliability_cleanup EXIT
trap 'exit 1' INT TERM
n=1
while [ $n -le "$TRIALS" ]; do
	sh "$top_srcdir/tests/integration/run-journal-registry.sh" > "$WORK/trial" 2>&1
	rc=$?
	# the first trial says whether this machine can run the case at all
	[ $rc = 77 ] && [ $n = 1 ] && { cat "$WORK/trial"; exit 77; }
	if [ $rc != 0 ]; then
		bad $n "exit $rc: $(tail -1 "$WORK/trial")"
	elif [ "$(cat "$KNOB")" != "$BEFORE" ]; then
		bad $n "$KNOB at $(cat "$KNOB") after the trial"
	fi
	n=$((n + 1))
done
printf '%-44s %s\n' "two state dirs, the knob restored:" "$((TRIALS - failures))/$TRIALS"
[ $failures = 0 ]
