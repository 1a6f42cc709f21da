#!/usr/bin/env python3
"""Generate the synthetic results in tests/results/ (run from anywhere).

Each document is built by hand here, verdicts and summary included, as the
oracle the tests compare starve's own verdict computation against
(test-reports recomputes them and must find the same verdicts). broken-*.json
each carry one defect the schema must reject. Re-run after changing the format
and commit the output.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = {"release": "6.18.44", "version": "#1 SMP PREEMPT_DYNAMIC Thu Nov 20 2026",
          "hz": 250, "hz_source": "config", "preempt": "none (dynamic)",
          "schedstat_global": False, "schedstat_task": True}
SAMPLER_OK = {"target_hz": 250, "achieved_hz": 249.9, "ticks": 1250, "late_ticks": 2,
              "missed_ticks": 0, "tasks": 2, "cpu_s": 0.004,
              "cost_us_per_task_tick": 0.8, "priority": 0}
LOADS = [{"name": "hog", "type": "rt-hog", "count": 1, "mode": "threads", "cpus": "pu:1",
          "nice": 0, "policy": "fifo", "priority": 50, "session": False,
          "options": {"run": "1s", "sleep": "0ns"}},
         {"name": "victim", "type": "cpu-victim", "count": 1, "mode": "threads",
          "cpus": "pu:1", "nice": 0, "policy": "other", "priority": 0, "session": False,
          "options": {}}]
STARV = {"load": "victim", "metric": "starvation_max", "op": "below", "threshold": 1.2,
         "threshold_text": "1.2s", "setting": None}
SHARE = {"load": "victim", "metric": "cpu_share", "op": "above", "threshold": 0.04,
         "threshold_text": "0.04", "setting": "throttled"}


def document(name, settings, expect, runs, summary, repeat=1):
    return {
        "format": "starve-result", "format_version": 1,
        "tool": {"name": "starve", "version": "0.1.0",
                 "command_line": ["starve", "run", f"profiles/{name}.yaml"]},
        "started": "2026-12-03T09:00:00Z", "ended": "2026-12-03T09:00:40Z",
        "complete": True,
        "host": {"hostname": "vm", "nr_cpus": 2, "topology": "1 package, 2 cores, 2 PUs"},
        "kernel": KERNEL, "cpuset_backend": "cgroup-v1",
        "knobs_before": {"kernel.sched_rt_runtime_us": "950000"},
        "profile": {"file": f"profiles/{name}.yaml", "name": name,
                    "description": "An RT hog shares CPU 1 with a plain victim.",
                    "duration_s": 5, "warmup_s": 1, "repeat": repeat, "sample_hz": 250,
                    "loads": LOADS, "attach": [],
                    "settings": settings, "expect": expect,
                    "compare_thresholds": {"cpu_share": 10}},
        "runs": runs, "summary": summary,
    }


def run(setting, rep, metrics, verdicts, status="ok", reason=None, sampler=SAMPLER_OK,
        noise=0.01, knobs=None):
    r = {"setting": setting, "repetition": rep, "status": status, "reason": reason,
         "knobs_applied": knobs or {}, "started": f"2026-12-03T09:00:{1 + 6 * rep:02d}Z",
         "duration_s": 5.0 if status == "ok" else 0.0, "loads": [], "verdicts": verdicts}
    if status == "ok":
        r["sampler"] = sampler
        r["noise"] = {"other_cpu_share": noise}
        r["loads"] = [
            {"name": "hog", "type": "rt-hog", "tasks_seen": 1,
             "metrics": {"cpu_share": 0.95, "throughput": 950.0}},
            {"name": "victim", "type": "cpu-victim", "tasks_seen": 1, "metrics": metrics,
             "histograms": {"gap": {"unit": "ns", "count": 10, "min": 50000,
                                    "max": 960000000, "sum": 1e9,
                                    "buckets": [[49152, 9], [950009856, 1]]}},
             "tasks": [{"tid": 4321, "comm": "starve-victim", "metrics": metrics}],
             "timeseries": {"interval_s": 0.1, "cpu_share": [0.05, 0.04],
                            "runnable_waiting": [1, 1]}}]
    return r


def verdict(expect, value, v, setting, rep, reason=None):
    d = {k: expect[k] for k in ("load", "metric", "op", "threshold", "threshold_text")}
    d.update(value=value, verdict=v, reason=reason, setting=setting, repetition=rep)
    return d


def summary(p=0, f=0, s=0, u=0, open_=False):
    """OPEN_: an expectation that only undecided runs judged (not a pass)."""
    worst = "fail" if f else "undecided" if open_ else "pass" if p else "skip"
    code = {"fail": 1, "undecided": 4, "pass": 0, "skip": 4}[worst]
    warn = None
    if u:
        warn = (f"{u} verdict{'' if u == 1 else 's'} undecided: the measurement was not "
                "trustworthy (see the reasons)"
                + ("; an expectation no run decided is not a pass" if worst == "undecided"
                   else "; each expectation passed in another run"))
    return {"verdict": worst, "pass": p, "fail": f, "skip": s, "undecided": u,
            "exit_code": code, "undecided_fails": False, "warning": warn}


THROTTLED = {"name": "throttled", "knobs": {"kernel.sched_rt_runtime_us": "950000"}}
UNTHROTTLED = {"name": "unthrottled", "knobs": {"kernel.sched_rt_runtime_us": "-1"}}
GOOD = {"starvation_max": 0.95, "starvation_max_inband": 0.96, "wait_ratio": 0.95,
        "cpu_share": 0.05, "throughput": 1.2e6}


def fail_reason(value, setting):
    return (f"victim starvation_max {value} is not below 1.2s "
            f"(setting {setting}, kernel 6.18.44)")


def make():
    out = {}
    knobs_t = THROTTLED["knobs"]
    out["pass"] = document("rt-throttle", [THROTTLED], [STARV, SHARE], [
        run("throttled", 0, GOOD, [verdict(STARV, 0.95, "pass", "throttled", 0),
                                   verdict(SHARE, 0.05, "pass", "throttled", 0)],
            knobs=knobs_t)], summary(p=2))

    bad = dict(GOOD, starvation_max=1.31)
    out["fail"] = document("rt-throttle", [THROTTLED], [STARV, SHARE], [
        run("throttled", 0, bad, [
            verdict(STARV, 1.31, "fail", "throttled", 0, fail_reason("1.31s", "throttled")),
            verdict(SHARE, 0.05, "pass", "throttled", 0)], knobs=knobs_t)],
        summary(p=1, f=1))

    slice_setting = {"name": "short-slice", "knobs": {"debugfs:sched/base_slice_ns": "750000"}}
    why = "knob debugfs:sched/base_slice_ns is not available (debugfs not mounted)"
    out["skipped"] = document("eevdf-slice", [slice_setting], [STARV], [
        run("short-slice", 0, None, [verdict(STARV, None, "skip", "short-slice", 0, why)],
            status="skipped", reason=why)], summary(s=1))

    slow = dict(SAMPLER_OK, achieved_hz=200.0, late_ticks=250)
    p99 = {"load": "victim", "metric": "wakeup_p99", "op": "below", "threshold": 0.001,
           "threshold_text": "1ms", "setting": None}
    merged = dict(GOOD, starvation_max_upper=1.3)	# the slow sampler merged waits
    out["undecided"] = document("rt-throttle", [THROTTLED, UNTHROTTLED], [STARV, p99], [
        run("throttled", 0, merged, [
            verdict(STARV, 0.95, "undecided", "throttled", 0,
                    "starvation_max is between 950ms and 1.3s, which the threshold splits: "
                    "late sampler ticks merged waits (exact mode, trace: true, can tell)"),
            verdict(p99, None, "undecided", "throttled", 0,
                    "metric wakeup_p99 not measured for load victim")],
            sampler=slow, knobs=knobs_t),
        run("unthrottled", 0, GOOD, [
            verdict(STARV, 0.95, "undecided", "unthrottled", 0,
                    "other tasks used 15% of the loads' CPUs (more than 10%): too noisy"),
            verdict(p99, None, "undecided", "unthrottled", 0,
                    "other tasks used 15% of the loads' CPUs (more than 10%): too noisy")],
            noise=0.15, knobs=UNTHROTTLED["knobs"])], summary(u=4, open_=True))
    # one run trustworthy but without the metric
    out["unmeasured"] = document("rt-throttle", [THROTTLED], [STARV, p99], [
        run("throttled", 0, GOOD, [
            verdict(STARV, 0.95, "pass", "throttled", 0),
            verdict(p99, None, "undecided", "throttled", 0,
                    "metric wakeup_p99 not measured for load victim")], knobs=knobs_t)],
        summary(p=1, u=1, open_=True))

    # 2 settings x 3 repetitions, interleaved; the unthrottled victim starves
    runs = []
    starv = {"throttled": [0.95, 0.97, 0.96], "unthrottled": [1.02, 5.0, 4.98]}
    counts = {"pass": 0, "fail": 0}
    for rep in range(3):
        for st in (THROTTLED, UNTHROTTLED):
            name = st["name"]
            m = dict(GOOD, starvation_max=starv[name][rep],
                     cpu_share=0.05 if name == "throttled" else 0.0)
            v = starv[name][rep]
            vs = [verdict(STARV, v, "pass" if v < 1.2 else "fail", name, rep,
                          None if v < 1.2 else fail_reason(f"{v:g}s", name))]
            if name == "throttled":
                vs.append(verdict(SHARE, 0.05, "pass", name, rep))
            for x in vs:
                counts[x["verdict"]] += 1
            runs.append(run(name, rep, m, vs, knobs=st["knobs"]))
    out["multi"] = document("rt-throttle", [THROTTLED, UNTHROTTLED], [STARV, SHARE], runs,
                            summary(p=counts["pass"], f=counts["fail"]), repeat=3)

    # names that need escaping in XML, Markdown and KTAP
    odd = {"name": "a&b <c> \"d\" #1|x", "knobs": {"kernel.sched_rt_runtime_us": "950000"}}
    doc = copy.deepcopy(out["fail"])
    doc["profile"]["name"] = "odd<&>\"profile\""
    doc["profile"]["settings"] = [odd]
    doc["profile"]["expect"][1]["setting"] = odd["name"]
    for r in doc["runs"]:
        r["setting"] = odd["name"]
        for v in r["verdicts"]:
            v["setting"] = odd["name"]
            if v["reason"]:
                v["reason"] = fail_reason("1.31s", odd["name"])
    out["odd-names"] = doc

    b = copy.deepcopy(out["pass"])
    b["format_version"] = "1"
    out["broken-version"] = b
    b = copy.deepcopy(out["pass"])
    b["runs"][0]["verdicts"][0]["verdict"] = "maybe"
    out["broken-verdict"] = b
    b = copy.deepcopy(out["fail"])
    b["runs"][0]["loads"][1]["metrics"]["starvation_max"] = None
    out["broken-null-metric"] = b
    b = copy.deepcopy(out["skipped"])
    del b["runs"][0]["reason"]
    out["broken-no-reason"] = b
    return out


def main():
    for name, doc in make().items():
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
