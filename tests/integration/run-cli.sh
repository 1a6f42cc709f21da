#!/bin/sh
# starve run without privileges: settings interleaved per repetition,
# --only, --repeat/--duration overrides, --format files, a schema-valid
# result, and exit 2 for usage and profile errors (nothing run, no output).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_cmd python3
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the profile uses pu:1)"
out="$TMPDIR_TEST/out"
expect_exit 2 "$STARVE" run -q -o "$TMPDIR_TEST/x" "$PROFILES/quick.yaml" --format junit,pdf
expect_exit 2 "$STARVE" run -q -o "$TMPDIR_TEST/x" "$PROFILES/quick.yaml" --only nosuch
expect_exit 2 "$STARVE" run -q -o "$TMPDIR_TEST/x" "$PROFILES/quick.yaml" --repeat 0
expect_exit 2 "$STARVE" run -q -o "$TMPDIR_TEST/x" "$TMPDIR_TEST/missing.yaml"
expect_exit 2 "$STARVE" run -q
[ ! -e "$TMPDIR_TEST/x" ] || fail "an output directory was made for a run that never started"

"$STARVE" run -q -o "$out" "$PROFILES/quick.yaml" --duration 500ms --warmup 100ms \
	--format junit,ktap,markdown > "$TMPDIR_TEST/log" 2>&1
rc=$?
cat "$TMPDIR_TEST/log"
[ $rc = 0 ] || fail "starve run exited $rc"
for f in result.json result.xml result.ktap summary.md; do
	[ -s "$out/$f" ] || fail "no $f in the output directory"
done
grep -q "^result: $out/result.json" "$TMPDIR_TEST/log" || fail "the result path was not printed"
check_result "$out/result.json" '
order = [(x["setting"], x["repetition"]) for x in r["runs"]]
assert order == [("a", 0), ("b", 0), ("a", 1), ("b", 1)], order
assert r["complete"] is True
assert r["profile"]["duration_s"] == 0.5 and r["profile"]["warmup_s"] == 0.1, r["profile"]
assert r["tool"]["command_line"][:2] == ["starve", "run"], r["tool"]
for x in r["runs"]:
    assert x["status"] == "ok", x
    assert 0.4 < x["duration_s"] < 1.0, x["duration_s"]
    assert 0 <= x["noise"]["other_cpu_share"] <= 1
    loads = {l["name"]: l for l in x["loads"]}
    assert set(loads) == {"hog", "victim"}, loads.keys()
    assert loads["victim"]["tasks_seen"] == 1, loads["victim"]
    # it ran (how much depends on what else the machine is doing)
    assert loads["victim"]["metrics"]["cpu_share"] > 0, loads["victim"]["metrics"]
    assert "starvation_max_inband" in loads["victim"]["metrics"]
'
python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" \
	"$out/result.json"
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail "result.json does not match the schema"

# options after the profile count, even under POSIXLY_CORRECT (as in git),
# and the command line is recorded as given
POSIXLY_CORRECT=1 "$STARVE" run -q -o "$out.only" "$PROFILES/quick.yaml" --duration 200ms \
	--warmup 0s --repeat 1 --only b > /dev/null 2>&1 || fail "--only run failed"
check_result "$out.only/result.json" '
assert [(x["setting"], x["repetition"]) for x in r["runs"]] == [("b", 0)], r["runs"]
assert r["tool"]["command_line"][-2:] == ["--only", "b"], r["tool"]["command_line"]
'''
# the same for starve report: its file before an option that takes one
POSIXLY_CORRECT=1 "$STARVE" report "$out.only/result.json" --junit "$TMPDIR_TEST/only.xml" \
	> /dev/null || fail "starve report RESULT --junit F failed"
[ -s "$TMPDIR_TEST/only.xml" ] || fail "starve report RESULT --junit F wrote nothing"
