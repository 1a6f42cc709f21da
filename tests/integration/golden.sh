#!/bin/sh
# Reports stay byte-identical unless changed on purpose: every report of the
# tests/results fixtures and every compare output of the tests/compare
# fixtures, with each exit status and message (tools/update-golden), equals
# its golden copy in tests/golden. A deliberate change: `make update-golden`
# and commit the diff with the reason.
. "$top_srcdir/tests/lib.sh"
"$top_srcdir/tools/update-golden" "$STARVE" "$TMPDIR_TEST/now" ||
	fail "tools/update-golden failed"
if ! diff -r "$top_srcdir/tests/golden" "$TMPDIR_TEST/now" >"$TMPDIR_TEST/diff"; then
	head -60 "$TMPDIR_TEST/diff" >&2
	fail "reports differ from tests/golden ($(grep -c '^diff \|^Only in' "$TMPDIR_TEST/diff") files);" \
		"if on purpose, run make update-golden and say why in the commit"
fi
# every format of the table has its golden copy (a new row needs a word in
# tools/update-golden)
fmts=$("$STARVE" --man-formats | sed -n 's/^\.BR \([a-z0-9]*\) .*/\1/p')
[ -n "$fmts" ] || fail "cannot read the formats from starve --man-formats"
for fmt in $fmts; do
	[ -f "$top_srcdir/tests/golden/results/pass.$fmt" ] ||
		fail "format $fmt has no golden report: add it to tools/update-golden"
done
exit 0
