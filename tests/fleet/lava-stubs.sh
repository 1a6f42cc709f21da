# Sourced by the LAVA script tests: put stand-ins for LAVA's lava-test-set
# and lava-test-case first in PATH, recording what a script reports into
# $LAVA_LOG as LAVA's results would read ({set, case, result, measurement,
# units}, one JSON object a line), with LAVA's rules: a set and a case are
# one word, a result is pass|fail|skip|unknown, a measurement a number.
# Needs jq and TMPDIR_TEST (tests/lib.sh).
LAVA_BIN=$TMPDIR_TEST/lava-bin
LAVA_LOG=$TMPDIR_TEST/lava-results.jsonl
export LAVA_LOG LAVA_SET_FILE="$TMPDIR_TEST/lava-set"
mkdir -p "$LAVA_BIN"
cat > "$LAVA_BIN/lava-test-set" <<'STUB'
#!/bin/sh
case $1 in
start) [ $# = 2 ] && [ -n "$2" ] || { echo "lava-test-set: bad start: $*" >&2; exit 1; }
       printf '%s' "$2" > "$LAVA_SET_FILE" ;;
stop) [ $# = 1 ] || { echo "lava-test-set: bad stop: $*" >&2; exit 1; }
      rm -f "$LAVA_SET_FILE" ;;
*) echo "lava-test-set: unknown command: $*" >&2; exit 1 ;;
esac
STUB
cat > "$LAVA_BIN/lava-test-case" <<'STUB'
#!/bin/sh
name=$1; shift
case $name in ''|*[!A-Za-z0-9_.-]*) echo "lava-test-case: bad name '$name'" >&2; exit 1 ;; esac
result= measurement= units=
while [ $# -gt 0 ]; do
	case $1 in
	--result) result=$2 ;;
	--measurement) measurement=$2 ;;
	--units) units=$2 ;;
	*) echo "lava-test-case: unknown argument '$1'" >&2; exit 1 ;;
	esac
	shift 2 || { echo "lava-test-case: $1 without a value" >&2; exit 1; }
done
case $result in pass|fail|skip|unknown) ;; *) echo "lava-test-case: bad result '$result'" >&2; exit 1 ;; esac
set=null
[ -f "$LAVA_SET_FILE" ] && set=$(jq -Rn --rawfile s "$LAVA_SET_FILE" '$s')
jq -nc --argjson set "$set" --arg case "$name" --arg result "$result" \
	--arg m "$measurement" --arg u "$units" \
	'{set: $set, case: $case, result: $result}
	 + (if $m != "" then {measurement: ($m | tonumber)} else {} end)
	 + (if $u != "" then {units: $u} else {} end)' >> "$LAVA_LOG"
STUB
chmod +x "$LAVA_BIN/lava-test-set" "$LAVA_BIN/lava-test-case"

# lava_same EXPECTED.json RECORDED.jsonl: the same cases with the same
# results and units, measurements equal to 9 significant digits (the
# script's precision), whatever the order; says what differs otherwise.
lava_same() {
	jq -n --slurpfile want "$1" --slurpfile got "$2" '
		def key: [.set // "", .case];
		def close(a; b): (a == null and b == null) or
			(a != null and b != null and ((a - b) | fabs) <= 1e-8 * ((b | fabs) + 1e-300));
		($want[0] | sort_by(key)) as $w | ($got | sort_by(key)) as $g
		| if ($w | map(key)) != ($g | map(key)) then
			"cases differ: want \($w | map(key)), got \($g | map(key))" | halt_error(1)
		  else [range($w | length)] | map(. as $i | $w[$i] as $a | $g[$i] as $b
			| select($a.result != $b.result or $a.units != $b.units
				 or (close($a.measurement; $b.measurement) | not))
			| "\($a.set).\($a.case): want \($a), got \($b)")
		  | if length > 0 then join("\n") | halt_error(1) else empty end end'
}
