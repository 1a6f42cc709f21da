#!/bin/sh
# Every consumer reads the verdict the exit status gives (doc/ci-gating.md,
# "What each verdict is where"), for every verdict kind, with and without
# --strict: JUnit as xmllint reads it against the xunit plugin's XSD, KTAP as
# prove reads it, KCIDB against KCIDB's schema (node-ajv, when installed),
# LAVA through stand-ins for LAVA's commands. The results are
# tests/results/pass.json edited with jq so that judging gives each kind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fleet/kcidb-lib.sh"
need_cmd jq
need_cmd xmllint
need_cmd prove
XSD="$SHARED_DIR/schemas/junit-10.xsd"
[ -r "$XSD" ] || skip "no $XSD"
T="$TMPDIR_TEST"
. "$top_srcdir/tests/fleet/lava-stubs.sh"
PASS="$top_srcdir/tests/results/pass.json"

# kind NAME JQ: a result whose verdicts judge to NAME (one run, two
# expectations on the victim: starvation_max and cpu_share)
kind() { jq "$2" "$PASS" > "$T/$1.json" || fail "jq: $1"; }
kind pass '.'
kind fail '.runs[0].loads[1].metrics.starvation_max = 1.5'
kind skip '.runs[0] |= (.status = "skipped" | .reason = "knob x is not available"
	| .loads = [] | del(.sampler, .noise) | .duration_s = 0)'
kind undecided '.runs[0].noise.other_cpu_share = 0.5'
kind unmeasured 'del(.runs[0].loads[1].metrics.cpu_share)'

# word OUTCOME FORMAT: the documented word of an outcome in FORMAT
word() {
	case $2 in
	exit) case $1 in pass) echo 0 ;; fail) echo 1 ;; skip) echo 4 ;; esac ;;
	kcidb) echo "$1" | tr a-z A-Z ;;
	*) echo "$1" ;;
	esac
}
# outcome VERDICT STRICT: the table's row for one verdict
outcome() {
	case $1 in
	undecided) [ "$2" = strict ] && echo fail || echo skip ;;
	*) echo "$1" ;;
	esac
}

check() {	# check NAME STRICT(strict|plain) WANT_EXIT
	name=$1 mode=$2 want=$3 out="$T/$1-$2"
	opt=--recompute
	[ "$mode" = strict ] && opt=--strict
	"$STARVE" report "$T/$name.json" $opt --json "$out.json" --junit "$out.xml" \
		--ktap "$out.ktap" --kcidb "$out.kcidb.json" --lava "$out.lava.sh" 2>/dev/null
	code=$?
	[ "$code" = "$want" ] || fail "$name $mode: exit $code, want $want"
	overall=$(case $code in 0) echo pass ;; 1) echo fail ;; 4) echo skip ;; esac)

	# JUnit: valid, and failed exactly when starve exits 1 (a JUnit gate
	# has no "all skipped": every case skipped is a green build)
	xmllint --noout --schema "$XSD" "$out.xml" 2>"$T/err" ||
		fail "$name $mode: JUnit invalid: $(cat "$T/err")"
	jfail=$(xmllint --xpath 'count(//testcase[failure or error])' "$out.xml")
	[ "$(xmllint --xpath 'string(/testsuites/@failures)' "$out.xml")" = "$jfail" ] ||
		fail "$name $mode: JUnit failures attribute is not its failed cases"
	[ $((jfail > 0)) = $((code == 1)) ] || fail "$name $mode: JUnit has $jfail failures, exit $code"

	# KTAP: prove fails exactly when starve exits 1
	prove --exec cat "$out.ktap" >"$T/prove.out" 2>&1
	p=$?
	[ $((p != 0)) = $((code == 1)) ] ||
		fail "$name $mode: prove exit $p, starve $code: $(cat "$T/prove.out")"

	# KCIDB: the run's test is the exit status
	[ -z "$validator" ] || kcidb_validate "$out.kcidb.json"
	[ "$(jq -r '.tests[] | select(.path | test("^starve\\.[^.]+$")) | .status' \
		"$out.kcidb.json")" = "$(word "$overall" kcidb)" ] ||
		fail "$name $mode: KCIDB run status is not $(word "$overall" kcidb)"

	# LAVA: the run's case is the exit status
	: > "$LAVA_LOG"
	PATH="$LAVA_BIN:$PATH" sh "$out.lava.sh" >/dev/null || fail "$name $mode: LAVA script failed"
	[ "$(jq -r 'select(.set == null) | .result' "$LAVA_LOG")" = "$overall" ] ||
		fail "$name $mode: LAVA run result is not $overall"

	# every case, in every format, is the table's word for its verdict
	jq -r '.runs[].verdicts[].verdict' "$out.json" > "$T/kinds"
	[ -s "$T/kinds" ] || fail "$name: no verdicts"
	i=0
	while read -r k; do
		i=$((i + 1))
		o=$(outcome "$k" "$mode")
		j=$(xmllint --xpath "name((//testcase)[$i]/*[self::failure or self::skipped])" \
			"$out.xml")
		[ "${j:-pass}" = "$(echo "$o" | sed 's/fail/failure/; s/skip/skipped/')" ] ||
			fail "$name $mode: JUnit case $i ($k) is '${j:-pass}', want $o"
		kt=$(grep -E "^  (not )?ok $i " "$out.ktap")
		case $o in
		pass) case $kt in "  ok $i "*) case $kt in *"# SKIP"*) false ;; esac ;; *) false ;; esac ;;
		fail) case $kt in "  not ok $i "*) ;; *) false ;; esac ;;
		skip) case $kt in "  ok $i "*"# SKIP "*) ;; *) false ;; esac ;;
		esac || fail "$name $mode: KTAP case $i ($k) is '$kt', want $o"
		kc=$(jq -r "[.tests[] | select(.path | test(\"^starve\\\\.[^.]+\$\") | not)][$((i - 1))].status" \
			"$out.kcidb.json")
		[ "$kc" = "$(word "$o" kcidb)" ] || fail "$name $mode: KCIDB case $i ($k) is $kc, want $o"
		lc=$(jq -rs "[.[] | select(.set != null)][$((i - 1))].result" "$LAVA_LOG")
		[ "$lc" = "$o" ] || fail "$name $mode: LAVA case $i ($k) is $lc, want $o"
	done < "$T/kinds"
	# KTAP's totals count the cases
	grep -q "^# Totals: pass:$(grep -c '^pass$' "$T/kinds") fail:$(
		[ "$mode" = strict ] && grep -cE '^(fail|undecided)$' "$T/kinds" || grep -c '^fail$' "$T/kinds"
		) " "$out.ktap" || fail "$name $mode: KTAP totals do not count the cases: $(grep Totals "$out.ktap")"
}

validator=$(kcidb_validator)
[ -r "$KCIDB_SCHEMA" ] || validator=
for mode in plain strict; do
	check pass $mode 0
	check fail $mode 1
	check skip $mode 4
done
check undecided plain 4
check undecided strict 1
check unmeasured plain 4
check unmeasured strict 1
# the kinds are what they claim to be
[ "$(jq -r '.summary | "\(.pass) \(.undecided)"' "$T/unmeasured-plain.json")" = "1 1" ] ||
	fail "unmeasured.json does not judge to one pass and one undecided"
jq -e '.runs[0].verdicts[] | select(.verdict == "undecided") | .reason | test("not measured")' \
	"$T/unmeasured-plain.json" >/dev/null || fail "unmeasured: the reason does not say not measured"
[ "$(jq -r '.summary.undecided' "$T/undecided-plain.json")" = 2 ] || fail "undecided.json: 2 undecided"
[ -n "$validator" ] || echo "note: KCIDB schema not checked (needs node-ajv)"
exit 0
