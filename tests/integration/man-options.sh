#!/bin/sh
# starve(1) agrees with the subcommands' option tables: its SYNOPSIS is what
# 'starve --man' writes from them (make update-man); COMMANDS has an entry
# for every command 'starve --help' lists and no other; each command's entry
# describes exactly the options, long and short, its --help lists; and the
# page renders at 80 columns without splitting an option's name or any line
# running past the 80th column.
. "$top_srcdir/tests/lib.sh"

man1=$top_srcdir/doc/starve.1
t=$TMPDIR_TEST

# The SYNOPSIS part between the BEGIN and END lines is generated.
sed -n '/^\.\\" BEGIN starve --man:/,/^\.\\" END starve --man$/p' "$man1" | sed '1d;$d' >"$t/page"
[ -s "$t/page" ] || fail "starve(1) has no generated SYNOPSIS part"
"$STARVE" --man >"$t/tables" || fail "starve --man failed"
diff -u "$t/page" "$t/tables" >&2 ||
	fail "doc/starve.1 SYNOPSIS differs from 'starve --man': run 'make update-man'"

# COMMANDS as "cmd NAME" and "opt NAME ENTRY-LINE": an entry is the line
# after .TP, a command's at the section's top level, an option's inside the
# command's .RS/.RE.
awk '/^\.SH / { in_cmds = $0 == ".SH COMMANDS"; depth = 0; next }
     !in_cmds { next }
     /^\.RS/ { depth++; next }
     /^\.RE/ { depth--; next }
     /^\.TP/ { entry = 1; next }
     entry && depth == 0 && $1 == ".B" { cmd = $2; print "cmd " cmd }
     entry && depth == 1 { print "opt " cmd " " $0 }
     { entry = 0 }' "$man1" >"$t/entries"

"$STARVE" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' | sort >"$t/commands"
[ "$(wc -l <"$t/commands")" -ge 8 ] || fail "cannot read the commands from starve --help"
sed -n 's/^cmd //p' "$t/entries" | sort >"$t/described"
diff -u "$t/commands" "$t/described" >&2 ||
	fail "starve(1) COMMANDS and 'starve --help' list different commands"

# options NAME: the options --help of NAME lists, one a line ("--output", "-o").
options_in_help() {
	"$STARVE" "$1" --help | sed -nE 's/^  (-[a-z], |    )--([a-z][a-z0-9-]*).*/\1--\2/p' |
		tr ', ' '\n\n' | grep -v '^$' | sort -u
}
# The same from the command's entries in starve(1): "\-\-name" and "\-x".
options_in_page() {
	sed -n "s/^opt $1 //p" "$t/entries" | sed 's/\\-/-/g' |
		grep -o -e '--[a-z][a-z0-9-]*' -e '\(^\|[ "]\)-[a-z]\($\|[ "]\)' | tr -d ' "' | sort -u
}

for c in $(cat "$t/commands"); do
	options_in_help "$c" >"$t/help.$c"
	options_in_page "$c" >"$t/page.$c"
	[ -s "$t/help.$c" ] || fail "cannot read the options from 'starve $c --help'"
	diff -u "$t/help.$c" "$t/page.$c" >&2 ||
		fail "starve(1) and 'starve $c --help' name different options ('-' only in --help: describe them in doc/starve.1; '+' only in the page)"
done

# Rendered for a terminal, every option's name is whole on one line. 'man -l'
# needs man-db and groff; without them the source checks above still hold.
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
	MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$man1" >"$t/rendered" 2>"$t/man.err" ||
		fail "man -l doc/starve.1 failed: $(cat "$t/man.err")"
	! grep -n '‐$' "$t/rendered" >&2 || fail "starve(1) hyphenates words at line ends"
	# no line wider than the terminal (characters, not bytes: quotes are UTF-8)
	! LC_ALL=C.UTF-8 grep -n '^.\{81,\}$' "$t/rendered" >&2 ||
		fail "starve(1) has lines over 80 columns at MANWIDTH=80 (above); break them in the source"
	for c in $(cat "$t/commands"); do
		for opt in $(grep -e '^--' "$t/help.$c"); do
			grep -q -e "$opt\\([^a-z0-9-]\\|$\\)" "$t/rendered" ||
				fail "'$opt' of starve $c is not whole in the rendered starve(1)"
		done
	done
else
	echo "# man or groff missing: starve(1) not rendered"
fi
exit 0
