#!/bin/sh
# starve bisect --git TREE --good A --bad B: the kernels are A and every
# commit after it up to B along first parents, in order, each TREE@SHA (which
# starve vm builds with starve build), each with its subject; --list shows
# them without building or booting anything. Bad input exits 2.
. "$top_srcdir/tests/lib.sh"
need_cmd git

tree=$TMPDIR_TEST/linux
mkdir -p "$tree"
git -C "$tree" init -q || fail "git init"
for i in 0 1 2 3 4 5 6 7 8; do
	echo "$i" >"$tree/file"
	git -C "$tree" add file &&
		git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m "change $i" || fail "commit"
done
# a side branch merged in: its commit is not a step of its own
git -C "$tree" checkout -q -b side HEAD~1 && echo side >"$tree/side" && git -C "$tree" add side &&
	git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m "side change" &&
	git -C "$tree" checkout -q - &&
	git -C "$tree" -c user.name=t -c user.email=t@t merge -q --no-ff -m "merge side" side ||
	fail "merge"
real=$(cd "$tree" && pwd -P)

expect_exit 0 "$STARVE" bisect --git "$tree" --good HEAD~9 --bad HEAD --list smoke >"$TMPDIR_TEST/list"
[ "$(wc -l <"$TMPDIR_TEST/list")" = 10 ] || fail "not 10 kernels: $(cat "$TMPDIR_TEST/list")"
sed -n 1p "$TMPDIR_TEST/list" | grep -q "^$real@$(git -C "$tree" rev-parse HEAD~9) (--good)$" ||
	fail "the first kernel is not --good: $(sed -n 1p "$TMPDIR_TEST/list")"
sed -n 2p "$TMPDIR_TEST/list" | grep -q "^$real@[0-9a-f]\{40\} change 1$" ||
	fail "the second kernel: $(sed -n 2p "$TMPDIR_TEST/list")"
tail -1 "$TMPDIR_TEST/list" | grep -q "^$real@$(git -C "$tree" rev-parse HEAD) merge side$" ||
	fail "the last kernel is not --bad: $(tail -1 "$TMPDIR_TEST/list")"
! grep -q "side change" "$TMPDIR_TEST/list" || fail "a merged branch's commit was a step"

expect_exit 2 "$STARVE" bisect --git "$tree" --good nosuch --bad HEAD --list smoke 2>"$TMPDIR_TEST/err"
grep -q -- "--good nosuch: no such commit" "$TMPDIR_TEST/err" || fail "$(cat "$TMPDIR_TEST/err")"
expect_exit 2 "$STARVE" bisect --git "$tree" --good HEAD --bad HEAD~3 --list smoke 2>"$TMPDIR_TEST/err"
grep -q "is not an ancestor of --bad" "$TMPDIR_TEST/err" || fail "$(cat "$TMPDIR_TEST/err")"
expect_exit 2 "$STARVE" bisect --git "$tree" --good HEAD~1 --list smoke 2>/dev/null
expect_exit 2 "$STARVE" bisect --git "$tree" --good HEAD~1 --bad HEAD --kernel 6.1 --list smoke \
	2>/dev/null
expect_exit 2 "$STARVE" bisect --list smoke 2>/dev/null

# The whole search over a fake kernel tree (tests/vm/make-fake-tree) booted
# by tests/vm/fake-qemu: 8 commits after the good one, the planted one (its
# release says "slower": the guest sends a slower result) fourth, one before
# it that does not build. The planted commit is named with its subject, the
# broken one skipped; killed with SIGKILL while the planted commit boots,
# --resume gives the same answer from the log, booting only what the log
# lacks and building nothing (the cache holds every commit built before).
t=$TMPDIR_TEST
top=$(cd "$top_srcdir" && pwd)
mkdir -p "$t/bin" "$t/tmp"
cat >"$t/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
prev=
for a in "\$@"; do [ "\$prev" = -kernel ] && k=\$a; prev=\$a; done
[ -e "$t/hang" ] && grep -qa "6.99.4-slower" "\$k" && export FAKE_QEMU=hang
exec "$top/tests/vm/fake-qemu" "\$@"
EOS
chmod +x "$t/bin/qemu-system-x86_64"
PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/kcache TMPDIR=$t/tmp \
	FAKE_QEMU_LOG=$t/qemu.log FAKE_QEMU_RESULTS=$top/tests/compare \
	STARVE_BUILD_CACHE=$t/bcache FAKE_BUILD_COUNT=$t/builds
export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE TMPDIR FAKE_QEMU_LOG FAKE_QEMU_RESULTS \
	STARVE_BUILD_CACHE FAKE_BUILD_COUNT
k=$t/kernel
"$top/tests/vm/make-fake-tree" "$k" || fail "cannot make the fake tree"
commit() {
	git -C "$k" add -A . && git -C "$k" -c user.name=t -c user.email=t@t commit -q -m "$1" ||
		fail "commit $1"
}
git -C "$k" init -q
echo 6.99.0-base >"$k/release"; commit "good"
echo 6.99.1-base >"$k/release"; commit "harmless 1"
echo 6.99.2-base >"$k/release"; : >"$k/broken"; commit "does not build"
echo 6.99.3-base >"$k/release"; rm "$k/broken"; commit "harmless 3"
echo 6.99.4-slower >"$k/release"; commit "sched: the planted change"
for i in 5 6 7 8; do echo "6.99.$i-slower" >"$k/release"; commit "harmless $i"; done
kreal=$(cd "$k" && pwd -P)
planted=$(git -C "$k" rev-parse HEAD~4)
profile=$top/tests/profiles/run/quick.yaml
boots() { grep -c '^argv:' "$t/qemu.log" 2>/dev/null || echo 0; }
builds() { wc -l <"$t/builds" 2>/dev/null | tr -d ' ' || echo 0; }

"$STARVE" bisect -o "$t/out" --git "$k" --good HEAD~8 --bad HEAD "$profile" -- --accel tcg \
	>"$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "bisect --git: exit $rc, expected 1"
grep -q "^first bad: $kreal@$planted (sched: the planted change)$" "$t/stdout" ||
	fail "the planted commit was not named"
grep -q "^step .*: kernel 3/9 .*: cannot be tested, skipped: .*cannot build .*bzImage failed" \
	"$t/stdout" || fail "the commit that does not build was not skipped"
[ "$(boots)" -le 5 ] || fail "$(boots) boots for 9 kernels, expected at most 5"
echo "bisect --git: $(boots) boots, $(builds) builds"

# SIGKILL while the planted commit boots, then --resume: the same answer
rm -f "$t/qemu.log"
: >"$t/hang"
"$STARVE" bisect -o "$t/res" --git "$k" --good HEAD~8 --bad HEAD "$profile" -- --accel tcg \
	>"$t/stdout" 2>&1 &
pid=$!
for _ in $(seq 300); do [ "$(boots)" -ge 3 ] && break; sleep 0.1; done
[ "$(boots)" -ge 3 ] || { kill -9 $pid; fail "the planted commit never booted"; }
sleep 0.5
kill -9 $pid
wait $pid 2>/dev/null
[ -s "$t/qemu.log.pid" ] && kill -0 "$(cat "$t/qemu.log.pid")" 2>/dev/null &&
	{ sleep 2; kill -0 "$(cat "$t/qemu.log.pid")" 2>/dev/null && kill -9 "$(cat "$t/qemu.log.pid")"; }
rm -f "$t/hang"
before=$(builds)
"$STARVE" bisect --resume "$t/res" >"$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "--resume: exit $rc, expected 1"
grep -q "^first bad: $kreal@$planted (sched: the planted change)$" "$t/stdout" ||
	fail "--resume named another commit"
[ "$(builds)" = "$before" ] || fail "--resume built again what was cached ($before -> $(builds))"
grep -q "^3 boots, 2 steps from the log$" "$t/stdout" || fail "--resume booted what the log held"
exit 0
