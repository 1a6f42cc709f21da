#!/bin/sh
# A profile at the limits check allows, 64 loads of 16 busy tasks (1,024 on
# 2 CPUs), runs to the end (issue 33): it used to end 3 of 3 times in "the
# controller was stalled past the run's deadline" with 512 tasks started and
# the sampler at 2.1 Hz, because the controller took precedence only once
# every load was forked and the sampler read every task at HZ. Now the
# controller is at nice -20 from its first change and the sampler steps back
# where the exact source covers the tasks: status ok, every task seen.
# About 4 s.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_run
{
	echo "name: many"
	echo "description: 64 loads of 16 busy tasks, the most a profile may have"
	echo "duration: 2s"
	echo "warmup: 300ms"
	echo "repeat: 1"
	echo "loads:"
	for i in $(seq 1 64); do
		printf '  - name: v%d\n    type: cpu-victim\n    count: 16\n' "$i"
	done
	echo "expect:"
	echo "  - { load: v1, metric: cpu_share, above: 0.1% }"
} > "$TMPDIR_TEST/many.yaml"
"$STARVE" check "$TMPDIR_TEST/many.yaml" > /dev/null || fail "check refuses the profile"
rc=0
"$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$TMPDIR_TEST/many.yaml" > "$TMPDIR_TEST/log" 2>&1 ||
	rc=$?
r=$TMPDIR_TEST/out/result.json
echo "exit $rc: $(jq -c '.runs[0] | {status, reason, sampler: .sampler.achieved_hz}' "$r")"
check_json "$r" '.runs[0].status == "ok"' "the run ends ok, not stalled"
check_json "$r" '[.runs[0].loads[].tasks_seen] | add == 1024' "every one of the 1,024 tasks seen"
judged $rc
exit 0
