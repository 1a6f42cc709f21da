# What the compare fixtures keep of a result (tests/compare/make-*.sh): no
# per-task metrics or runnable_waiting series, numbers to 6 significant digits.
del(.runs[].loads[].tasks, .runs[].loads[].timeseries.runnable_waiting)
| walk(if type == "number" and . != floor and . != 0 then
	(. as $x | ($x | fabs | log10 | floor) as $e | pow(10; 5 - $e) as $m
	 | ($x * $m | round) / $m) else . end)
