#!/bin/sh
# The value axes of starve compare's HTML page read: on every chart of the
# fixtures' comparisons no tick label is negative where no value is (every
# metric here is a duration, share or rate), no two read the same (values
# close to 1 once read "1 1 1 1 1 1"), no two overlap (rates once ran into
# each other: "1.09e+07/s1.14e+07/s"; 7 pixels a character at font-size
# 12, a little wide); and the baseline's margin band is drawn over the
# lanes' lines, none of which wears its colour (the baseline's was a
# 6-pixel bar of it, which hid the band). The checks are on the SVG text.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
d=$top_srcdir/tests/compare
T=$TMPDIR_TEST

# Values between 0.9996 and 1.0004: ticks at 3 digits would all read "1".
near_one() {
	jq --argjson at "$2" '.runs |= map(.loads |= map(if .name == "victim" and
		.metrics.cpu_share != null then .metrics.cpu_share =
		($at + 0.0001 * ((.metrics.cpu_share * 1000) % 5)) else . end))' "$1"
}
near_one "$d/base.json" 0.99961 > "$T/one-a.json" || fail "jq could not write a fixture"
near_one "$d/slower.json" 0.99962 > "$T/one-b.json" || fail "jq could not write a fixture"

# check PAGE: every chart's axis and band, as above; prints each offence
check() {
	sed 's/></>\n</g' "$1" | awk '
	function flush(   i, l, r) {
		for (i = 1; i <= n; i++) {
			if (lab[i] ~ /^-/) print chart ": a negative tick, " lab[i]
			if (i > 1 && lab[i] == lab[i - 1]) print chart ": two ticks read " lab[i]
			if (i > 1) {
				l = x[i - 1] + half(anc[i - 1], lab[i - 1], 1)
				r = x[i] - half(anc[i], lab[i], 0)
				if (l > r) print chart ": " lab[i - 1] " overlaps " lab[i]
			}
		}
		n = 0; band = 0; axis = ""
	}
	# how far label S reaches right (RIGHT) or left of its x, by its anchor
	function half(a, s, right) {
		if (a == "middle") return length(s) * 3.5
		return (a == "start") == right ? length(s) * 7 : 0
	}
	/<h3>/ { flush(); chart = $0; sub(/.*<h3>/, "", chart); sub(/<\/h3>.*/, "", chart) }
	/<rect .*fill="#9bd"/ { band = 1 }
	/<line / {
		match($0, /y1="[0-9.]+"/); y1 = substr($0, RSTART + 4, RLENGTH - 5)
		match($0, /y2="[0-9.]+"/); y2 = substr($0, RSTART + 4, RLENGTH - 5)
		if (y1 == y2 && $0 ~ /stroke="#555"/ && axis == "") axis = sprintf("%.1f", y1 + 16)
		else if (y1 == y2 && $0 !~ /stroke="#555"/) {
			if (band) print chart ": a lane line over the band"
			if ($0 ~ /#9bd/) print chart ": a lane line in the band colour"
		}
	}
	/<text / && axis != "" && index($0, "y=\"" axis "\"") {
		n++
		match($0, /x="[0-9.]+"/); x[n] = substr($0, RSTART + 3, RLENGTH - 4) + 0
		match($0, /text-anchor="[a-z]+"/); anc[n] = substr($0, RSTART + 13, RLENGTH - 14)
		t = $0; sub(/^[^>]*>/, "", t); sub(/<\/text>.*/, "", t); lab[n] = t
	}
	END { flush() }'
}

checked=0
for pair in "base.json slower.json" "rt-old.json rt-new.json" "noisy-a.json noisy-b.json" \
	    "aa/alone-01a.json aa/alone-01b.json" "$T/one-a.json $T/one-b.json"; do
	set -- $pair
	case $1 in /*) ;; *) set -- "$d/$1" "$d/$2" ;; esac
	"$STARVE" compare "$1" "$2" --html "$T/page.html" > /dev/null 2>&1
	[ -s "$T/page.html" ] || fail "compare $pair wrote no page"
	check "$T/page.html" > "$T/offences"
	[ -s "$T/offences" ] && fail "compare $pair: $(cat "$T/offences")"
	checked=$((checked + $(grep -c '<h3>' "$T/page.html")))
	rm -f "$T/page.html"
done
[ "$checked" -ge 20 ] || fail "only $checked charts were checked"
echo "ok: $checked charts"
