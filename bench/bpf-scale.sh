# Benchmark: BPF mode's cost against the /proc sampler's at 1024 and 4096
# running threads (each wakes every SAMPLER_BENCH_PERIOD_MS, default 20 ms at
# 1024 and 80 ms at 4096 so both keep about one CPU busy with wake-ups on a
# small machine, and works 20 us), SECONDS_EACH (2) s each, BENCH_ROUNDS
# rounds, alternating: the share of one CPU each takes (BPF: its programs'
# run time plus reading every thread's record at 4 Hz; the sampler: its
# thread at HZ), their ratio, the sampler's missed ticks, BPF's lost tasks
# and threads without figures. Goals: BPF at most 25% of one CPU, no tick
# or event lost with BPF. Root and BPF mode; else SKIP.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
[ "$(id -u)" = 0 ] || bench_skip "BPF mode needs root"
bin=${SAMPLER_BENCH:-$(dirname "$STARVE")/bench/sampler-bench}
[ -x "$bin" ] || bench_skip "no $bin (run 'make bench' to build it)"
[ "$("$STARVE" env --json | jq -r '.bpf.available')" = true ] ||
	bench_skip "BPF mode unavailable: $("$STARVE" env --json | jq -r '.bpf.reason')"
: "${SECONDS_EACH:=2}"
hz=$("$STARVE" env --json | jq -r '.kernel.hz')
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

for n in 1024 4096; do
	period=${SAMPLER_BENCH_PERIOD_MS:-$((n / 1024 * 20))}
	b_share="" p_share="" ratio="" missed="" lost=0 unseen=0
	for r in $(seq "$BENCH_ROUNDS"); do
		b=$(SAMPLER_BENCH_PERIOD_MS=$period "$bin" "$n" "$SECONDS_EACH" "$hz" bpf run) ||
			bench_skip "sampler-bench bpf failed"
		p=$(SAMPLER_BENCH_PERIOD_MS=$period "$bin" "$n" "$SECONDS_EACH" "$hz" kept run) ||
			bench_skip "sampler-bench kept failed"
		b_share="$b_share $(field cpu_share "$b")" p_share="$p_share $(field cpu_share "$p")"
		ratio="$ratio $(bench_calc "$(field cpu_share "$b") / $(field cpu_share "$p")")"
		missed="$missed $(field missed "$p")"
		lost=$((lost + $(field lost_tasks "$b"))) unseen=$((unseen + $(field unseen "$b")))
	done
	# shellcheck disable=SC2086
	echo "$n threads waking every $period ms: share of one CPU, BPF $(bench_mmm $b_share)," \
	     "/proc sampler $(bench_mmm $p_share), BPF / sampler $(bench_mmm $ratio); sampler" \
	     "missed ticks $(bench_mmm $missed); BPF lost $lost tasks, $unseen without figures"
	# shellcheck disable=SC2086
	bench_judge "$n threads: BPF's share of one CPU (worst round)" \
		"$(printf '%s\n' $b_share | sort -g | tail -n 1)" le 0.25
	bench_judge "$n threads: BPF tasks lost or without figures" "$((lost + unseen))" le 0
done
bench_exit
