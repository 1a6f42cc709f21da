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
exit 0
