#!/bin/sh
# starve vm --until-decided against tests/vm/fake-qemu (no kernel boots; a
# guest sends tests/compare/base.json, or marginal.json for an image named
# "marginal", whose probe's wakeup_p99 is p_holm 0.020 at 5 runs a side, one-
# sided): --max-repeat 15 over 5 runs a boot plans 3 looks at alpha 0.0167
# each, so the slower kernel is undecided after its first boot, boots again
# after the first kernel, and is a regression at 10 runs against 10 (exit 1);
# the unchanged kernel is decided the same (equivalent) at once and boots
# once. The looks are
# the ones starve bisect uses (reports/compare/compare-looks.c).
. "$top_srcdir/tests/lib.sh"
t=$TMPDIR_TEST
top=$(cd "$top_srcdir" && pwd)
profile=$top/tests/profiles/run/quick.yaml
mkdir -p "$t/bin" "$t/tmp" "$t/img"
ln -s "$top/tests/vm/fake-qemu" "$t/bin/qemu-system-x86_64"
PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/cache TMPDIR=$t/tmp \
	FAKE_QEMU_LOG=$t/qemu.log FAKE_QEMU_RESULTS=$top/tests/compare
export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE TMPDIR FAKE_QEMU_LOG FAKE_QEMU_RESULTS
"$top/tests/vm/make-fake-image" "$t/img/k1-base.img" 6.99.1
"$top/tests/vm/make-fake-image" "$t/img/k2-marginal.img" 6.99.2
"$top/tests/vm/make-fake-image" "$t/img/k3-base.img" 6.99.3
boots() { grep -c '^argv:' "$t/qemu.log" 2>/dev/null || echo 0; }

"$STARVE" vm --until-decided --max-repeat 15 -q -o "$t/out" --kernel "$t/img/k1-base.img" \
	--kernel "$t/img/k2-marginal.img" --kernel "$t/img/k3-base.img" "$profile" > "$t/stdout" 2>&1
rc=$?
cat "$t/stdout"
[ $rc = 1 ] || fail "--until-decided: exit $rc, expected 1 (a regression)"
grep -q "^  6\.99\.2: .* (undecided: interval past the margin), 5 runs against 5: look 2 of 3$" \
	"$t/stdout" ||
	fail "the second look of the undecided kernel is not said"
grep -Eq "^6\.99\.2 +regression +10 runs in 2 looks: probe wakeup_p99 .*, 10 runs against 10$" \
	"$t/stdout" || fail "the slower kernel: not changed at 10 runs against 10"
grep -Eq "^6\.99\.3 +no regression +5 runs in 1 look: " "$t/stdout" ||
	fail "the unchanged kernel: not decided the same at its first look"
grep -Eq "^6\.99\.1 +10 runs in 2 looks \(the baseline\)$" "$t/stdout" ||
	fail "the first kernel did not boot again beside the look"
[ "$(boots)" = 5 ] || fail "$(boots) boots, expected 5 (three, then the first and the slower)"
ls "$t/out/6.99.2-look2"/*/result.json >/dev/null 2>&1 || fail "no result of the second look"
[ -d "$t/out/6.99.3-look2" ] && fail "the decided kernel booted again"

# with --max-repeat 5 there is one look, at alpha: the same as without
"$STARVE" vm --until-decided --max-repeat 5 -q -o "$t/one" --kernel "$t/img/k1-base.img" \
	--kernel "$t/img/k3-base.img" "$profile" > "$t/stdout" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$t/stdout"; fail "one look, two same kernels: exit $rc, expected 0"; }
grep -q "alpha 0.05 spent over 1 planned look " "$t/stdout" || fail "$(cat "$t/stdout")"

expect_exit 2 "$STARVE" vm --until-decided --kernel "$t/img/k1-base.img" "$profile" 2> "$t/err"
grep -q "two or more" "$t/err" || fail "$(cat "$t/err")"
exit 0
