#!/usr/bin/env python3
"""Write the synthetic results that the `starve compare` tests read.

usage: python3 tests/compare/make-results.py [OUTDIR]   (default: this directory)

Each result is a minimal valid result.json (doc/result-format.md) whose metric
samples are chosen here, so the expected verdicts follow from the numbers:
  base.json         6.18.44, 5 repetitions, small spread around fixed values
  same.json         6.18.45, the same samples              -> no change, exit 0
  slower.json       6.19.0, wakeup_p99 +20%, throughput +20%, one run errored
                                                            -> regression, exit 1
  noisy-a/b.json    wide samples that overlap, medians 13% apart -> undecided
  marginal.json     6.19.1, wakeup_p99 about +20% but spread: p_holm 0.020 at 5
                    runs a side, a regression only with more runs (the looks)
  two-reps.json     only two repetitions                    -> insufficient data
  other-profile.json  another profile's result              -> exit 2
  settings.json     one result, settings "stock" and "tuned": tuned halves
                    starvation_max and raises wakeup_p99 by 30%
  not-a-result.json   JSON that is not a starve result      -> exit 2
The outputs are committed; rerun this after changing it.
"""
import json
import os
import sys

# Per-repetition factors. A small spread (+-2%) so a 20% shift separates the
# samples completely.
JITTER = [0.98, 1.01, 1.00, 1.015, 0.99]
# A wide spread (+-30%) so an 8% shift of the median is not significant.
NOISE_A = [0.70, 1.30, 0.90, 1.20, 1.00]
NOISE_B = [1.25, 0.75, 1.10, 0.95, 1.05]

BASE = {
    "victim": {"starvation_max": 0.012, "wait_ratio": 0.30, "cpu_share": 0.50,
               "throughput": 1.2e6},
    "probe": {"wakeup_p99": 85e-6, "wakeup_max": 400e-6},
}


def scaled(spread, factors=None):
    """Per-repetition metrics: BASE * spread[rep] * factors[metric]."""
    factors = factors or {}
    return [{load: {m: v * factors.get(m, 1.0) * s for m, v in metrics.items()}
             for load, metrics in BASE.items()} for s in spread]


def run(setting, rep, metrics, status="ok"):
    r = {"setting": setting, "repetition": rep, "status": status,
         "reason": None if status == "ok" else "load 'victim' exited with status 1",
         "started": "2026-12-03T09:00:%02dZ" % (rep * 6 + 1), "duration_s": 5.0,
         "loads": [], "verdicts": []}
    if status == "ok":
        r["sampler"] = {"target_hz": 250, "achieved_hz": 249.8, "ticks": 1250,
                        "late_ticks": 1, "missed_ticks": 0}
        r["noise"] = {"other_cpu_share": 0.01}
        r["loads"] = [{"name": load, "type": "cpu-victim" if load == "victim"
                       else "wakeup-probe", "tasks_seen": 1, "metrics": m}
                      for load, m in metrics.items()]
    return r


def result(release, runs, profile="fairness-demo", settings=("default",)):
    return {
        "format": "starve-result", "format_version": 1,
        "tool": {"name": "starve", "version": "0.1.0",
                 "command_line": ["starve", "run", "profiles/%s.yaml" % profile]},
        "started": "2026-12-03T09:00:00Z", "ended": "2026-12-03T09:01:00Z",
        "complete": True,
        "host": {"hostname": "vm", "nr_cpus": 2, "topology": "1 package, 2 cores, 2 PUs"},
        "kernel": {"release": release, "version": "#1 SMP PREEMPT_DYNAMIC", "hz": 250},
        "profile": {
            "file": "profiles/%s.yaml" % profile, "name": profile,
            "description": "synthetic result for the compare tests",
            "duration_s": 5, "warmup_s": 1, "repeat": 5, "sample_hz": 250,
            "loads": [{"name": "victim", "type": "cpu-victim"},
                      {"name": "probe", "type": "wakeup-probe"}],
            "settings": [{"name": s, "knobs": {}} for s in settings],
            "expect": [],
            "compare_thresholds": {"wait_ratio": 10},
        },
        "runs": runs,
        "summary": {"verdict": "pass", "pass": 0, "fail": 0, "skip": 0, "undecided": 0,
                    "exit_code": 0},
    }


def series(release, reps, errored=(), **kw):
    return result(release, [run("default", i, m, "error" if i in errored else "ok")
                            for i, m in enumerate(reps)], **kw)


# A 20% rise of wakeup_p99 with a spread of its own: one-sided p_holm 0.020
# at 5 runs a side, so a look at alpha 0.05 / 3 leaves it open and twice the
# runs decide it (tests/integration/vm-until-decided.sh, bisect.sh).
MARGINAL = [1.05, 1.35, 1.15, 1.28, 1.18]


def marginal():
    reps = scaled(JITTER)
    for rep, f in zip(reps, MARGINAL):
        rep["probe"]["wakeup_p99"] *= f
    return series("6.19.1", reps)


def settings_result():
    stock = scaled(JITTER)
    tuned = scaled(JITTER, {"starvation_max": 0.5, "wakeup_p99": 1.3})
    runs = []
    for i in range(len(JITTER)):	# settings interleaved per repetition, as run does
        runs.append(run("stock", i, stock[i]))
        runs.append(run("tuned", i, tuned[i]))
    return result("6.18.44", runs, settings=("stock", "tuned"))


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    docs = {
        "base.json": series("6.18.44", scaled(JITTER)),
        "same.json": series("6.18.45", scaled(JITTER)),
        "slower.json": series("6.19.0", scaled(JITTER + [1.005],
                                               {"wakeup_p99": 1.2, "throughput": 1.2}),
                              errored=(2,)),
        "noisy-a.json": series("6.18.44", scaled(NOISE_A)),
        "noisy-b.json": series("6.19.0", scaled(NOISE_B, {m: 1.08 for m in
                                                          ("starvation_max", "wait_ratio",
                                                           "cpu_share", "throughput",
                                                           "wakeup_p99", "wakeup_max")})),
        "two-reps.json": series("6.19.0", scaled(JITTER[:2])),
        "marginal.json": marginal(),
        "other-profile.json": series("6.19.0", scaled(JITTER), profile="rt-throttle"),
        "settings.json": settings_result(),
        "not-a-result.json": {"format": "something-else", "values": [1, 2, 3]},
    }
    for name, doc in docs.items():
        with open(os.path.join(out, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
