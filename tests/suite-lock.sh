#!/bin/sh
# The LOG_COMPILER of make check (Makefile.am): runs the test "$@" (its path
# last) holding the suite lock on fd 9. Tests that run loads or time them
# hold it exclusively, every other test shares it, so under `make -j check`
# the timing tests run one at a time and alone while the rest runs in
# parallel. Unit tests that need it exclusive are named by file in
# $STARVE_LOCKED_TESTS; script tests ask for it themselves (suite_lock in
# tests/lib.sh, which turns the shared lock on fd 9 into an exclusive one).
: "${STARVE_CHECK_LOCK:=/tmp/starve-check.lock}"
for test in "$@"; do :; done
case " ${STARVE_LOCKED_TESTS:-} " in
*" ${test##*/} "*) mode=-x ;;
*) mode=-s ;;
esac
# read-only: whoever made the file first, anyone can lock it
: >>"$STARVE_CHECK_LOCK" 2>/dev/null
exec 9<"$STARVE_CHECK_LOCK" || exit 99
flock -w 900 $mode 9 || { echo "ERROR: $STARVE_CHECK_LOCK busy for 15 minutes" >&2; exit 99; }
STARVE_SUITE_LOCK_FD=9
[ "$mode" = -s ] || STARVE_SUITE_LOCKED=1
export STARVE_SUITE_LOCK_FD STARVE_SUITE_LOCKED
exec "$@"
