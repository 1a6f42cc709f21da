#!/bin/sh
# Record tests/compare/rt-old.json and rt-new.json (read by compare-flips.sh):
# the rt-victim scenario twice: the victim beside a FIFO hog that spins, then
# beside one that yields 100 ms of every 500 (it fails, then passes: as on the
# two Debian kernels of issue 12), trimmed like the A/A fixtures.
# usage: tests/compare/make-rt.sh STARVE OUTDIR   (holds the shared lock ~8 s)
set -eu
starve=$1 out=$2
d=$(dirname "$0")
mkdir -p "$out"
flock /tmp/starve-helpers.lock sh -c '
	for k in old new; do
		"$1" run "$2/rt-victim-$k.yaml" --quiet -o "$3/rt-$k.d" >/dev/null ||
			{ rc=$?; [ $rc = 1 ] || [ $rc = 4 ]; } || exit 1
	done' make-rt "$starve" "$d" "$out"
for k in old new; do
	jq -c "$(cat "$d/trim.jq")" "$out/rt-$k.d/result.json" >"$out/rt-$k.json"
	rm -r "$out/rt-$k.d"
done
