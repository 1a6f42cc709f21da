#!/bin/sh
# starve build on a fake kernel tree (a Makefile that writes a .config and a
# bzImage, a merge_config.sh, a Kconfig), in seconds: a build is cached by
# commit and asked again builds nothing; TREE@REV builds in a worktree that
# is gone after; a dirty tree is built, not cached; the user's tree is never
# written; bad input exits 2, a build error 3 with the compiler's line and
# the log; an option olddefconfig dropped is named with its reason; ^C ends
# make's whole group and leaves nothing in the cache; two requests at once
# build once; --list and --clean.
. "$top_srcdir/tests/lib.sh"
need_cmd git
need_cmd make
need_cmd gcc

tree=$TMPDIR_TEST/linux
cache=$TMPDIR_TEST/cache
count=$TMPDIR_TEST/builds
STARVE_BUILD_CACHE=$cache FAKE_BUILD_COUNT=$count
export STARVE_BUILD_CACHE FAKE_BUILD_COUNT
"$top_srcdir/tests/vm/make-fake-tree" "$tree" || fail "cannot make the fake tree"
git -C "$tree" init -q && git -C "$tree" add . &&
	git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m 'first' || fail "git"
commit() {	# commit MESSAGE: what the tree holds now
	git -C "$tree" add . && git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m "$1"
}
echo 'two' >"$tree/kernel/sched/fair.c"
commit 'second'
builds() { [ -f "$count" ] && wc -l <"$count" | tr -d ' ' || echo 0; }
build() { "$STARVE" build --quiet "$@" >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err"; }

# bad input: exit 2, a clear message, nothing built
expect_exit 2 build "$TMPDIR_TEST"
grep -q "is not a kernel tree" "$TMPDIR_TEST/err" || fail "not a tree: $(cat "$TMPDIR_TEST/err")"
expect_exit 2 build "$tree@nosuchrev"
grep -q "unknown revision 'nosuchrev'" "$TMPDIR_TEST/err" || fail "rev: $(cat "$TMPDIR_TEST/err")"
printf 'CONFIG_A=y\nCONFIG_B=maybe\n' >"$TMPDIR_TEST/bad.config"
expect_exit 2 build --fragment "$TMPDIR_TEST/bad.config" "$tree"
grep -q "bad.config:2:10: CONFIG_B: value 'maybe'" "$TMPDIR_TEST/err" ||
	fail "fragment: $(cat "$TMPDIR_TEST/err")"
expect_exit 2 build --base "$TMPDIR_TEST/none.config" "$tree"
[ "$(builds)" = 0 ] || fail "bad input built something"

# a build, then the same request again: no build, the same image at once
expect_exit 0 build "$tree"
image=$(cat "$TMPDIR_TEST/out")
case $image in "$cache"/*/bzImage) ;; *) fail "image not in the cache: $image" ;; esac
[ "$(cat "$image")" = two ] || fail "the image is not HEAD's"
grep -qx 'CONFIG_UNIX=y' "$(dirname "$image")/config-starve" || fail "no config beside the image"
expect_exit 0 build "$tree"
[ "$(cat "$TMPDIR_TEST/out")" = "$image" ] || fail "a second request gave another image"
grep -q "cached" "$TMPDIR_TEST/err" || fail "not said to be cached: $(cat "$TMPDIR_TEST/err")"
[ "$(builds)" = 1 ] || fail "a cached request built again ($(builds) builds)"
[ ! -e "$tree/.config" ] && [ -z "$(git -C "$tree" status --porcelain)" ] ||
	fail "the user's tree was written: $(git -C "$tree" status --porcelain)"

# TREE@REV: the older commit, in a worktree removed afterwards; another key
expect_exit 0 build "$tree@HEAD~1"
[ "$(cat "$(cat "$TMPDIR_TEST/out")")" = one ] || fail "TREE@HEAD~1 did not build 'first'"
[ "$(git -C "$tree" worktree list | wc -l)" = 1 ] || fail "the worktree was left behind"
[ "$(builds)" = 2 ] || fail "TREE@REV: $(builds) builds"
# another base is another key
expect_exit 0 build --base defconfig "$tree"
grep -qx 'CONFIG_BASE_defconfig=y' "$(dirname "$(cat "$TMPDIR_TEST/out")")/config-starve" ||
	fail "--base defconfig was not the base"
[ "$(builds)" = 3 ] || fail "--base defconfig: $(builds) builds"

# a dirty tree is built but not cached, and says so
echo 'three' >"$tree/kernel/sched/fair.c"
expect_exit 0 build "$tree"
grep -q "has uncommitted changes: built but not cached" "$TMPDIR_TEST/err" ||
	fail "dirty: $(cat "$TMPDIR_TEST/err")"
[ "$(cat "$(cat "$TMPDIR_TEST/out")")" = three ] || fail "the dirty tree's image is not its own"
commit 'third'

# a build error: the compiler's line and the log, exit 3, no entry
: >"$tree/broken"
commit 'broken'
entries() { ls "$cache" | grep -c '^[0-9a-f]\{64\}$'; }
before=$(entries)
expect_exit 3 build "$tree"
grep -q 'fair.c:3:1: error: expected' "$TMPDIR_TEST/err" || fail "no error line: $(cat "$TMPDIR_TEST/err")"
grep -q 'the whole log: .*starve-build.log' "$TMPDIR_TEST/err" || fail "no log path"
[ "$(entries)" = "$before" ] || fail "a failed build left an entry"
rm "$tree/broken"
commit 'fixed'

# an option olddefconfig dropped: named with its reason, exit 3 unless allowed
printf '# CONFIG_NET is not set\nCONFIG_UNIX=y\n' >"$TMPDIR_TEST/nonet.config"
expect_exit 3 build --fragment "$TMPDIR_TEST/nonet.config" "$tree"
grep -q "CONFIG_UNIX=y (.*nonet.config:2): dropped by olddefconfig; depends on NET (unmet: NET)" \
	"$TMPDIR_TEST/err" || fail "missing option: $(cat "$TMPDIR_TEST/err")"
[ "$(entries)" = "$before" ] || fail "a refused build left an entry"
expect_exit 0 build --allow-missing --fragment "$TMPDIR_TEST/nonet.config" "$tree"
grep -q "did not survive olddefconfig" "$TMPDIR_TEST/err" || fail "no warning with --allow-missing"

# ^C in the middle of make: its whole group ends, nothing half in the cache
echo 'four' >"$tree/kernel/sched/fair.c"
commit 'fourth'
before=$(entries)
FAKE_BUILD_SLOW=31.4159 "$STARVE" build --quiet "$tree" >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err" &
pid=$!
for i in $(seq 50); do pgrep -f 'sleep 31.4159' >/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid; rc=$?
[ "$rc" = 3 ] || fail "^C: exit $rc, expected 3: $(cat "$TMPDIR_TEST/err")"
grep -q "interrupted" "$TMPDIR_TEST/err" || fail "^C not said: $(cat "$TMPDIR_TEST/err")"
sleep 0.2
! pgrep -f 'sleep 31.4159' >/dev/null || fail "make's children outlived ^C"
[ "$(entries)" = "$before" ] && ! ls "$cache" | grep -q '^tmp-' || fail "^C left a half entry: $(ls "$cache")"
[ "$(git -C "$tree" worktree list | wc -l)" = 1 ] || fail "^C left a worktree"

# two requests for the same commit at once: one builds, the other (whichever
# takes the tree's lock second) waits for it and finds its image
before=$(builds)
FAKE_BUILD_SLOW=1 "$STARVE" build --quiet "$tree" >"$TMPDIR_TEST/out1" 2>"$TMPDIR_TEST/err1" &
pid=$!
sleep 0.3
expect_exit 0 "$STARVE" build --quiet "$tree" >"$TMPDIR_TEST/out2" 2>"$TMPDIR_TEST/err2"
wait $pid || fail "the first of two builds failed: $(cat "$TMPDIR_TEST/err1")"
[ "$(cat "$TMPDIR_TEST/out1")" = "$(cat "$TMPDIR_TEST/out2")" ] || fail "two images for one commit"
[ "$(builds)" = $((before + 1)) ] || fail "two builds of one commit ($before -> $(builds))"
cat "$TMPDIR_TEST/err1" "$TMPDIR_TEST/err2" | grep -q "waiting for another starve build" ||
	fail "neither waited for the other"

# --list names each kernel; --clean removes one, then all
expect_exit 0 "$STARVE" build --list >"$TMPDIR_TEST/list"
[ "$(wc -l <"$TMPDIR_TEST/list")" = "$(entries)" ] || fail "--list: $(cat "$TMPDIR_TEST/list")"
grep -q "$tree@.* second .*base tinyconfig" "$TMPDIR_TEST/list" || fail "--list: $(cat "$TMPDIR_TEST/list")"
key=$(head -1 "$TMPDIR_TEST/list" | cut -d' ' -f1)
n=$(entries)
expect_exit 0 "$STARVE" build --clean "$key" >/dev/null
[ "$(entries)" = $((n - 1)) ] || fail "--clean KEY did not remove one entry"
expect_exit 2 "$STARVE" build --clean 0123456789 2>/dev/null
expect_exit 0 "$STARVE" build --clean all >/dev/null
[ -z "$(ls "$cache")" ] || fail "--clean all left $(ls "$cache")"
exit 0
