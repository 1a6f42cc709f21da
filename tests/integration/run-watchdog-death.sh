#!/bin/sh
# A load never runs unwatched (issue 33): the watchdog killed alone in the
# middle of a run. Each load's guard (loads/guard.c) waits on the
# watchdog's pidfd and ends its load at once, without waiting for the
# controller; the controller hears it (watchdog_news), and the run is an
# error that says so (exit 3), its knob restored.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
guard_knob_change
run_knob_change 3s
wd=$(pgrep -P $ctl -x starve-watchdog) || fail "no watchdog"
loads=$(for p in $pids; do [ "$p" = "$wd" ] || echo "$p"; done)
kill -9 "$wd"
# 1 s: the loads would otherwise run to the window's end, 3 s away
i=0
while [ $i -lt 10 ]; do
	left=
	for p in $loads; do alive "$p" && left="$left $p"; done
	[ -z "$left" ] && break
	sleep 0.1; i=$((i + 1))
done
[ -z "$left" ] || fail "the loads ($left) outlived their watchdog by 1 s"
echo "the loads were gone ~$((i * 100)) ms after their watchdog"
expect_run_error watchdog "the watchdog killed"
