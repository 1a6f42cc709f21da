#!/bin/sh
# starve compare reads well: its first lines are the verdict and the gated
# changes that decided it (the victim's, on the recorded rt-victim pair);
# the Markdown heading carries the verdict and the kernels; no interval in
# any fixture's comparison (text, Markdown, HTML) says "inf" or a value over
# 10000 %, and each printed interval holds its estimate; a significant
# change smaller than its threshold says "within margin"; the rows that
# do not gate come under their own heading; one run a side is UNDECIDED
# (never NO REGRESSION), with why and what would decide it.
. "$top_srcdir/tests/lib.sh"
d=$top_srcdir/tests/compare
T=$TMPDIR_TEST

"$STARVE" compare "$d/rt-old.json" "$d/rt-new.json" > "$T/rt.txt"
head -n 5 "$T/rt.txt" > "$T/head"
grep -q '^UNDECIDED in rt-victim: rt-new against 6.18.44-fc-v1272$' "$T/head" ||
	fail "the first line is not the verdict: $(head -n 1 "$T/rt.txt")"
grep -q 'victim starvation_max: 950ms -> 400.3ms, -57.9%' "$T/head" ||
	fail "the victim's change is not in the first five lines: $(cat "$T/head")"
grep -q '^information: rows that do not gate' "$T/rt.txt" || fail "no heading for the informational rows"
sed -n '/^information: /,$p' "$T/rt.txt" | grep -q '^victim ' && fail "a gated row is under information"
sed -n '1,/^information: /p' "$T/rt.txt" | grep -q '^hog ' && fail "an informational row is above its heading"
grep -q 'undecided: 5 of 5 gated rows (one run a side: 5); not a pass: exit 4' "$T/rt.txt" ||
	fail "one run a side: the headline does not say why it is undecided"
grep -q 'would decide: repeat >= 2 on both sides, or --until-decided' "$T/rt.txt" ||
	fail "one run a side: the headline does not say what would decide"
grep -q 'NO REGRESSION' "$T/rt.txt" && fail "one run a side reads NO REGRESSION"
grep -q '(median)' "$T/rt.txt" || fail "the value columns are not labelled as medians"
grep -q '1 ok run)$' "$T/rt.txt" || fail "one run is not '1 ok run'"
"$STARVE" compare "$d/rt-old.json" "$d/rt-new.json" --markdown > "$T/rt.md"
head -n 1 "$T/rt.md" | grep -q '^### starve compare: UNDECIDED in rt-victim: rt-new against 6.18.44-fc-v1272$' ||
	fail "Markdown heading: $(head -n 1 "$T/rt.md")"

# a significant change shown inside its threshold (+20.6%, p 0.0079,
# threshold 30%)
"$STARVE" compare --threshold wakeup_p99=30 "$d/base.json" "$d/slower.json" > "$T/w.txt"
grep -Eq '^probe +wakeup_p99 .*\+20\.6% .* within margin$' "$T/w.txt" || fail "not within margin"

# starve vm's own pair (6.1 vs 6.12 cloud under TCG, rt-throttle, 3 runs a
# side): the unthrottled victim's improvement leads, but the throttled
# victim's share (+12% [-9%, +24%]) is neither the same nor changed, so the
# comparison is undecided, not "no regression"; a change that is not
# significant after Holm is not "within margin"
"$STARVE" compare "$d/vm-6.1-rt-throttle.json" "$d/vm-6.12-rt-throttle.json" > "$T/vm.txt"
head -n 5 "$T/vm.txt" > "$T/head"
grep -q '^UNDECIDED in rt-throttle: 6.12.118+deb12-cloud-amd64 against 6.1.0-57-cloud-amd64$' "$T/head" ||
	fail "vm pair: the first line is not the verdict: $(head -n 1 "$T/vm.txt")"
grep -q 'unthrottled victim starvation_max: 5.014s -> 953ms' "$T/head" ||
	fail "vm pair: the victim's change is not in the first five lines: $(cat "$T/head")"
grep -E '^throttled +victim +cpu_share ' "$T/vm.txt" | grep -q 'within margin' &&
	fail "vm pair: a change not significant after Holm reads 'within margin'"

# every pair of fixtures of one profile, in every output
n=0
for a in "$d"/*.json "$d"/aa/alone-01a.json "$d"/aa/shared-01a.json; do
	for b in "$d"/*.json "$d"/aa/alone-01b.json "$d"/aa/shared-01b.json; do
		[ "$a" = "$b" ] && continue
		"$STARVE" compare "$a" "$b" > "$T/o.txt" 2>/dev/null
		case $? in 0|1|4) ;; *) continue ;; esac	# different profiles, not a result
		"$STARVE" compare "$a" "$b" --markdown > "$T/o.md" 2>/dev/null
		"$STARVE" compare "$a" "$b" --html "$T/o.html" >/dev/null 2>&1
		for o in "$T/o.txt" "$T/o.md" "$T/o.html"; do
			grep -qi 'inf%\|[^a-z]inf\b' "$o" && fail "inf in $(basename "$a") vs $(basename "$b"): $(grep -i inf "$o" | head -2)"
			grep -Eq '[0-9]{5,}(\.[0-9]+)?%' "$o" &&
				fail "a value over 10000% in $(basename "$a") vs $(basename "$b"): $(grep -E '[0-9]{5,}(\.[0-9]+)?%' "$o" | head -2)"
		done
		# an interval holds its estimate: "EST% [LO%, HI%]" with LO <= EST <= HI
		grep -oE '[-+][0-9.]+% \[[-+][0-9.]+%, [-+][0-9.]+%\]' "$T/o.txt" | tr -d '%[],+' |
			awk '$2 > $1 + 0.05 || $3 < $1 - 0.05 { print; bad = 1 } END { exit bad }' >"$T/bad" ||
			fail "an interval without its estimate in $(basename "$a") vs $(basename "$b"): $(cat "$T/bad")"
		n=$((n + 1))
	done
done
[ "$n" -ge 20 ] || fail "only $n pairs compared"
exit 0
