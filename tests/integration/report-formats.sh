#!/bin/sh
# One report-format table (reports/formats.h) drives run --format, report and
# compare: starve(1)'s REPORT FORMATS is what the table writes (make
# update-man); every format it lists is in run's and report's --format help
# with its file, has report's option of its name, is written by `report
# --format NAME` into its file (in the -o folder, which report makes as run
# does) and by its own option; every format the page says compare prints is
# an option of compare, and no other is.
. "$top_srcdir/tests/lib.sh"
man1=$top_srcdir/doc/starve.1
t=$TMPDIR_TEST/work; mkdir "$t"
r=$top_srcdir/tests/results/pass.json

sed -n '/^\.\\" BEGIN starve --man-formats:/,/^\.\\" END starve --man-formats$/p' "$man1" |
	sed '1d;$d' >"$t/page"
[ -s "$t/page" ] || fail "starve(1) has no generated REPORT FORMATS part"
"$STARVE" --man-formats >"$t/generated" || fail "starve --man-formats failed"
diff -u "$t/page" "$t/generated" >&2 ||
	fail "doc/starve.1 REPORT FORMATS differs from the table: run 'make update-man'"

# "NAME FILE [compare]" for each format of the page
awk '/^\.BR / { name = $2; file = $0; sub(/.*\\fI/, "", file); sub(/\\fP.*/, "", file) }
     /^\.B compare$/ { cmp[name] = 1 }
     /^\.TP/ && name != "" { print name, file, (name in cmp); name = "" }
     END { if (name != "") print name, file, (name in cmp) }' "$t/page" |
	sed 's/ 1$/ compare/; s/ 0$//' >"$t/formats"
[ "$(wc -l <"$t/formats")" -ge 8 ] || fail "cannot read the formats from starve(1): $(cat "$t/formats")"

"$STARVE" run --help | tr -s ' \n' '  ' >"$t/run.help"
"$STARVE" report --help >"$t/report.help"
"$STARVE" compare --help >"$t/compare.help"
tr -s ' \n' '  ' <"$t/report.help" >"$t/report.flat"
while read -r name file cmp; do
	grep -q " $name=$file " "$t/run.help" || fail "run --format's help lacks $name=$file"
	grep -q " $name=$file " "$t/report.flat" || fail "report --format's help lacks $name=$file"
	grep -q "^      --$name[ =]" "$t/report.help" || fail "report has no --$name option"
	if [ -n "$cmp" ]; then
		grep -q "^      --$name\\b" "$t/compare.help" || fail "compare has no --$name option"
	elif grep -q "^      --$name\\b" "$t/compare.help"; then
		fail "compare has a --$name option but does not print $name"
	fi
	# -o names a folder that does not exist yet: report makes it, as run does
	"$STARVE" report "$r" --format "$name" -o "$t/$name" >/dev/null ||
		fail "report --format $name failed"
	[ -s "$t/$name/$file" ] || fail "report --format $name did not write $file"
	[ "$(ls "$t/$name")" = "$file" ] || fail "report --format $name wrote $(ls "$t/$name")"
	if [ "$name" = table ]; then
		"$STARVE" report "$r" --table >"$t/by-option" || fail "report --table failed"
	else
		"$STARVE" report "$r" "--$name" "$t/by-option" >/dev/null ||
			fail "report --$name failed"
	fi
	cmp -s "$t/by-option" "$t/$name/$file" ||
		fail "report --$name and report --format $name wrote different files"
done <"$t/formats"

# and with its parents; a file named as the folder is refused, exit 3
"$STARVE" report "$r" --format json -o "$t/new/deeper" >/dev/null ||
	fail "report -o into a folder and its parents, both new, failed"
[ -s "$t/new/deeper/result.json" ] || fail "report -o new/deeper wrote no result.json"
: >"$t/a-file"
expect_exit 3 "$STARVE" report "$r" --format json -o "$t/a-file" 2>"$t/err" >/dev/null
grep -q "'$t/a-file' is not a directory" "$t/err" || fail "-o a file: $(cat "$t/err")"

expect_exit 2 "$STARVE" report "$r" --format junit,pdf -o "$t" 2>"$t/err"
grep -q "unknown report format 'pdf'" "$t/err" || fail "a wrong name is not named: $(cat "$t/err")"
exit 0
