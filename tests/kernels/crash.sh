# crash.sh: the guest script of `make check-kernels` (starve vm
# --guest-script), run in each guest after the profiles, in $STARVE_VM_OUT
# (back on the host as <label>/script/). It writes what check-kernel.sh reads:
#  - env-noconfig.json: starve env with /boot hidden (these kernels have no
#    /proc/config.gz), so HZ is measured and the model read from uname/debugfs;
#  - crash-NAME-{before,during,killed,after}.txt: every scheduler knob file
#    around a run of the profile below killed with SIGKILL midway, once with
#    its watchdog alive (the knobs come back by themselves), once with the
#    watchdog killed too (they stay until `starve restore`);
#  - knobs-{before,after}.txt around both, cpusets-after.txt, status (exit
#    codes: "env-noconfig N", "restore NAME N").
# The host cannot write debugfs knobs under lockdown; the guest can.
cat > /tmp/crash.yaml <<'YAML'
name: crash
description: A sleep-hog under changed knobs, in a cpuset, to be killed midway.
duration: 60s
warmup: 0s
cpuset: true            # cgroup2 guests: "cpuset" turned on in the root, journaled
loads:
  - name: hog
    type: sleep-hog
    cpus: pu:1
settings:
  - name: changed
    knobs: { kernel.sched_rt_runtime_us: 960000, "debugfs:sched/migration_cost_ns": 400000 }
YAML

# Every scheduler knob file with its value, and the cgroup2 root's
# controllers, to compare before and after.
knobs() {
	for f in /proc/sys/kernel/sched_* /sys/kernel/debug/sched/* \
		/sys/kernel/debug/sched/fair_server/cpu*/* /sys/fs/cgroup/cgroup.subtree_control \
		/sys/fs/cgroup/unified/cgroup.subtree_control; do
		case $f in */sched/debug) continue ;; esac	# statistics, not a knob
		[ -f "$f" ] && [ -r "$f" ] && echo "$f: $(tr '\n' ' ' < "$f")"
	done
}

# written: both knobs of crash.yaml hold its values. Read with the shell's
# own `read`, not knobs(): under TCG its ~50 forks a poll took the guest's
# CPUs from the run being set up, which then overran its 4 s set-up
# deadline (the watchdog restored the knobs before the kill, 6.12-cloud).
written() {
	read -r rt < /proc/sys/kernel/sched_rt_runtime_us
	read -r mc < /sys/kernel/debug/sched/migration_cost_ns
	[ "$rt" = 960000 ] && [ "$mc" = 400000 ]
}

# crash NAME KILLS: run crash.yaml, wait until its knobs are written,
# SIGKILL the processes named in KILLS (the controller last), then snapshot
# the knobs and, with the journal left, restore.
crash() {
	knobs > "crash-$1-before.txt"
	starve run -q /tmp/crash.yaml -o "/tmp/crash-$1" > "crash-$1.log" 2>&1 &
	ctl=$! i=0
	while ! written && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 1	# its loads run
	knobs > "crash-$1-during.txt"
	for p in /proc/[0-9]*; do
		comm= && read -r comm 2>/dev/null < "$p/comm"
		case " $2 " in *" ${comm:-?} "*) kill -9 "${p#/proc/}" ;; esac
	done
	kill -9 $ctl
	wait $ctl
	i=0	# the watchdog, if alive, restores from the journal, then removes it
	while [ -e /run/starve/journal ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	knobs > "crash-$1-killed.txt"
	if [ -e /run/starve/journal ]; then
		starve restore > "crash-$1-restore.log" 2>&1
		echo "restore $1 $?" >> status
	fi
	knobs > "crash-$1-after.txt"
}

mv /boot /boot.hidden
starve env --json > env-noconfig.json 2> env-noconfig.log
echo "env-noconfig $?" >> status
mv /boot.hidden /boot
knobs > knobs-before.txt
crash watchdog-alive ""
crash watchdog-killed starve-watchdog
knobs > knobs-after.txt
find /sys/fs/cgroup -mindepth 2 -maxdepth 2 -type d -name 'starve-*' > cpusets-after.txt
