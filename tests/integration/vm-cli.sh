#!/bin/sh
# starve vm without qemu: usage errors (exit 2, nothing started, no output
# directory), images that are not kernels (exit 3 before any boot), and the
# host side of a boot against tests/vm/fake-qemu, which plays a guest that
# sends results, a kernel that panics, qemu refusing to start, and a guest
# that hangs past --timeout (killed: nothing left running).
. "$top_srcdir/tests/lib.sh"
t=$TMPDIR_TEST
profile=$top_srcdir/tests/profiles/run/quick.yaml
mkdir -p "$t/bin"
ln -s "$(cd "$top_srcdir" && pwd)/tests/vm/fake-qemu" "$t/bin/qemu-system-x86_64"
mkdir -p "$t/tmp"
PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/cache TMPDIR=$t/tmp \
	FAKE_QEMU_LOG=$t/qemu.log FAKE_QEMU_RESULTS=$top_srcdir/tests/compare
export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE TMPDIR FAKE_QEMU_LOG FAKE_QEMU_RESULTS

# A file with the x86 boot header of a 64-bit bzImage: enough for starve vm
# to take it for a kernel (release 6.99.0-fake); the fake qemu boots it.
fake_image() {
	head -c 4096 /dev/zero > "$1"
	printf '\001' | dd of="$1" bs=1 seek=$((0x1f1)) conv=notrunc 2>/dev/null
	printf '\125\252' | dd of="$1" bs=1 seek=$((0x1fe)) conv=notrunc 2>/dev/null
	printf 'HdrS\017\002' | dd of="$1" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=$((0x20e)) conv=notrunc 2>/dev/null
	printf '\001' | dd of="$1" bs=1 seek=$((0x236)) conv=notrunc 2>/dev/null
	printf '6.99.0-fake #1\000' | dd of="$1" bs=1 seek=$((0x300)) conv=notrunc 2>/dev/null
	printf '\000\000\000\000' | dd of="$1" bs=1 seek=$((0x1f4)) conv=notrunc 2>/dev/null
}
fake_image "$t/base.img"
fake_image "$t/slower.img"
fake_image "$t/rt-old.img"
fake_image "$t/rt-new.img"

# usage: EXPECTED-MESSAGE ARGS...: exit 2 with the message, no output directory
usage() {
	want=$1; shift
	"$STARVE" vm -q -o "$t/never" "$@" > "$t/out" 2> "$t/err"
	rc=$?
	[ $rc = 2 ] || fail "starve vm $* exited $rc, expected 2: $(cat "$t/err")"
	grep -q -- "$want" "$t/err" || fail "starve vm $*: no '$want' in: $(cat "$t/err")"
	[ ! -e "$t/never" ] || fail "starve vm $* made its output directory"
}
usage "missing --kernel" "$profile"
usage "no profile given" --kernel "$t/base.img"
usage "--kernel 6.13-cloud: no such file" --kernel 6.13-cloud "$profile"
usage "--kernel $t/nosuch.img: no such file" --kernel "$t/nosuch.img" "$profile"
usage "2 --label for 1 --kernel" --kernel "$t/base.img" --label a --label b "$profile"
usage "'a' is given twice" --kernel "$t/base.img" --kernel "$t/slower.img" --label a --label a "$profile"
usage "a label names a directory" --kernel "$t/base.img" --label a/b "$profile"
usage "--kernel-config $t/nosuch.config" --kernel "$t/base.img" --kernel-config "$t/nosuch.config" "$profile"
usage "--memory lots" --kernel "$t/base.img" --memory lots "$profile"
usage "must be one of auto|kvm|tcg" --kernel "$t/base.img" --accel xen "$profile"
usage "--cpus" --kernel "$t/base.img" --cpus 0 "$profile"
usage "has no setting 'nosuch'" --kernel "$t/base.img" --only nosuch "$profile"
usage "pdf" --kernel "$t/base.img" --format pdf "$profile"
usage "--guest-script $t/nosuch.sh" --kernel "$t/base.img" --guest-script "$t/nosuch.sh" "$profile"
usage "cannot open profile" --kernel "$t/base.img" "$t/nosuch.yaml"
[ ! -e "$t/qemu.log" ] || fail "qemu was started for a usage error"

# Not kernels: exit 3 naming the kernel, before any boot.
head -c 4096 /dev/zero > "$t/zeros.img"
expect_exit 3 "$STARVE" vm -q -o "$t/o1" --kernel "$t/zeros.img" "$profile" 2> "$t/err"
grep -q "kernel zeros.img: .*zeros.img is not an x86 kernel image" "$t/err" || fail "$(cat "$t/err")"
head -c 2000 "$t/base.img" > "$t/cut.img"
printf '\377\377' | dd of="$t/cut.img" bs=1 seek=$((0x1f4)) conv=notrunc 2>/dev/null
expect_exit 3 "$STARVE" vm -q -o "$t/o1" --kernel "$t/cut.img" "$profile" 2> "$t/err"
grep -q "cut short: 2000 bytes, its header says 1049584" "$t/err" || fail "$(cat "$t/err")"
[ ! -e "$t/qemu.log" ] || fail "qemu was started for an image that is not a kernel"

# Two kernels whose guests send results: each kernel's directory, the vm
# header in result.json, the run options in the initramfs, and the
# comparison: slower.json has a regression against base.json, so exit 1.
"$STARVE" vm -q -o "$t/two" --kernel "$t/base.img" --kernel "$t/slower.img" --accel tcg \
	--cpus 3 --memory 512M --append "preempt=full" --repeat 2 --format markdown \
	"$profile" > "$t/out" 2> "$t/err"
rc=$?
cat "$t/out" "$t/err"
[ $rc = 1 ] || fail "two kernels with a regression: exit $rc, expected 1"
for l in 6.99.0-fake 6.99.0-fake#2; do
	[ -s "$t/two/$l/run-quick/result.json" ] || fail "no result of run-quick from $l"
	[ -s "$t/two/$l/dmesg.txt" ] || fail "no dmesg.txt from $l"
done
[ -s "$t/two/compare-run-quick.txt" ] && [ -s "$t/two/compare-run-quick.json" ] &&
	[ -s "$t/two/compare-run-quick.md" ] || fail "the comparison files are missing"
grep -q "regression" "$t/two/compare-run-quick.txt" || fail "the comparison found no regression"
jq -e --arg img "$t/slower.img" '.vm | .label == "6.99.0-fake#2" and .image == $img and
	.accel == "tcg" and .cpus == 3 and .memory == "512M" and .append == "preempt=full" and
	(.image_sha256 | length) == 64 and .qemu[0] == "qemu-system-x86_64" and
	.command_line[0:2] == ["starve", "vm"]' "$t/two/6.99.0-fake#2/run-quick/result.json" >/dev/null ||
	fail "the vm header is wrong: $(jq -c .vm "$t/two/6.99.0-fake#2/run-quick/result.json")"
grep -q "argv: .*-accel tcg .*-smp 3,sockets=1,cores=3,threads=1" "$t/qemu.log" ||
	fail "qemu's command line: $(grep argv "$t/qemu.log" | head -1)"
grep -q "append: console=ttyS0 .* preempt=full" "$t/qemu.log" || fail "the --append is not passed"
for f in init bin/starve bin/busybox vm/run-args libgcc_s.so.1; do
	grep -q "initramfs has $f" "$t/qemu.log" || fail "the initramfs has no $f"
done
grep -q "6.99.0-fake, tcg (--accel tcg)" "$t/out" || fail "the accelerator is not said"

# A baseline that fails its own expectations, and a kernel that passes them,
# one run each: no test confirms the flip, so the comparison is undecided,
# exit 4 (as starve compare on the same results), and the closing summary
# says which kernel failed its own expectations.
"$STARVE" vm -q -o "$t/better" --kernel "$t/rt-old.img" --kernel "$t/rt-new.img" --accel tcg \
	"$profile" > "$t/out" 2> "$t/err"
rc=$?
[ $rc = 4 ] || fail "an unconfirmed improvement, one run a side, exited $rc: $(cat "$t/out" "$t/err")"
grep -q "^UNDECIDED in rt-victim" "$t/out" || fail "the comparison does not say UNDECIDED"
# every format compare prints is a file, --format or not (reports/formats.h)
for ext in txt json xml md html; do
	[ -s "$t/better/compare-run-quick.$ext" ] || fail "no compare-run-quick.$ext: $(ls "$t/better")"
done
grep -q "^== kernels against their own expectations" "$t/out" || fail "no closing summary"
grep -q "^6.99.0-fake  *FAIL  *boot [0-9.]* s, first run at" "$t/out" ||
	fail "the failing baseline is not in the summary: $(sed -n '/^== kernels/,$p' "$t/out")"
grep -q "^6.99.0-fake#2  *pass " "$t/out" || fail "the passing kernel is not in the summary"
# One kernel: its own verdicts are the exit status, as starve run's.
expect_exit 1 "$STARVE" vm -q -o "$t/one" --kernel "$t/rt-old.img" --accel tcg "$profile" > "$t/out" 2>&1

# A shipped profile by name, from another directory: the installed one
# (make installcheck runs this test against the installed starve), else the
# source tree's.
[ "${STARVE_INSTALLCHECK:-}" = 1 ] || { STARVE_DATADIR=$top_srcdir; export STARVE_DATADIR; }
(cd "$t" && "$STARVE" vm -q -o "$t/named" --accel tcg --kernel "$t/base.img" smoke) > "$t/out" 2>&1 ||
	fail "starve vm ... smoke: $(cat "$t/out")"
[ -s "$t/named/6.99.0-fake/smoke/result.json" ] || fail "the shipped smoke profile was not found by name"
unset STARVE_DATADIR

# A panic: exit 3, the panic named and the console's end shown.
rm -f "$t/qemu.log"
FAKE_QEMU=panic expect_exit 3 "$STARVE" vm -q -o "$t/o2" --accel tcg --kernel "$t/base.img" \
	"$profile" 2> "$t/err"
grep -q "kernel 6.99.0-fake: the kernel panicked before starve's /init ran: Kernel panic - not syncing: fake panic" \
	"$t/err" || fail "$(cat "$t/err")"
grep -q "  | \[    0.5\] Kernel panic" "$t/err" || fail "no console lines: $(cat "$t/err")"
# A kernel that panics after the first of two profiles: that profile's
# result came back as it ended and is kept (with the vm header), the
# second has none, and the panic is named: exit 3.
FAKE_QEMU=crash expect_exit 3 "$STARVE" vm -q -o "$t/o7" --accel tcg --kernel "$t/base.img" \
	"$profile" "$top_srcdir/tests/profiles/run/knob-change.yaml" > "$t/out" 2> "$t/err"
jq -e '.vm.label == "6.99.0-fake"' "$t/o7/6.99.0-fake/run-knob-change/result.json" >/dev/null ||
	fail "the first profile's result was lost with the panic: $(ls -R "$t/o7")"
[ "$(ls "$t/o7/6.99.0-fake"/*/result.json | wc -l)" = 1 ] || fail "results of $(ls "$t/o7/6.99.0-fake")"
grep -q "no result of" "$t/err" || fail "the profile that never ran is not named: $(cat "$t/err")"
grep -q "the kernel panicked running .*: Kernel panic - not syncing: sysrq triggered crash" "$t/err" ||
	fail "the panic is not named: $(cat "$t/err")"
[ -s "$t/o7/6.99.0-fake/dmesg.txt" ] || fail "the dmesg sent with the first profile is lost"
# A profile that left a knob changed (its journal set aside in the guest):
# a warning names it and the reason, and the next profile still ran.
FAKE_QEMU=left "$STARVE" vm -q -o "$t/o8" --accel tcg --kernel "$t/base.img" \
	"$profile" "$top_srcdir/tests/profiles/run/knob-change.yaml" > "$t/out" 2> "$t/err" ||
	fail "a knob left changed in the guest: exit $?: $(cat "$t/err")"
grep -q "left the kernel changed: kernel.sched_rt_runtime_us: cannot restore '950000': Device or resource busy.*the next profile ran anyway" \
	"$t/err" || fail "no warning for the knob left changed: $(cat "$t/err")"
[ "$(ls "$t/o8/6.99.0-fake"/*/result.json | wc -l)" = 2 ] || fail "the next profile has no result"
jq -e '.vm.knobs_left | contains("Device or resource busy")' "$t/o8/6.99.0-fake/run-knob-change/result.json" \
	>/dev/null || fail "result.json does not say what was left changed"
jq -e '.vm.knobs_left == null' "$t/o8/6.99.0-fake/run-quick/result.json" >/dev/null ||
	fail "the profile that left nothing changed has a knobs_left"
grep -q "1 profile left knobs changed (run-knob-change: kernel.sched_rt_runtime_us: cannot restore '950000': Device or resource busy" \
	"$t/out" || fail "the summary does not name the knob left changed: $(grep -A2 "own expectations" "$t/out")"

# qemu refusing: exit 3 with its own words; the other kernel still runs.
FAKE_QEMU=exit expect_exit 3 "$STARVE" vm -q -o "$t/o3" --accel tcg --kernel "$t/base.img" \
	--kernel "$t/zeros.img" "$profile" 2> "$t/err"
grep -q "qemu stopped (status 1) before starve's /init ran: .*fake refusal" "$t/err" ||
	fail "$(cat "$t/err")"
grep -q "kernel zeros.img" "$t/err" || fail "the second kernel was not tried: $(cat "$t/err")"

# A hang: --timeout ends it, exit 3, and the qemu process is gone.
t0=$(date +%s)
FAKE_QEMU=hang expect_exit 3 "$STARVE" vm -q -o "$t/o4" --accel tcg --timeout 2s \
	--kernel "$t/base.img" "$profile" 2> "$t/err"
[ $(($(date +%s) - t0)) -lt 20 ] || fail "the timeout took $(($(date +%s) - t0)) s"
grep -q "no word from starve's /init within 2 s (--timeout)" "$t/err" || fail "$(cat "$t/err")"
pid=$(cat "$t/qemu.log.pid")
! kill -0 "$pid" 2>/dev/null || { kill "$pid"; fail "qemu (pid $pid) outlived starve vm"; }

# hanging_vm DIR: starve vm in the background (its PID in $vm) with a guest
# that hangs, once the fake qemu has started (its PID in $pid).
hanging_vm() {
	rm -f "$t/qemu.log.pid"
	FAKE_QEMU=hang "$STARVE" vm -q -o "$1" --accel tcg --kernel "$t/base.img" "$profile" \
		2> "$t/err" &
	vm=$!
	i=0
	while [ ! -s "$t/qemu.log.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	pid=$(cat "$t/qemu.log.pid")
}

# SIGINT (^C) during a boot: exit 3, qemu killed, nothing left behind.
hanging_vm "$t/o5"
kill -INT $vm
wait $vm
rc=$?
[ $rc = 3 ] || fail "starve vm interrupted exited $rc, expected 3"
grep -q "kernel 6.99.0-fake: interrupted" "$t/err" || fail "$(cat "$t/err")"
! kill -0 "$pid" 2>/dev/null || { kill "$pid"; fail "qemu (pid $pid) outlived an interrupted starve vm"; }
[ -z "$(ls "$t/tmp")" ] || fail "starve vm left its work directory: $(ls "$t/tmp")"

# SIGKILL of starve vm: qemu dies with it (PR_SET_PDEATHSIG).
hanging_vm "$t/o6"
kill -KILL $vm
wait $vm 2>/dev/null
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
! kill -0 "$pid" 2>/dev/null || { kill "$pid"; fail "qemu (pid $pid) outlived a killed starve vm"; }
exit 0
