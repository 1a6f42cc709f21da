#!/bin/sh
# make bench judges what it measured (issue 33): a benchmark whose run wrote
# no figure is a miss that says so, never "ok" (sampler-longrun printed ok
# for missing ticks, since awk reads "" as 0); a figure on the wrong side of
# its target is a miss, and BENCH_STRICT=1 makes any miss exit 1.
. "$top_srcdir/tests/lib.sh"
out=$TMPDIR_TEST/out
BENCH_STRICT=1 sh -c '. "$1/bench/lib.sh"; bench_judge "missed ticks" "" le 0; bench_exit' \
	judge "$top_srcdir" >"$out" 2>&1 && fail "no figure passed: $(cat "$out")"
grep -q "missed ticks = nothing (target <= 0): MISSED, no figure" "$out" || fail "$(cat "$out")"
BENCH_STRICT=1 sh -c '. "$1/bench/lib.sh"; bench_judge "missed ticks" "-5" le 0 &&
	bench_judge "ratio" "1.02" within 0.05; bench_exit' judge "$top_srcdir" >"$out" 2>&1 ||
	fail "figures within their targets missed: $(cat "$out")"
BENCH_STRICT=1 sh -c '. "$1/bench/lib.sh"; bench_judge "ratio" "1.2" within 0.05; bench_exit' \
	judge "$top_srcdir" >"$out" 2>&1 && fail "a figure past its target passed: $(cat "$out")"
grep -q "ratio = 1.2 (target within 1 +- 0.05): MISSED" "$out" || fail "$(cat "$out")"
exit 0
