#!/bin/sh
# tests/soak.sh N: run `make check` N times in the build tree (the current
# directory) and print, per test that did not pass every time, how often it
# failed (FAIL or ERROR) and skipped; the logs of each failure are kept in
# $SOAK_OUT (default soak-out/RUN/). Exit 0 when no test failed in any run.
# SOAK_MAKE is the make command (default `make`), e.g. SOAK_MAKE='flock
# /tmp/starve-helpers.lock make -j2' to share the machine between runs;
# extra arguments go to it (tests/soak.sh 10 TESTS='...').
set -u
[ $# -ge 1 ] && [ "$1" -ge 1 ] 2>/dev/null || { echo "usage: tests/soak.sh N [MAKE-ARG...]" >&2; exit 2; }
n=$1; shift
: "${SOAK_MAKE:=make}" "${SOAK_OUT:=soak-out}"
[ -f Makefile ] || { echo "soak: no Makefile here: run it in the build tree" >&2; exit 2; }
rm -rf "$SOAK_OUT"; mkdir -p "$SOAK_OUT"
tally=$SOAK_OUT/tally	# one line per test and run: RUN TEST RESULT
: > "$tally"
i=1
while [ $i -le "$n" ]; do
	start=$(date +%s)
	find tests -name '*.trs' -exec rm -f {} +	# a failed build must not count old results
	# shellcheck disable=SC2086
	$SOAK_MAKE check "$@" > "$SOAK_OUT/make-$i.log" 2>&1
	rc=$?
	[ -n "$(find tests -name '*.trs')" ] || { echo "soak: run $i ran no test:" >&2
		tail -20 "$SOAK_OUT/make-$i.log" >&2; exit 1; }
	for trs in $(find tests -name '*.trs' | sort); do
		t=${trs%.trs}
		r=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
		echo "$i $t ${r:-NONE}" >> "$tally"
		case $r in PASS|SKIP|XFAIL) ;; *)
			mkdir -p "$SOAK_OUT/$i"
			cp "$t.log" "$SOAK_OUT/$i/$(echo "$t" | tr / _).log" 2>/dev/null ;;
		esac
	done
	printf 'soak: run %d of %d: make check exited %d in %d s, %d tests failed\n' "$i" "$n" "$rc" \
		$(( $(date +%s) - start )) "$(awk -v i=$i '$1 == i && $3 != "PASS" && $3 != "SKIP" && $3 != "XFAIL"' "$tally" | wc -l)"
	i=$((i + 1))
done
awk -v n="$n" '
	{ if (!($2 in runs)) tests++; runs[$2]++; if ($3 == "SKIP") skip[$2]++; else if ($3 != "PASS" && $3 != "XFAIL") fail[$2]++ }
	END {
		printf "%-45s %5s %5s %5s\n", "test", "runs", "fail", "skip"
		for (t in runs) if (fail[t] || skip[t]) {
			printf "%-45s %5d %5d %5d\n", t, runs[t], fail[t], skip[t]; bad += fail[t] > 0
		}
		printf "soak: %d runs of make check, %d tests, %d failed at least once\n", n, tests, bad
		exit bad > 0
	}' "$tally"
