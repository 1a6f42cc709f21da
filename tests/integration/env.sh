#!/bin/sh
# `starve env --json`: the keys newcomers and result.json rely on are there,
# the release is uname -r's and HZ matches CONFIG_HZ where the config is known.
. "$top_srcdir/tests/lib.sh"
need_cmd python3
"$STARVE" env --json > "$TMPDIR_TEST/env.json" || fail "starve env --json failed"
"$STARVE" env > "$TMPDIR_TEST/env.txt" || fail "starve env failed"
grep -q "^kernel " "$TMPDIR_TEST/env.txt" || fail "text output has no kernel line"
hz_config=
if [ -r /proc/config.gz ]; then
	hz_config=$(gzip -dc /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
elif [ -r "/boot/config-$(uname -r)" ]; then
	hz_config=$(sed -n 's/^CONFIG_HZ=//p' "/boot/config-$(uname -r)")
fi
python3 - "$TMPDIR_TEST/env.json" "$(uname -r)" "$hz_config" <<'PY' || fail "env JSON check failed"
import json, sys
env = json.load(open(sys.argv[1]))
release, hz_config = sys.argv[2], sys.argv[3]
def need(obj, keys, where):
    for k in keys:
        assert k in obj, "%s: missing key %r" % (where, k)
need(env, ["kernel", "schedstat", "knobs", "debugfs", "cpuset", "topology", "privileges"], "top")
need(env["kernel"], ["release", "version", "hz", "hz_source", "preempt", "preempt_dynamic",
                     "preempt_source", "config"], "kernel")
assert env["kernel"]["release"] == release, "release %r != %r" % (env["kernel"]["release"], release)
assert isinstance(env["kernel"]["hz"], int) and env["kernel"]["hz"] > 0
if hz_config:
    assert env["kernel"]["hz_source"] == "config"
    assert env["kernel"]["hz"] == int(hz_config), "hz %r != CONFIG_HZ %s" % (env["kernel"]["hz"], hz_config)
need(env["schedstat"], ["global", "task"], "schedstat")
names = [k["name"] for k in env["knobs"]]
assert "kernel.sched_rt_period_us" in names and "debugfs:sched/base_slice_ns" in names
for k in env["knobs"]:
    need(k, ["name", "path", "present", "readable", "writable", "value", "reason"], k["name"])
period = [k for k in env["knobs"] if k["name"] == "kernel.sched_rt_period_us"][0]
assert period["present"] and period["value"] == open("/proc/sys/kernel/sched_rt_period_us").read().strip()
need(env["debugfs"], ["mounted", "path"], "debugfs")
need(env["cpuset"], ["backend", "backends"], "cpuset")
usable = [b["name"] for b in env["cpuset"]["backends"] if b["usable"]]
assert env["cpuset"]["backend"] == usable[0], "chosen %r, usable %r" % (env["cpuset"]["backend"], usable)
assert "affinity" in usable
need(env["topology"], ["summary", "pus"], "topology")
need(env["privileges"], ["root", "rtprio_limit", "cap_sys_nice"], "privileges")
import os
assert env["privileges"]["root"] == (os.geteuid() == 0)
PY
