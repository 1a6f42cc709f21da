#!/bin/sh
# `starve report --lava` writes a shell script that reports every verdict
# as a LAVA test case, in a test set per setting, and the run as a whole:
# run under each POSIX shell there is (dash, busybox sh, bash) with stand-ins
# for LAVA's commands, it reports exactly what tests/fleet/lava-cases.jq
# derives from the result. Outside LAVA it prints the lines instead.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"
. "$top_srcdir/tests/fleet/lava-stubs.sh"

shells="sh"
for s in dash bash "busybox sh"; do
	command -v "${s%% *}" >/dev/null && shells="$shells|$s"
done
for name in pass fail skipped undecided unmeasured multi odd-names; do
	"$STARVE" report "$R/$name.json" --lava "$T/$name.sh" >/dev/null 2>&1
	[ -s "$T/$name.sh" ] || fail "no LAVA script written for $name"
	jq -f "$top_srcdir/tests/fleet/lava-cases.jq" "$R/$name.json" > "$T/$name.want" ||
		fail "$name: the oracle failed"
	IFS='|'
	for s in $shells; do
		unset IFS
		rm -f "$LAVA_LOG" "$LAVA_SET_FILE"
		PATH="$LAVA_BIN:$PATH" $s "$T/$name.sh" > "$T/$name.out" 2>&1 ||
			fail "$name: '$s' failed on the script: $(cat "$T/$name.out")"
		[ ! -e "$LAVA_SET_FILE" ] || fail "$name: a test set was left open under '$s'"
		lava_same "$T/$name.want" "$LAVA_LOG" 2>"$T/diff" ||
			fail "$name under '$s': $(cat "$T/diff")"
		IFS='|'
	done
	unset IFS
done

# the deliberate failure and the undecided ones keep their measurements
grep -q "^\$lava lava-test-case victim.starvation_max --result fail --measurement 1.31 --units s$" \
	"$T/fail.sh" || fail "fail: the failing case line is not as LAVA expects it"
[ "$(grep -c -- '--result skip' "$T/undecided.sh")" = 5 ] ||
	fail "undecided: 4 verdicts and the run should be 'skip'"
grep -q -- "--result skip$" "$T/undecided.sh" || fail "undecided: the run (exit 4, no verdict) should skip"
# a reason with quotes stays one shell word: the odd names survived above,
# and here the quote itself comes through
grep -q "loads'\\\\'' CPUs" "$T/undecided.sh" || fail "undecided: the reason's quote is not escaped"

# outside LAVA (no lava-test-case in PATH) the script prints what it would report
PATH=/usr/bin:/bin sh "$T/fail.sh" > "$T/preview" 2>&1 || fail "the preview failed: $(cat "$T/preview")"
grep -qx 'lava-test-set start throttled' "$T/preview" || fail "preview: no test set line"
grep -qx 'lava-test-case rt-throttle --result fail' "$T/preview" || fail "preview: no run case"

# run --format takes lava too, and it is refused where a name is wrong
"$STARVE" report "$R/fail.json" --lava "$T/dir.sh" --kcidb "$T/dir.json" >/dev/null 2>&1
[ -s "$T/dir.sh" ] && [ -s "$T/dir.json" ] || fail "--lava and --kcidb together wrote nothing"
exit 0
