#!/bin/sh
# run-kernel.sh KERNEL OUTDIR [PROFILE.yaml...]: boot a Debian kernel under
# qemu (TCG) with an initramfs holding busybox, the starve binary, its
# shared libraries and the profiles (default: tests/kernels/profiles.list); the
# guest's /init runs starve and sends back its files, unpacked into OUTDIR
# (env-before.json, env-after.json, <profile>/result.json, knobs-*.txt,
# status, logs; package, release and config of the kernel).
# KERNEL: 6.1-cloud, 6.12-cloud, 6.1-rt, 6.12-rt or a linux-image-* package.
# Environment: STARVE (the binary), STARVE_KERNEL_CACHE, STARVE_KERNEL_TIMEOUT.
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || kfail "usage: run-kernel.sh KERNEL OUTDIR [PROFILE.yaml...]"
kernel=$1 out=$2
shift 2
top=$KDIR/../..
: "${STARVE:=./starve}"
[ -x "$STARVE" ] || kfail "no starve binary at '$STARVE' (set STARVE)"
missing=$(kernel_missing)
[ -z "$missing" ] || kfail "$missing"

pkg=$(kernel_package "$kernel")
[ -n "$pkg" ] || kfail "no package for '$kernel' (apt-get update?)"
kdir=$(kernel_fetch "$pkg") || exit 1
release=$(cat "$kdir/release")

# The initramfs: a root with busybox, starve and every library ldd names.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/bin" "$root/boot" "$root/profiles" "$root/usr/share/starve/profiles" \
	"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" || exit 1
cp /bin/busybox "$root/bin/busybox" && cp "$STARVE" "$root/bin/starve" &&
	cp "$KDIR/init" "$root/init" && chmod 755 "$root/init" || kfail "cannot fill $root"
for lib in $(ldd "$STARVE" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
	mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || kfail "cannot copy $lib"
done
[ -e "$root/lib64" ] || ln -s lib "$root/lib64" 2>/dev/null
cp "$kdir/config" "$root/boot/config-$release"
# Each profile with its `starve run` options in /profiles/NAME.args.
if [ $# -gt 0 ]; then
	for p in "$@"; do echo "$p"; done
else
	grep -v '^#' "$KDIR/profiles.list" | sed "s|^|$top/|"
fi | while read -r p args; do
	cp "$p" "$root/profiles/" && echo "$args" > "$root/profiles/$(basename "$p" .yaml).args" ||
		kfail "no profile $p"
done || exit 1
mkdir -p "$root/crash" && cp "$KDIR/crash.yaml" "$root/crash/" || exit 1
cp "$top/profiles/"*.yaml "$root/usr/share/starve/profiles/"
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) > "$work/initrd.gz" ||
	kfail "cannot build the initramfs"

mkdir -p "$out" || kfail "cannot create $out"
t0=$(date +%s)
timeout "$KTIMEOUT" qemu-system-x86_64 -accel tcg -m 1G -smp 2,sockets=1,cores=2,threads=1 -nodefaults -display none \
	-no-reboot -kernel "$kdir/vmlinuz" -initrd "$work/initrd.gz" \
	-serial "file:$out/console.log" -serial "file:$work/ttyS1" \
	-append "console=ttyS0 panic=-1 quiet" </dev/null
rc=$?
echo "$pkg $release: qemu exit $rc after $(($(date +%s) - t0)) s" >&2
tr -d '\r' < "$work/ttyS1" |
	sed -n '/^==== STARVE OUT BEGIN ====$/,/^==== STARVE OUT END ====$/{/^====/d;p}' |
	base64 -d | tar -xz -C "$out" || kfail "no output from the guest (see $out/console.log)"
echo "$pkg" > "$out/package" && cp "$kdir/config" "$kdir/release" "$out/"
echo "$out"
