#!/bin/sh
# starve check: every malformed profile under tests/profiles/bad exits 2 with
# exactly the messages stored in its .err file (file:line:col, in file
# order); every good one and every shipped profile exits 0 with its summary
# line; the command's options and usage errors behave; and a name found
# nowhere says where it was looked up.
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

# Sizes starve cannot run are refused with the reason, fast (142k aliased
# expectations passed check and hung run; a 100k-key mapping is quadratic
# in its key checks). Generated: each is a valid profile but for its size.
gen=$TMPDIR_TEST/gen.yaml
head_yaml() { printf 'name: big\nduration: 1s\n'; }
refused() {	# refused WHAT GREP: check $gen exits 2 within 20 s with GREP
	timeout 20 "$STARVE" check "$gen" >"$out" 2>"$err"
	rc=$?
	[ "$rc" = 2 ] || fail "$1: exit $rc, expected 2: $(head -c 300 "$err")"
	grep -q "$2" "$err" || fail "$1: $(head -c 300 "$err")"
}
{ head_yaml; echo 'loads:'
  i=0; while [ $i -lt 65 ]; do echo "  - { name: l$i, type: cpu-victim, cpus: pu:0 }"; i=$((i + 1)); done
} >"$gen"
refused "65 loads" ":4:3: 'loads' has 65 entries; starve runs at most 64 ("
{ head_yaml; echo 'loads:'
  echo '  - { name: a, type: cpu-victim, cpus: pu:0, count: 600 }'
  echo '  - { name: b, type: cpu-victim, cpus: pu:0, count: 600 }'
} >"$gen"
refused "1200 tasks" ":4:3: the loads start 1200 tasks together; starve watches at most 1024"
{ head_yaml; echo 'loads: [ { name: a, type: cpu-victim, cpus: pu:0 } ]'; echo 'expect:'
  echo '  - &e { load: a, metric: cpu_share, above: 1% }'
  i=0; while [ $i -lt 142000 ]; do echo '  - *e'; i=$((i + 1)); done
} >"$gen"
refused "142k aliased expectations" ":5:3: 'expect' has 142001 entries; starve runs at most 1024 ("
{ head_yaml; echo 'loads: [ { name: a, type: cpu-victim, cpus: pu:0 } ]'; echo 'settings:'
  i=0; while [ $i -lt 65 ]; do echo "  - { name: s$i }"; i=$((i + 1)); done
} >"$gen"
refused "65 settings" ":5:3: 'settings' has 65 entries; starve runs at most 64 ("
{ head_yaml; echo 'loads: [ { name: a, type: cpu-victim, cpus: pu:0 } ]'
  echo 'settings:'; echo '  - name: s'; echo '    knobs:'
  i=0; while [ $i -lt 33 ]; do echo "      kernel.sched_x$i: 1"; i=$((i + 1)); done
} >"$gen"
refused "33 knobs" ":7:7: a setting of 33 knobs; starve journals at most 32"
{ head_yaml; echo 'loads: [ { name: a, type: cpu-victim, cpus: pu:0 } ]'
  printf 'settings: [ { name: s, knobs: { kernel.sched_rt_runtime_us: "%05000d" } } ]\n' 1
} >"$gen"
refused "a 5000-character value" ":4:61: knob 'kernel.sched_rt_runtime_us': the value is 5000 characters; a knob takes at most 511"
{ head_yaml; echo 'loads: [ { name: a, type: cpu-victim, cpus: pu:0 } ]'; echo 'compare:'
  i=0; while [ $i -lt 50000 ]; do echo "  k$i: 1"; i=$((i + 1)); done
} >"$gen"
refused "50k keys" ":5:3: a mapping of 50000 keys; a profile's mappings have at most 256"

# One bad list prints its first 20 errors and counts the rest.
{ head_yaml; echo 'loads:'
  i=0; while [ $i -lt 30 ]; do echo "  - { name: l$i, type: nosuch }"; i=$((i + 1)); done
} >"$gen"
refused "30 bad loads" ":24:24: ... and 10 more errors, not shown$"
[ "$(wc -l <"$err")" = 22 ] || fail "30 bad loads: $(wc -l <"$err") lines, want 20, the count and the total"
tail -n 1 "$err" | grep -q ": 30 errors$" || fail "30 bad loads: the total is $(tail -n 1 "$err")"

# Against this machine, as run checks before writing anything: a CPU it
# lacks, and fifo/rr loads on every CPU; both at their 'cpus' value, the
# same message from check and from run.
{ head_yaml; echo 'loads:'; echo '  - { name: a, type: cpu-victim, cpus: "pu:65535" }'; } >"$gen"
refused "pu:65535" ":4:40: load 'a': cpu spec 'pu:65535': this machine has "
grep -v ': 1 error$' "$err" >"$TMPDIR_TEST/check.err"
timeout 20 "$STARVE" run -o "$TMPDIR_TEST/never" "$gen" >/dev/null 2>"$TMPDIR_TEST/run.err"
[ $? = 2 ] || fail "run of pu:65535 must exit 2: $(cat "$TMPDIR_TEST/run.err")"
diff "$TMPDIR_TEST/check.err" "$TMPDIR_TEST/run.err" >&2 || fail "run says pu:65535 differently"
{ head_yaml; echo 'loads:'; echo '  - { name: a, type: cpu-victim, cpus: pu:0 }'
  echo '  - { name: h, type: rt-hog, cpus: all }'; } >"$gen"
refused "RT on every CPU" ":5:36: its fifo/rr loads together cover every CPU ("
printf 'allow_rt_on_all_cpus: true\n' >>"$gen"
"$STARVE" check "$gen" >"$out" 2>"$err" || fail "allow_rt_on_all_cpus must allow it: $(cat "$err")"

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
# a name found nowhere says where it was looked up, and what lists the names
(cd "$TMPDIR_TEST" && STARVE_DATADIR="$TMPDIR_TEST/data" "$STARVE" check no-such-profile) \
	>"$out" 2>"$err"
[ $? = 2 ] || fail "a missing profile name must exit 2"
for where in "'no-such-profile'" ./profiles "$TMPDIR_TEST/data/profiles" known/ "'starve list'"; do
	grep -qF -- "$where" "$err" || fail "a missing profile name does not say $where: $(cat "$err")"
done
exit 0
