#!/bin/sh
# Readers of huge results (issue 20): the verdict table grouped each cell's
# verdicts by scanning every verdict of every run, O(expectations^2): 142k
# aliased expectations never finished. Results are generated here with jq;
# the checks are on what is printed, with `timeout` only as a guard against
# a hang (speed figures belong in make bench).
. "$top_srcdir/tests/lib.sh"
need_cmd jq
need_cmd timeout
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# report FILE: starve report FILE into $T/out, failing on a hang or an error.
report() {
	timeout 60 "$STARVE" report "$1" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 124 ] && fail "starve report $1 still ran after 60 s"
	[ "$rc" = 0 ] || fail "starve report $1 exited $rc: $(head -c 300 "$T/err")"
}

# 40k copies of one expectation (a YAML alias repeated): one verdict each.
n=40000
jq --argjson n $n '.profile.expect[0] as $e | .runs[0].verdicts[0] as $v |
	.profile.expect = [range($n) | $e] | .runs[0].verdicts = [range($n) | $v] |
	.summary.pass = $n' \
	"$R/pass.json" >"$T/aliased.json" || fail "jq could not generate the aliased result"
report "$T/aliased.json"
[ "$(grep -c '^victim\.starvation_max below 1\.2s  PASS 950ms 950ms' "$T/out")" = $n ] ||
	fail "the $n aliased rows do not each show their pass: $(sed -n 3,4p "$T/out" | cut -c1-120)"

# 10k distinct thresholds: every row shows its own verdict and value only.
n=10000
jq --argjson n $n '.runs[0].verdicts[0] as $v | .profile.expect[0] as $e |
	.profile.expect = [range($n) as $i | $e | .threshold = 1.2 + $i | .threshold_text = "t\($i)"] |
	.runs[0].verdicts = [range($n) as $i | $v | .threshold = 1.2 + $i |
		.threshold_text = "t\($i)" | .value = 0.001 * ($i % 7 + 1) |
		if $i % 500 == 499 then .verdict = "fail" | .reason = "too slow" else . end] |
	.summary = (.summary | .pass = $n - 20 | .fail = 20 | .verdict = "fail" | .exit_code = 1)' \
	"$R/pass.json" >"$T/distinct.json" || fail "jq could not generate the distinct result"
timeout 60 "$STARVE" report "$T/distinct.json" >"$T/out" 2>"$T/err"
[ $? = 1 ] || fail "a result with failures must exit 1: $(head -c 300 "$T/err")"
[ "$(grep -c '^victim\.starvation_max below t[0-9]*  *PASS [1-7]ms$' "$T/out")" = $((n - 20)) ] ||
	fail "the passing rows do not each show one value"
grep -q '^victim\.starvation_max below t499  *FAIL 3ms$' "$T/out" ||
	fail "row t499 does not show its own failure: $(grep " t499 " "$T/out")"
[ "$(grep -c '^FAIL .*: too slow$' "$T/out")" = 20 ] || fail "the 20 failures' reasons are missing"

# The Markdown summary reads the same cells.
timeout 60 "$STARVE" report "$T/distinct.json" --markdown "$T/summary.md" >/dev/null 2>&1
grep -q '^| victim\.starvation\\_max below t499 | FAIL 3ms |$' "$T/summary.md" ||
	fail "summary.md row t499: $(grep 't499 ' "$T/summary.md")"

exit 0
