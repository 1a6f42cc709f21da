#!/bin/sh
# `starve report` exits with the result's verdict (0 pass, 1 fail, 4 all
# skipped or undecided: no verdict; 1 for undecided with --strict), 2 on
# input it cannot read, 3 when a report cannot be written; --recompute
# judges the measurements again.
. "$top_srcdir/tests/lib.sh"
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

expect_exit 0 "$STARVE" report "$R/pass.json" >/dev/null
expect_exit 1 "$STARVE" report "$R/fail.json" >/dev/null
expect_exit 4 "$STARVE" report "$R/skipped.json" >/dev/null
expect_exit 4 "$STARVE" report "$R/undecided.json" >/dev/null
expect_exit 1 "$STARVE" report "$R/undecided.json" --strict >/dev/null
expect_exit 1 "$STARVE" report "$R/multi.json" --recompute >/dev/null

# a killed run's result (complete: false) is judged again, whatever its
# stored summary says (the header's, written before any run, read SKIP):
# a partial result is never PASS or SKIP, but UNDECIDED, exit 4
need_cmd jq
jq '.complete = false | .summary.verdict = "skip" | .summary.exit_code = 4' "$R/pass.json" \
	> "$T/killed.json"
"$STARVE" report "$T/killed.json" > "$T/killed.txt" 2>&1; rc=$?
[ $rc = 4 ] || fail "a killed run's result: exit $rc, expected 4: $(cat "$T/killed.txt")"
grep -q '^verdict: UNDECIDED' "$T/killed.txt" || fail "a killed run's result: $(cat "$T/killed.txt")"
expect_exit 1 "$STARVE" report "$T/killed.json" --strict >/dev/null 2>&1

# the table names the failure, its value and threshold
"$STARVE" report "$R/fail.json" > "$T/table.txt"
grep -q 'victim starvation_max 1.31s is not below 1.2s (setting throttled, kernel 6.18.44)' \
	"$T/table.txt" || fail "table lacks the failure reason"
grep -q '^verdict: FAIL' "$T/table.txt" || fail "table lacks the verdict"

# undecided without the table: the warning goes to stderr
"$STARVE" report "$R/undecided.json" --markdown "$T/u.md" 2>"$T/err"
grep -q 'warning: 4 verdicts undecided' "$T/err" || fail "no undecided warning on stderr"

# stored verdicts are used as they are, unless --recompute
sed 's/"starvation_max": 0.95/"starvation_max": 1.5/' "$R/pass.json" > "$T/tampered.json"
cmp -s "$R/pass.json" "$T/tampered.json" && fail "test setup: sed changed nothing"
expect_exit 0 "$STARVE" report "$T/tampered.json" >/dev/null
expect_exit 1 "$STARVE" report "$T/tampered.json" --recompute >/dev/null

# bad input: 2 with a message saying where
printf '{\n  "format": "starve-result",\n  x\n}\n' > "$T/bad.json"
expect_exit 2 "$STARVE" report "$T/bad.json" 2>"$T/err"
grep -q "bad.json:3:3: invalid JSON" "$T/err" || fail "no position for invalid JSON: $(cat "$T/err")"
printf '{"format": "foo"}\n' > "$T/foo.json"
expect_exit 2 "$STARVE" report "$T/foo.json" 2>"$T/err"
grep -q "not a starve result (format is 'foo')" "$T/err" || fail "no format message"
expect_exit 2 "$STARVE" report "$T/missing.json" 2>/dev/null
expect_exit 2 "$STARVE" report 2>/dev/null
expect_exit 2 "$STARVE" report "$R/pass.json" --bogus 2>/dev/null
# an output that cannot be written: runtime error
expect_exit 3 "$STARVE" report "$R/pass.json" --junit /nonexistent-dir/r.xml 2>"$T/err"
# the message names the file asked for, not the temporary one beside it
grep -q "cannot create '/nonexistent-dir/r.xml'" "$T/err" || fail "write error: $(cat "$T/err")"
grep -q 'tmp' "$T/err" && fail "write error names the temporary file: $(cat "$T/err")"
exit 0
