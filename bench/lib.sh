# Shared helpers of the benchmarks (sourced by bench/*.sh). A benchmark that
# cannot run here prints "SKIP: why" and exits 0, so `make bench` goes on;
# BENCH_STRICT=1 makes a missed target exit 1.
set -u
: "${STARVE:=./starve}" "${top_srcdir:=.}" "${BENCH_ROUNDS:=3}" "${BENCH_STRICT:=0}"
BENCH_TMP=$(mktemp -d)
BENCH_PIDS=""
bench_cleanup() {
	# only the background loads this script started, by PID
	for p in $BENCH_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

bench_skip() { echo "SKIP: $*"; exit 0; }
# bench_why FILE: the last error line of a command's output FILE, for a
# skip or a miss that must say why ("starve run wrote no result: ...")
bench_why() { grep -m1 -i 'error' "$1" 2>/dev/null || tail -n 1 "$1" 2>/dev/null; }

# bench_need CMD PACKAGE: install PACKAGE with apt-get when CMD is missing
# and we are root, else skip.
bench_need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "installing $2 for $1"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1
	fi
	command -v "$1" >/dev/null 2>&1 || bench_skip "needs $1 (Debian package $2)"
}

# The starve binary must exist and `starve load` must work.
bench_need_starve() {
	[ -x "$STARVE" ] || bench_skip "no starve binary at $STARVE (run make first)"
	"$STARVE" load --help >/dev/null 2>&1 || bench_skip "'starve load' is not usable here"
	bench_need jq jq
}

# bench_metric FILE NAME: metric NAME of the (first) load in a
# `starve load --json` document, as printed; empty when absent.
bench_metric() {
	jq -r --arg k "$2" 'first(.. | objects | select(has("metrics")) | .metrics[$k]) // empty' "$1"
}

# bench_jq FILE EXPR: any jq expression on a `starve load --json` document
bench_jq() { jq -r "$2 // empty" "$1"; }

# median of the arguments
bench_median() {
	printf '%s\n' "$@" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# min/median/max of the arguments, as "MIN/MEDIAN/MAX"
bench_mmm() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s/%s/%s\n", v[1], m, v[NR] }'
}

# bench_children_cpu VAR: set VAR to the user + system seconds of every
# child this shell has waited for, from the kernel's own accounting (the
# shell's `times`, run here and not in a subshell): the difference around a
# command is that command's CPU time, with no wrapper around it.
bench_children_cpu() {
	times >"$BENCH_TMP/times"
	eval "$1=\$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split(\$i, a, \"m\"); sub(\"s\", \"\", a[2]); t += a[1] * 60 + a[2] } print t }' \"\$BENCH_TMP/times\")"
}

# bench_calc EXPR: floating-point arithmetic through awk
bench_calc() { awk "BEGIN { printf \"%.6g\n\", $* }"; }
# bench_int EXPR: the same, rounded to an integer (never in e-notation)
bench_int() { awk "BEGIN { printf \"%d\n\", $* }"; }

# bench_judge WHAT VALUE OP TARGET (OP: ge or le, or within for +-TARGET
# around 1): prints the verdict and remembers a miss for bench_exit.
BENCH_MISSED=0
bench_judge() {
	# no figure is a miss, never a pass: awk reads "" as 0, which met "le 0"
	case $3 in ge) rel=">=";; le) rel="<=";; *) rel="within 1 +-";; esac
	case $2 in
	'' | *[!0-9.eE+-]*)
		echo "  $1 = ${2:-nothing} (target $rel $4): MISSED, no figure"
		BENCH_MISSED=1
		return ;;
	esac
	ok=$(awk -v v="$2" -v op="$3" -v t="$4" 'BEGIN {
		if (op == "ge") r = v >= t; else if (op == "le") r = v <= t;
		else r = v >= 1 - t && v <= 1 + t; print r }')
	if [ "$ok" = 1 ]; then
		echo "  $1 = $2 (target $rel $4): ok"
	else
		echo "  $1 = $2 (target $rel $4): MISSED"
		BENCH_MISSED=1
	fi
}

bench_exit() {
	[ "$BENCH_STRICT" = 1 ] && exit "$BENCH_MISSED"
	exit 0
}
