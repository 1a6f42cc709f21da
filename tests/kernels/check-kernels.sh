#!/bin/sh
# check-kernels.sh: run starve inside other kernels under qemu and check its
# kernel-dependent behaviour there (tests/kernels/check-kernel.py says what),
# then compare the kernels' kernel-test results with `starve compare`.
# Not part of make check (`make check-kernels`): it downloads Debian kernel
# packages into $STARVE_KERNEL_CACHE and takes about 15 s per kernel.
# KERNELS picks the kernels (default: 6.1-cloud 6.12-cloud 6.1-rt 6.12-rt);
# results stay in $STARVE_KERNEL_OUT (default ./kernels-out): one directory
# per release and results/<release>-<profile>.json for starve compare.
# Exit: 0 all pass, 1 a check failed, 77 qemu or busybox-static missing.
set -u
: "${STARVE:=./starve}" "${top_srcdir:=$(dirname "$0")/../..}"
: "${KERNELS:=6.1-cloud 6.12-cloud 6.1-rt 6.12-rt}" "${STARVE_KERNEL_OUT:=kernels-out}"
export STARVE
PY=/usr/bin/python3
kdir=$(cd "$top_srcdir/tests/kernels" && pwd)
. "$kdir/lib.sh"
skip() { echo "SKIP: $*" >&2; exit 77; }
missing=$(kernel_missing)
[ -z "$missing" ] || skip "$missing"
[ -x "$PY" ] || skip "needs $PY"

mkdir -p "$STARVE_KERNEL_OUT/results" || exit 1
failed=0 done_results=
for k in $KERNELS; do
	out=$STARVE_KERNEL_OUT/$k
	rm -rf "$out"
	t0=$(date +%s)
	if ! sh "$kdir/run-kernel.sh" "$k" "$out" >/dev/null; then
		echo "FAIL $k: no result from the guest (see $out/console.log)"
		failed=1; continue
	fi
	release=$(cat "$out/release")
	if "$PY" "$kdir/check-kernel.py" "$out"; then
		echo "PASS $k ($release) in $(($(date +%s) - t0)) s"
	else
		failed=1
	fi
	for r in "$out"/*/result.json; do
		[ -f "$r" ] || continue
		cp "$r" "$STARVE_KERNEL_OUT/results/$release-$(basename "$(dirname "$r")").json"
		# every result a guest wrote is valid result.json (77: no python3-jsonschema)
		"$PY" "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result-schema.json" "$r"
		case $? in 0|77) ;; *) echo "FAIL $k: $r does not match the result schema"; failed=1 ;; esac
	done
	[ -f "$out/kernel-test/result.json" ] && done_results="$done_results $out/kernel-test/result.json"
done

# starve compare reads them all, labelled by release, the first as baseline.
set -- $done_results
if [ $# -ge 2 ]; then
	"$STARVE" compare --json "$@" > "$STARVE_KERNEL_OUT/compare.json"
	rc=$?
	"$STARVE" compare "$@" > "$STARVE_KERNEL_OUT/compare.txt"
	if [ $rc -gt 1 ] || ! "$PY" - "$STARVE_KERNEL_OUT/compare.json" "$@" <<'PY'
import json, sys
cmp = json.load(open(sys.argv[1]))
releases = [json.load(open(f))["kernel"]["release"] for f in sys.argv[2:]]
labels = [c["label"] for c in cmp["columns"]]
assert labels == releases, "compare labels %s, releases %s" % (labels, releases)
settings = {r["setting"] for r in cmp["rows"]}
assert {"base", "rt-runtime"} <= settings, "compare matched settings %s" % sorted(settings)
PY
	then
		echo "FAIL starve compare of$done_results (exit $rc)"
		failed=1
	else
		echo "PASS starve compare of $# kernels (exit $rc): $STARVE_KERNEL_OUT/compare.txt"
	fi
fi
exit $failed
