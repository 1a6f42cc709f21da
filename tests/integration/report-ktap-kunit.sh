#!/bin/sh
# What the kernel's kunit.py parse makes of starve's KTAP (doc/ci-gating.md,
# "The kernel's kunit.py"), with its rule in awk since make check has no
# Python: kunit_parser counts the innermost cases only, and its run is
# FAILURE with a `not ok`, else SUCCESS with an `ok` that is no skip, else
# SKIPPED (all skipped) or NO_TESTS (an empty plan); kunit.py exits 0 for
# SUCCESS alone. The table in the doc holds for the fixtures: a pass is 0
# for both, a fail 1 for both, an all-skipped or all-undecided result is
# starve's 4 and kunit.py's 1, and one expectation passed beside one only
# undecided is starve's 4 and kunit.py's 0.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/results
T=$TMPDIR_TEST

# kunit_status FILE: the status kunit_parser gives the run of FILE
kunit_status() {
	awk '/^ *(not )?ok [0-9]+ / {
		depth = match($0, /[^ ]/) - 1
		if (depth > deepest) { deepest = depth; fail = pass = skip = 0 }
		if (depth < deepest) next
		if ($0 ~ /^ *not ok /) fail++
		else if ($0 ~ /# SKIP/) skip++
		else pass++
	}
	END { print fail ? "FAILURE" : pass ? "SUCCESS" : skip ? "SKIPPED" : "NO_TESTS" }' "$1"
}

# agree NAME STARVE-EXIT KUNIT-STATUS [REPORT-OPTION...]
agree() {
	name=$1 want_exit=$2 want_status=$3; shift 3
	"$STARVE" report "$R/$name.json" --recompute "$@" --ktap "$T/$name.ktap" 2>/dev/null
	rc=$?
	[ "$rc" = "$want_exit" ] || fail "$name $*: starve exit $rc, the doc says $want_exit"
	got=$(kunit_status "$T/$name.ktap")
	[ "$got" = "$want_status" ] ||
		fail "$name $*: kunit.py would see $got, the doc says $want_status: $(cat "$T/$name.ktap")"
}

agree pass 0 SUCCESS
agree fail 1 FAILURE
agree skipped 4 SKIPPED
agree undecided 4 SKIPPED
agree exact 4 SKIPPED
agree unmeasured 4 SUCCESS
agree undecided 1 FAILURE --strict
exit 0
