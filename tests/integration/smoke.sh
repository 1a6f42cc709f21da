#!/bin/sh
# The shipped smoke profile (every load type, about 3 s): starve run exits 0
# (an undecided summary on a noisy machine is exit 0 too, and then every run
# must still be ok), the result matches the schema, and no scheduler knob or
# journal is left changed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_root
need_cmd python3
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (the smoke profile's RT hog stays on pu:1)"
guard_knob

# Every sched sysctl, as name=value lines: compared after the run.
knobs_now() {
	for f in /proc/sys/kernel/sched_*; do
		[ -r "$f" ] && printf '%s=%s\n' "${f##*/}" "$(cat "$f" 2>/dev/null)"
	done
}
knobs_now > "$TMPDIR_TEST/knobs.before"
out="$TMPDIR_TEST/out"
"$STARVE" run --quiet -o "$out" "$top_srcdir/profiles/smoke.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
cat "$TMPDIR_TEST/log"
[ $rc = 0 ] || fail "starve run profiles/smoke.yaml exited $rc, expected 0"
check_result "$out/result.json" '
assert r["complete"] is True, "result marked incomplete"
assert r["profile"]["name"] == "smoke"
assert len(r["runs"]) == 1, "expected one run, got %d" % len(r["runs"])
for run in r["runs"]:
    assert run["status"] == "ok", "run %s: %s" % (run["status"], run["reason"])
    names = sorted(l["name"] for l in run["loads"])
    want = sorted(l["name"] for l in r["profile"]["loads"])
    assert names == want, "loads measured %s, profile has %s" % (names, want)
    for l in run["loads"]:
        assert l["tasks_seen"] >= 1, "load %s: no task seen" % l["name"]
s = r["summary"]
print("smoke summary: %s (%d pass, %d undecided)" % (s["verdict"], s["pass"], s["undecided"]))
assert s["verdict"] in ("pass", "undecided"), s
assert s["fail"] == 0 and s["skip"] == 0, s
assert s["pass"] + s["undecided"] == len(r["profile"]["expect"]), s
'
/usr/bin/python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" \
	"$out/result.json"
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || fail "result.json does not match the schema"
knobs_now > "$TMPDIR_TEST/knobs.after"
cmp -s "$TMPDIR_TEST/knobs.before" "$TMPDIR_TEST/knobs.after" ||
	{ diff "$TMPDIR_TEST/knobs.before" "$TMPDIR_TEST/knobs.after" >&2; fail "a sched knob changed"; }
[ ! -e "$STARVE_STATE_DIR/journal" ] || fail "a journal was left behind"
exit 0
