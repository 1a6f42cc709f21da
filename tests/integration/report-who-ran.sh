#!/bin/sh
# Who held the CPU in every human report: an rt-throttle result taken with
# --trace (tests/results/exact.json, format_version 1) names the FIFO 50
# hog that held CPU 1 while the victim waited, in the table, Markdown and
# HTML; a BPF result names the task the victim took the CPU from.
. "$top_srcdir/tests/lib.sh"
r="$top_srcdir/tests/results/exact.json"
"$STARVE" report "$r" --table --markdown "$TMPDIR_TEST/s.md" --html "$TMPDIR_TEST/r.html" \
	>"$TMPDIR_TEST/table" 2>&1
[ $? -le 1 ] || { cat "$TMPDIR_TEST/table"; fail "starve report failed"; }
want="victim waited 950ms on CPU 1: starve-hog FIFO 50 950ms"
for f in table s.md r.html; do
	grep -q "$want" "$TMPDIR_TEST/$f" || fail "$f does not say '$want'"
done
grep -q "Who held the CPU" "$TMPDIR_TEST/r.html" || fail "the HTML page has no who-ran section"
# the BPF source knows who was switched out when the wait ended, untimed
jq '.format_version = 2 | .runs[0].loads[1] |= (del(.trace) | .exact = { stretches: 3,
	unknown_starts: 0, longest: { tid: 317, comm: "starve-victim", cpu: 1, wait_s: 0.95,
	at_s: 1.5, ran_before: { pid: 319, comm: "starve-hog", policy: "FIFO", priority: 50 } } })' \
	"$r" > "$TMPDIR_TEST/bpf.json"
"$STARVE" report "$TMPDIR_TEST/bpf.json" --table > "$TMPDIR_TEST/bpf.table" 2>&1
grep -q "waited 950ms on CPU 1: it took the CPU from starve-hog FIFO 50$" "$TMPDIR_TEST/bpf.table" ||
	fail "the BPF line does not name who it took the CPU from: $(cat "$TMPDIR_TEST/bpf.table")"
rm -rf "$TMPDIR_TEST"
echo ok
