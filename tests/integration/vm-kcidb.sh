#!/bin/sh
# starve vm --format kcidb: the KCIDB options are checked on the host before
# anything boots (a bad origin, one build id for two kernels: exit 2) and
# handed to `starve run` in the guest with the other run options (read back
# from the initramfs tests/vm/fake-qemu is given).
. "$top_srcdir/tests/lib.sh"
need_cmd cpio
t=$TMPDIR_TEST
profile=$top_srcdir/tests/profiles/run/quick.yaml
mkdir -p "$t/bin" "$t/tmp"
# qemu: keep the initramfs, then play the guest as vm-cli.sh's fake does
{
	echo '#!/bin/sh'
	echo 'prev='
	echo 'for a in "$@"; do [ "$prev" = -initrd ] && cp "$a" "$KEEP_INITRD"; prev=$a; done'
	echo "exec '$top_srcdir/tests/vm/fake-qemu' \"\$@\""
} > "$t/bin/qemu-system-x86_64"
chmod +x "$t/bin/qemu-system-x86_64"
PATH=$t/bin:$PATH STARVE_VM_BUSYBOX=/bin/sh STARVE_KERNEL_CACHE=$t/cache TMPDIR=$t/tmp \
	FAKE_QEMU_RESULTS=$top_srcdir/tests/compare KEEP_INITRD=$t/initrd
export PATH STARVE_VM_BUSYBOX STARVE_KERNEL_CACHE TMPDIR FAKE_QEMU_RESULTS KEEP_INITRD
# a file with the x86 boot header of a 64-bit bzImage (as vm-cli.sh makes it)
head -c 4096 /dev/zero > "$t/k.img"
for at in '0x1f1:\001' '0x1fe:\125\252' '0x202:HdrS\017\002' '0x20e:\000\001' '0x236:\001' \
	'0x300:6.99.0-fake #1\000' '0x1f4:\000\000\000\000'; do
	printf "${at#*:}" | dd of="$t/k.img" bs=1 seek=$((${at%%:*})) conv=notrunc 2>/dev/null
done

for bad in "--kcidb-origin Lab" "--kcidb-build-id nocolon" \
	"--kcidb-build-id lab:1 --kernel $t/k.img"; do
	"$STARVE" vm -q -o "$t/never" --kernel "$t/k.img" $bad "$profile" > /dev/null 2> "$t/err"
	rc=$?
	[ $rc = 2 ] || fail "starve vm $bad exited $rc, expected 2: $(cat "$t/err")"
	grep -q -- "--kcidb-" "$t/err" || fail "starve vm $bad: the error names no option: $(cat "$t/err")"
	[ ! -e "$t/never" ] && [ ! -e "$t/initrd" ] || fail "starve vm $bad went on"
done

"$STARVE" vm -q -o "$t/out" --accel tcg --kernel "$t/k.img" --format kcidb,lava \
	--kcidb-origin my_lab --kcidb-build-id 'maestro:abc 1' "$profile" > "$t/log" 2>&1 ||
	fail "starve vm with the KCIDB options: $(cat "$t/log")"
[ -s "$t/initrd" ] || fail "no initramfs reached qemu"
(cd "$t" && cpio -i --quiet --to-stdout vm/run-args < initrd) > "$t/run-args" ||
	fail "the initramfs has no vm/run-args"
tr '\n' '|' < "$t/run-args" |
	grep -q -- '--format|kcidb,lava|--kcidb-origin|my_lab|--kcidb-build-id|maestro:abc 1|' ||
	fail "the guest's run options lack the KCIDB ones: $(tr '\n' ' ' < "$t/run-args")"
exit 0
