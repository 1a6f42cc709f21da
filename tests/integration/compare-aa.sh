#!/bin/sh
# The false-positive rate of starve compare, measured (issue 12): each pair of
# tests/compare/aa/ is two real results of one placement profile on one
# kernel, one after the other (tests/compare/make-aa.sh), so every change
# compare flags between them is a false positive. Over all pairs, at the
# recorded 3 runs a side and at 3 runs against 1 (each run of the other
# result taken alone), the gated rows flagged (regression, improvement or a
# verdict flip) must be at most alpha of the gated rows tested. At 1 run a
# side compare gives no verdict: none may be flagged, and the share of rows
# whose interval of the two runs alone excludes 0 (what a verdict from it
# would flag) is printed for the record. Prints the figures.
. "$top_srcdir/tests/lib.sh"
need_cmd jq

d=$top_srcdir/tests/compare/aa
alpha=0.05
out=$TMPDIR_TEST/out

# tally A B: add the pair's gated rows tested and flagged to $tested, $flagged.
tally() {
	"$STARVE" compare --json --alpha "$alpha" "$1" "$2" >"$out"; rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "compare $1 $2: exit $rc"
	set -- $(jq -r '[.rows[] | select(.gated) | .compared[0]
			| select(.verdict != "insufficient data")] as $g
		| [($g | length), ([$g[] | select(.verdict != "no change")] | length)
		   + ([.flips[] | select(.verdict != null)] | length)] | @tsv' "$out")
	tested=$((tested + $1)) flagged=$((flagged + $2))
	[ "$2" = 0 ] || jq -r --arg f "$(basename "$a")" '.rows[] | select(.gated) | .compared[0] as $c
		| select($c.verdict != "no change" and $c.verdict != "insufficient data")
		| "  \($f): \(.load) \(.metric) \($c.verdict) \($c.change_pct) p \($c.p) \($c.method)"' \
		"$out" >&2
	return 0
}

# judge WHAT: print the figure, fail above alpha.
judge() {
	[ "$tested" -ge 20 ] || fail "$1: only $tested gated rows tested"
	rate=$(awk -v f="$flagged" -v t="$tested" 'BEGIN { printf "%.3f", f / t }')
	echo "A/A $1: $pairs pairs, $flagged of $tested gated rows flagged ($rate), alpha $alpha"
	awk -v r="$rate" -v a="$alpha" 'BEGIN { exit !(r <= a) }' ||
		fail "A/A $1: false-positive rate $rate above alpha $alpha"
}

pairs=0 tested=0 flagged=0
for a in "$d"/*a.json; do
	tally "$a" "${a%a.json}b.json"
	pairs=$((pairs + 1))
done
[ "$pairs" -ge 20 ] || fail "only $pairs A/A pairs in $d"
judge "3 runs a side"

# 3 runs against 1: the single run against the others' prediction interval.
pairs=0 tested=0 flagged=0
for a in "$d"/*a.json; do
	for k in 0 1 2; do
		jq -c ".runs = [.runs[$k]]" "${a%a.json}b.json" >"$TMPDIR_TEST/b.json"
		tally "$a" "$TMPDIR_TEST/b.json"
		pairs=$((pairs + 1))
	done
done
judge "3 runs against 1"

# One run a side: the k-th run of each result of a pair, as its own result.
pairs=0 within=0 would=0
for a in "$d"/*a.json; do
	b=${a%a.json}b.json
	for k in 0 1 2; do
		jq -c ".runs = [.runs[$k]]" "$a" >"$TMPDIR_TEST/a.json"
		jq -c ".runs = [.runs[$k]]" "$b" >"$TMPDIR_TEST/b.json"
		"$STARVE" compare --json "$TMPDIR_TEST/a.json" "$TMPDIR_TEST/b.json" >"$out" ||
			fail "1 run a side, $(basename "$a") run $k: exit $?, expected 0"
		set -- $(jq -r --argjson alpha "$alpha" '[.rows[] | select(.gated) | . as $r
				| .compared[0] | select(.within_runs)] as $w
			| [($w | length), ([$w[] | select(.p < $alpha and
				(.change_pct | fabs) > 5)] | length),
			   .summary.regression + .summary.improvement] | @tsv' "$out")
		[ "$3" = 0 ] || fail "1 run a side, $(basename "$a") run $k: a verdict was given"
		within=$((within + $1)) would=$((would + $2))
		pairs=$((pairs + 1))
	done
done
[ "$within" -ge 20 ] || fail "1 run a side: only $within rows with an interval"
echo "A/A 1 run a side: $pairs pairs, no verdict given; the intervals of the two runs would" \
	"flag $would of $within gated rows ($(awk -v w="$would" -v n="$within" \
	'BEGIN { printf "%.3f", w / n }')): why they are not verdicts"
exit 0
