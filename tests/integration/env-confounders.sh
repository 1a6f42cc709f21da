#!/bin/sh
# The confounders (harness/kernel/confounders.c): `starve env --json` and a
# run's result.json name this machine's clock source, nohz, command line,
# CPU, governor, mitigations, steal and virtualisation, each as the kernel's
# own files say, and the text output prints them.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
cs=/sys/devices/system/clocksource/clocksource0
[ -r $cs/current_clocksource ] || skip "no $cs/current_clocksource"
j="$TMPDIR_TEST/env.json"
"$STARVE" env --json > "$j" || fail "starve env --json failed"
"$STARVE" env > "$TMPDIR_TEST/env.txt" || fail "starve env failed"

defs='def has_keys($k): . as $o | $k | all(. as $x | $o | has($x));'
check_json "$j" "$defs"'.confounders | has_keys(["clocksource", "clocksources_available",
	"nohz", "nohz_full", "cmdline", "cpu_model", "cpus", "governor", "mitigations",
	"steal_share", "virtualised", "emulated", "hypervisor", "dmi_vendor"])' \
	"confounders lacks a key"
check_json "$j" '.confounders.clocksource == $c' \
	"clocksource is not $cs/current_clocksource's" --arg c "$(cat $cs/current_clocksource)"
check_json "$j" '.confounders.clocksources_available == ($a | split(" ") | map(select(. != "")))' \
	"clocksources_available is not $cs/available_clocksource's" \
	--arg a "$(cat $cs/available_clocksource)"
check_json "$j" '.confounders.cmdline == $c' "cmdline is not /proc/cmdline" \
	--arg c "$(cat /proc/cmdline)"
check_json "$j" '.confounders.cpus == $n' "cpus is not nproc's" --argjson n "$(getconf _NPROCESSORS_ONLN)"
check_json "$j" '.confounders.steal_share | . == null or (. >= 0 and . <= 1)' \
	"steal_share is not a share"
check_json "$j" '.confounders.nohz | IN("periodic", "idle", "full", "unknown")' "nohz is not a mode"
config=
if [ -r /proc/config.gz ]; then config=$(gzip -dc /proc/config.gz)
elif [ -r "/boot/config-$(uname -r)" ]; then config=$(cat "/boot/config-$(uname -r)"); fi
case $config in
*CONFIG_NO_HZ_IDLE=y*) check_json "$j" '.confounders.nohz == "idle"' "nohz is not idle (CONFIG_NO_HZ_IDLE)" ;;
*CONFIG_NO_HZ_FULL=y*) check_json "$j" '.confounders.nohz == "full"' "nohz is not full (CONFIG_NO_HZ_FULL)" ;;
*CONFIG_HZ_PERIODIC=y*) check_json "$j" '.confounders.nohz == "periodic"' "nohz is not periodic" ;;
esac
vul=/sys/devices/system/cpu/vulnerabilities
if [ -d $vul ]; then
	for f in $vul/*; do
		check_json "$j" '.confounders.mitigations[$n] == $t' "mitigation ${f##*/} is not its file's" \
			--arg n "${f##*/}" --arg t "$(cat "$f")"
	done
fi
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
[ -z "$model" ] || check_json "$j" '.confounders.cpu_model == $m' "cpu_model is not /proc/cpuinfo's" --arg m "$model"
gov=/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
if [ -r $gov ]; then
	check_json "$j" '.confounders.governor == $g' "governor is not cpu0's" --arg g "$(cat $gov)"
else
	check_json "$j" '.confounders.governor == null' "governor is not null without cpufreq"
fi
if grep -qw hypervisor /proc/cpuinfo; then
	check_json "$j" '.confounders.virtualised' "the hypervisor flag is set but virtualised is false"
fi
grep -q "^clocksource  $(cat $cs/current_clocksource) " "$TMPDIR_TEST/env.txt" ||
	fail "the text output has no clocksource line naming $(cat $cs/current_clocksource)"

# A run records the same object (result.json's confounders), valid by the schema.
need_root
suite_lock
cat > "$TMPDIR_TEST/p.yaml" <<'YAML'
name: confounders
description: one short victim, for the header
duration: 100ms
warmup: 0s
loads:
  - { name: victim, type: cpu-victim, cpus: pu:0 }
YAML
"$STARVE" run --quiet -o "$TMPDIR_TEST/out" "$TMPDIR_TEST/p.yaml" > "$TMPDIR_TEST/log" 2>&1 ||
	fail "starve run failed: $(cat "$TMPDIR_TEST/log")"
r="$TMPDIR_TEST/out/result.json"
check_schema "$r"
check_json "$r" '.confounders.clocksource == $c and .confounders.cmdline == $l' \
	"result.json's confounders do not name the clock source and command line" \
	--arg c "$(cat $cs/current_clocksource)" --arg l "$(cat /proc/cmdline)"
exit 0
