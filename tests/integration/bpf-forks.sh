#!/bin/sh
# The BPF source and loads that fork without end (issue 33): two commands
# each forking short-lived subshells for 3 s beside a victim make some
# 20,000 tasks here, more than the program's table of 8,192. Each task that
# exits inside the window is merged into its load's record and its entry
# freed, so nothing is lost; before, 3,831 tasks were lost and the run was
# still judged. With the table shrunk to 64 (STARVE_BPF_MAX_TASKS) the
# program does lose tasks, and then every format says the run is
# undecided, with the count. About 8 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd jq
[ "$("$STARVE" env --json | jq -r .bpf.available)" = true ] ||
	skip "BPF mode unavailable: $("$STARVE" env --json | jq -r .bpf.reason)"
suite_lock
cat > "$TMPDIR_TEST/forks.yaml" <<'YAML'
name: forks
description: Two commands forking short-lived subshells without end beside a victim.
duration: 3s
warmup: 300ms
repeat: 1
loads:
  - name: forker
    type: exec
    command: "while :; do (:); done"
    count: 2
  - name: victim
    type: cpu-victim
expect:
  - { load: victim, metric: cpu_share, above: 1% }
YAML

forks_before=$(awk '/^processes/ { print $2 }' /proc/stat)
rc=0
STARVE_BPF=1 "$STARVE" run "$TMPDIR_TEST/forks.yaml" -q -o "$TMPDIR_TEST/all" > /dev/null 2>&1 ||
	rc=$?
forks=$(($(awk '/^processes/ { print $2 }' /proc/stat) - forks_before))
judged $rc
r=$TMPDIR_TEST/all/result.json
echo "forked $forks tasks: $(jq -c .runs[0].exact "$r")"
[ "$forks" -gt 8192 ] || skip "the loads forked only $forks tasks here (the table holds 8192)"
check_json "$r" '.runs[0].exact.source == "bpf"' "the BPF source gave the figures"
check_json "$r" '.runs[0].exact.lost_tasks == 0' "no task lost though $forks were forked"
check_json "$r" '.runs[0].loads[] | select(.name == "forker") | .exact.stretches > 1000' \
	"the forker's exited tasks count in its figures"

# A table of 64: the program loses tasks, and the run is undecided everywhere
rc=0
STARVE_BPF_MAX_TASKS=64 "$STARVE" run "$TMPDIR_TEST/forks.yaml" -q -o "$TMPDIR_TEST/lost" \
	--format json,junit,ktap,markdown,table > /dev/null 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "a run that lost tasks exits $rc, not 4 (undecided)"
d=$TMPDIR_TEST/lost
check_json "$d/result.json" '.runs[0].exact.lost_tasks > 0' "tasks lost with a table of 64"
check_json "$d/result.json" '.summary.verdict == "undecided"' "the summary is undecided"
check_json "$d/result.json" '.runs[0].verdicts[0].reason | test("exact source \\(bpf\\) lost [0-9]+ scheduler events and [0-9]+ tasks")' \
	"the verdict says what was lost"
grep -q '<skipped message="undecided' "$d/result.xml" || fail "JUnit does not skip it as undecided"
grep -q '# SKIP.*lost' "$d/result.ktap" || fail "KTAP does not say it was lost: $(cat "$d/result.ktap")"
grep -q 'UNDECIDED' "$d/summary.md" || fail "Markdown does not say UNDECIDED"
grep -q 'UNDECIDED.*lost' "$d/summary.txt" || fail "the table does not say why"
exit 0
