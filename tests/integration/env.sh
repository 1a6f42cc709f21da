#!/bin/sh
# `starve env --json`: the keys newcomers and result.json rely on are there,
# the release is uname -r's and HZ matches CONFIG_HZ where the config is known.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
j="$TMPDIR_TEST/env.json"
"$STARVE" env --json > "$j" || fail "starve env --json failed"
"$STARVE" env > "$TMPDIR_TEST/env.txt" || fail "starve env failed"
grep -q "^kernel " "$TMPDIR_TEST/env.txt" || fail "text output has no kernel line"
hz_config=
if [ -r /proc/config.gz ]; then
	hz_config=$(gzip -dc /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
elif [ -r "/boot/config-$(uname -r)" ]; then
	hz_config=$(sed -n 's/^CONFIG_HZ=//p' "/boot/config-$(uname -r)")
fi

# has_keys(keys): the object has every key of the array keys
defs='def has_keys($k): . as $o | $k | all(. as $x | $o | has($x));'
check_json "$j" "$defs"'
	has_keys(["kernel", "schedstat", "knobs", "debugfs", "cpuset", "topology", "privileges"])
	and (.kernel | has_keys(["release", "version", "hz", "hz_source", "preempt",
				 "preempt_dynamic", "preempt_source", "config"]))
	and (.schedstat | has_keys(["global", "task"]))
	and (.features | has_keys(["sched_ext", "sched_ext_state", "btf", "sched_events",
				   "schedstats"]))
	and ((.features.sched_ext | not) == (.features.sched_ext_state == null))
	and (.debugfs | has_keys(["mounted", "path"]))
	and (.cpuset | has_keys(["backend", "backends"]))
	and (.topology | has_keys(["summary", "pus"]))
	and (.privileges | has_keys(["root", "rtprio_limit", "cap_sys_nice"]))' \
	"a top-level object or key is missing"
check_json "$j" '.kernel.release == $r' "kernel.release is not uname -r ($(uname -r))" \
	--arg r "$(uname -r)"
check_json "$j" '.kernel.hz | type == "number" and . > 0 and . == floor' \
	"kernel.hz is not a positive integer"
if [ -n "$hz_config" ]; then
	check_json "$j" '.kernel.hz_source == "config" and .kernel.hz == $hz' \
		"kernel.hz is not CONFIG_HZ=$hz_config from the config" --argjson hz "$hz_config"
fi
check_json "$j" "$defs"'
	.knobs | all(has_keys(["name", "path", "present", "readable", "writable", "value", "reason"]))' \
	"a knob lacks one of name, path, present, readable, writable, value, reason"
check_json "$j" '[.knobs[].name] | index(["kernel.sched_rt_period_us"]) and index(["debugfs:sched/base_slice_ns"])' \
	"kernel.sched_rt_period_us or debugfs:sched/base_slice_ns is not listed"
check_json "$j" '.knobs[] | select(.name == "kernel.sched_rt_period_us") | .present and .value == $v' \
	"kernel.sched_rt_period_us is not /proc/sys/kernel/sched_rt_period_us's value" \
	--arg v "$(cat /proc/sys/kernel/sched_rt_period_us)"
check_json "$j" '[.cpuset.backends[] | select(.usable) | .name] as $u
	| .cpuset.backend == $u[0] and ($u | index(["affinity"]))' \
	"the chosen cpuset backend is not the first usable one, or affinity is not usable"
if [ "$(id -u)" = 0 ]; then root=true; else root=false; fi
check_json "$j" '.privileges.root == $root' "privileges.root is not $root" --argjson root $root
exit 0
