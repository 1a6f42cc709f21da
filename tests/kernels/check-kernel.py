#!/usr/bin/python3
"""check-kernel.py OUTDIR: judge what one qemu guest sent back (run-kernel.sh's
OUTDIR) against that kernel's own config and release (OUTDIR/config, release).
Each check_* function pins down one behaviour of starve on that kernel.
Prints one line per failed check and exits 1 then."""
import json, os, re, sys

out = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def load(name):
    with open(os.path.join(out, name)) as f:
        return json.load(f) if name.endswith(".json") else f.read()


def kernel_config(path):
    cfg = {}
    for line in open(path):
        m = re.match(r"(CONFIG_\w+)=(.*)", line)
        if m:
            cfg[m.group(1)] = m.group(2).strip('"')
    return cfg


def config_preempt(cfg):
    """The model the config builds (the default of a dynamic kernel)."""
    if cfg.get("CONFIG_PREEMPT_RT") == "y":
        return "rt"
    for opt, model in (("CONFIG_PREEMPT_NONE", "none"), ("CONFIG_PREEMPT_VOLUNTARY", "voluntary"),
                       ("CONFIG_PREEMPT", "full"), ("CONFIG_PREEMPT_LAZY", "lazy")):
        if cfg.get(opt) == "y":
            return model
    return None


def knob_files(name):
    """knobs-*.txt, crash-*.txt: 'path: value' per line -> {path: value}."""
    return dict(line.split(": ", 1) for line in load(name).splitlines() if ": " in line)


cfg = kernel_config(os.path.join(out, "config"))
release = load("release").strip()
version = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", release).groups())
rt = cfg.get("CONFIG_PREEMPT_RT") == "y"
status = load("status").split("\n")   # each guest command's exit code
env = load("env-before.json")
before = knob_files("knobs-before.txt")
# Which kernel-test settings have their knob here: EEVDF's slice from 6.6,
# CFS's granularity before it, the fair deadline server from 6.12.
has = {"base": True, "rt-runtime": True, "cfs-granularity": version < (6, 6),
       "eevdf-slice": version >= (6, 6), "fair-server": version >= (6, 12)}


def check_env():
    """starve env names this kernel's release, HZ and preemption model."""
    k = env["kernel"]
    check(status.count("env 0") == 2, "starve env failed in the guest: %s" % status)
    check(k["release"] == release, "env release %r, package has %r" % (k["release"], release))
    check(k["hz"] == int(cfg["CONFIG_HZ"]) and k["hz_source"] == "config",
          "env HZ %r (%s), CONFIG_HZ=%s" % (k["hz"], k["hz_source"], cfg["CONFIG_HZ"]))
    check(k["preempt"] == config_preempt(cfg),
          "env preempt %r, the config builds %r" % (k["preempt"], config_preempt(cfg)))
    check(k["preempt_dynamic"] == (cfg.get("CONFIG_PREEMPT_DYNAMIC") == "y"),
          "env preempt_dynamic %r" % k["preempt_dynamic"])
    # A dynamic kernel's model is the one debugfs brackets; from 6.12 an RT
    # kernel can be dynamic too (full or lazy), and then env says "rt".
    dyn = re.search(r"\((\w+)\)", before.get("/sys/kernel/debug/sched/preempt", ""))
    if dyn and not rt:
        check(k["preempt"] == dyn.group(1), "env preempt %r, debugfs says %r" % (k["preempt"], dyn.group(1)))
    present = {n["name"]: n["present"] for n in env["knobs"]}
    for knob, setting in (("debugfs:sched/base_slice_ns", "eevdf-slice"),
                          ("debugfs:sched/fair_server/cpu0/runtime", "fair-server")):
        check(present.get(knob) == has[setting], "env: %s present=%r" % (knob, present.get(knob)))


def check_env_without_config():
    """Without /boot (these kernels have no /proc/config.gz) env measures HZ
    from the coarse clock and finds the same model in uname or debugfs."""
    k, nocfg = env["kernel"], load("env-noconfig.json")["kernel"]
    check("env-noconfig 0" in status, "starve env without a config failed")
    check(nocfg["hz_source"] == "measured" and nocfg["hz"] == int(cfg["CONFIG_HZ"]),
          "env without config: HZ %r (%s), CONFIG_HZ=%s" % (nocfg["hz"], nocfg["hz_source"], cfg["CONFIG_HZ"]))
    check(nocfg["preempt"] == k["preempt"] and nocfg["preempt_source"] in ("uname", "debugfs"),
          "env without config: preempt %r from %s, with it %r"
          % (nocfg["preempt"], nocfg["preempt_source"], k["preempt"]))


def check_run_status(name, r, knobs):
    """One kernel-test run: applied where the knob exists, else skipped with
    the knob's name in the reason and only skip verdicts."""
    want = "ok" if has.get(name) else "skipped"
    if not check(r["status"] == want, "kernel-test %s: status %r, expected %r (reason %r)"
                 % (name, r["status"], want, r["reason"])):
        return
    for knob, value in knobs.items():
        if want == "ok":
            check(r["knobs_applied"].get(knob) == value,
                  "kernel-test %s: %s applied %r" % (name, knob, r["knobs_applied"].get(knob)))
        else:
            check(knob in (r["reason"] or "") and "no such knob" in r["reason"],
                  "kernel-test %s: reason %r does not name %s" % (name, r["reason"], knob))
    ok_verdicts = ("pass", "undecided") if want == "ok" else ("skip",)
    check(all(v["verdict"] in ok_verdicts for v in r["verdicts"]),
          "kernel-test %s: verdicts %s" % (name, [v["verdict"] for v in r["verdicts"]]))


def check_kernel_test():
    """kernel-test: every setting ran or was skipped as this version's knobs
    say; loads were confined with env's cpuset backend; no cpuset is left."""
    res = load("kernel-test/result.json")
    check("run kernel-test 0" in status, "kernel-test did not exit 0: %s" % status)
    check(res["kernel"]["release"] == release, "result.json release %r" % res["kernel"]["release"])
    check(sorted({r["setting"] for r in res["runs"]}) == sorted(has),
          "kernel-test ran settings %s" % sorted({r["setting"] for r in res["runs"]}))
    knobs = {s["name"]: s.get("knobs", {}) for s in res["profile"]["settings"]}
    for r in res["runs"]:
        check_run_status(r["setting"], r, knobs.get(r["setting"], {}))
    backend = env["cpuset"]["backend"]
    check(backend in ("cgroup-v1", "cgroup-v2"), "env cpuset backend %r in the guest" % backend)
    check(res.get("cpuset_backend") == backend,
          "kernel-test confined with %r, env chose %r" % (res.get("cpuset_backend"), backend))
    check(load("cpusets-after.txt").split() == [], "cpusets left: %s" % load("cpusets-after.txt").split())


def check_smoke():
    """smoke: every run ran and every load was measured."""
    smoke = load("smoke/result.json")
    check("run smoke 0" in status, "smoke did not exit 0: %s" % status)
    for r in smoke["runs"]:
        check(r["status"] == "ok", "smoke %s: status %r (%r)" % (r["setting"], r["status"], r["reason"]))
        check(len(r["loads"]) == len(smoke["profile"]["loads"]), "smoke %s: loads missing" % r["setting"])


def check_rt_throttle():
    """rt-throttle (one 3 s repetition): throttled, the victim beside the RT
    hog gets its 5%; unthrottled, it starves for the whole run before 6.12
    and gets the fair server's 50 ms a second from 6.12, as the profile's
    header says. Its exit code follows: 1 (a failed verdict) before 6.12."""
    res = load("rt-throttle/result.json")
    victim = {}
    for r in res["runs"]:
        check(r["status"] == "ok", "rt-throttle %s: status %r (%r)" % (r["setting"], r["status"], r["reason"]))
        victim[r["setting"]] = [l["metrics"] for l in r["loads"] if l["name"] == "victim"][0]
    run_s = res["profile"]["duration_s"]
    fair_server = version >= (6, 12)
    thr = victim["throttled"]
    check(thr.get("cpu_share", 0) > 0.02 and thr.get("starvation_max", 9e9) < 1.2,
          "rt-throttle throttled: victim %r" % thr)
    starved = victim["unthrottled"].get("starvation_max")   # absent: not measured
    check(starved is not None and (starved < 1.2 if fair_server else starved > 0.9 * run_s),
          "rt-throttle unthrottled: victim starved %s s of %g s (fair server expected: %s)"
          % (starved, run_s, fair_server))
    want = "run rt-throttle %d" % (0 if fair_server else 1)
    check(want in status, "rt-throttle exit: %s, expected '%s'" % (status, want))


def check_crashes():
    """crash.yaml killed midway (tests/kernels/init): both knobs were changed
    while the run lived; with its watchdog alive they came back by themselves;
    with the watchdog killed too they stayed changed until `starve restore`."""
    changed = {"/proc/sys/kernel/sched_rt_runtime_us": "960000",
               "/sys/kernel/debug/sched/migration_cost_ns": "400000"}
    for case, restorer in (("watchdog-alive", False), ("watchdog-killed", True)):
        snap = {w: knob_files("crash-%s-%s.txt" % (case, w)) for w in ("before", "during", "killed", "after")}
        for path, value in changed.items():
            check(snap["before"][path].strip() != value, "crash %s: %s was %s already" % (case, path, value))
            check(snap["during"][path].strip() == value,
                  "crash %s: %s not applied (%r)" % (case, path, snap["during"][path]))
            check(snap["killed"][path] == snap["during" if restorer else "before"][path],
                  "crash %s: %s is %r after the kill" % (case, path, snap["killed"][path]))
        check(snap["after"] == snap["before"], "crash %s: knobs differ after it" % case)
        ran = ("restore %s 0" % case) in status
        check(ran == restorer, "crash %s: starve restore %s" % (case, "ran" if ran else "did not run"))


def check_restored():
    """starve env and every knob file read the same after all the runs."""
    vals = lambda e: {n["name"]: n["value"] for n in e["knobs"]}
    check(vals(env) == vals(load("env-after.json")), "starve env knobs differ after the runs")
    after = knob_files("knobs-after.txt")
    for path in sorted(set(before) | set(after)):
        check(before.get(path) == after.get(path),
              "%s: %r before, %r after" % (path, before.get(path), after.get(path)))


for f in (check_env, check_env_without_config, check_kernel_test, check_smoke, check_rt_throttle,
          check_crashes, check_restored):
    f()
for f in failures:
    print("FAIL %s: %s" % (release, f))
sys.exit(1 if failures else 0)
