#!/bin/sh
# The false-positive rate of starve compare, measured (issues 12, 23, 32):
# each pair of tests/compare/aa/ is two real results of one placement
# profile on one kernel, one after the other (tests/compare/make-aa.sh), so
# every regression compare finds between them is a false one. Over all
# pairs (at least 100) at the recorded 3 runs a side:
# - the comparisons that exit 1 (a gated regression or a confirmed verdict
#   flip) must be at most alpha of the pairs (the gate's error rate is per
#   comparison: Holm over the gated rows);
# - so must those whose test alone (one-sided, Holm, beyond the margin)
#   would call a regression without the noise rule: the test's own rate,
#   not one that the noisy runs of these busy-machine pairs hide;
# - an undecided comparison exits 4, never 0 and never 1.
# How many pairs reach NO REGRESSION (every gated row equivalent) is
# printed for the record: these pairs were recorded on a busy machine, so
# few do. With one run on a side (each run taken alone, against one run or
# against the other whole result) compare gives no verdict: every such
# comparison is UNDECIDED in JSON and text, exit 4; the share of rows whose
# interval excludes 0 (what a verdict from it would flag) is printed.
. "$top_srcdir/tests/lib.sh"
need_cmd jq

d=$top_srcdir/tests/compare/aa
alpha=0.05
out=$TMPDIR_TEST/out

# tally A B: add the pair's gated rows tested and flagged to $tested,
# $flagged, its exit to $exits, and its outcome to the counts.
tally() {
	pair="$1 $2"
	"$STARVE" compare --json --alpha "$alpha" "$1" "$2" >"$out"; rc=$?
	case $rc in 0|1|4) ;; *) fail "compare $pair: exit $rc" ;; esac
	set -- $(jq -r '[.rows[] | select(.gated) | .compared[0]
			| select(.verdict != "insufficient data")] as $g
		| [($g | length),
		   ([$g[] | select(.verdict == "regression" or .verdict == "improvement")] | length)
		   + ([.flips[] | select(.verdict != null and .verdict != "insufficient data")]
		      | length),
		   .summary.regression + .summary.flip_regression,
		   (.summary.outcome | gsub(" "; "_") | gsub(",";""))] | @tsv' "$out")
	tested=$((tested + $1)) flagged=$((flagged + $2))
	[ "$rc" = 1 ] && exits=$((exits + 1))
	# the test alone: a gated row significant one-sided after Holm and
	# beyond its margin, whatever the runs' noise
	unguarded=$(jq --argjson a "$alpha" '[.rows[] | select(.gated) | .margin as $m
		| .baseline.median as $b | .compared[0] | select(.p_worse_holm != null
			and .p_worse_holm < $a and ((.median - $b) | fabs) > $m)] | length' "$out")
	[ "$unguarded" = 0 ] || unguarded_exits=$((unguarded_exits + 1))
	# the exit status says the outcome: 1 a regression, 4 undecided, else 0
	case "$4:$rc" in
	REGRESSION:1|UNDECIDED:4|NO_REGRESSION:0|IMPROVEMENT_no_regression:0) ;;
	*) fail "compare $pair: exit $rc with outcome $4" ;;
	esac
	{ [ "$3" = 0 ] && [ "$rc" != 1 ]; } || { [ "$3" != 0 ] && [ "$rc" = 1 ]; } ||
		fail "compare $pair: exit $rc with $3 regressions"
	case $4 in NO_REGRESSION|IMPROVEMENT*) decided=$((decided + 1)) ;; esac
	[ "$2" = 0 ] && clean=$((clean + 1))
	[ "$2" = 0 ] || jq -r --arg f "$(basename "$a")" '.rows[] | select(.gated) | .compared[0] as $c
		| select($c.verdict == "regression" or $c.verdict == "improvement")
		| "  \($f): \(.load) \(.metric) \($c.verdict) \($c.change_pct) p \($c.p) \($c.method)"' \
		"$out" >&2
	return 0
}

# judge WHAT: print the figures, fail when more than alpha of the comparisons
# exit 1, or would without the noise rule.
judge() {
	[ "$tested" -ge 20 ] || fail "$1: only $tested gated rows tested"
	rate=$(awk -v f="$flagged" -v t="$tested" 'BEGIN { printf "%.3f", f / t }')
	echo "A/A $1: $pairs pairs, $flagged of $tested gated rows flagged ($rate), alpha $alpha;" \
		"$clean pairs with nothing flagged"
	per=$(awk -v e="$exits" -v p="$pairs" 'BEGIN { printf "%.3f", e / p }')
	unguarded_rate=$(awk -v e="$unguarded_exits" -v p="$pairs" 'BEGIN { printf "%.3f", e / p }')
	echo "A/A $1, per comparison: $exits of $pairs comparisons exit 1 ($per), alpha $alpha;" \
		"the test alone, without the noise rule, would in $unguarded_exits ($unguarded_rate)"
	echo "A/A $1: $decided of $pairs comparisons NO REGRESSION (every gated row equivalent)," \
		"the rest UNDECIDED (exit 4)"
	awk -v r="$per" -v a="$alpha" 'BEGIN { exit !(r <= a) }' ||
		fail "A/A $1: $per of the comparisons exit 1, above alpha $alpha"
	awk -v r="$unguarded_rate" -v a="$alpha" 'BEGIN { exit !(r <= a) }' ||
		fail "A/A $1: the test alone calls $unguarded_rate of the pairs a regression, above alpha $alpha"
}

pairs=0 tested=0 flagged=0 clean=0 exits=0 unguarded_exits=0 decided=0
for a in "$d"/*a.json; do
	tally "$a" "${a%a.json}b.json"
	pairs=$((pairs + 1))
done
[ "$pairs" -ge 100 ] || fail "only $pairs A/A pairs in $d (record more: tests/compare/make-aa.sh)"
judge "3 runs a side"

# One run on a side: compare gives no verdict (the interval over the runs'
# windows or events is shown): the comparison is UNDECIDED, exit 4, in JSON
# and in text; how many such intervals exclude 0 beyond the threshold (what
# verdicts from them would flag) is printed: the measurement behind that
# rule. SIDES is "1" (one run a side) or "3" (three runs against one); K
# picks the run. On the first 12 pairs of each profile (the figure of issue
# 12; all 104 take minutes).
no_verdict() {
	pairs=0 within=0 would=0
	for a in "$d"/*-0[1-9]a.json "$d"/*-1[0-2]a.json; do
		b=${a%a.json}b.json
		for k in 0 1 2; do
			if [ "$1" = 1 ]; then
				jq -c ".runs = [.runs[$k]]" "$a" >"$TMPDIR_TEST/a.json"
			else
				cp "$a" "$TMPDIR_TEST/a.json"
			fi
			jq -c ".runs = [.runs[$k]]" "$b" >"$TMPDIR_TEST/b.json"
			"$STARVE" compare --json "$TMPDIR_TEST/a.json" "$TMPDIR_TEST/b.json" >"$out"
			rc=$?
			[ "$rc" = 4 ] || fail "$1 against 1, $(basename "$a") run $k: exit $rc, expected 4"
			set -- "$1" $(jq -r --argjson alpha "$alpha" '[.rows[] | select(.gated)
					| .compared[0] | select(.within_runs)] as $w
				| [($w | length), ([$w[] | select(.p < $alpha and
					((.change_pct // 0) | fabs) > 5)] | length),
				   .summary.regression + .summary.improvement + .summary.equivalent,
				   (.summary.outcome | gsub(" "; "_"))] | @tsv' "$out")
			[ "$4" = 0 ] || fail "$1 against 1, $(basename "$a") run $k: a verdict was given"
			[ "$5" = UNDECIDED ] || fail "$1 against 1, $(basename "$a") run $k: outcome $5"
			within=$((within + $2)) would=$((would + $3))
			pairs=$((pairs + 1))
		done
	done
	"$STARVE" compare "$TMPDIR_TEST/a.json" "$TMPDIR_TEST/b.json" >"$out"
	head -1 "$out" | grep -q '^UNDECIDED in ' || fail "$1 against 1: the text headline is $(head -1 "$out")"
	grep -q 'NO REGRESSION' "$out" && fail "$1 against 1: the text says NO REGRESSION"
	[ "$within" -ge 20 ] || fail "$1 against 1: only $within rows with an interval"
	echo "A/A $1 run(s) against 1: $pairs pairs, all UNDECIDED (exit 4); the intervals of the" \
		"runs would flag $would of $within gated rows ($(awk -v w="$would" -v n="$within" \
		'BEGIN { printf "%.3f", w / n }'))"
}
no_verdict 1
no_verdict 3
exit 0
