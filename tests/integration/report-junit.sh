#!/bin/sh
# `starve report --junit` writes JUnit XML that validates against the xunit
# plugin's junit-10.xsd, with one testcase per expectation and repetition,
# failures and skips counted, and names from the profile escaped.
. "$top_srcdir/tests/lib.sh"
need_cmd xmllint
XSD="$SHARED_DIR/schemas/junit-10.xsd"
[ -r "$XSD" ] || skip "no $XSD"
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

for name in pass fail skipped undecided unmeasured multi odd-names; do
	"$STARVE" report "$R/$name.json" --junit "$T/$name.xml"
	[ -s "$T/$name.xml" ] || fail "no JUnit written for $name"
	xmllint --noout --schema "$XSD" "$T/$name.xml" 2>"$T/err" ||
		fail "$name.xml does not validate: $(cat "$T/err")"
done

xpath() { xmllint --xpath "$1" "$T/$2.xml"; }
[ "$(xpath 'count(//testsuite)' multi)" = 2 ] || fail "multi: one testsuite per setting expected"
[ "$(xpath 'count(//testcase)' multi)" = 9 ] || fail "multi: 9 testcases expected"
[ "$(xpath 'count(//failure)' multi)" = 2 ] || fail "multi: 2 failures expected"
[ "$(xpath 'string(//testsuite[2]/@failures)' multi)" = 2 ] || fail "multi: suite failure count"
[ "$(xpath 'string(//testsuite[1]/@name)' multi)" = rt-throttle/throttled ] ||
	fail "multi: suite name is not profile/setting"
xpath 'string(//testcase[failure][1]/@name)' multi | grep -q '^victim.starvation_max below 1.2s \[rep 2\]$' ||
	fail "multi: failing testcase name"
[ "$(xpath 'string(//property[@name="kernel.release"]/@value)' multi)" = 6.18.44 ] ||
	fail "multi: no kernel.release property"
[ "$(xpath 'count(//skipped[starts-with(@message, "undecided: ")])' undecided)" = 4 ] ||
	fail "undecided: 4 testcases skipped as undecided expected"
[ "$(xpath 'count(//skipped)' skipped)" = 1 ] || fail "skipped: one skipped testcase expected"
# a case's time is its share of its run (6 runs of 5 s, 9 cases): the cases
# add up to their suite and the suites to the whole
[ "$(xpath 'string(//testcase[1]/@time)' multi)" = 2.500 ] || fail "multi: a case's time is not its share"
[ "$(xpath 'sum(//testcase/@time)' multi)" = 30 ] || fail "multi: the cases do not add up to the runs' 30 s"
[ "$(xpath 'string(/testsuites/@time)' multi)" = 30.000 ] || fail "multi: the suites' time is not 30 s"
# escaping round-trips: the parsed name is the profile's text, byte for byte
[ "$(xpath 'string(//testsuite/@name)' odd-names)" = 'odd<&>"profile"/a&b <c> "d" #1|x' ] ||
	fail "odd-names: suite name did not survive escaping"
exit 0
