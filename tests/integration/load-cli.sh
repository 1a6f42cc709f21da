#!/bin/sh
# starve load from the command line: option errors exit 2 with a clear
# message, a short run prints valid JSON and ends by itself, an RT load is
# refused on every CPU, an RT hog pinned to CPU 1 ends itself at its
# deadline (needs root; otherwise the refusal must say why), and SIGINT
# stops a long run cleanly, leaving no worker behind.
. "${top_srcdir:-.}/tests/lib.sh"
need_cmd jq
suite_lock

out=$TMPDIR_TEST/out err=$TMPDIR_TEST/err

# expect_usage MESSAGE ARGS...: `starve load ARGS` exits 2 saying MESSAGE
expect_usage() {
	msg=$1; shift
	"$STARVE" load "$@" >"$out" 2>"$err"; rc=$?
	[ "$rc" = 2 ] || fail "'starve load $*' exited $rc, expected 2"
	grep -qF -- "$msg" "$err" || fail "'starve load $*': no '$msg' in: $(cat "$err")"
}

expect_usage "did you mean '--run'" sleep-hog --rnu 5ms --duration 1s
expect_usage "out of range" sleep-hog --run 0ns --duration 1s
expect_usage "missing --duration" sleep-hog --run 5ms
expect_usage "did you mean 'sleep-hog'" sleep-hgo --duration 1s
expect_usage "needs a value" sleep-hog --duration 1s --run
expect_usage "required" exec --duration 1s
expect_usage "bad unit" sleep-hog --duration 5sec
expect_usage "--cpus" sleep-hog --duration 1s --cpus pu:x
expect_usage "--cpus" sleep-hog --duration 1s --cpus pu:4095
expect_usage "needs a priority" sleep-hog --duration 1s --policy fifo

"$STARVE" load sleep-hog --duration 500ms --cpus pu:0 --count 2 --json >"$out" 2>"$err" ||
	fail "sleep-hog run failed: $(cat "$err")"
check_json "$out" '.ended_by_itself and .iterations > 0 and (.workers | length) == 2
	and 0 < .metrics.cpu_share and .metrics.cpu_share <= 1' \
	"sleep-hog: not ended by itself, no iterations, not 2 workers or cpu_share not in (0, 1]"

"$STARVE" load rt-hog --duration 1s >"$out" 2>"$err"; rc=$?
[ "$rc" = 3 ] || fail "rt-hog on every CPU exited $rc, expected 3"
grep -q "every CPU" "$err" || fail "rt-hog on every CPU: $(cat "$err")"

# The RT hog pinned to CPU 1 ends itself at its deadline: no kill needed.
t0=$(date +%s%N)
"$STARVE" load rt-hog --cpus pu:1 --duration 1s --json >"$out" 2>"$err"; rc=$?
t1=$(date +%s%N)
if [ "$(id -u)" = 0 ]; then
	[ "$rc" = 0 ] || fail "rt-hog exited $rc: $(cat "$err")"
	check_json "$out" '.ended_by_itself and .workers[0].state == "done"' \
		"rt-hog did not end by itself"
	[ $(( (t1 - t0) / 1000000 )) -lt 1600 ] || fail "rt-hog took $(( (t1 - t0) / 1000000 )) ms"
	# RLIMIT_RTTIME ends a hog that would run too long: SIGXCPU (24).
	"$STARVE" load rt-hog --cpus pu:1 --duration 2s --rttime 200ms >"$out" 2>"$err"; rc=$?
	[ "$rc" = 3 ] && grep -q "killed by signal 24" "$err" || fail "rttime: rc $rc, $(cat "$err")"
	grep -q "0\.[0-9]* s$" "$out" || fail "rttime: the hog ran too long: $(head -1 "$out")"
else
	[ "$rc" = 3 ] && grep -q "need root" "$err" || fail "rt-hog as a user: rc $rc, $(cat "$err")"
fi

# SIGINT ends a long run at once; the partial metrics are printed and every
# worker is gone.
"$STARVE" load sleep-hog --duration 30s --cpus pu:0 --json >"$out" 2>"$err" &
pid=$!
sleep 0.5
kill -INT "$pid"
t0=$(date +%s)
wait "$pid"; rc=$?
[ "$rc" = 3 ] || fail "interrupted run exited $rc, expected 3"
[ $(( $(date +%s) - t0 )) -le 3 ] || fail "interrupted run took too long to stop"
grep -q "interrupted" "$err" || fail "no 'interrupted' message: $(cat "$err")"
check_json "$out" '.workers | length > 0' "the interrupted run lists no workers"
for tid in $(jq -r '.workers[].tid' "$out"); do
	! kill -0 "$tid" 2>/dev/null || fail "worker $tid still runs"
done
exit 0
