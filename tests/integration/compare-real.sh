#!/bin/sh
# starve compare on real runs at the shipped 3 repetitions a side (issue 12):
# a victim beside a sleep-hog on CPU 1 against the same profile with the hog
# on CPU 0 is a regression of the victim's cpu_share (exit 1) and, when the
# baseline's runs were quiet, of its starvation_max; the hog's rows do not
# gate. A result against itself is no change (exit 0). About 25 s.
#
# On a busy machine the victim "alone" is starved by other work too (its
# starvation_max then reaches the milliseconds a hog causes): compare must
# then not call starvation_max an improvement, but need not call it a
# regression. The A/A pairs of compare-aa.sh check "another run of the same
# profile: no change" on recorded results, so nothing here hangs on one run.
. "$top_srcdir/tests/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
need_cmd jq

d=$top_srcdir/tests/compare
out=$TMPDIR_TEST/out
for which in alone shared; do
	"$STARVE" run "$d/placement-$which.yaml" --repeat 3 -o "$TMPDIR_TEST/$which" --quiet \
		>/dev/null 2>"$TMPDIR_TEST/err" ||
		fail "run of placement-$which.yaml failed: $(cat "$TMPDIR_TEST/err")"
done
alone=$TMPDIR_TEST/alone/result.json shared=$TMPDIR_TEST/shared/result.json

"$STARVE" compare "$alone" "$shared" >"$out"; rc=$?
cat "$out"
[ "$rc" = 1 ] || fail "alone vs shared: exit $rc, expected 1 (regression)"
grep -Eq "^victim +cpu_share +.* regression$" "$out" || fail "victim cpu_share is not a regression"
grep -Eq "^hog +.* (regression|improvement)$" "$out" && fail "a hog row gates"
"$STARVE" compare --json "$alone" "$shared" >"$TMPDIR_TEST/json"
noisy=$(jq '.columns[0].runs_noisy' "$TMPDIR_TEST/json")
verdict=$(jq -r '.rows[] | select(.load == "victim" and .metric == "starvation_max")
	| .compared[0].verdict' "$TMPDIR_TEST/json")
if [ "$noisy" = 0 ]; then
	[ "$verdict" = regression ] || fail "quiet baseline: victim starvation_max is $verdict"
else
	echo "note: $noisy of the baseline's runs were noisy: starvation_max is '$verdict'"
	[ "$verdict" != improvement ] || fail "victim starvation_max called an improvement"
fi

"$STARVE" compare "$shared" "$alone" >"$out"
grep -Eq "^victim +cpu_share +.* improvement$" "$out" ||
	{ cat "$out" >&2; fail "shared vs alone: victim cpu_share is not an improvement"; }

"$STARVE" compare "$shared" "$shared" >"$out"; rc=$?
[ "$rc" = 0 ] || { cat "$out" >&2; fail "a result against itself: exit $rc, expected 0"; }
grep -Eq ' (regression|improvement)( \(.*\))?$' "$out" && fail "a result against itself changed"
grep -Eq "^victim +starvation_max +.* no change$" "$out" || fail "itself: victim starvation_max not 'no change'"
exit 0
