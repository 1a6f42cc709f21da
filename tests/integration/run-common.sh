# Helpers for the run-*.sh tests (sourced after tests/lib.sh): guard a knob
# so it is put back whatever happens, find every process a running
# controller started, and wait for them to be gone.
PROFILES="$top_srcdir/tests/profiles/run"
RT_KNOB=/proc/sys/kernel/sched_rt_runtime_us
export STARVE_STATE_DIR="$TMPDIR_TEST/state"

# Remember RT_KNOB's value; on exit, kill what the test started and write
# the value back if it changed (never writes when it did not).
# Takes the suite lock first (tests/lib.sh): under `make -j check` two run
# tests would otherwise journal each other's values (and one would restore
# the other's 960000).
guard_knob() {
	[ -r "$RT_KNOB" ] || skip "no $RT_KNOB"
	suite_lock
	# A starve run outside the test suite owns the knobs now: what we read
	# would be its setting, and our clean-up would write it back.
	[ ! -e /run/starve/journal ] || skip "a starve run is in progress (/run/starve/journal exists)"
	KNOB_BEFORE=$(cat "$RT_KNOB")
	trap 'cleanup_run' EXIT
}
CTL_PIDS=
cleanup_run() {
	for p in $CTL_PIDS; do kill -9 "$p" 2>/dev/null; done
	if [ -n "${KNOB_BEFORE:-}" ] && [ "$(cat "$RT_KNOB")" != "$KNOB_BEFORE" ]; then
		echo "$KNOB_BEFORE" > "$RT_KNOB"
		echo "cleanup: had to restore $RT_KNOB to $KNOB_BEFORE" >&2
	fi
	rm -rf "$TMPDIR_TEST"
}

# Every process in the process group of one of CTL's children (the
# watchdog and each load's leader lead their own groups).
our_pids() {
	ps -e -o pid=,ppid=,pgid= | awk -v c="$1" '
		{ pid[NR] = $1; ppid[NR] = $2; pgid[NR] = $3 }
		END { for (i in pid) if (ppid[i] == c) g[pid[i]] = 1
		      for (i in pid) if (pgid[i] in g) print pid[i] }'
}

# A pid is gone when /proc has no live process for it (zombies count as gone).
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}
wait_gone() {
	i=0
	while [ $i -lt 30 ]; do
		left=
		for p in "$@"; do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		sleep 0.1; i=$((i + 1))
	done
	ps -o pid,pgid,stat,comm -p "$(echo $left | tr ' ' ,)" >&2
	fail "processes still alive after the controller:$left"
}

# Wait (up to 10 s) until CTL's groups hold at least $2 processes and none
# is still an unnamed fork ("starve"); prints their pids.
wait_our_pids() {
	i=0
	while [ $i -lt 100 ]; do
		pids=$(our_pids "$1")
		n=$(echo $pids | wc -w)
		unnamed=$(for p in $pids; do cat "/proc/$p/comm" 2>/dev/null; done | grep -cx starve)
		[ "$n" -ge "$2" ] && [ "$unnamed" = 0 ] && { echo $pids; return 0; }
		sleep 0.1; i=$((i + 1))
	done
	echo $pids
	return 1
}

# Wait (up to 5 s) until RT_KNOB reads $1.
wait_knob() {
	i=0
	while [ "$(cat "$RT_KNOB")" != "$1" ]; do
		[ $i -lt 50 ] || return 1
		sleep 0.1; i=$((i + 1))
	done
}

# The preamble of a test that runs loads on pu:1: root, jq, two CPUs
# (WHY says what the second is for), the knob guarded.
guard_run() {
	need_root
	need_cmd jq
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs${1:+ ($1)}"
	guard_knob
}

# The preamble of a test of tests/profiles/run/knob-change.yaml: guard_run,
# and a setting (960000) that changes the knob.
guard_knob_change() {
	guard_run
	[ "$KNOB_BEFORE" != 960000 ] || skip "$RT_KNOB is already 960000: the setting would change nothing"
}

# For a test with an RT hog on pu:1: guard_run, and skip when RT throttling
# is off (the hog would own pu:1).
guard_rt_hog_on_pu1() {
	guard_run "the RT hog stays on pu:1"
	[ "$KNOB_BEFORE" != -1 ] || skip "RT throttling is off: the hog would own pu:1"
}

# run_stopped_at POINT TENTHS [PROFILE]: start PROFILE (knob-change.yaml)
# into $TMPDIR_TEST/out with STARVE_TEST_STOP_AT=POINT in the background
# (its pid in ctl and CTL_PIDS, output in $TMPDIR_TEST/log) and wait up to
# TENTHS tenths of a second for the controller to stop itself there; fail
# if it never does.
stopped() { grep -q "^State:	T" "/proc/$1/status" 2>/dev/null; }
run_stopped_at() {
	rm -rf "$TMPDIR_TEST/out"
	STARVE_TEST_STOP_AT=$1 "$STARVE" run --quiet --warmup 0s --duration 1s \
		-o "$TMPDIR_TEST/out" "$PROFILES/${3:-knob-change.yaml}" > "$TMPDIR_TEST/log" 2>&1 &
	ctl=$!
	CTL_PIDS=$ctl
	# looked at every 10 ms: the watchdog acts 0.1-0.2 s into the stop
	i=0
	while ! stopped $ctl && [ $i -lt $(($2 * 10)) ]; do sleep 0.01; i=$((i + 1)); done
	stopped $ctl || fail "$1: the controller never stopped there: $(cat "$TMPDIR_TEST/log")"
}

# run_knob_change DURATION: start knob-change.yaml for DURATION in the
# background into $TMPDIR_TEST/out (its pid in ctl and CTL_PIDS), wait for
# its knob and its four processes (the watchdog, the load's leader and its
# two workers: their pids in pids).
run_knob_change() {
	"$STARVE" run --quiet --duration "$1" -o "$TMPDIR_TEST/out" "$PROFILES/knob-change.yaml" \
		> "$TMPDIR_TEST/log" 2>&1 &
	ctl=$!
	CTL_PIDS=$ctl
	wait_knob 960000 || { cat "$TMPDIR_TEST/log"; fail "the setting was never applied"; }
	pids=$(wait_our_pids $ctl 4) || fail "found only these processes: $pids"
}

# expect_run_error REGEX WHAT: wait for ctl, which must exit 3 with its run
# an error whose reason matches REGEX (WHAT says what it is about), the
# knob restored and no journal left.
expect_run_error() {
	wait $ctl; rc=$?
	[ "$rc" = 3 ] || fail "$2: the controller exited $rc, expected 3: $(cat "$TMPDIR_TEST/log")"
	check_json "$TMPDIR_TEST/out/result.json" \
		".runs[0].status == \"error\" and (.runs[0].reason | test(\"$1\"))" \
		"$2: the run is not an error about it"
	[ "$(cat "$RT_KNOB")" = "$KNOB_BEFORE" ] || fail "$2: $RT_KNOB left at $(cat "$RT_KNOB")"
	[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "$2: a journal was left"
}
