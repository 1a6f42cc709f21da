#!/bin/sh
# wakeup-probe's cpu_dma_latency (issue 33): cyclictest holds
# /dev/cpu_dma_latency at 0 by default, so idle CPUs stay out of deep
# C-states (here its p50 on an idle CPU is 18-23 us so, 32 us with
# --laptop), and a probe that does not is not measured alike. The option
# holds the value for the probe's life only:
# read mid-run it is in force, after the run the machine's value is back
# (the request dies with the descriptor: nothing to journal), and the
# result's profile records it. About 3 s.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd jq
need_cmd od
[ -w /dev/cpu_dma_latency ] || skip "no writable /dev/cpu_dma_latency"
suite_lock
read_qos() { od -An -t d4 /dev/cpu_dma_latency | tr -d ' '; }
before=$(read_qos)
want=7
[ "$before" != "$want" ] || want=8
cat > "$TMPDIR_TEST/p.yaml" <<YAML
name: probe-qos
description: The probe holding cpu_dma_latency while it runs.
duration: 2s
warmup: 200ms
repeat: 1
loads:
  - name: probe
    type: wakeup-probe
    cpu_dma_latency: $want
expect:
  - { load: probe, metric: wakeup_max, below: 1s }
YAML
"$STARVE" run "$TMPDIR_TEST/p.yaml" -q -o "$TMPDIR_TEST/out" > /dev/null 2>&1 &
pid=$!
sleep 1.2
during=$(read_qos)
rc=0
wait $pid || rc=$?
judged $rc
after=$(read_qos)
[ "$during" = "$want" ] || fail "cpu_dma_latency read $during during the run, not $want"
[ "$after" = "$before" ] || fail "cpu_dma_latency is $after after the run, was $before"
check_json "$TMPDIR_TEST/out/result.json" \
	"(.profile.loads[0].options.cpu_dma_latency | tonumber) == $want" "the result records the value held"
exit 0
