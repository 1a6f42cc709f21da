#!/bin/sh
# `starve report --ktap` writes KTAP version 1 that perl's TAP harness (prove)
# reads: one test per setting, a failing expectation fails its setting, a
# skipped or undecided setting is a SKIP; nested lines are counted too.
. "$top_srcdir/tests/lib.sh"
need_cmd prove
need_cmd perl
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# counts NAME: "tests passed failed skipped" as TAP::Parser sees them
counts() {
	perl -MTAP::Parser -e '
		local $/; open my $f, "<", $ARGV[0] or die; my $tap = <$f>;
		my $p = TAP::Parser->new({ tap => $tap }); while ($p->next) {}
		die "parse errors: @{[$p->parse_errors]}\n" if $p->parse_errors;
		printf "%d %d %d %d\n", $p->tests_run, scalar($p->passed),
		       scalar($p->failed), scalar($p->skipped);' "$T/$1.ktap"
}

for name in pass fail skipped undecided multi odd-names; do
	"$STARVE" report "$R/$name.json" --ktap "$T/$name.ktap"
	head -1 "$T/$name.ktap" | grep -qx 'KTAP version 1' || fail "$name: no version line"
done

prove --exec cat "$T/pass.ktap" >/dev/null 2>&1 || fail "prove rejects pass.ktap"
prove --exec cat "$T/multi.ktap" >/dev/null 2>&1 && fail "prove passes multi.ktap, which failed"
[ "$(counts multi)" = "2 1 1 0" ] || fail "multi: TAP counts are '$(counts multi)'"
[ "$(counts skipped)" = "1 1 0 1" ] || fail "skipped: TAP counts are '$(counts skipped)'"
[ "$(counts undecided)" = "2 2 0 2" ] || fail "undecided: TAP counts are '$(counts undecided)'"
prove --exec cat "$T/undecided.ktap" >/dev/null 2>&1 || fail "undecided must not fail prove"
grep -qx '# Totals: pass:7 fail:2 xfail:0 xpass:0 skip:0 error:0' "$T/multi.ktap" ||
	fail "multi: no kselftest Totals line"
# nested expectation lines: 9 in multi, 2 of them failing
[ "$(grep -c '^  \(not \)\?ok ' "$T/multi.ktap")" = 9 ] || fail "multi: 9 nested results expected"
[ "$(grep -c '^  not ok ' "$T/multi.ktap")" = 2 ] || fail "multi: 2 nested failures expected"
grep -q '^ok 1 victim.starvation_max below 1.2s # SKIP' "$T/skipped.ktap" && fail "skip at wrong level"
# a '#' in a setting name must not turn into a directive
grep -q '^not ok 1 a&b <c> "d" _1|x$' "$T/odd-names.ktap" || fail "odd-names: setting line"
exit 0
