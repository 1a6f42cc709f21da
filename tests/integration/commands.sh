#!/bin/sh
# starve's dispatch: a mistyped command exits 2 with a "did you mean" naming
# the command, as a mistyped option does; a word close to none is refused
# without a guess; both point at 'starve --help'.
. "$top_srcdir/tests/lib.sh"
err=$TMPDIR_TEST/err

# refused WORD HINT: `starve WORD` exits 2, suggesting HINT ("" for none)
refused() {
	"$STARVE" "$1" >/dev/null 2>"$err"; rc=$?
	[ "$rc" = 2 ] || fail "'starve $1' exited $rc, expected 2"
	grep -qF "'$1' is not a starve command" "$err" || fail "'starve $1' does not say so: $(cat "$err")"
	grep -qF "see 'starve --help'" "$err" || fail "'starve $1' does not point at --help: $(cat "$err")"
	if [ -n "$2" ]; then
		grep -qF "(did you mean '$2'?)" "$err" || fail "'starve $1' does not suggest $2: $(cat "$err")"
	else
		! grep -q "did you mean" "$err" || fail "'starve $1' guesses: $(cat "$err")"
	fi
}

refused rn run
refused chekc check
refused reprot report
refused comapre compare
refused xyzzy ""
exit 0
