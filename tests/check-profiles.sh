#!/bin/sh
# make check-profiles: run every shipped profile (profiles/*.yaml) with a
# reduced repeat and check it keeps the promise of its header:
#   # expect-exit: N        the exit status of starve run (default 0)
#   # expect-reason: TEXT   text the output must hold (e.g. a skip reason)
# and, for exit 0, that no verdict failed. Undecided verdicts (a noisy
# machine) are reported, and fail the check only with STRICT=1.
# Not part of make check: it takes a few minutes and writes live knobs
# (each journaled and restored by starve run). Needs root.
# Environment: STARVE, top_srcdir, REPEAT (default 1), PROFILES (a list of
# files instead of profiles/*.yaml), KEEP (a directory to keep results in).
set -u
: "${STARVE:=./starve}" "${top_srcdir:=.}" "${REPEAT:=1}" "${STRICT:=0}"
[ "$(id -u)" = 0 ] || { echo "check-profiles: needs root (profiles write knobs)" >&2; exit 77; }
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
command -v jq >/dev/null || { echo "check-profiles: needs jq" >&2; exit 77; }
# make check's tests that run loads take the same lock (tests/lib.sh
# suite_lock): never interleave with them.
lock=${STARVE_CHECK_LOCK:-/tmp/starve-check.lock}
: >>"$lock" 2>/dev/null
exec 9<"$lock"
flock -w 300 9 || { echo "check-profiles: $lock busy for 5 minutes" >&2; exit 1; }

header() {	# header FILE KEY: the value of '# KEY: value' in FILE's header
	sed -n "s/^# $2: *//p" "$1" | head -n 1
}

# check_one FILE: run it, print one line, return 0 when it kept its promise.
check_one() {
	f=$1; name=$(basename "$f" .yaml); out="$work/$name"
	want=$(header "$f" expect-exit); want=${want:-0}
	reason=$(header "$f" expect-reason)
	start=$(date +%s)
	"$STARVE" run --quiet --repeat "$REPEAT" -o "$out" "$f" > "$out.log" 2>&1
	got=$?
	secs=$(( $(date +%s) - start ))
	summary=$(jq -er '.summary | "\(.verdict) pass=\(.pass) fail=\(.fail) skip=\(.skip) undecided=\(.undecided)"' \
		"$out/result.json" 2>/dev/null) || summary="no result"
	why=
	[ "$got" = "$want" ] || why="exited $got, header promises $want"
	[ -z "$why" ] && [ -n "$reason" ] && ! grep -qF -- "$reason" "$out.log" &&
		why="output lacks '$reason'"
	case "$summary" in *undecided=0*|"no result") ;; *)
		[ -z "$why" ] && [ "$STRICT" = 1 ] && why="undecided verdicts (STRICT=1)" ;; esac
	if [ -n "$why" ]; then
		printf 'FAIL  %-24s %3ss  %s: %s\n' "$name" "$secs" "$summary" "$why"
		sed 's/^/      | /' "$out.log"
		return 1
	fi
	printf 'ok    %-24s %3ss  exit %s, %s\n' "$name" "$secs" "$got" "$summary"
}

failed=0
for f in ${PROFILES:-"$top_srcdir"/profiles/*.yaml}; do
	check_one "$f" || failed=$((failed + 1))
done
[ "$failed" = 0 ] || { echo "check-profiles: $failed profile(s) broke their promise" >&2; exit 1; }
echo "check-profiles: every profile kept its promise (repeat $REPEAT)"
