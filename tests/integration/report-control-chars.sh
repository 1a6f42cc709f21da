#!/bin/sh
# A control character in a result's names or reasons (an ESC in a setting
# name, a C1 CSI in a reason, a task's comm) never reaches the terminal
# table, summary.md or `starve compare` raw: each byte of it prints as '?'
# (issue 20: a raw ESC in a setting name reached summary.md). Profiles
# cannot hold such names (starve check refuses them); results can.
. "$top_srcdir/tests/lib.sh"
need_cmd jq
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# controls FILE: how many control bytes FILE holds (C0 but \n and \t, DEL,
# C1 as UTF-8).
controls() {
	c0=$(LC_ALL=C tr -d '\n\t -~\200-\377' <"$1" | wc -c)
	c1=$(LC_ALL=C grep -c "$(printf '\302[\200-\237]')" "$1")
	echo $((c0 + c1))
}

jq '.profile.settings[0].name = "thr\u001b[31mottled\u001b]0;x\u0007" |
	.runs[0].setting = .profile.settings[0].name |
	.runs[0].verdicts[].setting = .profile.settings[0].name |
	.runs[0].verdicts[0] |= (.verdict = "fail" | .reason = "bad\u001b[2Jthing\u009b1m\r") |
	.summary |= (.pass = 1 | .fail = 1 | .verdict = "fail" | .exit_code = 1)' \
	"$R/pass.json" >"$T/esc.json" || fail "jq could not write the result"

"$STARVE" report "$T/esc.json" >"$T/table" 2>"$T/err"
[ $? = 1 ] || fail "starve report: $(cat "$T/err")"
"$STARVE" report "$T/esc.json" --markdown "$T/summary.md" >/dev/null 2>>"$T/err"
"$STARVE" compare "$T/esc.json" "$T/esc.json" >"$T/compare" 2>>"$T/err"
"$STARVE" compare --markdown "$T/esc.json" "$T/esc.json" >"$T/compare.md" 2>>"$T/err"
for f in table summary.md compare compare.md; do
	[ -s "$T/$f" ] || fail "$f is empty: $(cat "$T/err")"
	n=$(controls "$T/$f")
	[ "$n" = 0 ] || fail "$f holds $n raw control bytes: $(grep -a 'thr' "$T/$f" | head -n 2 | od -c | head)"
done
grep -qF 'thr?[31mottled?]0;x?' "$T/table" || fail "the table does not show the name with '?'"
grep -qF 'bad?[2Jthing??1m?' "$T/table" || fail "the table does not show the reason with '?'"
grep -qF 'bad?\[2Jthing??1m' "$T/summary.md" || fail "summary.md: $(grep bad "$T/summary.md")"
exit 0
