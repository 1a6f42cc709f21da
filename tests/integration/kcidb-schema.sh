#!/bin/sh
# The KCIDB documents of every kind of result (pass, fail, all skipped,
# undecided, unmeasured, repeated, odd names; with a stub build or the
# lab's build id) are valid against KCIDB's own v5.3 schema, checked by an
# independent validator: ajv (Debian's node-ajv). Skips without it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fleet/kcidb-lib.sh"
[ -r "$KCIDB_SCHEMA" ] || skip "no $KCIDB_SCHEMA"
[ -n "$(kcidb_validator)" ] || skip "needs node and ajv (apt-get install node-ajv)"
need_cmd jq
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

docs=
for name in pass fail skipped undecided unmeasured multi odd-names; do
	"$STARVE" report "$R/$name.json" --kcidb "$T/$name.json" >/dev/null 2>&1
	"$STARVE" report "$R/$name.json" --kcidb "$T/$name-lab.json" --kcidb-origin my_lab \
		--kcidb-build-id 'maestro:x 1' >/dev/null 2>&1
	docs="$docs $T/$name.json $T/$name-lab.json"
done
kcidb_validate $docs
# the validator does refuse what KCIDB refuses (a null, an unknown status, a bad path)
jq '.tests[1].status = "UNDECIDED"' "$T/fail.json" > "$T/bad1.json"
jq '.tests[1].duration = null' "$T/fail.json" > "$T/bad2.json"
jq '.tests[1].path = "starve.a b"' "$T/fail.json" > "$T/bad3.json"
for b in bad1 bad2 bad3; do
	(kcidb_validate "$T/$b.json") 2>/dev/null && fail "the validator accepts $b.json"
done
exit 0
