#!/bin/sh
# `starve --completion bash` completes what the tables hold: every command
# and every option --help lists, enum values, comma-separated formats, load
# types and their options, shipped profiles by name (known/ ones too). A
# profile operand completes as files do: a folder takes a / and no space
# (compopt -o filenames), and only folders on the way to a .yaml are offered.
. "$top_srcdir/tests/lib.sh"
need_cmd bash
T="$TMPDIR_TEST"
"$STARVE" --completion bash > "$T/starve.bash" || fail "starve --completion bash failed"
bash -n "$T/starve.bash" || fail "the completion script is not bash"

# comp WORD...: what bash completes for the last word of "starve WORD...",
# in the current folder; the options the script set with compopt go to
# $T/compopt (compopt itself works only under a real TAB)
comp() {
	: >"$T/compopt"
	STARVE_DATADIR="$top_srcdir" bash -c '. "$1"; log=$2; compopt() { echo "$*" >>"$log"; }; shift 2
		COMP_WORDS=(starve "$@"); COMP_CWORD=$#; _starve
		printf "%s\n" "${COMPREPLY[@]}" | sort' comp "$T/starve.bash" "$T/compopt" "$@"
}
# has WANT WORD...: the completions of WORD... include WANT
has() {
	want=$1; shift
	comp "$@" | grep -qx -- "$want" || fail "starve $*<TAB> does not offer '$want': $(comp "$@" | tr '\n' ' ')"
}

[ "$(comp r | tr '\n' ' ')" = "report restore run " ] || fail "starve r<TAB>: $(comp r)"
# every command and every option of its --help
for c in $("$STARVE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	has "$c" ""
	for o in $("$STARVE" "$c" --help | sed -n '/^options:/,/^$/p' |
		grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'); do
		has "$o" "$c" --
	done
done
has junit run --format ju
has json,ktap run --format json,kt
has fifo load --policy f
has version compare --sort v
has tcg vm --accel t
has sleep-hog load sl
has --initiator_cpus load pipe-pingpong --in
has cfs-bandwidth run cfs
has sleep-hog-starvation check sleep
# the documented upstream changes, which `starve run place-lag` finds
for p in "$top_srcdir"/profiles/known/*.yaml; do
	p=${p##*/}
	has "${p%.yaml}" run "${p%.yaml}"
done

# In a tree like the source's: folders complete as folders, and only those
# that lead to a profile; hidden ones only when asked for
mkdir -p "$T/tree/profiles/known" "$T/tree/.git/refs" "$T/tree/m4" "$T/tree/autom4te.cache" \
	"$T/tree/tests/profiles/run" "$T/tree/tests/unit" "$T/tree/.ci/jobs" || fail "mkdir"
touch "$T/tree/profiles/mine.yaml" "$T/tree/profiles/known/theirs.yaml" \
	"$T/tree/tests/profiles/run/deep.yaml" "$T/tree/m4/ax.m4" "$T/tree/tests/unit/test.c" \
	"$T/tree/.ci/jobs/job.yaml" || fail "touch"
cd "$T/tree" || fail "cd $T/tree"
[ "$(comp run prof)" = profiles ] || fail "starve run prof<TAB>: $(comp run prof | tr '\n' ' ')"
grep -qx -- '-o filenames' "$T/compopt" ||
	fail "starve run prof<TAB> would end 'profiles' with a space, not a /: compopt $(cat "$T/compopt")"
has mine run mi
has theirs run the
comp run "" >"$T/all"
for d in .git m4 autom4te.cache .ci; do
	! grep -qx "$d" "$T/all" || fail "starve run <TAB> offers the folder $d as a profile"
done
for d in profiles tests; do
	grep -qx "$d" "$T/all" || fail "starve run <TAB> does not offer $d, on the way to a profile"
done
[ "$(comp run tests/ | tr '\n' ' ')" = "tests/profiles " ] ||
	fail "starve run tests/<TAB>: $(comp run tests/ | tr '\n' ' ')"
has .ci run .c
[ "$(comp run profiles/m)" = profiles/mine.yaml ] || fail "starve run profiles/m<TAB>: $(comp run profiles/m)"
# an option's folder completes as a folder too
comp run -o m >/dev/null
grep -qx -- '-o filenames' "$T/compopt" || fail "starve run -o m<TAB> would end 'm4' with a space"
exit 0
