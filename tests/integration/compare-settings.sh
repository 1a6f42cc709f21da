#!/bin/sh
# starve compare --settings: the settings inside one result are the columns
# (first = baseline), which shows what a knob does: here "tuned" halves
# starvation_max (improvement) and costs 30% of wakeup_p99 (regression).
. "$top_srcdir/tests/lib.sh"

d=$top_srcdir/tests/compare
out=$TMPDIR_TEST/out

"$STARVE" compare --settings "$d/settings.json" >"$out"; rc=$?
[ "$rc" = 1 ] || fail "exit $rc, expected 1 (a regression)"
grep -q '^baseline: stock (5 ok runs)$' "$out" || fail "baseline is not the first setting"
grep -q '^compared: tuned (5 ok runs)$' "$out" || fail "tuned is not compared"
grep -Eq '^victim +starvation_max +5% +12ms +6ms +-50.0% \[-52.0%, -48.0%\] +0.0079 U +\+ improvement$' "$out" ||
	{ cat "$out" >&2; fail "starvation_max row"; }
grep -Eq '^probe +wakeup_p99 .* \+30.0% .* - regression$' "$out" || fail "wakeup_p99 row"
grep -q '^setting ' "$out" && fail "settings mode printed a setting column"

"$STARVE" compare --settings --threshold wakeup_p99=35 "$d/settings.json" >"$out"; rc=$?
[ "$rc" = 0 ] || fail "with wakeup_p99=35: exit $rc, expected 0"
grep -q '1 improvement, 5 equivalent' "$out" || fail "with wakeup_p99=35: wrong summary"

"$STARVE" compare --settings --json "$d/settings.json" >"$out"
grep -q '"mode": "settings"' "$out" || fail "JSON mode"
grep -q '"setting": "tuned"' "$out" || fail "JSON columns lack the setting"
exit 0
