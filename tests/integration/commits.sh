#!/bin/sh
# Commit messages keep the kernel's habit: tools/check-commits passes on this
# clone's commits since tools/commit-base, and in a scratch repository it
# names a long subject, a subject without `area:` and a missing body, lets a
# typo fix and a merge pass, and skips a shallow clone without the base.
. "$top_srcdir/tests/lib.sh"
need_cmd git
check="$(cd "$top_srcdir" && pwd)/tools/check-commits"

if [ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	"$check" "$top_srcdir" >"$TMPDIR_TEST/out" 2>&1 ||
		fail "commits since tools/commit-base break the rule: $(cat "$TMPDIR_TEST/out")"
fi

r="$TMPDIR_TEST/repo"
git init -q "$r" && cd "$r" || fail "git init"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
commit() { echo "$1" >>f && git add f && git commit -q -m "$1" ${2:+-m "$2"}; }
commit "base: start" "why"
base=$(git rev-parse HEAD)
commit "lib: a good subject" "The body says why."
commit "doc: fix a typo"
git checkout -q -b side
commit "tests: on a side branch" "Because."
git checkout -q -
git merge -q --no-ff -m "Merge branch 'side'" side
"$check" "$r" "$base" >"$TMPDIR_TEST/out" 2>&1 || fail "good commits refused: $(cat "$TMPDIR_TEST/out")"

long="run: $(printf '%070d' 0)"
commit "$long" "why"
commit "no area in this subject" "why"
commit "kernel: no body"
"$check" "$r" "$base" >"$TMPDIR_TEST/out" 2>&1 && fail "bad commits passed"
grep -q "subject is 75 characters, at most 72: $long" "$TMPDIR_TEST/out" ||
	fail "the long subject is not named: $(cat "$TMPDIR_TEST/out")"
grep -q 'is not `area: what changed`: no area' "$TMPDIR_TEST/out" ||
	fail "the subject without an area is not named: $(cat "$TMPDIR_TEST/out")"
grep -q 'no body saying why.*: kernel: no body' "$TMPDIR_TEST/out" ||
	fail "the missing body is not named: $(cat "$TMPDIR_TEST/out")"
[ "$(wc -l <"$TMPDIR_TEST/out")" = 3 ] || fail "a good commit was flagged: $(cat "$TMPDIR_TEST/out")"

git clone -q --depth 1 "file://$r" "$TMPDIR_TEST/shallow" 2>/dev/null || fail "shallow clone"
"$check" "$TMPDIR_TEST/shallow" "$base" >"$TMPDIR_TEST/out" 2>&1 ||
	fail "a shallow clone without the base failed: $(cat "$TMPDIR_TEST/out")"
grep -q 'not in this clone' "$TMPDIR_TEST/out" || fail "the skip is not said: $(cat "$TMPDIR_TEST/out")"
exit 0
