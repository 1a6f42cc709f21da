# Shared helpers for the script tests (sourced). Exit codes follow automake:
# 0 pass, 1 fail, 77 skip, 99 hard error. CONTRIBUTING.md says when to use which.
set -u
: "${STARVE:=./starve}" "${top_srcdir:=.}" "${SHARED_DIR:=$top_srcdir/../shared}"
TMPDIR_TEST=$(mktemp -d)
trap 'rm -rf "$TMPDIR_TEST"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1"; }
# expect_exit CODE CMD...: run CMD, fail unless it exits with CODE
expect_exit() {
	want=$1; shift
	"$@"; got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want"
}

# judged RC: true when RC is a run's verdict: 0 pass, 1 fail, 4 no verdict
# (undecided on a busy machine, or skipped), not an error.
judged() {
	case $1 in 0|1|4) return 0 ;; esac
	return 1
}

# check_json FILE EXPR WHAT [JQ-OPTION...]: fail saying WHAT unless the jq
# expression EXPR is true on the JSON document FILE (jq -e: not false, not
# null). JQ-OPTIONs such as --arg NAME VALUE or --argjson NAME JSON pass
# values from the shell.
check_json() {
	local file="$1" expr="$2" what="$3"; shift 3
	need_cmd jq
	jq -e "$@" "$expr" "$file" >/dev/null 2>"$TMPDIR_TEST/jq.err" ||
		fail "$file: $what (jq: $(echo "$expr" | tr -s ' \t\n' ' ')$(
			[ -s "$TMPDIR_TEST/jq.err" ] && echo "; $(cat "$TMPDIR_TEST/jq.err")"))"
}

# check_schema FILE...: each FILE is a valid starve result by the schema
# compiled into starve (reports/result/result-schema.json, through starve report,
# which exits 2 on an invalid result and names the place).
check_schema() {
	local f
	for f in "$@"; do
		"$STARVE" report "$f" --json /dev/null >/dev/null 2>"$TMPDIR_TEST/schema.err"
		case $? in
		0|1|4) ;;
		*) fail "$f does not match reports/result/result-schema.json: $(cat "$TMPDIR_TEST/schema.err")" ;;
		esac
	done
}

# suite_lock: a test that runs live loads or times anything calls this first
# (or before its first such step), so `make -j check` runs such tests one at
# a time and alone: they would disturb each other's figures and journal each
# other's knobs. The lock is an exclusive flock held on fd 9 until the test
# exits; under make check, tests/suite-lock.sh already holds it on fd 9,
# shared (or exclusive for the unit tests it names), and this converts it.
: "${STARVE_CHECK_LOCK:=/tmp/starve-check.lock}"
suite_lock() {
	[ -z "${STARVE_SUITE_LOCKED:-}" ] || return 0
	need_cmd flock
	if [ -z "${STARVE_SUITE_LOCK_FD:-}" ]; then
		: >>"$STARVE_CHECK_LOCK" 2>/dev/null
		exec 9<"$STARVE_CHECK_LOCK" || fail "cannot open $STARVE_CHECK_LOCK"
	fi
	flock -w 900 -x 9 || fail "$STARVE_CHECK_LOCK was held by other tests for 15 minutes"
	STARVE_SUITE_LOCKED=1
	export STARVE_SUITE_LOCKED
}
