# Shared helpers for the script tests (sourced). Exit codes follow automake:
# 0 pass, 1 fail, 77 skip, 99 hard error.
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
