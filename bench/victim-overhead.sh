# Benchmark: the cost of cpu-victim's bookkeeping. Its iterations per CPU
# second (iterations / the worker's cpu_s from `starve load cpu-victim --json`)
# against a bare clock_gettime loop (bench/bare-loop.c), both on CPU 1,
# alternating, BENCH_ROUNDS rounds each. Target: at most 5% fewer.
. "${top_srcdir:-.}/bench/lib.sh"
bench_need_starve
bench_need taskset util-linux
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || bench_skip "needs a C compiler ($CC)"
"$CC" -O2 -o "$BENCH_TMP/bare-loop" "$top_srcdir/bench/bare-loop.c" ||
	bench_skip "cannot build bench/bare-loop.c"

DURATION=3
ours="" bare=""
for r in $(seq "$BENCH_ROUNDS"); do
	out=$BENCH_TMP/victim-$r.json
	"$STARVE" load cpu-victim --cpus pu:1 --duration ${DURATION}s --json >"$out" ||
		bench_skip "starve load cpu-victim failed"
	per_cpu=$(bench_jq "$out" '.iterations / ([.workers[].cpu_s] | add) | floor')
	share=$(bench_metric "$out" cpu_share)
	[ -n "$per_cpu" ] || bench_skip "no iterations or workers' cpu_s in starve load --json output"
	b=$(taskset -c 1 "$BENCH_TMP/bare-loop" $DURATION)
	echo "  round $r: cpu-victim $per_cpu iterations per CPU second (cpu share $share), bare loop $b"
	ours="$ours $per_cpu" bare="$bare $b"
done
# shellcheck disable=SC2086
m_ours=$(bench_median $ours) m_bare=$(bench_median $bare)
echo "loop rate on pu:1: cpu-victim median $m_ours/CPU-s, bare clock_gettime loop median $m_bare/CPU-s"
bench_judge "overhead 1 - victim/bare" "$(bench_calc "1 - $m_ours / $m_bare")" le 0.05
bench_exit
