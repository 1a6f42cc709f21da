#!/bin/sh
# The harness takes precedence over its loads (harness/run/run-nice.h): while
# the loads run, the controller's measuring thread and the watchdog are at
# nice -20 and every thread of every load at its profile's nice, 0, in each
# run: the loads set their own nice, so they do not inherit -20. Without
# it, 600 threads waking every 4 ms on 2 CPUs held the controller up for
# seconds. starve is started at nice 5, which the loads must not inherit
# either: the profile says 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_run
nice_of() { sed 's/.*) //' "$1/stat" 2>/dev/null | awk '{ print $17 }'; }
out="$TMPDIR_TEST/out"
nice -n 5 "$STARVE" run --quiet --duration 2s --repeat 2 -o "$out" "$PROFILES/late-window.yaml" \
	>"$TMPDIR_TEST/log" 2>&1 &
ctl=$!
CTL_PIDS=$ctl
# in each run: once the controller is at -20, look at everything it started
runs=0 last_loads=
i=0
while alive $ctl && [ $i -lt 150 ]; do
	if [ "$(nice_of /proc/$ctl)" = -20 ]; then
		pids=$(our_pids $ctl)
		wd=$(pgrep -P $ctl -x starve-watchdog)
		loads=
		for p in $pids; do [ "$p" = "$wd" ] || loads="$loads $p"; done
		# a new run: loads none of which the last one had (a run's loads
		# also come and go one by one as it starts and ends)
		new=$loads
		for p in $loads; do case " $last_loads " in *" $p "*) new=;; esac; done
		if [ -n "$new" ] && [ -n "$wd" ]; then
			[ "$(nice_of /proc/$wd)" = -20 ] || fail "the watchdog is at nice $(nice_of /proc/$wd)"
			for p in $loads; do
				for t in /proc/$p/task/*; do
					n=$(nice_of "$t")
					[ -z "$n" ] || [ "$n" = 0 ] ||
						fail "load task ${t#/proc/} ($(cat "$t/comm" 2>/dev/null)) is at nice $n"
				done
			done
			runs=$((runs + 1)) last_loads=$loads
			echo "run $runs: controller and watchdog at -20, loads$loads at 0"
		fi
	fi
	sleep 0.1; i=$((i + 1))
done
wait $ctl; rc=$?
[ "$rc" = 0 ] || fail "starve run exited $rc: $(cat "$TMPDIR_TEST/log")"
[ "$runs" = 2 ] || fail "saw the controller at nice -20 with its loads in $runs of 2 runs"
check_json "$out/result.json" '[.runs[] | .status == "ok"] | all and length == 2' "a run is not ok"
