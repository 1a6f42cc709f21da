# The KCIDB tests a result must give (result.json in, an array out), from
# the rules in reports/format/kcidb.h and reports/format/fleet.h without starve's code:
# the run as a whole, then a test per verdict per run, each as
# {path, status, value, start_time, repetition}; value is null where the
# test has no "number". kcidb-project.jq reduces a KCIDB document to the same.
def word: (. // "") | if . == "" then "_" else gsub("[^A-Za-z0-9_-]"; "_") end;
# doc/ci-gating.md's table: undecided is a skip, or under --strict a failure;
# the run as a whole is its exit status
def status(strict): {pass: "PASS", fail: "FAIL", skip: "SKIP",
		     undecided: (if strict then "FAIL" else "SKIP" end)}[.];
. as $r
| ("starve." + ($r.profile.name | word)) as $root
| [ { path: $root, value: null, start_time: $r.started, repetition: null,
      status: {"0": "PASS", "1": "FAIL", "4": "SKIP"}[$r.summary.exit_code | tostring] } ]
+ [ $r.runs[] | . as $run
    | .verdicts | to_entries[] | .key as $i | .value as $v
    | ($run.verdicts | map(select(.load == $v.load and .metric == $v.metric))) as $same
    | ($run.verdicts[: $i + 1] | map(select(.load == $v.load and .metric == $v.metric
					 and .op == $v.op)) | length) as $ordinal
    | { path: ($root + "." + ($run.setting | word) + "." + ($v.load | word) + "."
	       + ($v.metric | word)
	       + (if ($same | length) > 1 then "." + $v.op else "" end)
	       + (if ($same | map(select(.op == $v.op)) | length) > 1 and $ordinal > 1
		  then "-\($ordinal)" else "" end)),
	status: ($v.verdict | status($r.summary.undecided_fails == true)),
	value: (if $v.verdict == "skip" then null else $v.value end),
	start_time: $run.started, repetition: $run.repetition } ]
