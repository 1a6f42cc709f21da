#!/bin/sh
# make fuzz: run one libFuzzer target past its crashes and report each
# distinct one. Usage: run.sh TARGET NAME SEED_DIR...
#   TARGET      the fuzzer binary (./fuzz-profile)
#   NAME        its work directory in the build tree: NAME-corpus/ keeps
#               the inputs worth keeping, NAME-crashes/ the failing ones
# Environment:
#   FUZZ_TIME     seconds to fuzz (default 60)
#   FUZZ_RUNS     executions instead of a time (CI: a fixed amount of work)
#   FUZZ_JOBS     inputs fuzzed in parallel (default 1)
#   FUZZ_TIMEOUT  seconds one input may take before it counts as a hang (10)
# libFuzzer's fork mode with -ignore_crashes keeps fuzzing after a crash, a
# hang or an out-of-memory; every saved input is then replayed alone and
# grouped by its sanitizer summary and the first frame in starve's own code,
# so 34 crashes of one bug print as one. Exit 0 when none, 1 otherwise.
set -u
[ $# -ge 2 ] || { echo "usage: $0 TARGET NAME SEED_DIR..." >&2; exit 2; }
target=$1 name=$2
shift 2
: "${FUZZ_TIME:=60}" "${FUZZ_RUNS:=}" "${FUZZ_JOBS:=1}" "${FUZZ_TIMEOUT:=10}"
corpus=$name-corpus crashes=$name-crashes log=$name.log
mkdir -p "$corpus" "$crashes" || exit 1
if [ -n "$FUZZ_RUNS" ]; then budget=-runs=$FUZZ_RUNS; else budget=-max_total_time=$FUZZ_TIME; fi

# The seeds alone first: fork mode's start-up merge skips a seed that crashes
# without a word, and the seeds hold the regression inputs of fixed crashes.
"$target" -runs=0 -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 -artifact_prefix="$crashes/" \
	"$@" >"$name.seeds.log" 2>&1 || echo "$name: a seed input fails alone: see $name.seeds.log" >&2
"$target" -fork="$FUZZ_JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	-timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 "$budget" \
	-artifact_prefix="$crashes/" "$corpus" "$@" >"$log" 2>&1
rc=$?

# The fork mode's last status line: "#N: cov: ... oom/timeout/crash: a/b/c ...".
execs=$(sed -n 's/^#\([0-9][0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
[ -n "$execs" ] || { echo "$name: the fuzzer did not run (exit $rc); see $log" >&2; tail -n 20 "$log" >&2; exit 1; }

# signature INPUT: what the input breaks and where, one line.
signature() {
	out=$("$target" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 "$1" 2>&1)
	kind=$(printf '%s\n' "$out" | sed -n 's/^SUMMARY: \([A-Za-z]*: [A-Za-z_-]*\).*/\1/p' | head -n 1)
	[ -n "$kind" ] || kind=$(printf '%s\n' "$out" | sed -n 's/.*ERROR: libFuzzer: \([a-z-]*\).*/libFuzzer: \1/p' | head -n 1)
	# the first frame in starve's own sources: "#3 0x... in func dir/file.c:95:40"
	frame=$(printf '%s\n' "$out" | grep -E '^ *#[0-9]+ .* in [^ ]+ .*(lib|loads|harness|reports)/[^ ]*\.c:[0-9]+' |
		grep -v 'tests/fuzz/' | head -n 1 |
		sed 's/.* in \([^ ]*\) .*\/\([a-z]*\/[^/: ]*\.c:[0-9]*\).*/\1 \2/')
	[ -n "$kind" ] || [ -n "$frame" ] || { echo "does not reproduce alone"; return; }
	echo "${kind:-unknown} in ${frame:-an unknown frame}"
}

n=0
sigs=$name.signatures
: >"$sigs"
for f in "$crashes"/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	printf '%s\t%s\n' "$(signature "$f")" "$f" >>"$sigs"
done
if [ "$n" = 0 ]; then
	echo "$name: $execs executions, no crash, hang or out-of-memory"
	exit 0
fi
distinct=$(cut -f1 "$sigs" | sort -u | wc -l)
echo "$name: $execs executions, $n failing inputs, $distinct distinct:"
cut -f1 "$sigs" | sort | uniq -c | sort -rn | while read -r count sig; do
	example=$(grep -F "$sig	" "$sigs" | head -n 1 | cut -f2)
	echo "  $count x $sig (e.g. $example)"
done
exit 1
