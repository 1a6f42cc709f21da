# Benchmark: the sampler's own cost and the rate it holds, sampling 16, 128
# and 1024 threads at the kernel's HZ for about 2 s each, BENCH_ROUNDS rounds
# (bench/sampler-bench.c, built by `make bench`), for two populations:
# sleepers (blocked for good) and runners (each wakes every 20 ms and works
# 20 us: 1024 of them keep a whole CPU busy with wake-ups). Goals, each
# judged on its own line: at most 1.0 us of sampler CPU per task and tick
# (median), the full rate (achieved Hz at least 0.95 of HZ in the slowest
# round) and, at 1024 runners, no missed tick in any round and at most 25%
# of one CPU. The sampler runs SCHED_OTHER as a profile's default does; the
# 1024 runners are measured once more at sampler_priority 1 (SCHED_FIFO 1).
# A third population, busy (256 threads spinning at SCHED_IDLE), has every
# task read every tick. Each round also runs the naive peer (open, read and
# close both files every tick) right after, and a bare timer at HZ beside the
# same population (sampler-bench's bare mode). The bare timer's CPU per tick
# is what waking at HZ costs before any read (7-37 us on this VM); a sampler
# that skips quiet tasks spreads it over a few reads, the naive peer over
# two per task, so per read the two are compared above that floor: goal,
# ours no worse (ratio at most 1.0, median). The plain ratio, floor
# included, is printed beside it. Every figure is min/median/max over the
# rounds.
. "${top_srcdir:-.}/bench/lib.sh"
[ -x "$STARVE" ] || bench_skip "no starve binary at $STARVE (run make first)"
bin=${SAMPLER_BENCH:-$(dirname "$STARVE")/bench/sampler-bench}
[ -x "$bin" ] || bench_skip "no $bin (run 'make bench' to build it)"
: "${SECONDS_EACH:=2}"

hz=$("$STARVE" env --json 2>/dev/null | sed -n 's/.*"hz": *\([0-9][0-9]*\).*/\1/p' | head -n 1)
[ -n "$hz" ] || hz=250
echo "sampling at $hz Hz for ${SECONDS_EACH}s per round, $BENCH_ROUNDS rounds"

# field KEY LINE: the value of KEY=value in LINE
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# measure N POPULATION PRIO: rounds of one case, then its verdict lines
measure() {
	cost="" rate="" missed="" share="" reads="" per_read="" naive_read="" read_ratio=""
	floor="" above="" naive_above="" above_ratio=""
	for r in $(seq "$BENCH_ROUNDS"); do
		k=$("$bin" "$1" "$SECONDS_EACH" "$hz" kept "$2" "$3") || bench_skip "sampler-bench failed"
		v=$("$bin" "$1" "$SECONDS_EACH" "$hz" naive "$2" "$3") || bench_skip "sampler-bench failed"
		b=$("$bin" "$1" "$SECONDS_EACH" "$hz" bare "$2") || bench_skip "sampler-bench failed"
		per_read="$per_read $(field cost_us_per_read "$k")"
		naive_read="$naive_read $(field cost_us_per_read "$v")"
		read_ratio="$read_ratio $(bench_calc "$(field cost_us_per_read "$k") / $(field cost_us_per_read "$v")")"
		f=$(field cost_us_per_tick "$b")
		# per read above the floor: cost per read x the part of a tick's cost above it
		a=$(bench_calc "$(field cost_us_per_read "$k") * (1 - $f / $(field cost_us_per_tick "$k"))")
		na=$(bench_calc "$(field cost_us_per_read "$v") * (1 - $f / $(field cost_us_per_tick "$v"))")
		floor="$floor $f" above="$above $a" naive_above="$naive_above $na"
		above_ratio="$above_ratio $(bench_calc "$a / $na")"
		cost="$cost $(field cost_us_per_task_tick "$k")" rate="$rate $(field achieved_hz "$k")"
		missed="$missed $(field missed "$k")" share="$share $(field cpu_share "$k")"
		reads="$reads $(field reads_per_task_tick "$k")"
	done
	what="$1 $2 threads${3:+ (sampler SCHED_FIFO $3)}"
	# shellcheck disable=SC2086
	echo "$what: $(bench_mmm $cost) us/task-tick, $(bench_mmm $rate) Hz," \
	     "$(bench_mmm $missed) missed ticks, $(bench_mmm $share) of a CPU," \
	     "$(bench_mmm $reads) reads/task-tick (min/median/max)"
	# shellcheck disable=SC2086
	echo "$what: $(bench_mmm $per_read) us per /proc read, the naive peer's" \
	     "$(bench_mmm $naive_read), ours / naive $(bench_mmm $read_ratio) (the tick's floor included)"
	# shellcheck disable=SC2086
	echo "$what: a bare tick costs $(bench_mmm $floor) us; above it, $(bench_mmm $above) us per" \
	     "read, the naive peer's $(bench_mmm $naive_above)"
	# shellcheck disable=SC2086
	bench_judge "$what: cost per read above a bare tick's, ours / naive (median)" \
		"$(bench_median $above_ratio)" le 1.0
	# shellcheck disable=SC2086
	bench_judge "$what: us per task-tick (median)" "$(bench_median $cost)" le 1.0
	# shellcheck disable=SC2086
	bench_judge "$what: achieved Hz / HZ (slowest round)" \
		"$(bench_calc "$(printf '%s\n' $rate | sort -g | head -n 1) / $hz")" ge 0.95
	if [ "$1" = 1024 ] && [ "$2" = run ]; then
		# shellcheck disable=SC2086
		bench_judge "$what: missed ticks (worst round)" \
			"$(printf '%s\n' $missed | sort -g | tail -n 1)" le 0
		# shellcheck disable=SC2086
		bench_judge "$what: share of one CPU (worst round)" \
			"$(printf '%s\n' $share | sort -g | tail -n 1)" le 0.25
	fi
}

for pop in sleep run; do
	for n in 16 128 1024; do
		measure "$n" "$pop" ""
	done
done
measure 256 busy ""
if [ "$(id -u)" = 0 ]; then
	measure 1024 run 1
else
	echo "(not root: no SCHED_FIFO round)"
fi
bench_exit
