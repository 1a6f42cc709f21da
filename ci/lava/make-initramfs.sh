#!/bin/sh
# make-initramfs.sh [-o FILE] [-s STARVE] [-b BUSYBOX] [PROFILE.yaml...]:
# build the gzip'd newc initramfs a LAVA qemu job boots (ci/lava/README.md):
# a static busybox, the starve binary with every library ldd names, its
# shipped profiles (and the PROFILEs given), and an /init that mounts what
# starve needs (proc, sys, debugfs, tmpfs, the cpuset cgroup) and gives a
# root shell on the console for LAVA to log in to. Any kernel with its
# console, devtmpfs and initramfs support built in boots it (Debian's do).
# Default output: starve-initramfs.cpio.gz. Needs busybox-static and cpio.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
out=starve-initramfs.cpio.gz starve= busybox=/bin/busybox
while getopts o:s:b: opt; do
	case $opt in
	o) out=$OPTARG ;;
	s) starve=$OPTARG ;;
	b) busybox=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-s STARVE] [-b BUSYBOX] [PROFILE.yaml...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
die() { echo "make-initramfs: $*" >&2; exit 1; }
[ -n "$starve" ] || starve=$(command -v starve || echo "$top/starve")
[ -x "$starve" ] || die "no starve binary at '$starve' (build it, or give -s)"
[ -x "$busybox" ] || die "no busybox at '$busybox' (apt-get install busybox-static)"
# the initramfs holds no library for busybox: it must be static
! ldd "$busybox" >/dev/null 2>&1 || die "$busybox is dynamic (apt-get install busybox-static)"
command -v cpio >/dev/null || die "needs cpio (apt-get install cpio)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/etc" "$root/root" \
	"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" \
	"$root/usr/share/starve/profiles"
cp "$busybox" "$root/bin/busybox"
cp "$starve" "$root/usr/bin/starve"
for lib in $(ldd "$starve" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
	mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
done
[ -e "$root/lib64" ] || ln -s lib "$root/lib64"
cp "$top"/profiles/*.yaml "$root/usr/share/starve/profiles/"
for p in "$@"; do cp "$p" "$root/usr/share/starve/profiles/"; done
cp "$here/init" "$root/init"
chmod 755 "$root/init"
# the kernel opens /dev/console before /init runs; devtmpfs comes later
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || :
(cd "$root" && find . | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
