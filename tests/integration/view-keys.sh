#!/bin/sh
# Readers never look a key up outside the view (reports/README.md): in the
# rooms that read results (reports/, and vm, bisect and cmd above them) only
# the view's own files take a value out of a JSON tree by key or index. The
# exceptions, each with its reason: json-schema.c walks the schema's tree,
# not a result's; result.c checks the format marker before the view is
# built; verdict-json.c, the verdicts' one writer, finds the runs it writes
# each list into and reads no value there.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || fail "cd $top_srcdir"

lookups='json_object_get\|json_array_get\|json_object_iter\|json_object_foreach\|json_array_foreach\|json_unpack\|json_[a-z]*_value('
grep -n "$lookups" reports/*.c reports/*/*.c harness/vm/*.c harness/bisect/*.c \
	harness/cmd/*.c >"$TMPDIR_TEST/hits" 2>/dev/null
grep -v -e '^reports/result/result-view[a-z-]*\.c:' -e '^reports/result/json-schema\.c:' \
	-e '^reports/result/result\.c:' \
	-e '^reports/result/verdict-json\.c:[0-9]*:	json_array_foreach(json_object_get(tree, "runs"), i, run)$' \
	-e '^reports/result/verdict-json\.c:[0-9]*:		json_object_set(run, "verdicts", json_array_get(lists, i));$' \
	"$TMPDIR_TEST/hits" >"$TMPDIR_TEST/outside"
[ -s "$TMPDIR_TEST/outside" ] && fail "keys looked up outside the view: $(cat "$TMPDIR_TEST/outside")"
exit 0
