#!/bin/sh
# starve never waits for the kernel's random number generator: in a freshly
# booted qemu guest the CRNG is not ready for 30 s and more, and a read of
# /dev/urandom (jansson seeding its hash tables) or a getrandom() without
# GRND_NONBLOCK would wait for it. strace shows every such call of `starve
# env --json`, which builds JSON objects.
. "$top_srcdir/tests/lib.sh"
need_cmd strace
t=$TMPDIR_TEST
strace -f -o "$t/trace" -e trace=openat,open,getrandom "$STARVE" env --json > "$t/env.json" 2> "$t/err" ||
	fail "starve env under strace: $(cat "$t/err")"
jq -e '.kernel.release' "$t/env.json" >/dev/null || fail "starve env wrote no JSON"
! grep -q '/dev/u\?random' "$t/trace" || fail "starve opens a random device: $(grep random "$t/trace" | head -2)"
grep 'getrandom(' "$t/trace" | grep -v GRND_NONBLOCK > "$t/blocking"
[ ! -s "$t/blocking" ] || fail "a getrandom() that may wait: $(head -2 "$t/blocking")"
grep -q 'getrandom(.*GRND_NONBLOCK' "$t/trace" || fail "no non-blocking getrandom: is strace tracing?"
exit 0
