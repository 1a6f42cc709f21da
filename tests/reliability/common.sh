# Sourced by every case of `make check-reliability` (tests/reliability/*.sh):
# they run as root against the live kernel.sched_rt_runtime_us. Gives KNOB,
# a scratch WORK directory, the failure count and bad(), and:
#   reliability_start: skip (exit 77) where the case cannot run, then take
#     the test suite's lock ONCE for every trial (a trial that took it on
#     its own could wait 15 min behind another test and never run), then
#     read BEFORE, the knob's value to come back to;
#   not_zombies PID...: those of the PIDs that are alive and not zombies;
#   reliability_cleanup: the knob back to BEFORE (saying so), WORK removed;
#   reliability_trials: the case's trial() for 1..TRIALS.
set -u
: "${top_srcdir:=.}" "${STARVE:=./starve}"
export top_srcdir STARVE
KNOB=/proc/sys/kernel/sched_rt_runtime_us
WORK=$(mktemp -d)
failures=0

reliability_start() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs"; exit 77; }
	[ -w "$KNOB" ] || { echo "SKIP: $KNOB not writable"; exit 77; }
	exec 9>>"${STARVE_CHECK_LOCK:-/tmp/starve-check.lock}"
	flock -w 900 -x 9 || { echo "FAIL: the test suite's lock stayed busy for 15 min"; exit 1; }
	# tests/lib.sh's suite_lock: held already, by us (fd 9 is inherited)
	STARVE_SUITE_LOCKED=1
	export STARVE_SUITE_LOCKED
	BEFORE=$(cat "$KNOB")
}

not_zombies() {
	for p; do
		state=$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null) || continue
		[ "$state" = Z ] || echo "$p"
	done
}

reliability_cleanup() {
	if [ -n "${BEFORE:-}" ] && [ "$(cat "$KNOB")" != "$BEFORE" ]; then
		echo "$BEFORE" > "$KNOB"
		echo "cleanup: had to restore $KNOB to $BEFORE" >&2
	fi
	rm -rf "$WORK"
}

bad() { echo "  trial $1: $2" >&2; failures=$((failures + 1)); }

reliability_trials() {
	n=1
	while [ $n -le "$TRIALS" ]; do
		trial $n
		n=$((n + 1))
	done
}
