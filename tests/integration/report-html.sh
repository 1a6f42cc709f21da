#!/bin/sh
# `starve report --html` writes one well-formed XHTML page per synthetic
# result with one <svg> per expected chart, hostile names round-trip through
# escaping, nothing external is referenced, `--html -` writes to stdout with
# the result's exit status, and `starve run --format html` writes report.html.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-common.sh"
need_cmd xmllint
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

xpath() { xmllint --xpath "$1" "$2"; }
# svgs NAME: charts in NAME's page (the victim's bars, its gap histogram, a
# time series per setting; the hog has none of these)
for pair in pass:3 fail:3 multi:4 undecided:4 unmeasured:3 skipped:0 odd-names:3; do
	name=${pair%:*} want=${pair#*:}
	"$STARVE" report "$R/$name.json" --html "$T/$name.html" 2>/dev/null
	[ -s "$T/$name.html" ] || fail "no HTML written for $name"
	xmllint --noout "$T/$name.html" 2>"$T/err" || fail "$name.html is not well-formed: $(cat "$T/err")"
	got=$(xpath 'count(//*[local-name()="svg"])' "$T/$name.html")
	[ "$got" = "$want" ] || fail "$name: $got charts, expected $want"
	[ "$(xpath 'count(//*[local-name()="svg"][namespace-uri()="http://www.w3.org/2000/svg"])' \
		"$T/$name.html")" = "$want" ] || fail "$name: an <svg> outside the SVG namespace"
	! grep -Eiq '<script|<link|<img|src=|href=|url\(' "$T/$name.html" ||
		fail "$name: the page refers to something outside itself"
done

H="$T/multi.html"
[ "$(xpath 'namespace-uri(/*)' "$H")" = http://www.w3.org/1999/xhtml ] || fail "multi: not XHTML"
[ "$(xpath 'count(//*[local-name()="td"][.="FAIL"])' "$H")" = 2 ] || fail "multi: 2 failed verdicts expected"
[ "$(xpath 'count(//*[local-name()="td"][.="PASS"])' "$H")" = 7 ] || fail "multi: 7 passed verdicts expected"
xpath 'string(//*[local-name()="td"][.="FAIL"][1]/following-sibling::*[1])' "$H" |
	grep -q '^victim starvation_max 5s is not below 1.2s' || fail "multi: the failure's reason is missing"
xpath 'string(//*[local-name()="h1"])' "$H" | grep -q 'rt-throttle' || fail "multi: no profile in the title"
xpath 'string(//*[local-name()="table"][1])' "$H" | grep -q '6.18.44' || fail "multi: no kernel release"
xpath 'string((//*[local-name()="table"])[last()])' "$H" | grep -q 'kernel.sched_rt_runtime_us' ||
	fail "multi: the knob table does not name the knob"
[ "$(xpath 'count(//*[local-name()="td"][.="1.2e+06/s"])' "$H")" = 6 ] ||
	fail "multi: the metric table does not show the victim's throughput in each of the 6 runs"
[ "$(xpath 'count(//*[local-name()="svg"]//*[local-name()="polyline"])' "$H")" = 12 ] ||
	fail "multi: 6 gap histograms and 6 time series lines expected"
xpath 'string(//*[local-name()="td"][contains(@class, "bad")][contains(., "%")])' "$T/undecided.html" |
	grep -q '^15.0%$' || fail "undecided: the noisy run's noise is not marked"
xpath 'string(//*[local-name()="td"][contains(@class, "bad")][contains(., "Hz")])' "$T/undecided.html" |
	grep -q '^200.0 Hz$' || fail "undecided: the slow sampler is not marked"

# escaping round-trips: the parsed text is the profile's, byte for byte
xpath 'string(//*[local-name()="h1"])' "$T/odd-names.html" | grep -qF 'starve: odd<&>"profile"' ||
	fail "odd-names: the profile name did not survive escaping"
xpath 'string((//*[local-name()="table"])[2]//*[local-name()="td"][1])' "$T/odd-names.html" | grep -qF 'a&b <c> "d" #1|x' ||
	fail "odd-names: the setting name did not survive escaping"

# --html - writes to stdout and keeps the result's exit status
"$STARVE" report "$R/multi.json" --html - >"$T/stdout.html"
rc=$?
[ $rc = 1 ] || fail "report --html - exited $rc for a failed result, expected 1"
cmp -s "$T/stdout.html" "$H" || fail "--html - differs from --html FILE"

# the expectations' thresholds are drawn on the charts of what they judge:
# multi.json's starvation_max below 1.2s (bars) and cpu_share above 0.04 in
# the throttled setting (its time series)
"$STARVE" report "$R/multi.json" --html "$T/multi.html" >/dev/null 2>&1
[ "$(grep -c 'stroke-dasharray="6 4"' "$T/multi.html")" -ge 2 ] || fail "multi: no threshold lines"
grep -q '>starvation_max below 1.2s<' "$T/multi.html" || fail "multi: starvation_max threshold not drawn"
grep -q '>cpu_share above 0.04 (throttled)<' "$T/multi.html" || fail "multi: cpu_share threshold not drawn"
grep -q 'share at least this long' "$T/multi.html" || fail "multi: the histograms are not CCDFs"

# starve run --format html (an unprivileged one-second profile)
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs for the run (the profile uses pu:1)"
suite_lock
out="$T/run"
"$STARVE" run -q -o "$out" "$PROFILES/quick.yaml" --repeat 1 --duration 300ms --warmup 0s \
	--format html >"$T/log" 2>&1 || fail "starve run --format html failed: $(cat "$T/log")"
[ -s "$out/report.html" ] || fail "starve run --format html wrote no report.html"
xmllint --noout "$out/report.html" || fail "the run's report.html is not well-formed"
for title in 'victim: longest starvation per run' 'victim: gap histogram, as the share of samples at least this long' \
	'victim: CPU share over time, setting a' 'hog: CPU share over time, setting b'; do
	[ "$(xpath "count(//*[local-name()='svg']/*[local-name()='title'][.='$title'])" \
		"$out/report.html")" = 1 ] || fail "the run's report has no chart '$title'"
done
exit 0
