#!/bin/sh
# The shipped smoke profile (every load type, about 3 s): starve run exits 0
# (an undecided summary on a noisy machine is exit 0 too, and then every run
# must still be ok), the result matches the schema, and no scheduler knob or
# journal is left changed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the smoke profile's RT hog stays on pu:1)"
guard_knob

# Every sched sysctl, as name=value lines: compared after the run.
knobs_now() {
	for f in /proc/sys/kernel/sched_*; do
		[ -r "$f" ] && printf '%s=%s\n' "${f##*/}" "$(cat "$f" 2>/dev/null)"
	done
}
knobs_now > "$TMPDIR_TEST/knobs.before"
out="$TMPDIR_TEST/out"
"$STARVE" run --quiet -o "$out" "$top_srcdir/profiles/smoke.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
cat "$TMPDIR_TEST/log"
[ $rc = 0 ] || fail "starve run profiles/smoke.yaml exited $rc, expected 0"
r="$out/result.json"
check_json "$r" '.complete == true' "result marked incomplete"
check_json "$r" '.profile.name == "smoke"' "the profile is not smoke"
check_json "$r" '(.runs | length) == 1' "expected one run, got $(jq '.runs | length' "$r")"
check_json "$r" 'all(.runs[]; .status == "ok")' "a run is not ok: $(jq -c '[.runs[].reason]' "$r")"
check_json "$r" '([.profile.loads[].name] | sort) as $want | all(.runs[]; [.loads[].name] | sort == $want)' \
	"the loads measured are not the profile's loads"
check_json "$r" 'all(.runs[].loads[]; .tasks_seen >= 1)' "a load had no task seen"
jq -r '.summary | "smoke summary: \(.verdict) (\(.pass) pass, \(.undecided) undecided)"' "$r"
check_json "$r" '.summary.verdict == "pass" or .summary.verdict == "undecided"' \
	"the summary is neither pass nor undecided"
check_json "$r" '.summary | .fail == 0 and .skip == 0' "a verdict failed or was skipped"
check_json "$r" '.summary.pass + .summary.undecided == (.profile.expect | length)' \
	"pass + undecided is not the number of expectations"
check_schema "$r"
knobs_now > "$TMPDIR_TEST/knobs.after"
cmp -s "$TMPDIR_TEST/knobs.before" "$TMPDIR_TEST/knobs.after" ||
	{ diff "$TMPDIR_TEST/knobs.before" "$TMPDIR_TEST/knobs.after" >&2; fail "a sched knob changed"; }
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left behind"
exit 0
