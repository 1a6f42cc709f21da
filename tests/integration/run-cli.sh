#!/bin/sh
# starve run without privileges: settings interleaved per repetition,
# --only, --repeat/--duration overrides, --format files, a schema-valid
# result, and exit 2 for usage and profile errors (nothing run, no output).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_cmd jq
suite_lock
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
r="$out/result.json"
check_json "$r" '[.runs[] | [.setting, .repetition]] == [["a", 0], ["b", 0], ["a", 1], ["b", 1]]' \
	"runs not interleaved a0 b0 a1 b1: $(jq -c '[.runs[] | [.setting, .repetition]]' "$r")"
check_json "$r" '.complete == true' "result marked incomplete"
check_json "$r" '.profile.duration_s == 0.5 and .profile.warmup_s == 0.1' \
	"--duration 500ms --warmup 100ms not in the profile recorded"
check_json "$r" '.tool.command_line[:2] == ["starve", "run"]' "the command line recorded is not starve run's"
check_json "$r" 'all(.runs[]; .status == "ok")' "a run is not ok"
# the run lasts 0.5 s; the rest is the machine (the margin is wide on purpose)
check_json "$r" 'all(.runs[]; .duration_s > 0.4 and .duration_s < 1.0)' \
	"a run did not last 0.4..1.0 s: $(jq -c '[.runs[].duration_s]' "$r")"
check_json "$r" 'all(.runs[]; .noise.other_cpu_share >= 0 and .noise.other_cpu_share <= 1)' \
	"other_cpu_share not in 0..1"
check_json "$r" 'all(.runs[]; [.loads[].name] | sort == ["hog", "victim"])' "loads are not hog and victim"
# the victim ran (how much depends on what else the machine is doing)
check_json "$r" 'all(.runs[].loads[] | select(.name == "victim");
	.tasks_seen == 1 and .metrics.cpu_share > 0 and (.metrics | has("starvation_max_inband")))' \
	"the victim: not one task seen, no CPU, or no in-band starvation_max"
check_schema "$r"

# options after the profile count, even under POSIXLY_CORRECT (as in git),
# and the command line is recorded as given
POSIXLY_CORRECT=1 "$STARVE" run -q -o "$out.only" "$PROFILES/quick.yaml" --duration 200ms \
	--warmup 0s --repeat 1 --only b > /dev/null 2>&1 || fail "--only run failed"
check_json "$out.only/result.json" '[.runs[] | [.setting, .repetition]] == [["b", 0]]' \
	"--only b did not run setting b alone once"
check_json "$out.only/result.json" '.tool.command_line[-2:] == ["--only", "b"]' \
	"the command line recorded does not end with --only b"
# the same for starve report: its file before an option that takes one
POSIXLY_CORRECT=1 "$STARVE" report "$out.only/result.json" --junit "$TMPDIR_TEST/only.xml" \
	> /dev/null || fail "starve report RESULT --junit F failed"
[ -s "$TMPDIR_TEST/only.xml" ] || fail "starve report RESULT --junit F wrote nothing"
