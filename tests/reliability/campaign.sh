#!/bin/sh
# The safety campaign of issue 10, reproducible: a crashing machine and a
# hostile user against starve run. Opt-in (`make check-reliability`), as
# root, live knobs: kernel.sched_rt_runtime_us goes 950000 <-> 960000 (both
# throttled, safe). Each trial lasts a few seconds; TRIALS (default 50)
# per family. Prints one line of figures per family; exits 1 if any trial
# left a knob changed, a process or a journal behind, or gave no result.
#
# Families: kill -9 of the controller at random times (the first 80 ms
# included); controller and watchdog killed together (then `starve
# restore`); SIGINT and SIGTERM at random times; a double SIGINT; two runs
# at once in one and in two state dirs; a pids limit; an fd limit; a full
# and a read-only state dir. Takes the test suite's lock for all of it.
. "${top_srcdir:-.}/tests/reliability/common.sh"
: "${TRIALS:=50}"
TAG=$$
reliability_start
TARGET=960000
[ "$BEFORE" != "$TARGET" ] || TARGET=950000
STATE="$WORK/state"
# A run waits for the watchdog of the one before (it keeps the machine's
# lock until it has restored); the second of two concurrent runs does not.
export STARVE_STATE_DIR="$STATE" STARVE_LOCK_WAIT=10
empty_journals=0

cleanup() {
	for p in $(orphans); do kill -9 "$p" 2>/dev/null; done
	mountpoint -q "$WORK/mnt" 2>/dev/null && umount "$WORK/mnt"
	reliability_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The profile: two sleep-hog processes and an exec load whose shell leaves
# uniquely named background sleeps, one in its group and one escaped from it
# (setsid), and one setting that changes the knob.
PROFILE="$WORK/reliab.yaml"
cat > "$PROFILE" <<YAML
name: reliability
description: sleep-hogs and an exec load under a changed RT runtime
duration: 1500ms
warmup: 0s
loads:
  - name: reliab
    type: sleep-hog
    count: 2
    mode: processes
    cpus: pu:1
  - name: reliabx
    type: exec
    command: "sleep 99.$TAG & setsid sleep 98.$TAG & wait"
    cpus: pu:1
settings:
  - name: changed
    knobs: { kernel.sched_rt_runtime_us: $TARGET }
YAML

# Processes of ours after a trial: loads, their sleeps, a watchdog whose
# controller is gone. Zombies do not count.
orphans() { not_zombies $(pgrep -x starve-reliab; pgrep -x starve-reliabx; pgrep -f "sleep 9[89].$TAG"); }
# Random milliseconds in [0, $1).
rand_ms() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 )); }
ms_to_s() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }
# Wait up to 3 s for no orphans and the knob back (then up to 1 s more for
# the watchdog to remove the journal it restored from); 0 if so.
settled() {
	i=0
	while [ $i -lt 30 ]; do
		if [ -z "$(orphans)" ] && [ "$(cat "$KNOB")" = "$BEFORE" ]; then
			j=0
			while [ -e "$STATE/journal" ] && [ $j -lt 10 ]; do sleep 0.1; j=$((j + 1)); done
			return 0
		fi
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
watchdog_of() { pgrep -P "$1" -x starve-watchdog; }
# After a trial: nothing left, or count it and clean up for the next one.
check_clean() {
	if ! settled; then
		left=$(orphans | wc -l)
		bad "$1" "knob $(cat "$KNOB") (want $BEFORE), $left process(es) left"
		orphan_total=$((orphan_total + left))
		for p in $(orphans); do kill -9 "$p" 2>/dev/null; done
		[ "$(cat "$KNOB")" = "$BEFORE" ] || { knobs_left=$((knobs_left + 1)); echo "$BEFORE" > "$KNOB"; }
		rm -f "$STATE/journal"
		return 1
	fi
	[ -e "$STATE/journal" ] || return 0
	# killed before its first entry: harmless, cleared by restore or the next run
	if [ "$(grep -cv '^starve-journal\|^pid ' "$STATE/journal")" = 0 ] &&
	   "$STARVE" restore > "$WORK/restore.log" 2>&1 && [ ! -e "$STATE/journal" ]; then
		empty_journals=$((empty_journals + 1))
		return 0
	fi
	bad "$1" "a journal was left: $(cat "$STATE/journal")"
	rm -f "$STATE/journal"
	return 1
}
start_run() {
	"$STARVE" run --quiet -o "$WORK/out" "$PROFILE" "$@" > "$WORK/log" 2>&1 &
	CTL=$!
}
report() { printf '%-44s %s\n' "$1:" "$2"; }

# ---- kill -9 of the controller (the watchdog restores) ----
kill9_family() {	# $1 label, $2 max ms
	ok=0 by_wd=0 nothing=0 orphan_total=0 knobs_left=0 t=0
	while [ $t -lt "$TRIALS" ]; do
		t=$((t + 1))
		ms=$(rand_ms "$2")
		start_run
		sleep "$(ms_to_s "$ms")"
		kill -9 $CTL 2>/dev/null
		changed=$(cat "$KNOB")
		wait $CTL 2>/dev/null
		if check_clean "$t"; then
			ok=$((ok + 1))
			if [ "$changed" != "$BEFORE" ]; then by_wd=$((by_wd + 1)); else nothing=$((nothing + 1)); fi
		fi
	done
	report "$1" "$ok/$TRIALS restored (watchdog $by_wd, nothing to restore $nothing), orphans $orphan_total, knobs left $knobs_left"
}

# ---- controller and watchdog together (starve restore restores) ----
kill9_both_family() {
	ok=0 restored=0 orphan_total=0 knobs_left=0 t=0
	while [ $t -lt "$TRIALS" ]; do
		t=$((t + 1))
		ms=$(rand_ms 1500)
		start_run
		sleep "$(ms_to_s "$ms")"
		wd=$(watchdog_of $CTL)
		kill -9 $CTL $wd 2>/dev/null
		wait $CTL 2>/dev/null
		# the loads die by their death signal; then a restore
		i=0; while [ -n "$(orphans)" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
		if [ -e "$STATE/journal" ]; then
			"$STARVE" restore > "$WORK/restore.log" 2>&1 ||
				bad "$t" "starve restore failed: $(cat "$WORK/restore.log")"
			restored=$((restored + 1))
		fi
		check_clean "$t" && ok=$((ok + 1))
	done
	report "kill -9 controller+watchdog, random times" "$ok/$TRIALS restored (by starve restore $restored), orphans $orphan_total, knobs left $knobs_left"
}

# ---- SIGINT / SIGTERM: exit 3, a partial result ----
signal_family() {	# $1 signal, $2 how many (1 or 2), $3 max ms
	ok=0 with_result=0 orphan_total=0 knobs_left=0 t=0
	while [ $t -lt "$TRIALS" ]; do
		t=$((t + 1))
		rm -rf "$WORK/out"
		ms=$(rand_ms "$3")
		start_run
		sleep "$(ms_to_s "$ms")"
		kill -"$1" $CTL 2>/dev/null
		[ "$2" = 2 ] && { sleep 0.01; kill -"$1" $CTL 2>/dev/null; }
		wait $CTL; rc=$?
		clean=0; check_clean "$t" && clean=1
		if [ "$rc" != 3 ] && [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
			bad "$t" "exit $rc after SIG$1 at ${ms}ms: $(tail -2 "$WORK/log")"
			continue
		fi
		if jq -e '.format == "starve-result" or has("runs")' "$WORK/out/result.json" > /dev/null 2>&1; then
			with_result=$((with_result + 1))
		else
			bad "$t" "no readable result.json after SIG$1 at ${ms}ms (exit $rc)"
			continue
		fi
		[ $clean = 1 ] && ok=$((ok + 1))
	done
	report "SIG$1 x$2 in the first $3 ms" "$ok/$TRIALS clean exit with a result ($with_result results), orphans $orphan_total, knobs left $knobs_left"
}

# ---- two runs at once ----
concurrent_family() {	# $1 "one" or "two" state dirs
	ok=0 refused=0 orphan_total=0 knobs_left=0 t=0
	n=$((TRIALS / 5 + 1))
	while [ $t -lt $n ]; do
		t=$((t + 1))
		dir2=$STATE
		[ "$1" = two ] && dir2="$WORK/state2"
		start_run
		first=$CTL
		sleep "$(ms_to_s "$(rand_ms 300)")"
		STARVE_LOCK_WAIT=0 STARVE_STATE_DIR=$dir2 "$STARVE" run --quiet -o "$WORK/out2" "$PROFILE" > "$WORK/log2" 2>&1
		rc2=$?
		wait $first; rc1=$?
		[ "$rc2" = 3 ] && grep -q "another starve run\|a run is in progress" "$WORK/log2" &&
			refused=$((refused + 1))
		check_clean "$t" || continue
		[ ! -e "$WORK/state2/journal" ] || { bad "$t" "second dir kept a journal"; rm -f "$WORK/state2/journal"; continue; }
		case "$rc1$rc2" in *2*) bad "$t" "exit $rc1/$rc2"; continue ;; esac
		ok=$((ok + 1))
	done
	report "two runs at once, $1 state dir(s)" "$ok/$n clean (one refused or waited: $refused refused), orphans $orphan_total, knobs left $knobs_left"
}

# ---- limits and broken state dirs: an error, never a changed knob ----
limit_case() {	# $1 label, then the command prefix
	label=$1; shift
	orphan_total=0 knobs_left=0
	rm -rf "$WORK/outl"
	"$@" "$STARVE" run --quiet -o "$WORK/outl" "$PROFILE" --duration 300ms > "$WORK/logl" 2>&1
	rc=$?
	verdict="exit $rc"
	[ -f "$WORK/outl/result.json" ] &&
		verdict="$verdict, runs $(jq -r '[.runs[].status] | join(",")' "$WORK/outl/result.json")"
	check_clean "$label" && clean=yes || clean=no
	case $rc in 0|1|3) ;; *) bad "$label" "exit $rc: $(tail -2 "$WORK/logl")" ;; esac
	report "$label" "$verdict, clean $clean: $(grep -m1 'error' "$WORK/logl" | cut -c1-100)"
}
in_pids_cgroup() {
	cg=/sys/fs/cgroup/pids/starve-reliab-$TAG
	mkdir "$cg" 2>/dev/null || { echo "no pids cgroup" >&2; return 77; }
	echo 5 > "$cg/pids.max"
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
	rc=$?
	rmdir "$cg"
	return $rc
}
fd_limit() { sh -c 'ulimit -n 24 && exec "$@"' sh "$@"; }
full_state() {
	mkdir -p "$WORK/mnt"
	mount -t tmpfs -o size=4k,nr_inodes=3 tmpfs "$WORK/mnt" || return 77
	mkdir "$WORK/mnt/s" && : > "$WORK/mnt/filler" 2>/dev/null
	dd if=/dev/zero of="$WORK/mnt/filler" bs=4k count=1 2>/dev/null
	STARVE_STATE_DIR="$WORK/mnt/s" "$@"; rc=$?
	umount "$WORK/mnt"
	return $rc
}
ro_state() {
	mkdir -p "$WORK/mnt"
	mount -t tmpfs tmpfs "$WORK/mnt" || return 77
	mkdir "$WORK/mnt/s" && mount -o remount,ro "$WORK/mnt"
	STARVE_STATE_DIR="$WORK/mnt/s" "$@"; rc=$?
	umount "$WORK/mnt"
	return $rc
}

echo "starve reliability campaign: $TRIALS trials per family, $KNOB $BEFORE -> $TARGET"
kill9_family "kill -9 controller, first 80 ms" 80
kill9_family "kill -9 controller, random times" 1500
kill9_both_family
signal_family INT 1 80
signal_family INT 1 1500
signal_family TERM 1 1500
signal_family INT 2 1500
concurrent_family one
concurrent_family two
limit_case "pids limit 5" in_pids_cgroup
limit_case "fd limit 24" fd_limit
limit_case "full state dir" full_state
limit_case "read-only state dir" ro_state
echo "empty journals (killed before the first entry; cleared by starve restore, exit 0): $empty_journals"
echo "failures: $failures"
[ "$failures" = 0 ]
