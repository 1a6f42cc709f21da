#!/bin/sh
# profiles/known/: every profile checks, `starve list` shows it, `starve
# check NAME` finds it by name as it finds profiles/ (and as known/NAME, the
# folder `starve list` shows, away from the source too), and its header names
# its source, its kernels, the expectation that separates the sides and what
# was measured (doc/known-regressions.md).
. "$top_srcdir/tests/lib.sh"
n=0
for p in "$top_srcdir"/profiles/known/*.yaml; do
	name=$(basename "$p" .yaml)
	"$STARVE" check "$p" > /dev/null || fail "$p does not check"
	(cd "$top_srcdir" && "$STARVE" check "$name") > "$TMPDIR_TEST/out" 2>&1 ||
		fail "starve check $name does not find profiles/known/$name.yaml: $(cat "$TMPDIR_TEST/out")"
	grep -q "^$name: ok" "$TMPDIR_TEST/out" ||
		fail "starve check $name: $(cat "$TMPDIR_TEST/out")"
	(cd "$TMPDIR_TEST" && STARVE_DATADIR="$top_srcdir" "$STARVE" check "known/$name") \
		>"$TMPDIR_TEST/out" 2>&1 ||
		fail "starve check known/$name does not find it: $(cat "$TMPDIR_TEST/out")"
	(cd "$top_srcdir" && "$STARVE" list) | grep -q "^    \./profiles/known/$name.yaml$" ||
		fail "starve list does not show profiles/known/$name.yaml"
	for word in "Source" "Kernels" "Expectation that separates" "Measured"; do
		sed -n '/^[^#]/q;p' "$p" | grep -q "^# $word" ||
			fail "$p: its header has no '# $word' paragraph"
	done
	grep -q "$name" "$top_srcdir/doc/known-regressions.md" ||
		fail "doc/known-regressions.md does not mention $name"
	n=$((n + 1))
done
[ "$n" -ge 4 ] || fail "only $n profiles under profiles/known (want at least 4)"
exit 0
