# Sourced by the KCIDB tests (after tests/lib.sh): the checks every KCIDB
# document starve writes must pass, and the schema validator.
FLEET=$top_srcdir/tests/fleet
KCIDB_SCHEMA=$SHARED_DIR/schemas/kcidb.v5.3.json

# kcidb_same RESULT.json DOC.json: DOC's tests are the ones
# tests/fleet/kcidb-tests.jq derives from RESULT, in the same order.
kcidb_same() {
	jq -f "$FLEET/kcidb-tests.jq" "$1" > "$TMPDIR_TEST/kcidb.want" || fail "$1: the oracle failed"
	jq -f "$FLEET/kcidb-project.jq" "$2" > "$TMPDIR_TEST/kcidb.got" || fail "$2: not JSON"
	jq -en --slurpfile a "$TMPDIR_TEST/kcidb.want" --slurpfile b "$TMPDIR_TEST/kcidb.got" \
		'$a == $b' >/dev/null ||
		fail "$2: tests differ from $1's verdicts:
want $(jq -c . "$TMPDIR_TEST/kcidb.want")
got  $(jq -c . "$TMPDIR_TEST/kcidb.got")"
}

# kcidb_linked DOC.json ORIGIN: every object is ORIGIN's, ids are unique,
# every test names a build the document has (or, without builds, the one
# build id given), every build a checkout it has.
kcidb_linked() {
	jq -e --arg o "$2" '
		[.checkouts[]?, .builds[]?, .tests[]?] as $all
		| ($all | all(.origin == $o and (.id | startswith($o + ":"))))
		and ([.tests[].id] | length == (unique | length))
		and (if .builds then [.builds[].id] as $b | all(.tests[]; .build_id as $x | $b | index([$x]))
		     else [.tests[].build_id] | unique | length == 1 end)
		and ([.checkouts[]?.id] as $c | all(.builds[]?; .checkout_id as $x | $c | index([$x])))
		and .version == {major: 5, minor: 3}' "$1" >/dev/null ||
		fail "$1: objects not all $2's, ids not unique, or links to objects it lacks"
}

# kcidb_validator: "node DIR/json-validate.js" with Debian's ajv, or nothing.
kcidb_validator() {
	command -v node >/dev/null 2>&1 || return 0
	NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} node -e 'require("ajv")' 2>/dev/null ||
		return 0
	echo "node $FLEET/json-validate.js"
}

# kcidb_validate DOC.json...: valid against KCIDB's own schema (v5.3).
kcidb_validate() {
	NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} \
		node "$FLEET/json-validate.js" "$KCIDB_SCHEMA" "$@" > "$TMPDIR_TEST/kcidb.err" 2>&1 ||
		fail "not valid KCIDB v5.3: $(cat "$TMPDIR_TEST/kcidb.err")"
}
