#!/bin/sh
# The synthetic results under tests/compare are what make-results.py writes
# (so nobody edits one by hand and leaves the generator behind), and every
# one but not-a-result.json is a valid result per reports/result-schema.json
# (so the compare tests read the format that `starve run` writes).
. "$top_srcdir/tests/lib.sh"
need_cmd python3

d=$top_srcdir/tests/compare
python3 "$d/make-results.py" "$TMPDIR_TEST" || fail "make-results.py failed"
n=0
for f in "$TMPDIR_TEST"/*.json; do
	diff -u "$d/$(basename "$f")" "$f" >&2 || fail "$(basename "$f") differs from make-results.py's"
	n=$((n + 1))
done
[ "$n" -ge 9 ] || fail "only $n results generated"

set --
for f in "$d"/*.json; do
	[ "$(basename "$f")" = not-a-result.json ] || set -- "$@" "$f"
done
python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" "$@"
rc=$?
[ "$rc" = 77 ] && echo "note: python3-jsonschema missing, schema check skipped" >&2
[ "$rc" = 0 ] || [ "$rc" = 77 ] || fail "a synthetic result is not valid"
exit 0
