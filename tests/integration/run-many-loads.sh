#!/bin/sh
# Start-up does not eat the window (issue 20, 8): as many tiny loads as a
# profile may hold (64; 65 is refused by check, file:line:col) and a 1 s
# run. The window opens once the last load runs, so either every load is
# watched for it (status ok, each load's task seen), or the machine could
# not start them all within the set-up time and the run is an error naming
# why (exit 3). Never what main did: exit 0, PASS, 0 tasks watched.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
suite_lock
export STARVE_STATE_DIR="$TMPDIR_TEST/state"
many_loads() {	# N FILE: a profile of N tiny sleep-hogs
	n=$1
	{
	echo "name: many-loads"
	echo "description: $n tiny sleep-hogs on CPU 1"
	echo "duration: 1s"
	echo "warmup: 0s"
	echo "loads:"
	i=1
	while [ $i -le $n ]; do
		echo "  - { name: l$i, type: sleep-hog, run: 1ms, sleep: 200ms, cpus: pu:1 }"
		i=$((i + 1))
	done
	} > "$2"
}
many_loads 65 "$TMPDIR_TEST/too-many.yaml"
"$STARVE" check "$TMPDIR_TEST/too-many.yaml" > "$TMPDIR_TEST/check.log" 2>&1
[ $? = 2 ] || fail "65 loads were not refused by check (exit 2)"
grep -q "too-many.yaml:6:3: 'loads' has 65 entries" "$TMPDIR_TEST/check.log" ||
	fail "check did not name the place: $(cat "$TMPDIR_TEST/check.log")"
n=64
many_loads $n "$TMPDIR_TEST/many.yaml"
t0=$(date +%s)
"$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$TMPDIR_TEST/many.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
echo "exit $rc after $(( $(date +%s) - t0 )) s"
R="$TMPDIR_TEST/out/result.json"
[ -f "$R" ] || fail "no result: $(cat "$TMPDIR_TEST/log")"
status=$(jq -r '.runs[0].status' "$R")
case $status in
ok)
	[ "$rc" = 0 ] || fail "status ok but exit $rc"
	check_json "$R" "(.runs[0].loads | length) == $n and ([.runs[0].loads[].tasks_seen] | min) >= 1" \
		"a run called ok did not watch every load's task"
	check_json "$R" '.runs[0].duration_s >= 0.9' "a run called ok measured less than its window"
	;;
error)
	[ "$rc" = 3 ] || fail "an error run exited $rc, expected 3"
	check_json "$R" '.runs[0].reason | test("set-up|never ran|watched|cut short")' \
		"the error does not say the loads were not all started or watched"
	echo "refused: $(jq -r '.runs[0].reason' "$R")"
	;;
*) fail "run status '$status' (exit $rc)" ;;
esac
