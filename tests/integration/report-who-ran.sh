#!/bin/sh
# Exact mode's "who ran instead" in every human report: an rt-throttle
# result taken with --trace (tests/results/exact.json) names the FIFO 50 hog
# that held CPU 1 while the victim waited, in the table, Markdown and HTML.
. "$top_srcdir/tests/lib.sh"
r="$top_srcdir/tests/results/exact.json"
"$STARVE" report "$r" --table --markdown "$TMPDIR_TEST/s.md" --html "$TMPDIR_TEST/r.html" \
	>"$TMPDIR_TEST/table" 2>&1
[ $? -le 1 ] || { cat "$TMPDIR_TEST/table"; fail "starve report failed"; }
want="victim waited 950ms on CPU 1: starve-hog FIFO 50 950ms"
for f in table s.md r.html; do
	grep -q "$want" "$TMPDIR_TEST/$f" || fail "$f does not say '$want'"
done
grep -q "Who ran instead" "$TMPDIR_TEST/r.html" || fail "the HTML page has no who-ran section"
rm -rf "$TMPDIR_TEST"
echo ok
