#!/bin/sh
# Every fixture under tests/compare (the synthetic results make-results.py
# wrote, the recorded rt-victim results and A/A pairs) is a valid result:
# starve reads it through the schema it was built with (exit 2 names the
# place otherwise), so the compare tests read the format `starve run`
# writes. not-a-result.json is refused. (make-results.py, an optional dev
# tool, regenerates the synthetic ones; it is not needed here.)
. "$top_srcdir/tests/lib.sh"

d=$top_srcdir/tests/compare
n=0
for f in "$d"/*.json "$d"/aa/*.json; do
	[ "$(basename "$f")" = not-a-result.json ] && continue
	"$STARVE" report "$f" >/dev/null 2>"$TMPDIR_TEST/err"
	[ $? != 2 ] || fail "$(cat "$TMPDIR_TEST/err")"
	n=$((n + 1))
done
[ "$n" -ge 58 ] || fail "only $n fixtures"
"$STARVE" report "$d/not-a-result.json" >/dev/null 2>&1
[ $? = 2 ] || fail "not-a-result.json was read"
exit 0
