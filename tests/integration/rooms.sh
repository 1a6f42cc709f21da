#!/bin/sh
# Every room has a README.md that matches its files: each room (lib, loads,
# reports, reports/*, harness/*) has one; it names every .c and .h file of
# the room (X.c or X.h: a pair is one concept); and every file it names as
# `NAME.c` or `NAME.h` exists in the room. A scratch tree with a room
# without a README, an unnamed file and a named file that is gone fails the
# same check.
. "$top_srcdir/tests/lib.sh"

# rooms_check DIR: each disagreement as a line on stdout
rooms_check() {
	(
	cd "$1" || exit 1
	for room in lib loads reports reports/*/ harness/*/; do
		room=${room%/}
		[ -d "$room" ] || continue
		readme=$room/README.md
		if [ ! -f "$readme" ]; then
			echo "$room: no README.md"
			continue
		fi
		for f in "$room"/*.[ch]; do
			[ -f "$f" ] || continue
			base=$(basename "$f"); stem=${base%.?}
			grep -q -e "$stem\\.c\\b" -e "$stem\\.h\\b" "$readme" ||
				echo "$readme: does not name $base"
		done
		for named in $(grep -o '`[a-z0-9_-]*\.[ch]`' "$readme" | tr -d '`' | sort -u); do
			[ -f "$room/$named" ] || echo "$readme: names $named, which is not in $room"
		done
	done
	)
}

rooms_check "$top_srcdir" >"$TMPDIR_TEST/out"
[ -s "$TMPDIR_TEST/out" ] && fail "READMEs and rooms disagree:
$(cat "$TMPDIR_TEST/out")"

t=$TMPDIR_TEST/tree
mkdir -p "$t/lib" "$t/harness/attic"
: >"$t/lib/kept.c"
: >"$t/lib/unnamed.c"
: >"$t/harness/attic/old.c"
printf 'Owns `kept.c` and `gone.h`.\n' >"$t/lib/README.md"
rooms_check "$t" >"$TMPDIR_TEST/out"
for want in "harness/attic: no README.md" "lib/README.md: does not name unnamed.c" \
	"lib/README.md: names gone.h, which is not in lib"; do
	grep -qxF "$want" "$TMPDIR_TEST/out" || fail "not found: '$want' in: $(cat "$TMPDIR_TEST/out")"
done
[ "$(wc -l <"$TMPDIR_TEST/out")" = 3 ] || fail "more than the planted faults: $(cat "$TMPDIR_TEST/out")"
exit 0
