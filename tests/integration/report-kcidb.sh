#!/bin/sh
# `starve report --kcidb` writes a KCIDB document with one test per verdict
# per run and one for the run, as tests/fleet/kcidb-tests.jq derives them
# from the result (paths, statuses as doc/ci-gating.md says, values, times),
# all of one origin, linked to a build: the lab's (--kcidb-build-id) or a
# checkout and build stub for the kernel. Bad ids are usage errors that
# write nothing. (kcidb-schema.sh checks the documents against the schema.)
. "$top_srcdir/tests/lib.sh"
need_cmd jq
. "$top_srcdir/tests/fleet/kcidb-lib.sh"
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

for name in pass fail skipped undecided unmeasured multi odd-names; do
	"$STARVE" report "$R/$name.json" --kcidb "$T/$name.json" >/dev/null 2>&1
	[ -s "$T/$name.json" ] || fail "no KCIDB written for $name"
	kcidb_same "$R/$name.json" "$T/$name.json"
	kcidb_linked "$T/$name.json" starve
done
# what a lab reads: the kernel, HZ, the preemption model and the knobs
jq -e '.tests[1].environment.misc | .kernel_release == "6.18.44" and .hz == 250
	and .preempt == "none (dynamic)" and .knobs["kernel.sched_rt_runtime_us"] == "950000"' \
	"$T/fail.json" >/dev/null || fail "fail: environment.misc lacks the kernel, HZ, preempt or knobs"
jq -e '.tests[1] | .number == {value: 1.31, prefix: "metric", unit: "s"}
	and (.log_excerpt | test("1.31s is not below 1.2s")) and .duration == 5' \
	"$T/fail.json" >/dev/null || fail "fail: the failing test lacks its number, reason or duration"
jq -e '[.tests[] | select(.path | endswith("wakeup_p99"))] | all(has("number") | not)' \
	"$T/undecided.json" >/dev/null || fail "undecided: an unmeasured metric has a number"
jq -e '.builds[0].misc.stub == true and .checkouts[0].misc.kernel_release == "6.18.44"' \
	"$T/fail.json" >/dev/null || fail "fail: no stub build and checkout for the kernel"
# the same result gives the same ids: a second submission updates, not doubles
"$STARVE" report "$R/fail.json" --kcidb "$T/again.json" >/dev/null 2>&1
cmp -s "$T/fail.json" "$T/again.json" || fail "two KCIDB documents of one result differ"

# a lab's origin and build
"$STARVE" report "$R/multi.json" --kcidb "$T/lab.json" --kcidb-origin my_lab \
	--kcidb-build-id 'maestro:6694c11d' >/dev/null 2>&1
kcidb_same "$R/multi.json" "$T/lab.json"
jq -e '(has("builds") or has("checkouts") | not)
	and all(.tests[]; .origin == "my_lab" and (.id | startswith("my_lab:"))
		and .build_id == "maestro:6694c11d")' "$T/lab.json" >/dev/null ||
	fail "--kcidb-origin/--kcidb-build-id not applied, or stubs written beside a build id"

# ids the schema would refuse are usage errors, and nothing is written
for bad in "--kcidb-origin My-Lab" "--kcidb-origin ''" "--kcidb-build-id 6694c11d" \
	"--kcidb-build-id Maestro:1" "--kcidb-build-id :1"; do
	eval "\"\$STARVE\" report \"\$R/fail.json\" --kcidb \"\$T/bad.json\" $bad" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || fail "report $bad exited $rc, expected 2"
	grep -q -- "${bad%% *}" "$T/err" || fail "report $bad: the error does not name the option"
	[ ! -e "$T/bad.json" ] || fail "report $bad wrote a document"
done
expect_exit 2 "$STARVE" run --kcidb-origin 'no such origin' "$top_srcdir/profiles/smoke.yaml" \
	-o "$T/never" 2>/dev/null
[ ! -e "$T/never" ] || fail "run with a bad origin created its output directory"
exit 0
