# A KCIDB document's tests as kcidb-tests.jq describes them.
[ .tests[] | { path, status, value: (.number.value // null), start_time,
	       repetition: (.misc.repetition // null) } ]
