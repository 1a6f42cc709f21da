#!/bin/sh
# starve check: every malformed profile under tests/profiles/bad exits 2 with
# exactly the messages stored in its .err file (file:line:col, in file
# order); every good one and every shipped profile exits 0 with its summary
# line; and the command's options and usage errors behave.
. "$top_srcdir/tests/lib.sh"

bad_dir=$top_srcdir/tests/profiles/bad
good_dir=$top_srcdir/tests/profiles/good
out=$TMPDIR_TEST/out
err=$TMPDIR_TEST/err

# check_in DIR FILE...: run starve check from DIR so messages name FILE as given.
check_in() {
	dir=$1; shift
	(cd "$dir" && "$STARVE" check "$@") >"$out" 2>"$err"
}

n_bad=0
for yaml in "$bad_dir"/*.yaml; do
	base=$(basename "$yaml" .yaml)
	[ -f "$bad_dir/$base.err" ] || fail "$base.yaml has no $base.err next to it"
	check_in "$bad_dir" "$base.yaml"; rc=$?
	[ "$rc" = 2 ] || fail "$base.yaml: exit $rc, expected 2"
	[ -s "$out" ] && fail "$base.yaml: printed on stdout: $(cat "$out")"
	diff -u "$bad_dir/$base.err" "$err" >&2 || fail "$base.yaml: messages differ"
	n_bad=$((n_bad + 1))
done
[ "$n_bad" -ge 24 ] || fail "only $n_bad malformed profiles (want at least 24)"

n_good=0
for yaml in "$good_dir"/*.yaml; do
	base=$(basename "$yaml" .yaml)
	check_in "$good_dir" "$base.yaml"; rc=$?
	[ "$rc" = 0 ] || fail "$base.yaml: exit $rc, expected 0: $(cat "$err")"
	[ -s "$err" ] && fail "$base.yaml: printed on stderr: $(cat "$err")"
	diff -u "$good_dir/$base.out" "$out" >&2 || fail "$base.yaml: summary differs"
	n_good=$((n_good + 1))
done
[ "$n_good" -ge 3 ] || fail "only $n_good good profiles"

# Every shipped profile is valid.
for yaml in "$top_srcdir"/profiles/*.yaml; do
	"$STARVE" check "$yaml" >"$out" 2>"$err" || fail "shipped $yaml: $(cat "$err")"
	grep -q ": ok (" "$out" || fail "shipped $yaml: no summary line"
done

# Several files: all are checked, one bad one makes the exit 2.
check_in "$top_srcdir/tests/profiles" good/minimal.yaml bad/empty.yaml good/attach-only.yaml
[ $? = 2 ] || fail "a bad profile among good ones must exit 2"
[ "$(grep -c ': ok (' "$out")" = 2 ] || fail "both good profiles must be reported ok"
grep -q "^bad/empty.yaml:1:1: " "$err" || fail "the bad profile's error is missing"

# --quiet: nothing on stdout, errors still on stderr, no per-file count.
check_in "$good_dir" --quiet minimal.yaml
[ $? = 0 ] && [ ! -s "$out" ] || fail "--quiet must print nothing for a good profile"
check_in "$bad_dir" -q empty.yaml
[ $? = 2 ] || fail "--quiet must keep exit 2 for a bad profile"
[ "$(cat "$err")" = "empty.yaml:1:1: the profile is empty; it needs at least 'name', 'duration' and 'loads'" ] ||
	fail "--quiet must print the errors only: $(cat "$err")"

# starve-profile(5) documents every key the parser knows: the top-level keys
# and a load's keys, as listed by the parser itself in its hints.
man5=$top_srcdir/doc/starve-profile.5
printf 'name: x\nduration: 1s\nloads: [ { name: a, type: cpu-victim, zz: 1 } ]\nzz: 1\n' \
	>"$TMPDIR_TEST/keys.yaml"
"$STARVE" check "$TMPDIR_TEST/keys.yaml" 2>"$err" >/dev/null
keys=$(sed -n 's/.*(known keys: \(.*\))$/\1/p' "$err" | tr -d ',')
[ "$(echo "$keys" | wc -w)" -ge 20 ] || fail "no key lists in: $(cat "$err")"
for key in $keys; do
	grep -q "^\.BR* $key\b" "$man5" || fail "starve-profile(5) does not document '$key'"
done

# Its LOAD TYPES section is exactly what 'starve list --man' prints.
sed -n '/^\.\\" BEGIN starve list --man/,/^\.\\" END starve list --man/p' "$man5" |
	sed '1d;$d' >"$TMPDIR_TEST/types.man"
[ -s "$TMPDIR_TEST/types.man" ] || fail "starve-profile(5) has no generated LOAD TYPES part"
"$STARVE" list --man >"$TMPDIR_TEST/list.man" || fail "starve list --man failed"
diff -u "$TMPDIR_TEST/types.man" "$TMPDIR_TEST/list.man" >&2 ||
	fail "doc/starve-profile.5 LOAD TYPES differs from 'starve list --man': run 'make update-man'"

# Usage.
"$STARVE" check --help >"$out" 2>&1 || fail "check --help must exit 0"
grep -q "^usage: starve check" "$out" || fail "check --help prints no usage"
grep -q -- "--quiet" "$out" || fail "check --help does not describe --quiet"
expect_exit 2 "$STARVE" check 2>/dev/null
expect_exit 2 "$STARVE" check --bogus "$good_dir/minimal.yaml" 2>/dev/null
"$STARVE" check "$TMPDIR_TEST/missing.yaml" >"$out" 2>"$err"
[ $? = 2 ] || fail "a missing file must exit 2"
grep -q "cannot open profile" "$err" || fail "a missing file must say so: $(cat "$err")"
exit 0
