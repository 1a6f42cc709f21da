# Helpers for the kernel-version tests (sourced by run-kernel.sh): find a
# Debian kernel package, download and unpack it into a cache outside the
# tree, build the initramfs and boot it under qemu (TCG).
# Nothing here touches the host's knobs or mounts: only the guest changes.
set -u
KCACHE=${STARVE_KERNEL_CACHE:-/var/cache/starve-kernels}
KTIMEOUT=${STARVE_KERNEL_TIMEOUT:-600}
KDIR=$(cd "$(dirname "$0")" && pwd)

kfail() { echo "run-kernel: $*" >&2; exit 1; }

# What the host lacks to run a guest, as one message; nothing when all is there.
kernel_missing() {
	for c in qemu-system-x86_64 apt-get dpkg-deb ldd gzip; do
		command -v $c >/dev/null || { echo "needs $c (apt-get install qemu-system-x86)"; return; }
	done
	# a static busybox: the initramfs holds no library for it
	[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
		echo "needs a static /bin/busybox (apt-get install busybox-static)"
}

# A short name (6.1-cloud, 6.12-cloud, 6.1-rt, 6.12-rt) or a package name ->
# the concrete linux-image package (metapackages resolve to their newest).
kernel_package() {
	case $1 in
	6.1-cloud) meta=linux-image-cloud-amd64 ;;
	6.12-cloud) meta=linux-image-6.12-cloud-amd64 ;;
	6.1-rt) meta=linux-image-rt-amd64 ;;
	6.12-rt) meta=linux-image-6.12-rt-amd64 ;;
	linux-image-*) echo "$1"; return 0 ;;
	*) kfail "unknown kernel '$1' (6.1-cloud 6.12-cloud 6.1-rt 6.12-rt or a linux-image-* package)" ;;
	esac
	apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1
}

# Download PKG once and keep only its /boot: prints the directory holding
# vmlinuz, config and release.
kernel_fetch() {
	pkg=$1 dir=$KCACHE/$1
	if [ ! -s "$dir/vmlinuz" ]; then
		mkdir -p "$dir" || kfail "cannot create $dir"
		(cd "$dir" && rm -f ./*.deb && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2) ||
			kfail "apt-get download $pkg failed (run apt-get update?)"
		deb=$(ls "$dir"/*.deb | head -1)
		rm -rf "$dir/x" && mkdir "$dir/x"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/x" ./boot ||
			kfail "cannot unpack $deb"
		cp "$dir"/x/boot/config-* "$dir/config" &&
			basename "$dir"/x/boot/config-* | sed 's/^config-//' > "$dir/release" &&
			cp "$dir"/x/boot/vmlinuz-* "$dir/vmlinuz.tmp" && mv "$dir/vmlinuz.tmp" "$dir/vmlinuz" ||
			kfail "$deb has no /boot/vmlinuz-* and config-*"
		rm -rf "$dir/x" "$deb"
	fi
	echo "$dir"
}
