#!/bin/sh
# The install step of ci/lava/starve.yaml, run in this checkout on the
# device: nothing when starve is there already; else, unless SKIP_INSTALL is
# true, build and install it from the checkout on a Debian or Ubuntu rootfs
# (needs the network for apt-get). Exit 1 says what is missing.
if command -v starve >/dev/null 2>&1; then
	echo "starve is installed: $(starve --version)"
	exit 0
fi
if [ "${SKIP_INSTALL:-false}" = true ]; then
	echo "install-starve: no starve on the device and SKIP_INSTALL=true: put it in the image (ci/lava/make-initramfs.sh)" >&2
	exit 1
fi
command -v apt-get >/dev/null 2>&1 || {
	echo "install-starve: no starve and no apt-get to build it: put it in the image (ci/lava/make-initramfs.sh)" >&2
	exit 1
}
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends build-essential autoconf automake libtool \
	pkg-config libhwloc-dev libyaml-dev libjansson-dev libcpuset-dev
autoreconf -fi
./configure -q
make -j"$(nproc)"
make install
starve --version
