#!/bin/sh
# Includes point one way (doc/design.md "Architecture"): tools/check-layers
# finds no include from a lower room to a higher one in the tree, and it does
# find one planted in a scratch tree (so a violation fails `make check`), nor
# a file in a room it does not know.
. "$top_srcdir/tests/lib.sh"
check="$top_srcdir/tools/check-layers"

"$check" "$top_srcdir" >"$TMPDIR_TEST/out" 2>&1 ||
	fail "includes point up: $(cat "$TMPDIR_TEST/out")"

mkdir -p "$TMPDIR_TEST/tree/loads" "$TMPDIR_TEST/tree/reports/result" "$TMPDIR_TEST/tree/reports/format"
printf '#include "reports/result/result.h"\n' >"$TMPDIR_TEST/tree/loads/inband.c"
printf '#include "lib/error.h"\n' >"$TMPDIR_TEST/tree/reports/result/result.c"
# the rooms of reports/ are ordered too: a format may not use compare
printf '#include "reports/result/result.h"\n#include "reports/compare/compare.h"\n' >"$TMPDIR_TEST/tree/reports/format/junit.c"
"$check" "$TMPDIR_TEST/tree" >"$TMPDIR_TEST/out" 2>&1 && fail "a planted violation passed"
grep -q '^loads/inband.c:1: loads may not include reports/result/result.h' "$TMPDIR_TEST/out" ||
	fail "the violation is not named: $(cat "$TMPDIR_TEST/out")"
grep -q '^reports/format/junit.c:2: reports/format may not include reports/compare/compare.h' "$TMPDIR_TEST/out" ||
	fail "the violation inside reports/ is not named: $(cat "$TMPDIR_TEST/out")"
[ "$(wc -l <"$TMPDIR_TEST/out")" = 2 ] || fail "an allowed include was flagged: $(cat "$TMPDIR_TEST/out")"

mkdir -p "$TMPDIR_TEST/tree/harness/attic"
: >"$TMPDIR_TEST/tree/harness/attic/old.c"
"$check" "$TMPDIR_TEST/tree" >"$TMPDIR_TEST/out" 2>&1 && fail "a file of an unknown room passed"
grep -q "^harness/attic/old.c: room 'harness/attic' is not in tools/check-layers" "$TMPDIR_TEST/out" ||
	fail "the unknown room is not named: $(cat "$TMPDIR_TEST/out")"
exit 0
