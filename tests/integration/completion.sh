#!/bin/sh
# `starve --completion bash` completes what the tables hold: every command
# and every option --help lists, enum values, comma-separated formats, load
# types and their options, shipped profiles by name.
. "$top_srcdir/tests/lib.sh"
need_cmd bash
T="$TMPDIR_TEST"
"$STARVE" --completion bash > "$T/starve.bash" || fail "starve --completion bash failed"
bash -n "$T/starve.bash" || fail "the completion script is not bash"

# comp WORD...: what bash completes for the last word of "starve WORD..."
comp() {
	STARVE_DATADIR="$top_srcdir" bash -c '. "$1"; shift
		COMP_WORDS=(starve "$@"); COMP_CWORD=$#; _starve
		printf "%s\n" "${COMPREPLY[@]}" | sort' comp "$T/starve.bash" "$@"
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
exit 0
