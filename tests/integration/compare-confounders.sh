#!/bin/sh
# compare names its confounders (reports/compare/compare-confounders.c): two results
# that differ only in their recorded clock source (jq-edited fixtures) get a
# first line saying so, and the clock-polling victim's throughput row is
# "not comparable", not a regression, so it cannot gate; the same results
# on one clock source compare as before. Also in JSON, Markdown and HTML.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
d=$top_srcdir/tests/compare
T=$TMPDIR_TEST
conf='{clocksource: $cs, clocksources_available: ["tsc", "hpet"], nohz: "idle",
	nohz_full: null, cmdline: "console=ttyS0", cpu_model: "QEMU Virtual CPU", cpus: 2,
	governor: null, mitigations: {meltdown: "Not affected"}, steal_share: 0,
	virtualised: true, emulated: true, hypervisor: "TCGTCGTCGTCG", dmi_vendor: "QEMU"}'
with_cs() { jq --arg cs "$2" ".confounders = $conf" "$d/$1"; }
with_cs base.json tsc > "$T/a.json"
with_cs slower.json hpet > "$T/b.json"
with_cs slower.json tsc > "$T/b-tsc.json"
check_schema "$T/a.json" "$T/b.json"

# On one clock source the victim's throughput change (+20.6%) is an improvement.
"$STARVE" compare "$T/a.json" "$T/b-tsc.json" > "$T/same.txt"
"$STARVE" compare --json "$T/a.json" "$T/b-tsc.json" > "$T/same.out"
head -n 6 "$T/same.txt" | grep -q "^confounders: none differ" ||
	fail "first lines do not say no confounder differs: $(head -n 6 "$T/same.txt")"
check_json "$T/same.out" '[.rows[] | select(.load == "victim" and .metric == "throughput")
	| .compared[0].verdict] == ["improvement"]' "throughput is not an improvement on one clock source"

# Across clock sources: named first, throughput not comparable, no longer gating.
"$STARVE" compare --html "$T/cs.html" "$T/a.json" "$T/b.json" > "$T/cs.txt"
rc=$?
"$STARVE" compare --json "$T/a.json" "$T/b.json" > "$T/cs.json"
"$STARVE" compare --markdown "$T/a.json" "$T/b.json" > "$T/cs.md"
head -n 6 "$T/cs.txt" | grep -q "^confounder: clocksource differs: .* tsc, .* hpet" ||
	fail "first lines do not name the clock source: $(head -n 6 "$T/cs.txt")"
grep -q "^not comparable: 1 cell (a clock-polling loop" "$T/cs.txt" ||
	fail "no line says which cells are not comparable and why"
grep -q "^victim  *throughput .*x not comparable" "$T/cs.txt" ||
	fail "the throughput row is not marked not comparable: $(grep throughput "$T/cs.txt")"
check_json "$T/cs.json" '[.rows[] | select(.load == "victim" and .metric == "throughput")
	| .compared[0].verdict] == ["not comparable"]' "JSON: throughput is not 'not comparable'"
check_json "$T/cs.json" '.confounders.differ | map(.name) == ["clocksource"]' \
	"JSON: confounders.differ is not [clocksource]"
check_json "$T/cs.json" '.confounders.not_comparable == 1' "JSON: not_comparable is not 1"
# Only the throughput row changed: the other rows keep their verdicts.
jq -c '[.rows[] | select(.metric != "throughput") | .compared[0].verdict]' "$T/same.out" > "$T/v1"
jq -c '[.rows[] | select(.metric != "throughput") | .compared[0].verdict]' "$T/cs.json" > "$T/v2"
cmp -s "$T/v1" "$T/v2" || fail "other rows changed verdict: $(cat "$T/v1") vs $(cat "$T/v2")"
want=$(jq '[.rows[] | select(.gated and .metric != "throughput") | .compared[0].verdict]
	| if index("regression") then 1 else 0 end' "$T/cs.json")
[ "$rc" = "$want" ] || fail "compare exited $rc, expected $want (throughput must not gate)"
grep -q "^confounder: clocksource differs" "$T/cs.md" || fail "Markdown does not name the clock source"
grep -q "not comparable" "$T/cs.md" || fail "Markdown does not mark the row"
grep -q "clocksource differs" "$T/cs.html" || fail "HTML does not name the clock source"

# A result from before confounders were recorded: said, not guessed.
"$STARVE" compare "$d/base.json" "$T/b.json" > "$T/old.txt"
head -n 6 "$T/old.txt" | grep -q "recorded none" || fail "an older result's missing confounders are not said"
grep -q "not comparable" "$T/old.txt" && fail "a row is not comparable with one side unknown"
exit 0
