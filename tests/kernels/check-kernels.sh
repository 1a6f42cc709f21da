#!/bin/sh
# check-kernels.sh: starve's kernel-dependent behaviour on other kernels, run
# through `starve vm` (doc/kernels.md): one guest per kernel runs
# kernel-test.yaml, smoke and rt-throttle (one repetition of 3 s each
# setting) and crash.sh; check-kernel.sh judges each kernel's directory
# against its own config, and the comparison of kernel-test across the
# kernels must match them by setting. Not part of make check
# (`make check-kernels`): it fetches Debian kernel packages into
# $STARVE_KERNEL_CACHE and boots them under qemu (TCG here: about 60 s
# a kernel). KERNELS picks them (default 6.1-cloud 6.12-cloud 6.1-rt
# 6.12-rt); ACCEL=kvm|tcg|auto; results stay in $STARVE_KERNEL_OUT (default
# ./kernels-out). Every kernel is judged, whatever starve vm's exit and
# whatever another kernel did. Exit: 0 all pass, 1 a check failed, 77 qemu
# or busybox missing. Shell and jq only.
set -u
: "${STARVE:=./starve}" "${top_srcdir:=$(dirname "$0")/../..}"
: "${KERNELS:=6.1-cloud 6.12-cloud 6.1-rt 6.12-rt}" "${STARVE_KERNEL_OUT:=kernels-out}"
: "${ACCEL:=auto}"
kdir=$top_srcdir/tests/kernels
skip() { echo "SKIP: $*" >&2; exit 77; }
command -v qemu-system-x86_64 >/dev/null || skip "needs qemu-system-x86_64 (apt-get install qemu-system-x86)"
command -v busybox >/dev/null || [ -x /bin/busybox ] || skip "needs busybox (apt-get install busybox-static)"
command -v jq >/dev/null || skip "needs jq"

set --
for k in $KERNELS; do set -- "$@" --kernel "$k"; done
rm -rf "$STARVE_KERNEL_OUT"
t0=$(date +%s)
"$STARVE" vm "$@" -o "$STARVE_KERNEL_OUT" --accel "$ACCEL" --guest-script "$kdir/crash.sh" \
	--repeat 1 --duration 3s --warmup 500ms \
	"$kdir/kernel-test.yaml" "$top_srcdir/profiles/smoke.yaml" "$top_srcdir/profiles/rt-throttle.yaml" \
	> "$STARVE_KERNEL_OUT.log" 2>&1
rc=$?
n=$(echo $KERNELS | wc -w)
echo "starve vm: exit $rc after $(($(date +%s) - t0)) s for $n kernels (log: $STARVE_KERNEL_OUT.log)"
# 4 is expected: across kernels the exit is the comparison's, and with one
# run a side it is undecided (never "no regression"); 6.1 failing
# rt-throttle where 6.12 passes is no regression either. Any other status
# (1 a regression, 3 a kernel not tested) is a failure, but every kernel is
# still judged below.
failed=0
[ $rc = 4 ] || { echo "FAIL starve vm exited $rc"; grep "error:" "$STARVE_KERNEL_OUT.log" | head -8; failed=1; }

for d in "$STARVE_KERNEL_OUT"/*/; do
	d=${d%/}
	label=$(basename "$d")
	if sh "$kdir/check-kernel.sh" "$d"; then
		echo "PASS $label ($(jq -r '.vm | "\(.accel), \(.channel): boot \(.boot_s * 10 | floor / 10) s, first run at \(.first_run_s * 10 | floor / 10) s, \(.lifetime_s | floor) s in all"' "$d/kernel-test/result.json"))"
	else
		failed=1
	fi
done
[ "$(ls -d "$STARVE_KERNEL_OUT"/*/ 2>/dev/null | wc -l)" = "$n" ] ||
	{ echo "FAIL $n kernels asked, $(ls -d "$STARVE_KERNEL_OUT"/*/ | wc -l) directories"; failed=1; }

# The comparison of kernel-test reads every kernel, labelled by release in
# order, and matches the runs by setting.
if [ "$n" -ge 2 ]; then
	cmp=$STARVE_KERNEL_OUT/compare-kernel-test.json
	labels=$(for d in "$STARVE_KERNEL_OUT"/*/; do jq -r .vm.label "$d/kernel-test/result.json"; done | sort | tr '\n' ' ')
	if jq -e --arg labels "$labels" '([.columns[].label] | sort | join(" ")) + " " == $labels and
		([.rows[].setting] | index("base") != null and index("rt-runtime") != null)' "$cmp" >/dev/null; then
		echo "PASS the comparison of kernel-test across $n kernels ($STARVE_KERNEL_OUT/compare-kernel-test.txt)"
	else
		echo "FAIL the comparison $cmp: labels or settings do not match"
		failed=1
	fi
fi
exit $failed
