#!/bin/busybox sh
# /init of the guest that `starve vm` boots (harness/vm/): mount what starve
# needs, run `starve env --json`, `starve run` for each profile in /vm/profiles
# with the options in /vm/run-args, the --guest-script if any, `starve env
# --json` again, then send every file under /out to the host and power off.
# starve builds this file into its binary (harness/vm/init.c is generated).
#
# Serial ports: ttyS0 the console (the host keeps it as console.log), ttyS1
# this script's messages to the host (or a virtio-serial port, below), ttyS2 the stderr of starve in the
# guest (its progress line and messages, relayed by the host). On ttyS1 every
# line is "STARVE-VM <what> ..." (harness/vm/channel.c reads them); a file is
# "STARVE-VM file SIZE SHA256 PATH", its base64 lines, "STARVE-VM end".
# Each profile's files are sent as soon as it ends (with dmesg so far), so
# a kernel that crashes later keeps them; the rest at the end.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin HOME=/root STARVE_DATADIR=/usr/share/starve
# mark WHAT: the guest's uptime at WHAT, into /out/init-times.txt (sent back
# at the end: where a slow guest spent its time)
mark() { echo "$(cut -d' ' -f1 /proc/uptime) $*" >> /init-times.txt; }
say() {	# to the host (fd 3, once ttyS1 is open) and to the console
	echo "STARVE-VM $*" >&3
	echo "starve-vm: $*" > /dev/console
}
fatal() {
	say error "$*"
	poweroff -f
}
# send PATH...: each file under /out/PATH to the host, then out of the way
# to /sent, so the last send (of all that is left) does not repeat it
send() {
	(cd /out && find "$@" -type f 2>/dev/null) | while IFS= read -r f; do
		f=${f#./}
		{
			echo "STARVE-VM file $(wc -c < "/out/$f") $(sha256sum < "/out/$f" | cut -d' ' -f1) $f"
			base64 "/out/$f"
			echo "STARVE-VM end"
		} >&3
		mkdir -p "/sent/$(dirname "$f")" && mv "/out/$f" "/sent/$f"
	done
}
# A knob starve could not put back leaves its journal, and every later
# `starve run` would refuse to start. On a live machine that is the rule;
# this guest is thrown away at the end. The usual cause is the deadline
# bandwidth a root domain counts (doc/kernels.md): 6.12's fair servers and
# sched_rt_runtime_us are admitted against it, and a domain rebuild or an
# RT-runtime write can leave it short, so the kernel refuses a lowering
# with EBUSY. Taking the CPUs but the first offline and online again builds
# the root domain anew and counts it right; `starve restore` then tries
# again. If the knob still stays, the journal is set aside (sent back as
# NAME.journal), the host is told with the kernel's reason, and the next
# profile runs.
journal_left() {
	[ -e /run/starve/journal ] || return 0
	starve restore > "/out/$1.restore.log" 2>&1 && return 0
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -w "$c" ] && echo 0 > "$c" && echo 1 > "$c"
	done
	if starve restore >> "/out/$1.restore.log" 2>&1; then
		say note "$1" "its knobs came back only after CPU hotplug recounted the deadline bandwidth"
		return 0
	fi
	mv /run/starve/journal "/out/$1.journal"
	say left "$1" "$(grep -m1 'cannot restore' "/out/$1.restore.log" | sed 's/^starve: error: //')"
}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null	# the kernel may have mounted it
# Both kept open, raw: no "\r" added before each "\n".
(: > /dev/ttyS1 && : > /dev/ttyS2) 2>/dev/null ||
	fatal "no /dev/ttyS1 or ttyS2: the kernel needs CONFIG_SERIAL_8250 with 3 runtime UARTs or more"
# The channel: the virtio-serial port org.starve.results where the kernel
# has virtio_console built in (fast: whole buffers, not 16 bytes an
# interrupt), else ttyS1.
chan=/dev/ttyS1
for p in /sys/class/virtio-ports/*; do
	[ "$(cat "$p/name" 2>/dev/null)" = org.starve.results ] && [ -c "/dev/${p##*/}" ] &&
		chan=/dev/${p##*/}
done
exec 3> "$chan" 4> /dev/ttyS2
stty -F /dev/ttyS1 raw -echo 2>/dev/null
stty -F /dev/ttyS2 raw -echo 2>/dev/null
mark hello
say hello "$(uname -r)"
# init= is the kernel's program for a root file system; here the initramfs's
# /init (this script) runs instead, so a guest asked for another one says so.
for w in $(cat /proc/cmdline); do
	case $w in init=*) fatal "the kernel command line has $w, but the guest's init is starve's own (drop init= from --append)" ;; esac
done
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# cgroup v1 cpuset where the kernel has it (the backend starve prefers), else
# cgroup2, mounted where the host has them.
mount -t tmpfs cgroup /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/cpuset /sys/fs/cgroup/unified
mount -t cgroup -o cpuset cpuset /sys/fs/cgroup/cpuset 2>/dev/null ||
	mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified 2>/dev/null
mkdir -p /out

# The options for `starve run`, one a line (they may hold spaces).
set --
while IFS= read -r a; do set -- "$@" "$a"; done < /vm/run-args
mark starve env
starve env --json > /out/env.json 2> /out/env.log
mark send env.json
send env.json env.log
n=$(ls /vm/profiles | wc -l) i=0
for p in /vm/profiles/*.yaml; do
	name=$(basename "$p" .yaml) i=$((i + 1))
	mark profile "$name"
	say profile "$i" "$n" "$name"
	starve run "$@" -o "/out/$name" "$p" > "/out/$name.log" 2>&4
	say status "$name" "$?"
	journal_left "$name"
	dmesg > /out/dmesg.txt
	send "$name" "$name.log" "$name.restore.log" "$name.journal" dmesg.txt
	# test hook: --append starve_vm.crash_after=N crashes the kernel here
	case " $(cat /proc/cmdline) " in *" starve_vm.crash_after=$i "*) echo c > /proc/sysrq-trigger ;; esac
done
if [ -f /vm/guest-script ]; then
	say script
	mkdir -p /out/script
	(cd /out/script && STARVE_VM_OUT=/out/script sh /vm/guest-script > /out/script.log 2>&1)
	say status script "$?"
fi
starve env --json > /out/env-after.json 2>> /out/env.log
dmesg > /out/dmesg.txt

mark sending
cp /init-times.txt /out/init-times.txt
say sending "$(find /out -type f | wc -l)"
send .
say done
exec 3>&- 4>&-	# a tty's close waits until its output has left the UART
sync
poweroff -f
