# The LAVA test cases a result must give (result.json in, an array out),
# written from the rules in reports/format/lava.h and reports/format/fleet.h without
# starve's code, so the tests compare two implementations: per run of each
# setting, a case per verdict {set, case, result[, measurement, units]},
# then the case of the run as a whole {set: null, case: PROFILE, result}.
def word: (. // "") | if . == "" then "_" else gsub("[^A-Za-z0-9_-]"; "_") end;
# doc/ci-gating.md's table: undecided is a skip, or under --strict a failure;
# the run as a whole is its exit status
def lava_result(strict): {pass: "pass", fail: "fail", skip: "skip",
			  undecided: (if strict then "fail" else "skip" end)}[.];
def units: {starvation_max: "s", starvation_max_inband: "s", wakeup_p50: "s", wakeup_p90: "s",
	    wakeup_p99: "s", wakeup_p999: "s", wakeup_max: "s", wait_ratio: "ratio",
	    cpu_share: "ratio", fairness: "ratio", fairness_minmax: "ratio",
	    deadline_miss_ratio: "ratio", throughput: "1/s"}[.];
. as $r
| ([$r.runs[].repetition] | (max // -1) + 1) as $reps
| [ ($r.runs | map(.setting) | reduce .[] as $s ([]; if index([$s]) then . else . + [$s] end))[]
    as $setting
  | $r.runs[] | select(.setting == $setting) | . as $run
  | .verdicts | to_entries[] | .key as $i | .value as $v
  | ($run.verdicts | map(select(.load == $v.load and .metric == $v.metric))) as $same
  | ($run.verdicts[: $i + 1] | map(select(.load == $v.load and .metric == $v.metric
				       and .op == $v.op)) | length) as $ordinal
  | { set: ($setting | word),
      case: (($v.load | word) + "." + ($v.metric | word)
	     + (if ($same | length) > 1 then "." + $v.op else "" end)
	     + (if ($same | map(select(.op == $v.op)) | length) > 1 and $ordinal > 1
		then "-\($ordinal)" else "" end)
	     + (if $reps > 1 then ".rep\($run.repetition + 1)" else "" end)),
      result: ($v.verdict | lava_result($r.summary.undecided_fails == true)) }
    + (if $v.value != null and $v.verdict != "skip"
       then {measurement: $v.value} + (($v.metric | units) as $u
					| if $u then {units: $u} else {} end)
       else {} end) ]
+ [ { set: null, case: ($r.profile.name | word),
      result: {"0": "pass", "1": "fail", "4": "skip"}[$r.summary.exit_code | tostring] } ]
