#!/bin/sh
# starve compare on real runs at the shipped 3 repetitions a side (issue 12):
# a victim beside a sleep-hog (nice -20) on CPU 1 against the same profile
# with the hog on CPU 0 is a regression of the victim's cpu_share and
# starvation_max (exit 1); the hog's rows do not gate; the other way round it
# is an improvement; a result against itself is no change (exit 0). About 25 s.
#
# The hog's weight makes the difference large against what other work on a
# shared machine does to the victim alone: with a nice-0 hog (placement-*.yaml)
# the A/A pairs show a victim alone starved up to 10 ms and down to 0.6 of its
# CPU, as much as the hog does, and compare then rightly says "no change". The
# A/A pairs of compare-aa.sh check "another run of the same profile: no
# change" on recorded results, so nothing here hangs on one noisy run.
. "$top_srcdir/tests/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"

d=$top_srcdir/tests/compare
out=$TMPDIR_TEST/out
for which in alone beside; do
	"$STARVE" run "$d/nice-hog-$which.yaml" -o "$TMPDIR_TEST/$which" --quiet \
		>/dev/null 2>"$TMPDIR_TEST/err" ||
		fail "run of nice-hog-$which.yaml failed: $(cat "$TMPDIR_TEST/err")"
done
alone=$TMPDIR_TEST/alone/result.json shared=$TMPDIR_TEST/beside/result.json

"$STARVE" compare "$alone" "$shared" >"$out"; rc=$?
cat "$out"
[ "$rc" = 1 ] || fail "alone vs beside: exit $rc, expected 1 (regression)"
for metric in cpu_share starvation_max; do
	grep -Eq "^victim +$metric +.* regression$" "$out" || fail "victim $metric is not a regression"
done
grep -Eq "^hog +.* (regression|improvement)$" "$out" && fail "a hog row gates"

"$STARVE" compare "$shared" "$alone" >"$out"
grep -Eq "^victim +cpu_share +.* improvement$" "$out" ||
	{ cat "$out" >&2; fail "beside vs alone: victim cpu_share is not an improvement"; }

"$STARVE" compare "$shared" "$shared" >"$out"; rc=$?
[ "$rc" = 0 ] || { cat "$out" >&2; fail "a result against itself: exit $rc, expected 0"; }
grep -Eq ' (regression|improvement)( \(.*\))?$' "$out" && fail "a result against itself changed"
grep -Eq "^victim +starvation_max +.* no change$" "$out" || fail "itself: victim starvation_max not 'no change'"
exit 0
