#!/bin/sh
# starve compare across many kernels (issue 12): results given out of order
# are put in kernel order by --sort version (6.18.44 < 6.18.45 < 6.19.0, the
# oldest the baseline), each is tested against the baseline, and the first
# significant change of a row is named with the result before it (the bisect
# hint); a directory stands for the result.json files under it (one that is
# not a result is skipped, named and counted). The JUnit
# output has a testcase per gated metric and compared result; the HTML page
# is well-formed, and renders in headless Chromium where it is installed.
. "$top_srcdir/tests/lib.sh"

d=$top_srcdir/tests/compare
out=$TMPDIR_TEST/out

"$STARVE" compare --sort version "$d/slower.json" "$d/base.json" "$d/same.json" >"$out"; rc=$?
[ "$rc" = 1 ] || { cat "$out" >&2; fail "exit $rc, expected 1"; }
grep -q '^baseline: 6.18.44 ' "$out" || fail "--sort version: 6.18.44 is not the baseline"
head -n 14 "$out" | grep -q '^compared: 6.19.0 ' || fail "--sort version: 6.19.0 not compared"
grep -Eq '^load +metric +margin +6\.18\.44 \(median\) +6\.18\.45 .* 6\.19\.0 ' "$out" ||
	{ cat "$out" >&2; fail "the columns are not in version order"; }
grep -q '^first change: probe wakeup_p99 regression between 6.18.45 and 6.19.0$' "$out" ||
	{ cat "$out" >&2; fail "no bisect hint for wakeup_p99"; }
grep -q '^first change: victim throughput improvement between 6.18.45 and 6.19.0$' "$out" ||
	fail "no bisect hint for throughput"

# given order: the first file is the baseline
"$STARVE" compare "$d/slower.json" "$d/base.json" >"$out"
grep -q '^baseline: 6.19.0 ' "$out" || fail "without --sort the first file is not the baseline"

# a directory of run directories, as starve run and starve vm write them
for k in base same slower; do
	mkdir -p "$TMPDIR_TEST/runs/$k"
	cp "$d/$k.json" "$TMPDIR_TEST/runs/$k/result.json"
done
"$STARVE" compare --sort version "$TMPDIR_TEST/runs" >"$out" || [ $? = 1 ] || fail "directory: exit $?"
grep -q '^first change: probe wakeup_p99 regression between 6.18.45 and 6.19.0$' "$out" ||
	{ cat "$out" >&2; fail "directory: not the three results"; }
# a result in the directory that is not one: skipped, named with why, and
# counted; the others are compared as before
mkdir -p "$TMPDIR_TEST/runs/cut"
head -c 100 "$d/same.json" >"$TMPDIR_TEST/runs/cut/result.json"
"$STARVE" compare --sort version "$TMPDIR_TEST/runs" >"$out" 2>"$TMPDIR_TEST/err"
rc=$?
[ $rc = 1 ] || { cat "$TMPDIR_TEST/err" >&2; fail "a directory with a cut result: exit $rc"; }
grep -q "warning: skipped $TMPDIR_TEST/runs/cut/result.json:[0-9]*:[0-9]*: invalid JSON" \
	"$TMPDIR_TEST/err" || { cat "$TMPDIR_TEST/err" >&2; fail "the cut result is not named"; }
grep -q 'warning: comparing 3 of 4 results: 1 skipped$' "$TMPDIR_TEST/err" ||
	{ cat "$TMPDIR_TEST/err" >&2; fail "the skipped result is not counted"; }
grep -q '^first change: probe wakeup_p99 regression between 6.18.45 and 6.19.0$' "$out" ||
	{ cat "$out" >&2; fail "a cut result: not the three others"; }
mkdir "$TMPDIR_TEST/cut-only" && cp "$TMPDIR_TEST/runs/cut/result.json" "$TMPDIR_TEST/cut-only/"
expect_exit 2 "$STARVE" compare "$d/base.json" "$TMPDIR_TEST/cut-only" 2>"$TMPDIR_TEST/err"
grep -q "cut-only: none of its 1 results could be read" "$TMPDIR_TEST/err" ||
	fail "a directory of unreadable results is not refused: $(cat "$TMPDIR_TEST/err")"
mkdir "$TMPDIR_TEST/empty"
"$STARVE" compare "$TMPDIR_TEST/empty" "$d/base.json" >/dev/null 2>"$TMPDIR_TEST/err"
[ $? = 2 ] && grep -q 'no result.json under this directory' "$TMPDIR_TEST/err" ||
	fail "an empty directory is not refused"
"$STARVE" compare --sort newest "$d/base.json" "$d/same.json" >/dev/null 2>&1
[ $? = 2 ] || fail "--sort newest accepted"

# JUnit: 6 gated metrics (the profile has no expectations: all gate) x 2 results
"$STARVE" compare --junit --sort version "$d/base.json" "$d/same.json" "$d/slower.json" >"$out"
[ "$(grep -c '<testcase ' "$out")" = 12 ] || { cat "$out" >&2; fail "JUnit: not 12 testcases"; }
[ "$(grep -c '<failure .*type="starve.regression"' "$out")" = 1 ] || fail "JUnit: not 1 failure"
grep -q 'testsuite name="fairness-demo: 6.19.0 against 6.18.44: REGRESSION" tests="6" failures="1"' "$out" ||
	fail "JUnit: suite counts"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$out" || fail "JUnit: not well-formed"
fi

# HTML
html=$TMPDIR_TEST/compare.html
"$STARVE" compare --html "$html" "$d/base.json" "$d/same.json" "$d/slower.json" >/dev/null
[ $? = 1 ] || fail "--html: exit $?"
grep -q '<h1>REGRESSION in fairness-demo: .* against 6.18.44</h1>' "$html" || fail "HTML: no headline"
[ "$(grep -o '<svg ' "$html" | wc -l)" = 6 ] || fail "HTML: not a plot per metric"
grep -q '+20.6% \[+17.3%, +22.8%\] regression' "$html" || fail "HTML: no change and verdict"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$html" || fail "HTML: not well-formed XHTML"
fi
"$STARVE" compare --html "$TMPDIR_TEST/no/such/dir.html" "$d/base.json" "$d/same.json" \
	>/dev/null 2>"$TMPDIR_TEST/err"
[ $? = 3 ] && grep -q 'cannot write' "$TMPDIR_TEST/err" || fail "--html to a bad path"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chromium" ]; then
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1000,1400 --screenshot="$TMPDIR_TEST/shot.png" "file://$html" \
		>/dev/null 2>&1 || fail "chromium could not render the page"
	[ -s "$TMPDIR_TEST/shot.png" ] || fail "chromium wrote no screenshot"
	# a rendered page is not one flat colour: its PNG compresses to more than a blank one
	[ "$(wc -c <"$TMPDIR_TEST/shot.png")" -gt 20000 ] || fail "the screenshot looks blank"
else
	echo "note: chromium not installed: the page was checked as XML only" >&2
fi
exit 0
