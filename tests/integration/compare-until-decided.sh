#!/bin/sh
# starve compare --until-decided A.yaml B.yaml: the A/B of two profiles on
# this kernel, with the looks starve vm and bisect use. A: the victim alone
# on CPU 1 (tests/compare/nice-hog-alone.yaml), B: beside a nice -20 hog
# (nice-hog-beside.yaml): --max-repeat 9 over 3 runs a look plans 3 looks at
# alpha 0.05/3, and the victim's cpu_share (-98%, p 0.0001 in compare-real.sh)
# is a regression at the first look: exit 1, 3 runs against 3, one look of
# each in DIR/a-1 and DIR/b-1. A usage error of a run stops it (exit 2), and
# the forms compare refuses are usage errors. About 10 s.
. "$top_srcdir/tests/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
suite_lock	# it runs live loads
d=$top_srcdir/tests/compare
t=$TMPDIR_TEST

"$STARVE" compare --until-decided --max-repeat 9 -o "$t/ab" "$d/nice-hog-alone.yaml" \
	"$d/nice-hog-beside.yaml" > "$t/out" 2>&1
rc=$?
cat "$t/out"
if grep -q "^undecided" "$t/out"; then
	skip "the machine was too busy to decide a -98% change in 9 runs a side"
fi
[ $rc = 1 ] || fail "alone then beside: exit $rc, expected 1 (a regression)"
grep -q "^look 1: A (.*nice-hog-alone.yaml): starve run exit 0, 3 runs ok" "$t/out" ||
	fail "the first look of A is not said"
grep -q "^look 1: B (.*nice-hog-beside.yaml): starve run exit 0, 3 runs ok" "$t/out" ||
	fail "the first look of B is not said"
grep -Eq "^regression after 1 look of 3 planned \(alpha 0.05, 0.017 a look\): A 3 runs, B 3 runs: victim [a-z_0-9]+ " "$t/out" ||
	fail "the decision, its looks and the runs each side took are not said"
grep -Eq "^victim +cpu_share +.* regression$" "$t/out" || fail "no comparison of all runs"
[ -f "$t/ab/a-1/result.json" ] && [ -f "$t/ab/b-1/result.json" ] || fail "no runs in DIR/a-1, DIR/b-1"
[ -e "$t/ab/a-2" ] && fail "a decided A/B ran a second look"

# a run option starve run refuses stops it at once: exit 2
expect_exit 2 "$STARVE" compare --until-decided -o "$t/bad" "$d/nice-hog-alone.yaml" \
	"$d/nice-hog-beside.yaml" -- --repeat 0
expect_exit 2 "$STARVE" compare --until-decided "$d/nice-hog-alone.yaml"
expect_exit 2 "$STARVE" compare "$d/same.json" "$d/same.json" -- --repeat 3
exit 0
