#!/bin/sh
# starve compare refuses bad input with exit 2 and a message that names the
# file and the problem: different profiles, a file that is not a result, a
# missing file, broken JSON, --settings on a one-setting result, unknown
# metrics in --threshold, too few files. Nothing is printed on stdout then.
. "$top_srcdir/tests/lib.sh"

d=$top_srcdir/tests/compare
out=$TMPDIR_TEST/out
err=$TMPDIR_TEST/err

# refused MESSAGE ARGS...: exit 2, MESSAGE on stderr, nothing on stdout.
refused() {
	msg=$1; shift
	"$STARVE" compare "$@" >"$out" 2>"$err"; rc=$?
	[ "$rc" = 2 ] || fail "compare $*: exit $rc, expected 2"
	grep -qF -e "$msg" "$err" || { cat "$err" >&2; fail "compare $*: no '$msg'"; }
	[ -s "$out" ] && fail "compare $*: printed on stdout: $(cat "$out")"
	return 0
}

refused "base.json and $d/other-profile.json ran different profiles ('fairness-demo' and 'rt-throttle')" \
	"$d/base.json" "$d/other-profile.json"
refused "not-a-result.json: not a starve result (format is 'something-else')" \
	"$d/base.json" "$d/not-a-result.json"
refused "$TMPDIR_TEST/missing.json: No such file or directory" "$d/base.json" "$TMPDIR_TEST/missing.json"
printf '{"format": "starve-result", ' >"$TMPDIR_TEST/broken.json"
refused "broken.json:1:" "$d/base.json" "$TMPDIR_TEST/broken.json"
echo '{"format": "starve-result", "format_version": 1}' >"$TMPDIR_TEST/empty.json"
refused "empty.json: missing required key \"tool\"" "$d/base.json" "$TMPDIR_TEST/empty.json"
refused "its profile has one setting, so there is nothing to compare" --settings "$d/base.json"
refused "--settings compares the settings of one result" --settings "$d/settings.json" "$d/base.json"
refused "unknown metric 'wakup_p99' (did you mean 'wakeup_p99'?)" \
	--threshold wakup_p99=10 "$d/base.json" "$d/same.json"
refused "'ten' is not a percentage" --threshold wakeup_p99=ten "$d/base.json" "$d/same.json"
refused "--alpha: '2' is not a probability" --alpha 2 "$d/base.json" "$d/same.json"
refused "give at least two results" "$d/base.json"
refused "3 --label options for 2 results" --label a --label b --label c "$d/base.json" "$d/same.json"
refused "see 'starve compare --help'" --no-such-option "$d/base.json" "$d/same.json"

"$STARVE" compare --help >"$out" 2>"$err" || fail "--help did not exit 0"
grep -q '^usage: starve compare ' "$out" || fail "--help: no usage line"
exit 0
