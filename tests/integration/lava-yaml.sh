#!/bin/sh
# The LAVA files starve ships are YAML as shipped, so a linter or LAVA's own
# schema check can read the job template before a lab fills it in: its
# @PLACEHOLDER@s are quoted strings, and stay one string when filled in
# with a value YAML would otherwise read as something else. (LAVA's job
# schema itself, with lava-dispatcher's Python, is checked by make
# check-lava, tests/fleet/check-lava.sh.)
. "$top_srcdir/tests/lib.sh"
PARSE="$top_builddir/tests/integration/yaml-parse"
[ -x "$PARSE" ] || skip "no $PARSE"
T="$TMPDIR_TEST"
L="$top_srcdir/ci/lava"

"$PARSE" "$L/qemu-job.yaml" "$L/starve.yaml" 2>"$T/err" || fail "not YAML: $(cat "$T/err")"
# the helper does refuse what is not YAML: the template as it was, an
# unquoted @ starting a value
printf 'actions:\n  url: @KERNEL_URL@\n' > "$T/bad.yaml"
"$PARSE" "$T/bad.yaml" 2>/dev/null && fail "yaml-parse accepts an unquoted @"
# every placeholder outside comments is inside quotes
grep -v '^ *#' "$L/qemu-job.yaml" | grep -E '@[A-Z_]+@' | grep -vE "\"[^\"]*@[A-Z_]+@[^\"]*\"" &&
	fail "a placeholder of qemu-job.yaml is not quoted"
# filled in as check-lava fills it, with values a YAML reader would retype
sed -e 's|@KERNEL_URL@|file:///k #1|' -e 's|@RAMDISK_URL@|file:///r|' \
	-e 's|@STARVE_REPO@|file:///repo|' -e 's|@PROFILE@|rt-throttle|' \
	-e 's|@KERNEL_NAME@|6.1: cloud|' -e 's|@STARVE_ARGS@|--repeat 1|' -e 's|@LOG_RESULT@|true|' \
	"$L/qemu-job.yaml" > "$T/job.yaml"
"$PARSE" "$T/job.yaml" 2>"$T/err" || fail "the filled-in job is not YAML: $(cat "$T/err")"
exit 0
