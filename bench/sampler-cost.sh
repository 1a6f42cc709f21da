# Benchmark: the sampler's own CPU per task and tick, sampling 16, 128 and
# 1024 sleeping threads at the kernel's HZ for about 2 s each, beside a
# naive sampler (open, read, close schedstat and stat every tick) in the
# same invocation, alternating (bench/sampler-bench.c, built by `make bench`).
# Target: <= 1.0 us per task-tick for the real sampler. The average includes
# a fixed cost per tick (the timer wake-up: ~12 us of thread CPU on a VM),
# which dominates with few threads, so the script also fits
# cost(n) * n = fixed + marginal * n over the medians and prints both.
. "${top_srcdir:-.}/bench/lib.sh"
[ -x "$STARVE" ] || bench_skip "no starve binary at $STARVE (run make first)"
bin=${SAMPLER_BENCH:-$(dirname "$STARVE")/bench/sampler-bench}
[ -x "$bin" ] || bench_skip "no $bin (run 'make bench' to build it)"
: "${SECONDS_EACH:=2}"

hz=$("$STARVE" env --json 2>/dev/null | sed -n 's/.*"hz": *\([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$hz" ] || hz=250
echo "sampling sleeping threads at $hz Hz for ${SECONDS_EACH}s per run"

# field KEY LINE: the value of KEY=value in LINE
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

sum_n=0 sum_c=0 sum_nn=0 sum_nc=0 points=0
for n in 16 128 1024; do
	kept="" naive=""
	for r in $(seq "$BENCH_ROUNDS"); do
		k=$("$bin" "$n" "$SECONDS_EACH" "$hz" kept) || bench_skip "sampler-bench failed"
		v=$("$bin" "$n" "$SECONDS_EACH" "$hz" naive) || bench_skip "sampler-bench failed"
		kept="$kept $(field cost_us_per_task_tick "$k")"
		naive="$naive $(field cost_us_per_task_tick "$v")"
		echo "  $n threads, round $r: kept $(field cost_us_per_task_tick "$k") us" \
		     "(achieved $(field achieved_hz "$k") Hz, missed $(field missed "$k")), naive" \
		     "$(field cost_us_per_task_tick "$v") us (achieved $(field achieved_hz "$v") Hz)"
	done
	# shellcheck disable=SC2086
	mk=$(bench_median $kept) mn=$(bench_median $naive)
	echo "$n threads: kept descriptors $mk us/task-tick, naive $mn us/task-tick," \
	     "naive/kept $(bench_calc "$mn / $mk")"
	bench_judge "$n threads: kept cost (us per task-tick)" "$mk" le 1.0
	c=$(bench_calc "$mk * $n")	# us per tick
	sum_n=$(bench_calc "$sum_n + $n") sum_c=$(bench_calc "$sum_c + $c")
	sum_nn=$(bench_calc "$sum_nn + $n * $n") sum_nc=$(bench_calc "$sum_nc + $n * $c")
	points=$((points + 1))
done
marginal=$(bench_calc "($points * $sum_nc - $sum_n * $sum_c) / ($points * $sum_nn - $sum_n * $sum_n)")
fixed=$(bench_calc "($sum_c - $marginal * $sum_n) / $points")
echo "fit: fixed $fixed us per tick + marginal $marginal us per task and tick"
bench_judge "marginal kept cost (us per task-tick)" "$marginal" le 1.0
bench_exit
