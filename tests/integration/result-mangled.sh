#!/bin/sh
# A mangled but valid-JSON result is refused by `starve report` and `starve
# compare` with exit 2 and a message naming the file and the place (issue
# 10: "runs": "oops" used to give an empty table and exit 0). The corpus is
# one jq edit of a good result per line, covering every part of the schema;
# a few edits the schema allows must still be accepted. With python3 and
# jsonschema, the reference validator must agree on every file: the view
# refuses exactly what reports/result/result-schema.json refuses (and, beyond it,
# a histogram whose buckets do not add up to its count).
. "$top_srcdir/tests/lib.sh"
need_cmd jq
R="$top_srcdir/tests/results"
T="$TMPDIR_TEST"

# jq edit of pass.json | the place the message must name (after "FILE: ")
refused='
.runs = "oops"                                     | runs: expected an array, got a string
del(.tool)                                         | missing required key "tool"
.extra = 1                                         | unknown key "extra"
.started = "yesterday"                             | started: "yesterday" does not match
.ended = 5                                         | ended: expected a string or null, got 5
.complete = "yes"                                  | complete: expected a boolean, got a string
.tool.name = "other"                               | tool.name: expected "starve", got "other"
.tool.version = ""                                 | tool.version: expected a non-empty string
.tool.command_line = ["starve", 1]                 | tool.command_line[1]: expected a string, got 1
.host.nr_cpus = 0                                  | host.nr_cpus: expected a number >= 1, got 0
.host.nr_cpus = 1.5                                | host.nr_cpus: expected an integer, got 1.5
del(.kernel.release)                               | kernel: missing required key "release"
.kernel.hz = "250"                                 | kernel.hz: expected an integer, got a string
.kernel.schedstat_task = 1                         | kernel.schedstat_task: expected a boolean, got 1
.cpuset_backend = null                             | cpuset_backend: expected a string, got null
.knobs_before["kernel.x"] = 5                      | knobs_before["kernel.x"]: expected a string, got 5
.profile = []                                      | profile: expected an object, got an array
del(.profile.name)                                 | profile: missing required key "name"
.profile.duration_s = 0                            | profile.duration_s: expected a number > 0, got 0
.profile.warmup_s = -1                             | profile.warmup_s: expected a number >= 0, got -1
.profile.repeat = 0                                | profile.repeat: expected a number >= 1, got 0
.profile.loads[0].mode = "fibers"                  | profile.loads[0].mode: expected one of "threads", "processes", got "fibers"
.profile.loads[0].nice = 20                        | profile.loads[0].nice: expected a number <= 19, got 20
.profile.loads[0].priority = 100                   | profile.loads[0].priority: expected a number <= 99, got 100
.profile.loads[0].name = ""                        | profile.loads[0].name: expected a non-empty string
.profile.settings = []                             | profile.settings: expected at least 1 item, got 0
.profile.settings[0].extra = 1                     | profile.settings[0]: unknown key "extra"
.profile.expect[0].op = "sideways"                 | profile.expect[0].op: expected one of "below", "above", got "sideways"
.profile.expect[0].threshold = "1.2s"              | profile.expect[0].threshold: expected a number, got a string
.profile.expect[0].setting = ""                    | profile.expect[0].setting: expected a non-empty string
.profile.attach = [{"name": "x", "pid": 0}]        | profile.attach[0].pid: expected a number >= 1, got 0
.profile.compare_thresholds.cpu_share = -1         | profile.compare_thresholds.cpu_share: expected a number >= 0, got -1
.runs[0] = 5                                       | runs[0]: expected an object, got 5
.runs[0].status = "fine"                           | runs[0].status: expected one of "ok", "skipped", "incomplete", "error", got "fine"
.runs[0].status = "error"                          | runs[0].reason: expected a string, got null
.runs[0].status = "skipped" | .runs[0].reason = "" | runs[0].reason: expected a non-empty string
del(.runs[0].sampler)                              | runs[0]: missing required key "sampler"
.runs[0].repetition = -1                           | runs[0].repetition: expected a number >= 0, got -1
.runs[0].setting = 3                               | runs[0].setting: expected a string, got 3
.runs[0].duration_s = -1                           | runs[0].duration_s: expected a number >= 0, got -1
.runs[0].started = "2026-12-03 09:00:01"           | runs[0].started: "2026-12-03 09:00:01" does not match
.runs[0].sampler.target_hz = 0                     | runs[0].sampler.target_hz: expected a number > 0, got 0
.runs[0].sampler.late_ticks = -2                   | runs[0].sampler.late_ticks: expected a number >= 0, got -2
.runs[0].sampler.priority = 100                    | runs[0].sampler.priority: expected a number <= 99, got 100
.runs[0].noise.other_cpu_share = 1.5               | runs[0].noise.other_cpu_share: expected a number <= 1, got 1.5
.runs[0].knobs_applied = {"k": 1}                  | runs[0].knobs_applied.k: expected a string, got 1
.runs[0].loads = {}                                | runs[0].loads: expected an array, got an object
.runs[0].loads[1].metrics.cpu_share = "x"          | runs[0].loads[1].metrics.cpu_share: expected a number, got a string
.runs[0].loads[1].metrics.CPU = 1                  | runs[0].loads[1].metrics: key "CPU": "CPU" does not match
del(.runs[0].loads[1].metrics)                     | runs[0].loads[1]: missing required key "metrics"
.runs[0].loads[1].tasks_seen = -1                  | runs[0].loads[1].tasks_seen: expected a number >= 0, got -1
.runs[0].loads[1].histograms.gap.unit = "us"       | runs[0].loads[1].histograms.gap.unit: expected "ns", got "us"
.runs[0].loads[1].histograms.gap.buckets[0] = [49152] | runs[0].loads[1].histograms.gap.buckets[0]: expected at least 2 items, got 1
.runs[0].loads[1].histograms.gap.buckets[0][1] = 0 | runs[0].loads[1].histograms.gap.buckets[0][1]: expected a number >= 1, got 0
.runs[0].loads[1].tasks[0].tid = 0                 | runs[0].loads[1].tasks[0].tid: expected a number >= 1, got 0
.runs[0].loads[1].timeseries.interval_s = 0        | runs[0].loads[1].timeseries.interval_s: expected a number > 0, got 0
.runs[0].loads[1].timeseries.cpu_share = ["x"]     | runs[0].loads[1].timeseries.cpu_share[0]: expected a number, got a string
del(.runs[0].loads[1].timeseries.interval_s)       | runs[0].loads[1].timeseries: missing required key "interval_s"
.runs[0].verdicts[0].verdict = "maybe"             | runs[0].verdicts[0].verdict: expected one of "pass", "fail", "skip", "undecided", got "maybe"
.runs[0].verdicts[0].verdict = "fail"              | runs[0].verdicts[0].reason: expected a string, got null
.runs[0].verdicts[0].value = null                  | runs[0].verdicts[0].value: expected a number, got null
.runs[0].verdicts[0].extra = 1                     | runs[0].verdicts[0]: unknown key "extra"
del(.runs[0].verdicts[0].reason)                   | runs[0].verdicts[0]: missing required key "reason"
.summary.exit_code = 3                             | summary.exit_code: expected one of 0, 1, 4, got 3
.summary.pass = -1                                 | summary.pass: expected a number >= 0, got -1
del(.summary.verdict)                              | summary: missing required key "verdict"
.summary.warning = 5                               | summary.warning: expected a string or null, got 5
.format_version = 3                                | starve result format version 3 is not supported
.format = "x"                                      | not a starve result (format is '"'"'x'"'"')
'
# valid by the schema, refused by the view: buckets that do not add up
beyond='
.runs[0].loads[1].histograms.gap.count = 11        | runs[0].loads[1]: histogram "gap": count 11 but the buckets hold 10
'
# edits the schema allows: still accepted
accepted='
.runs[0].loads[1].metrics.frobs = 1
.ended = null
del(.profile.expect[0].setting)
.runs[0].loads[1].extra_field = {}
.host.extra = 1
.runs[0].loads[1].histograms.gap.buckets[1][0] = 950000000
'

# mangle N EDIT: write $T/mangled-N.json
mangle() {
	jq "$2" "$R/pass.json" >"$T/mangled-$1.json" || fail "jq could not apply: $2"
}

# refuse FILE PLACE: report and compare exit 2 and name FILE: ...PLACE.
refuse() {
	for cmd in "report $1" "compare $R/pass.json $1"; do
		# shellcheck disable=SC2086
		"$STARVE" $cmd >"$T/out" 2>"$T/err"; rc=$?
		[ "$rc" = 2 ] || fail "starve $cmd: exit $rc, expected 2 ($2)"
		grep -qF -e "$1: " "$T/err" || fail "starve $cmd: does not name the file: $(cat "$T/err")"
		grep -qF -e "$2" "$T/err" || fail "starve $cmd: no '$2' in: $(cat "$T/err")"
		[ -s "$T/out" ] && fail "starve $cmd printed on stdout"
	done
	return 0
}

n=0
for group in refused beyond; do
	eval "list=\$$group"
	echo "$list" | while IFS= read -r line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		edit=$(echo "${line%|*}" | sed 's/ *$//')
		place=$(echo "${line##*| }")
		mangle "$group-$n" "$edit"
		refuse "$T/mangled-$group-$n.json" "$place"
	done || exit 1
done
echo "$accepted" | while IFS= read -r edit; do
	[ -n "$edit" ] || continue
	n=$((n + 1))
	mangle "accepted-$n" "$edit"
	"$STARVE" report "$T/mangled-accepted-$n.json" >/dev/null 2>"$T/err" ||
		fail "'$edit' refused: $(cat "$T/err")"
done || exit 1
count=$(ls "$T"/mangled-refused-*.json | wc -l)
[ "$count" -ge 60 ] || fail "only $count refused cases ran"

# A FIFO or a device as the result: refused at once (a FIFO
# blocked report and compare forever, waiting for a writer).
need_cmd mkfifo
need_cmd timeout
mkfifo "$T/fifo.json" || fail "mkfifo failed"
for bad in "$T/fifo.json" /dev/zero; do
	for cmd in "report $bad" "compare $bad $R/pass.json" "compare $R/pass.json $bad"; do
		# shellcheck disable=SC2086 # word splitting wanted
		timeout 10 "$STARVE" $cmd >/dev/null 2>"$T/err"
		rc=$?
		[ "$rc" = 124 ] && fail "starve $cmd blocked"
		[ "$rc" = 2 ] || fail "starve $cmd exited $rc, expected 2"
		grep -qF "$bad: not a regular file" "$T/err" || fail "starve $cmd: $(cat "$T/err")"
	done
done

# The reference validator must agree: every refused file invalid, the rest valid.
if command -v python3 >/dev/null && python3 -c 'import jsonschema' 2>/dev/null; then
	validate() { python3 "$top_srcdir/tests/validate-result.py" "$top_srcdir/reports/result/result-schema.json" "$@"; }
	validate "$T"/mangled-refused-*.json 2>"$T/py" && fail "jsonschema accepted every refused file"
	for f in "$T"/mangled-refused-*.json; do
		grep -qF "$f: " "$T/py" || fail "jsonschema accepts $f ($(jq -c . "$f" | head -c 200)...)"
	done
	validate "$T"/mangled-beyond-*.json "$T"/mangled-accepted-*.json ||
		fail "jsonschema refuses a file the schema should allow"
fi
exit 0
