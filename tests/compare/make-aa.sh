#!/bin/sh
# Record the A/A fixtures of tests/compare/aa (read by compare-aa.sh): N pairs
# of real runs of each placement profile at 3 repetitions on this kernel, the
# two results of a pair one after the other. Each result is trimmed by
# trim.jq to what `starve compare` reads. A pair is an A/A comparison: same
# kernel, same profile, nothing to find.
#
# usage: tests/compare/make-aa.sh STARVE OUTDIR [N [FIRST]]
#   N pairs per profile (default 12), numbered from FIRST (default 1), so more
#   pairs can be added to the recorded ones: `make-aa.sh ./starve aa 40 13`.
# Every four pairs of each profile hold the test suite's lock
# (/tmp/starve-check.lock) for their 16 runs, about 40 s, at nice 5 (the
# loads' nice is relative: the profiles give no load a nice of its own), and
# wait up to 10 minutes for the machine lock of another helper's run.
set -eu
starve=$1 out=$2 n=${3:-12} first=${4:-1}
d=$(dirname "$0")
mkdir -p "$out"
export STARVE_LOCK_WAIT=600
i=$first
last=$((first + n - 1))
while [ "$i" -le "$last" ]; do
	flock /tmp/starve-check.lock nice -n 5 sh -c '
		i=$4
		while [ "$i" -lt $(($4 + 4)) ] && [ "$i" -le "$5" ]; do
			for w in alone shared; do
				for side in a b; do
					"$1" run "$2/placement-$w.yaml" --repeat 3 --quiet \
						-o "$3/$w-$(printf %02d "$i")$side.d" >/dev/null ||
						{ rc=$?; [ $rc = 1 ] || [ $rc = 4 ]; } || exit 1
				done
			done
			i=$((i + 1))
		done' make-aa "$starve" "$d" "$out" "$i" "$last"
	for f in "$out"/*.d; do
		jq -c "$(cat "$d/trim.jq")" "$f/result.json" >"${f%.d}.json"
		rm -r "$f"
	done
	i=$((i + 4))
done
