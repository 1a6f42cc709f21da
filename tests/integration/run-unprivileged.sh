#!/bin/sh
# An unprivileged run that changes nothing does not need root's journal
# (issue 10, 6): with a root-only state dir holding a journal, a plain
# user's run of a profile without knobs still runs (it used to exit 3,
# "cannot read journal ...: Permission denied").
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd setpriv
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
id nobody > /dev/null 2>&1 || skip "no user 'nobody'"
state="$TMPDIR_TEST/state"
mkdir -m 700 "$state"
printf 'starve-journal 2\npid 1 0 2026-01-01T00:00:00Z\n' > "$state/journal"
chmod 711 "$TMPDIR_TEST"
mkdir -m 777 "$TMPDIR_TEST/out"
STARVE_STATE_DIR="$state" setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$STARVE" run --quiet --repeat 1 --duration 200ms --warmup 0s -o "$TMPDIR_TEST/out" \
	"$top_srcdir/tests/profiles/run/quick.yaml" > "$TMPDIR_TEST/log" 2>&1
rc=$?
judged "$rc" || fail "the unprivileged run exited $rc: $(cat "$TMPDIR_TEST/log")"
grep -q "cannot read journal" "$TMPDIR_TEST/log" && fail "it still wanted root's journal"
[ -f "$state/journal" ] || fail "root's journal was touched"
