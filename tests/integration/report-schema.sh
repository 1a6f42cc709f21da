#!/bin/sh
# reports/result-schema.json accepts every synthetic result in tests/results/,
# rejects each broken-*.json (one defect each), and still accepts a result
# after `starve report --recompute` rewrote its verdicts.
. "$top_srcdir/tests/lib.sh"
need_cmd python3
python3 -c 'import jsonschema' 2>/dev/null || skip "needs python3-jsonschema"
R="$top_srcdir/tests/results"
validate() { python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" "$@"; }

for f in "$R"/*.json; do
	case "$(basename "$f")" in
	broken-*) validate "$f" 2>"$TMPDIR_TEST/err" && fail "schema accepted $f"
		  [ -s "$TMPDIR_TEST/err" ] || fail "no explanation for rejecting $f" ;;
	*) validate "$f" || fail "schema rejected $f" ;;
	esac
done
n=$(ls "$R"/broken-*.json | wc -l)
[ "$n" -ge 4 ] || fail "expected at least 4 broken results, found $n"

expect_exit 1 "$STARVE" report "$R/multi.json" --recompute --json "$TMPDIR_TEST/re.json"
validate "$TMPDIR_TEST/re.json" || fail "recomputed result does not validate"
exit 0
