#!/bin/sh
# reports/result/result-schema.json, as compiled into starve (starve report exits 2
# on an invalid result), accepts every synthetic result in tests/results/,
# rejects each broken-*.json (one defect each) naming the place, and still
# accepts a result after `starve report --recompute` rewrote its verdicts.
# Where python3-jsonschema is installed, the reference validator
# (tests/validate-result.py) must agree on every file; without it that
# cross-check is left out (said in the log), the rest still runs.
. "$top_srcdir/tests/lib.sh"
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# rejected FILE: starve report refuses FILE with exit 2, naming it
rejected() {
	"$STARVE" report "$1" --json /dev/null >/dev/null 2>"$T/err"; rc=$?
	[ "$rc" = 2 ] || fail "schema accepted $1 (starve report exited $rc)"
	grep -qF "$1: " "$T/err" || fail "no explanation for rejecting $1: $(cat "$T/err")"
}

good='' bad=''
for f in "$R"/*.json; do
	case "$(basename "$f")" in
	broken-*) rejected "$f"; bad="$bad $f" ;;
	*) check_schema "$f"; good="$good $f" ;;
	esac
done
n=$(echo $bad | wc -w)
[ "$n" -ge 4 ] || fail "expected at least 4 broken results, found $n"

expect_exit 1 "$STARVE" report "$R/multi.json" --recompute --json "$T/re.json"
check_schema "$T/re.json"
good="$good $T/re.json"

if command -v python3 >/dev/null && python3 -c 'import jsonschema' 2>/dev/null; then
	validate() { python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result/result-schema.json" "$@"; }
	# shellcheck disable=SC2086
	validate $good || fail "the reference validator rejects a result starve accepts"
	for f in $bad; do
		validate "$f" 2>/dev/null && fail "the reference validator accepts $f"
	done
else
	echo "python3-jsonschema not installed: the reference validator's cross-check is left out"
fi
exit 0
