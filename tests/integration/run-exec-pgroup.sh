#!/bin/sh
# An exec load is measured by its command, not by the worker waiting for it:
# the sampler finds the command's processes (a busy shell and its busy
# background child) in the load's process group, the load's cpu_share is
# their CPU (two busy shells alone on pu:0: about 1), and that CPU is not
# counted as noise. When the run ends, every process of the load is gone.
# The machine is shared: a foreign hog on pu:0 can take half of it, so the
# command must get more than 0.3 in any case, and more than 0.5 in one of
# three attempts unless pu:0 was found busy with others (noise >= 0.3) in all.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_cmd python3
trap 'cleanup_run' EXIT

attempt() {
	out="$TMPDIR_TEST/out$1"
	"$STARVE" run -q -o "$out" "$PROFILES/exec-pgroup.yaml" > "$TMPDIR_TEST/log" 2>&1 &
	ctl=$!
	CTL_PIDS=$ctl
	# the watchdog, the load's leader, its shell and the shell's child
	pids=$(wait_our_pids $ctl 4) || fail "the load did not start: $pids"
	shells=
	for p in $pids; do [ "$(cat /proc/$p/comm 2>/dev/null)" = sh ] && shells="$shells $p"; done
	[ "$(echo $shells | wc -w)" = 2 ] || fail "expected 2 shells among $pids, found '$shells'"
	leader=$(ps -o pgid= -p ${shells% *} | tr -d ' ')
	wait $ctl
	rc=$?
	[ $rc = 0 ] || { cat "$TMPDIR_TEST/log"; fail "starve run exited $rc"; }
	wait_gone $pids
	python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
shells = {int(p) for p in sys.argv[2].split()}
leader = int(sys.argv[3])
run, = r['runs']
cmd, = run['loads']
pids = {t['pid'] for t in cmd['tasks']}
assert shells <= pids, ('the shells are not among the tasks', shells, cmd['tasks'])
assert leader not in pids, ('the waiting leader is sampled', leader, cmd['tasks'])
share, other = cmd['metrics']['cpu_share'], run['noise']['other_cpu_share']
print('cpu_share %.3f, other_cpu_share %.3f' % (share, other))
assert share > 0.3, 'the command is not counted as the load'
assert 'throughput' in cmd['metrics'], 'no in-band metrics'
sys.exit(0 if share > 0.5 and other < 0.3 else 2 if other >= 0.3 else 3)
" "$out/result.json" "$shells" "$leader"
}

noisy=0
for n in 1 2 3; do
	attempt $n
	rc=$?
	[ $rc = 0 ] && exit 0
	[ $rc = 2 ] && noisy=$((noisy + 1))
	[ $rc = 2 ] || [ $rc = 3 ] || fail "wrong result (see above)"
	echo "attempt $n: the figures do not hold" >&2
done
[ $noisy = 3 ] && { echo "pu:0 was busy with other tasks in every attempt" >&2; exit 0; }
fail "cpu_share <= 0.5 while other_cpu_share < 0.3"
