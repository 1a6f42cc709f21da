#!/bin/sh
# One journal per machine, TRIALS times (default 10): the two-state-dir case
# of issue 20 (3), tests/integration/run-journal-registry.sh, each trial a
# run killed with its watchdog in state dir A, a run in state dir B that
# must refuse, and `starve restore` in B that must put the knob back.
set -u
: "${top_srcdir:=.}" "${STARVE:=./starve}" "${TRIALS:=10}"
export top_srcdir STARVE
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
ok=0 n=1
while [ $n -le "$TRIALS" ]; do
	if sh "$top_srcdir/tests/integration/run-journal-registry.sh" > "${TMPDIR:-/tmp}/starve-registry.$$" 2>&1; then
		ok=$((ok + 1))
	else
		rc=$?
		[ $rc = 77 ] && { cat "${TMPDIR:-/tmp}/starve-registry.$$"; rm -f "${TMPDIR:-/tmp}/starve-registry.$$"; exit 77; }
		echo "  trial $n: $(tail -1 "${TMPDIR:-/tmp}/starve-registry.$$")" >&2
	fi
	n=$((n + 1))
done
rm -f "${TMPDIR:-/tmp}/starve-registry.$$"
printf '%-44s %s\n' "two state dirs, the knob restored:" "$ok/$TRIALS"
[ $ok = "$TRIALS" ]
