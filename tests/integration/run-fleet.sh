#!/bin/sh
# `starve run profiles/smoke.yaml --format kcidb,lava` (a live run, about
# 3 s): result.kcidb.json holds the run's verdicts as KCIDB tests and is
# valid KCIDB v5.3 (ajv), and result.lava.sh reports the same verdicts as
# LAVA test cases. Without ajv the other checks run and the test skips.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd jq
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the smoke profile's RT hog stays on pu:1)"
guard_knob
. "$top_srcdir/tests/fleet/kcidb-lib.sh"
. "$top_srcdir/tests/fleet/lava-stubs.sh"
out=$TMPDIR_TEST/out

"$STARVE" run --quiet -o "$out" --format kcidb,lava --kcidb-origin test_lab \
	"$top_srcdir/profiles/smoke.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
# a busy machine makes the smoke run undecided (exit 0), never failed
[ $rc = 0 ] || { cat "$TMPDIR_TEST/log"; fail "starve run exited $rc, expected 0"; }
[ -s "$out/result.kcidb.json" ] && [ -s "$out/result.lava.sh" ] ||
	fail "run --format kcidb,lava did not write result.kcidb.json and result.lava.sh"
kcidb_same "$out/result.json" "$out/result.kcidb.json"
kcidb_linked "$out/result.kcidb.json" test_lab

jq -f "$FLEET/lava-cases.jq" "$out/result.json" > "$TMPDIR_TEST/lava.want"
PATH="$LAVA_BIN:$PATH" sh "$out/result.lava.sh" > "$TMPDIR_TEST/lava.out" 2>&1 ||
	fail "result.lava.sh failed: $(cat "$TMPDIR_TEST/lava.out")"
lava_same "$TMPDIR_TEST/lava.want" "$LAVA_LOG" 2>"$TMPDIR_TEST/diff" ||
	fail "result.lava.sh: $(cat "$TMPDIR_TEST/diff")"

[ -r "$KCIDB_SCHEMA" ] || skip "the run's KCIDB holds its verdicts; not validated: no $KCIDB_SCHEMA"
[ -n "$(kcidb_validator)" ] ||
	skip "the run's KCIDB holds its verdicts; not validated: needs node-ajv"
kcidb_validate "$out/result.kcidb.json"
exit 0
