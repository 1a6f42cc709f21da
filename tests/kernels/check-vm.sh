#!/bin/sh
# check-vm.sh: what issue 13 asks of `starve vm`, on real kernels under qemu
# (`make check-vm`, not part of make check; TCG here, a few minutes):
#  1. Debian's 6.1 and 6.12 cloud kernels by alias with rt-throttle: each
#     kernel's verdicts (6.1 fails unthrottled, 6.12 passes, both decided
#     under TCG), a comparison that names the victim's change, never a
#     regression: exit 0 (an improvement) or 4 (undecided: the throttled
#     setting's rows may stay open at 3 runs under TCG); the summary says 6.1
#     failed its own expectations;
#  2. the same kernels as image files (vmlinuz and config taken from the
#     packages into a temporary directory): the same verdicts;
#  3. a damaged image, and a good one booted with --append init=/nonexistent:
#     each a clear error within the timeout, exit 3, no qemu left running;
#  4. a guest that panics after the first of two profiles: that profile's
#     result comes back.
# ACCEL=kvm|tcg|auto (default auto). Exit 0 pass, 1 fail, 77 no qemu.
. "$top_srcdir/tests/lib.sh"
need_cmd qemu-system-x86_64
need_cmd jq
command -v busybox >/dev/null || [ -x /bin/busybox ] || skip "needs busybox (apt-get install busybox-static)"
: "${ACCEL:=auto}"
t=$TMPDIR_TEST
step() { echo "== $* ($(date +%T))"; }
no_qemu_left() {
	! pgrep -f "qemu-system-x86_64 .*$t" >/dev/null || fail "qemu is still running after $1"
}
# verdicts DIR: "<label> <exit code> <unthrottled verdicts>" for each kernel, in kernel order
verdicts() {
	for r in "$1"/*/rt-throttle/result.json; do
		jq -r '"\(.vm.kernel) \(.summary.exit_code) " +
			([.runs[] | select(.setting == "unthrottled") | .verdicts[].verdict] | unique | join(","))' "$r"
	done
}

step "1. two kernels by alias"
t0=$(date +%s)
"$STARVE" vm -q --accel "$ACCEL" --kernel 6.1-cloud --kernel 6.12-cloud rt-throttle -o "$t/alias" \
	> "$t/alias.out" 2>&1
rc=$?
cat "$t/alias.out"
echo "-> exit $rc in $(($(date +%s) - t0)) s"
[ $rc = 0 ] || [ $rc = 4 ] ||
	fail "two kernels by alias: exit $rc, expected 0 (an improvement) or 4 (undecided)"
grep -q "^NO REGRESSION" "$t/alias.out" && fail "two kernels by alias: NO REGRESSION for a change"
grep -q "^6.1.0-[0-9]*-cloud-amd64  *FAIL  *boot" "$t/alias.out" || fail "the summary does not say 6.1 failed"
grep -q "FAIL      victim.starvation_max below 1.2s, unthrottled" "$t/alias.out" ||
	fail "6.1's failed unthrottled verdict is not printed"
verdicts "$t/alias" > "$t/alias.verdicts"
grep -qx "6.1-cloud 1 fail" "$t/alias.verdicts" || fail "6.1: $(cat "$t/alias.verdicts")"
grep -qx "6.12-cloud 0 pass" "$t/alias.verdicts" || fail "6.12: $(cat "$t/alias.verdicts")"
jq -e '[.rows[] | select(.setting == "unthrottled" and .load == "victim" and .metric == "starvation_max")
	| .compared[0].change_pct] | length == 1 and .[0] < -50' "$t/alias/compare-rt-throttle.json" >/dev/null ||
	fail "the comparison does not show the victim's starvation_max falling"
grep -q "unthrottled  victim  starvation_max .* -[0-9.]*%" "$t/alias.out" ||
	fail "the printed comparison does not name the victim's change"
no_qemu_left "two kernels by alias"

step "2. the same kernels as image files"
cache=${STARVE_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/starve/kernels}
set --
for r in "$t"/alias/*/rt-throttle/result.json; do
	d=$t/images/$(jq -r .vm.kernel "$r")
	mkdir -p "$d"
	cp "$(jq -r .vm.image "$r")" "$(jq -r .vm.config "$r")" "$d/" || fail "cannot copy the image of $r"
	set -- "$@" --kernel "$d/$(basename "$(jq -r .vm.image "$r")")"
done
"$STARVE" vm -q --accel "$ACCEL" "$@" rt-throttle -o "$t/files" > "$t/files.out" 2>&1
rc=$?
echo "-> exit $rc"
[ $rc = 0 ] || [ $rc = 4 ] || { cat "$t/files.out"; fail "two image files: exit $rc, expected 0 or 4"; }
for r in "$t"/files/*/rt-throttle/result.json; do
	jq -e '.vm.package == null and .vm.config_from == "beside the image"' "$r" >/dev/null ||
		fail "$r: not booted from an image file with its config beside it"
done
verdicts "$t/files" | sed 's|^[^ ]*/images/\([^/]*\)/[^ ]*|\1|' > "$t/files.verdicts"
diff -u "$t/alias.verdicts" "$t/files.verdicts" || fail "image files gave other verdicts than the packages"
no_qemu_left "two image files"

step "3. a damaged image, and init=/nonexistent"
img=$(ls "$t"/images/6.1-cloud/vmlinuz-*)
cp "$img" "$t/damaged.img"
dd if=/dev/zero of="$t/damaged.img" bs=1M seek=5 count=2 conv=notrunc 2>/dev/null
for case in damaged init; do
	if [ $case = damaged ]; then set -- --kernel "$t/damaged.img"; else set -- --kernel "$img" --append init=/nonexistent; fi
	t0=$(date +%s)
	"$STARVE" vm -q --accel "$ACCEL" --timeout 120s "$@" smoke -o "$t/$case" > "$t/$case.out" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	cat "$t/$case.out"
	echo "-> exit $rc in $took s"
	[ $rc = 3 ] || fail "$case: exit $rc, expected 3"
	[ $took -lt 120 ] || fail "$case: took $took s, past the timeout"
	[ "$(grep -c '^starve: error: kernel ' "$t/$case.out")" = 1 ] || fail "$case: not one error line naming the kernel"
	no_qemu_left "$case"
done
grep -q "the kernel halted while unpacking itself" "$t/damaged.out" || fail "the damaged image's error"
grep -q "  | .*System halted" "$t/damaged.out" || fail "the damaged image's console lines"
grep -q "init=/nonexistent" "$t/init.out" || fail "the init= error"

step "4. a panic after the first of two profiles"
"$STARVE" vm -q --accel "$ACCEL" --kernel 6.12-cloud --append starve_vm.crash_after=1 \
	--repeat 1 --duration 1s --warmup 0s "$top_srcdir/tests/profiles/run/quick.yaml" smoke \
	-o "$t/crash" > "$t/crash.out" 2>&1
rc=$?
cat "$t/crash.out"
[ $rc = 3 ] || fail "a guest that panicked: exit $rc, expected 3"
jq -e '.vm.label != null and (.runs | length) > 0' "$t"/crash/*/run-quick/result.json >/dev/null ||
	fail "the first profile's result did not come back"
grep -q "the kernel panicked running run-quick" "$t/crash.out" || fail "the panic is not named"
no_qemu_left "a panic"
exit 0
