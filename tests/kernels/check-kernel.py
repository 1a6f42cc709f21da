#!/usr/bin/python3
"""check-kernel.py OUTDIR: judge what one qemu guest sent back (run-kernel.sh's
OUTDIR) against that kernel's own config and release (OUTDIR/config, release):
starve env names the release, HZ and preemption model; kernel-test's settings ran or were
skipped as that kernel version's knobs say; smoke ran; every knob was back
to its value after the runs. Prints one line per failed check; exit 1 then."""
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


def knob_files(text):
    """knobs-*.txt: 'path: value' per line -> {path: value}."""
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


cfg = kernel_config(os.path.join(out, "config"))
release = load("release").strip()
version = tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", release).groups())
rt = cfg.get("CONFIG_PREEMPT_RT") == "y"

# The guest's own exit codes: env twice, each profile once.
status = load("status").split("\n")
check(status.count("env 0") == 2, "starve env failed in the guest: %s" % status)
check("run kernel-test 0" in status, "kernel-test did not exit 0: %s" % status)
check("run smoke 0" in status, "smoke did not exit 0: %s" % status)

# starve env: release, HZ and preemption model are this kernel's.
env = load("env-before.json")
k = env["kernel"]
check(k["release"] == release, "env release %r, package has %r" % (k["release"], release))
check(k["hz"] == int(cfg["CONFIG_HZ"]) and k["hz_source"] == "config",
      "env HZ %r (%s), CONFIG_HZ=%s" % (k["hz"], k["hz_source"], cfg["CONFIG_HZ"]))
check(k["preempt"] == config_preempt(cfg),
      "env preempt %r, the config builds %r" % (k["preempt"], config_preempt(cfg)))
check(k["preempt_dynamic"] == (cfg.get("CONFIG_PREEMPT_DYNAMIC") == "y"),
      "env preempt_dynamic %r" % k["preempt_dynamic"])
# A dynamic kernel's model is the one debugfs brackets; from 6.12 an RT
# kernel can be dynamic too (full or lazy), and then env says "rt".
before = knob_files(load("knobs-before.txt"))
dyn = re.search(r"\((\w+)\)", before.get("/sys/kernel/debug/sched/preempt", ""))
if dyn and not rt:
    check(k["preempt"] == dyn.group(1), "env preempt %r, debugfs says %r" % (k["preempt"], dyn.group(1)))

# Without the config (no /boot, and these kernels have no /proc/config.gz)
# env measures HZ from the coarse clock and finds the same model elsewhere.
check("env-noconfig 0" in status, "starve env without a config failed")
nocfg = load("env-noconfig.json")["kernel"]
check(nocfg["hz_source"] == "measured" and nocfg["hz"] == int(cfg["CONFIG_HZ"]),
      "env without config: HZ %r (%s), CONFIG_HZ=%s" % (nocfg["hz"], nocfg["hz_source"], cfg["CONFIG_HZ"]))
check(nocfg["preempt"] == k["preempt"] and nocfg["preempt_source"] in ("uname", "debugfs"),
      "env without config: preempt %r from %s, with it %r" % (nocfg["preempt"], nocfg["preempt_source"],
                                                               k["preempt"]))

# Which knobs this version has: EEVDF's slice from 6.6, CFS's granularity
# before it, the fair deadline server from 6.12.
has = {
    "base": True, "rt-runtime": True,
    "cfs-granularity": version < (6, 6),
    "eevdf-slice": version >= (6, 6),
    "fair-server": version >= (6, 12),
}
present = {n["name"]: n["present"] for n in env["knobs"]}
check(present.get("debugfs:sched/base_slice_ns") == has["eevdf-slice"],
      "env: base_slice_ns present=%r on %s" % (present.get("debugfs:sched/base_slice_ns"), release))
check(present.get("debugfs:sched/fair_server/cpu0/runtime") == has["fair-server"],
      "env: fair_server present=%r on %s" % (present.get("debugfs:sched/fair_server/cpu0/runtime"), release))

# kernel-test: one run per setting, ok where the knob exists, else skipped
# with the knob's name in the reason.
res = load("kernel-test/result.json")
check(res["kernel"]["release"] == release, "result.json release %r" % res["kernel"]["release"])
runs = {r["setting"]: r for r in res["runs"]}
check(sorted(runs) == sorted(has), "kernel-test ran settings %s" % sorted(runs))
knobs = {s["name"]: s.get("knobs", {}) for s in res["profile"]["settings"]}
for name, r in runs.items():
    want = "ok" if has.get(name) else "skipped"
    if not check(r["status"] == want, "kernel-test %s: status %r, expected %r (reason %r)"
                 % (name, r["status"], want, r["reason"])):
        continue
    for knob, value in knobs.get(name, {}).items():
        if want == "ok":
            check(r["knobs_applied"].get(knob) == value,
                  "kernel-test %s: %s applied %r" % (name, knob, r["knobs_applied"].get(knob)))
        else:
            check(knob in (r["reason"] or "") and "no such knob" in r["reason"],
                  "kernel-test %s: reason %r does not name %s" % (name, r["reason"], knob))
            check(all(v["verdict"] == "skip" for v in r["verdicts"]),
                  "kernel-test %s: a skipped run has verdicts other than skip" % name)
    if want == "ok":
        check(all(v["verdict"] in ("pass", "undecided") for v in r["verdicts"]),
              "kernel-test %s: verdicts %s" % (name, [v["verdict"] for v in r["verdicts"]]))

# Loads were confined with the cpuset backend env chose (the guest mounts
# cgroup v1's cpuset or cgroup2), and no cpuset was left behind.
backend = env["cpuset"]["backend"]
check(backend in ("cgroup-v1", "cgroup-v2"), "env cpuset backend %r in the guest" % backend)
check(res.get("cpuset_backend") == backend,
      "kernel-test confined with %r, env chose %r" % (res.get("cpuset_backend"), backend))
check(load("cpusets-after.txt").split() == [], "cpusets left: %s" % load("cpusets-after.txt").split())

# smoke: every run ran and every load was measured.
smoke = load("smoke/result.json")
for r in smoke["runs"]:
    check(r["status"] == "ok", "smoke %s: status %r (%r)" % (r["setting"], r["status"], r["reason"]))
    check(len(r["loads"]) == len(smoke["profile"]["loads"]), "smoke %s: loads missing" % r["setting"])

# Crashes (tests/kernels/init, crash.yaml): both knobs were changed while the
# run lived; killed with its watchdog alive, they came back by themselves;
# with the watchdog killed too, they stayed changed until `starve restore`.
changed = {"/proc/sys/kernel/sched_rt_runtime_us": "960000",
           "/sys/kernel/debug/sched/migration_cost_ns": "400000"}
for case, restorer in (("watchdog-alive", None), ("watchdog-killed", "restore")):
    snap = {w: knob_files(load("crash-%s-%s.txt" % (case, w)))
            for w in ("before", "during", "killed", "after")}
    for path, value in changed.items():
        check(snap["before"][path].strip() != value, "crash %s: %s was %s already" % (case, path, value))
        check(snap["during"][path].strip() == value, "crash %s: %s not applied (%r)"
              % (case, path, snap["during"][path]))
        killed_ok = snap["killed"][path] == (snap["during"] if restorer else snap["before"])[path]
        check(killed_ok, "crash %s: %s is %r after the kill" % (case, path, snap["killed"][path]))
    check(snap["after"] == snap["before"], "crash %s: knobs differ after it" % case)
    ran = ("restore %s 0" % case) in status
    check(ran == bool(restorer), "crash %s: starve restore %s" % (case, "ran" if ran else "did not run"))

# Restored: starve env and every knob file read the same afterwards.
after_env = load("env-after.json")
vals = lambda e: {n["name"]: n["value"] for n in e["knobs"]}
check(vals(env) == vals(after_env), "starve env knobs differ after the runs")
after = knob_files(load("knobs-after.txt"))
for path in sorted(set(before) | set(after)):
    check(before.get(path) == after.get(path),
          "%s: %r before, %r after" % (path, before.get(path), after.get(path)))

for f in failures:
    print("FAIL %s: %s" % (release, f))
sys.exit(1 if failures else 0)
