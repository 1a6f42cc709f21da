# Benchmark: the sampler's tick loss over a long run against a bare timer
# beside it: one LONGRUN_SECONDS (default 60) s run of sleep-hog-starvation
# while `sampler-bench 0 S HZ bare` (an absolute timer at HZ doing nothing,
# counting missed periods the sampler's way) runs alongside, unpinned. Goal:
# the sampler misses no more ticks than the bare timer. Root (the profile's
# loads are SCHED_OTHER, but a run journals knobs); else SKIP.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
[ "$(id -u)" = 0 ] || bench_skip "needs root"
bin=${SAMPLER_BENCH:-$(dirname "$STARVE")/bench/sampler-bench}
[ -x "$bin" ] || bench_skip "no $bin (run 'make bench' to build it)"
: "${LONGRUN_SECONDS:=60}"
hz=$("$STARVE" env --json | jq -r '.kernel.hz')

"$bin" 0 "$((LONGRUN_SECONDS + 2))" "$hz" bare >"$BENCH_TMP/bare" &
BENCH_PIDS="$BENCH_PIDS $!"
"$STARVE" run --quiet --repeat 1 --duration "${LONGRUN_SECONDS}s" --warmup 500ms \
	-o "$BENCH_TMP/run" "${top_srcdir}/profiles/sleep-hog-starvation.yaml" >/dev/null 2>&1
wait
bare=$(sed -n 's/.*missed=\([0-9]*\).*/\1/p' "$BENCH_TMP/bare")
read -r ticks missed hz_got <<EOT
$(jq -r '.runs[0].sampler | "\(.ticks) \(.missed_ticks) \(.achieved_hz)"' "$BENCH_TMP/run/result.json")
EOT
echo "${LONGRUN_SECONDS} s of sleep-hog-starvation: sampler $missed of $ticks ticks missed" \
     "($hz_got Hz), a bare ${hz} Hz timer beside it ${bare:-?} missed"
bench_judge "sampler missed ticks minus the bare timer's" "$((missed - ${bare:-0}))" le 0
bench_exit
