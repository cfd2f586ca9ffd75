#!/usr/bin/env python3
"""The CEI benchmark suite: reproduces the paper's experiments on this machine.

    python3 bench/suite/suite.py --build build --out bench/results/<machine> [--quick] [--runs 5]

Writes README.md (Markdown tables), results.json (every run) and PNG plots to --out. Every figure is
the median of --runs runs with the min-max spread; the runs of the scenarios being compared are
interleaved (run 1 of each, run 2 of each, ...) so that load drift on a shared machine hits all of
them alike. scripts/bench.sh builds first and picks --out; bench/gpu/run.sh runs a relocated build.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import report  # noqa: E402  (bench/suite/report.py: tables and plots)

REPO = Path(__file__).resolve().parents[2]


class Suite:
    def __init__(self, args):
        self.build = Path(args.build).resolve()
        self.data = Path(args.data).resolve() if args.data else REPO / "data"
        self.out = Path(args.out).resolve()
        self.quick = args.quick
        self.policy_apps = args.policy_apps.split(",")
        self.runs = args.runs or (3 if args.quick else 5)
        self.cores = args.cores or os.cpu_count()
        self.timeout = args.timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="cei-bench-"))
        self.log = []
        # Every runtime run gets the same two platforms with a power model, so that DynEn has
        # energies to compare where no meter (RAPL, NVML) is readable.
        self.platforms = (
            f'[platforms.cpu]\ntype = "cpu"\nactive_w = {args.cpu_w}\nidle_w = {args.cpu_w / 5}\n\n'
            f'[platforms.opencl0]\ntype = "opencl"\n'
            f'device = "{os.environ.get("CEI_OPENCL_DEVICE", "")}"\n'
            f'active_w = {args.opencl_w}\nidle_w = {args.opencl_w / 5}\n')
        self.platforms_file = self.tmp / "platforms.toml"
        self.platforms_file.write_text(self.platforms)

    # ---- locating programs and inputs ------------------------------------------------------
    def exe(self, name):
        """A program of the build: examples/<app>/, bench/*/ or bench/suite/handwritten/."""
        for sub in ("examples/" + name.split("-")[0], "bench/suite/handwritten", "bench/overhead",
                    "bench/opencl", "bench/remote", "bench/policies", "bin"):
            p = self.build / sub / name
            if p.is_file() and os.access(p, os.X_OK):
                return p
        return None

    def weights(self):
        for p in (self.build / "examples/digits/digits.weights", self.data / "digits.weights"):
            if p.is_file():
                return p
        return None

    def app_args(self, app, size=None):
        """Command-line arguments of an example for the chosen size (quick or full)."""
        out = self.tmp / "out"
        out.mkdir(exist_ok=True)
        if app == "matmul":
            return ["256", "64"] if self.quick else ["512", "128"]
        if app == "bezier":
            res = "512" if self.quick else "1024"
            return [str(size or (128 if self.quick else 256)), str(out / "bezier.png"), res]
        if app == "canny":
            return [str(size or (8 if self.quick else 30)), str(out / "canny"),
                    str(self.data / "china.jpg")]
        if app == "digits":
            w = self.weights()
            return ["128" if self.quick else "512", str(w), str(self.data / "digits.csv.gz")]
        raise ValueError(app)

    # ---- running one program ----------------------------------------------------------------
    def run(self, argv, env=None, trace=False):
        """Runs argv once; returns wall seconds, stdout, and the trace/summary readings."""
        e = {k: v for k, v in os.environ.items() if not k.startswith("CEI_") or k in (
            "CEI_OPENCL_DEVICE",)}
        if str(argv[0]).endswith(tuple(("matmul", "bezier", "canny", "digits"))):
            e["CEI_PLATFORMS"] = str(self.platforms_file)
        e.update(env or {})
        tr = self.tmp / "trace.json"
        if trace:
            e["CEI_TRACE"] = str(tr)
            e["CEI_SUMMARY"] = "1"
            tr.unlink(missing_ok=True)
        t0 = time.perf_counter()
        try:
            p = subprocess.run([str(a) for a in argv], env=e, capture_output=True, text=True,
                               timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.log.append(f"timeout after {self.timeout}s: {' '.join(map(str, argv))}")
            return None
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            self.log.append(f"exit {p.returncode}: {' '.join(map(str, argv))} env={env}\n"
                            f"{p.stderr[-800:]}")
            return None
        r = {"wall_s": wall, "check": checksum_line(p.stdout)}
        r.update(parse_handcl(p.stderr))
        if trace:
            r.update(parse_summary(p.stderr))
            if tr.is_file():
                r.update(parse_trace(json.loads(tr.read_text())))
        return r

    def interleaved(self, cases):
        """cases: {name: (argv, env, trace)}; returns {name: [readings of each run]}."""
        res = {n: [] for n in cases}
        for i in range(self.runs):
            for n, (argv, env, trace) in cases.items():
                r = self.run(argv, env, trace)
                if r is not None:
                    res[n].append(r)
            print(f"  run {i + 1}/{self.runs} done", file=sys.stderr, flush=True)
        return res

    # ---- §5.1: the six scenarios -------------------------------------------------------------
    def table51(self):
        results = {}
        for app in ("matmul", "bezier", "canny", "digits"):
            inst, seq, hand = self.exe(app), self.exe(app + "-seq"), self.exe(app + "-handcl")
            if not inst or not seq or (app == "digits" and not self.weights()):
                self.log.append(f"§5.1 {app}: not built, skipped")
                continue
            a = self.app_args(app)
            cases = {"CPU": ([seq] + a, {}, False)}
            if hand:
                cases["GPU"] = ([hand] + a, {}, False)
            cases["R1CPU"] = ([inst] + a, {"CEI_POLICY": "only:cpu", "CEI_CPU_CORES": "1"}, True)
            cases[f"R{self.cores}CPU"] = ([inst] + a, {"CEI_POLICY": "only:cpu",
                                                       "CEI_CPU_CORES": str(self.cores)}, True)
            cases["RGPU"] = ([inst] + a, {"CEI_POLICY": "only:opencl0", "CEI_OPENCL_NAIVE": "1"},
                             True)
            cases["RGPUO"] = ([inst] + a, {"CEI_POLICY": "only:opencl0"}, True)
            print(f"§5.1 {app} {' '.join(a)}", file=sys.stderr, flush=True)
            results[app] = {"args": a, "runs": self.interleaved(cases)}
        return results

    # ---- §5.2: policies on heterogeneous configurations -------------------------------------
    def static_maps(self, app):
        """The CE -> platform maps the Static policy is tried with; its best one is reported."""
        if app == "bezier":
            return [{"BezierCEI.patch": p} for p in ("cpu", "opencl0")]
        stages = ("gaussian", "sobel", "nonmax", "hysteresis")
        masks = range(16) if not self.quick else (0b0000, 0b1111, 0b0011, 0b1100)
        return [{f"CannyCEI.{s}": ("opencl0" if m >> i & 1 else "cpu")
                 for i, s in enumerate(stages)} for m in masks]

    def policies(self):
        results = []
        blocks = (512, 256, 128) if self.quick else (1024, 512, 256, 128)
        workloads = [(app, b) for app, b in [("bezier", b) for b in blocks] + [("canny", None)]
                     if app in self.policy_apps]
        # 1, 2, 4, ... and n: every count on a phone-sized CPU, a handful on a server.
        core_counts = sorted({1, self.cores} if self.quick else
                             {c for c in (1, 2, 4, 8, 16, 32, 64) if c < self.cores} | {self.cores})
        for app, size in workloads:
            inst = self.exe(app)
            if not inst:
                self.log.append(f"§5.2 {app}: not built, skipped")
                continue
            a = self.app_args(app, size)
            for cores in core_counts:
                print(f"§5.2 {app} {size or ''} {cores} cores + opencl0", file=sys.stderr,
                      flush=True)
                prof = self.tmp / f"profile-{app}-{size}-{cores}.json"
                prof.unlink(missing_ok=True)
                base = {"CEI_CPU_CORES": str(cores), "CEI_PROFILE": str(prof)}
                # One untimed run fills the forecast history both dynamic policies start from.
                self.run([inst] + a, dict(base, CEI_POLICY="dynperf"))
                cases = {}
                for k, m in enumerate(self.static_maps(app)):
                    toml = self.tmp / f"static-{app}-{k}.toml"
                    toml.write_text(self.platforms + "\n[policy.static]\n" + "".join(
                        f'"{ce}" = "{p}"\n' for ce, p in m.items()))
                    cases[f"static{k}"] = ([inst] + a, dict(base, CEI_POLICY="static",
                                                            CEI_PLATFORMS=str(toml)), True)
                for pol in ("dynperf", "dynen"):
                    cases[pol] = ([inst] + a, dict(base, CEI_POLICY=pol), True)
                runs = self.interleaved(cases)
                statics = {k: v for k, v in runs.items() if k.startswith("static") and v}
                best = min(statics, key=lambda k: median([r["wall_s"] for r in statics[k]]),
                           default=None)
                maps = self.static_maps(app)
                results.append({
                    "app": app, "size": size, "cores": cores, "args": a,
                    "static_map": maps[int(best[6:])] if best else None,
                    "runs": {"Static": runs.get(best, []), "DynPerf": runs["dynperf"],
                             "DynEn": runs["dynen"]},
                    "static_candidates": {str(maps[int(k[6:])]): median(
                        [r["wall_s"] for r in v]) for k, v in statics.items()}})
        return results

    # ---- the other issues' benchmarks ---------------------------------------------------------
    def tool(self, name, argv):
        exe = self.exe(name)
        if not exe:
            self.log.append(f"{name}: not built, skipped")
            return None
        print(f"{name} {' '.join(argv)}", file=sys.stderr, flush=True)
        try:
            p = subprocess.run([str(exe)] + argv, capture_output=True, text=True,
                               timeout=max(self.timeout, 900))
        except subprocess.TimeoutExpired:
            self.log.append(f"{name}: timed out")
            return None
        if p.returncode != 0:
            self.log.append(f"{name}: exit {p.returncode}\n{p.stderr[-800:]}")
        return p.stdout

    def others(self):
        q = self.quick
        return {
            "overhead": self.tool("cei-bench-overhead",
                                  ["--tasks", "20000" if q else "100000", "--runs",
                                   str(self.runs), "--cores", str(self.cores)]),
            "opencl": self.tool("cei_opencl_bench",
                                ["30", "256", "8", "300", str(self.runs)]),
            "remote": self.tool("cei-bench-remote", ["64" if q else "256",
                                                     "500" if q else "2000"]),
        }


# ---- parsing what the programs print ----------------------------------------------------------
def median(xs):
    return statistics.median(xs) if xs else float("nan")


def checksum_line(stdout):
    for line in stdout.splitlines():
        if line.startswith(("checksum", "accuracy")):
            return line.strip()
    return ""


def parse_handcl(stderr):
    m = re.search(r"opencl: copy_ms ([\d.]+) kernel_ms ([\d.]+)", stderr)
    return {"copy_s": float(m.group(1)) / 1e3, "kernel_s": float(m.group(2)) / 1e3} if m else {}


def parse_summary(stderr):
    """The CEI_SUMMARY table: total energy and where its figures came from."""
    out = {}
    sources = set()
    for line in stderr.splitlines():
        t = line.split()
        if len(t) >= 7 and "::" in t[0] and t[2].isdigit():
            sources.add(t[6])
        elif len(t) >= 8 and t[0] == "total" and t[1].isdigit():
            out["energy_j"] = float(t[4])
            out["moved"] = " ".join(t[6:8])
    if sources:
        out["energy_from"] = "+".join(sorted(sources))
    return out


def union(intervals):
    merged = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def length(iv):
    return sum(b - a for a, b in iv)


def intersect(x, y):
    i = j = 0
    out = 0.0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        out += max(0.0, b - a)
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def parse_trace(trace):
    """Task time (when any task runs), exposed transfer time, tasks per platform."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    tasks, transfers, per = [], [], {}
    for ev in events:
        if ev.get("ph") != "X":
            continue
        iv = (ev["ts"] * 1e-6, (ev["ts"] + ev["dur"]) * 1e-6)
        if ev.get("cat") == "task":
            tasks.append(iv)
            p = (ev.get("args") or {}).get("chosen") or "?"
            per[p] = per.get(p, 0) + 1
        elif ev.get("cat") == "transfer":
            transfers.append(iv)
    t, x = union(tasks), union(transfers)
    out = {"task_s": length(t), "per_platform": per}
    if x:  # a platform that reports no transfer events leaves the column empty, not zero
        out.update(transfer_s=length(x), exposed_s=length(x) - intersect(x, t))
    return out


def machine_name():
    if os.environ.get("CEI_BENCH_MACHINE"):
        return os.environ["CEI_BENCH_MACHINE"]
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1]
                break
    except OSError:
        pass
    cpu = re.sub(r"\(R\)|\(TM\)|CPU|Processor|@.*", " ", cpu).split()
    host = os.uname().nodename.split(".")[0]
    return re.sub(r"[^a-z0-9-]+", "-", "-".join([host] + cpu[:2]).lower()).strip("-")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(REPO / "build"))
    ap.add_argument("--out", default=None, help="default bench/results/<machine>")
    ap.add_argument("--data", default=None, help="inputs (china.jpg, digits.csv.gz); default data/")
    ap.add_argument("--quick", action="store_true", help="reduced sizes and 3 runs")
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--cores", type=int, default=0, help="n of RnCPU (default: every core)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per program run")
    ap.add_argument("--only", default="51,52,others", help="parts to run: 51,52,others")
    ap.add_argument("--device", default="", help="OpenCL device name, for the report")
    ap.add_argument("--cpu-w", type=float, default=15, help="CPU power model: W while busy")
    ap.add_argument("--opencl-w", type=float, default=15,
                    help="opencl0 power model: W while busy (PoCL: the same CPU)")
    ap.add_argument("--policy-apps", default="bezier,canny",
                    help="the applications of part 52 (run apart where a call is limited)")
    ap.add_argument("--merge", nargs="+", metavar="DIR",
                    help="no run: one report from the results.json of parts run apart "
                         "(--only 51 / 52 / others, e.g. one per call on a machine lent for "
                         "minutes), written to --out")
    args = ap.parse_args()
    if args.merge:
        return merge(args.merge, args.out)
    machine = machine_name()
    args.out = args.out or str(REPO / "bench/results" / machine)
    s = Suite(args)
    parts = args.only.split(",")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res = {"machine": machine, "quick": s.quick, "runs": s.runs, "cores": s.cores,
           "started": started, "device": args.device or opencl_device_name(),
           "table51": {}, "policies": [], "others": {}, "log": s.log}
    s.out.mkdir(parents=True, exist_ok=True)
    # Written after each part: a run cut short keeps the parts it finished.
    for part, key, fn in (("51", "table51", s.table51), ("52", "policies", s.policies),
                          ("others", "others", s.others)):
        if part in parts:
            res[key] = fn()
            (s.out / "results.json").write_text(json.dumps(res, indent=1, default=str))
    (s.out / "results.json").write_text(json.dumps(res, indent=1, default=str))
    report.write(res, s.out)
    shutil.rmtree(s.tmp, ignore_errors=True)
    for line in s.log:
        print("note:", line, file=sys.stderr)
    print(f"results in {s.out}", file=sys.stderr)


def merge(dirs, out):
    """One results.json and README from parts run apart on the same machine and build."""
    parts = [json.loads((Path(d) / "results.json").read_text()) for d in dirs]
    res = dict(parts[0])
    for key in ("table51", "others"):
        found = [p[key] for p in parts if p.get(key)]
        if len(found) > 1:
            sys.exit(f"suite.py --merge: '{key}' is in more than one of {dirs}")
        res[key] = found[0] if found else {}
    res["policies"] = [row for p in parts for row in p.get("policies", [])]  # one app per part
    for k in ("machine", "quick", "runs", "cores", "device"):
        if any(p.get(k) != res.get(k) for p in parts):
            sys.exit(f"suite.py --merge: the parts differ in '{k}'")
    res["started"] = ", ".join(sorted({p["started"] for p in parts}))
    res["log"] = [line for p in parts for line in p.get("log", [])]
    out = Path(out or Path(dirs[0]).parent / "merged")
    out.mkdir(parents=True, exist_ok=True)
    for d in dirs:  # the plots each part drew
        for png in Path(d).glob("*.png"):
            shutil.copy(png, out / png.name)
    (out / "results.json").write_text(json.dumps(res, indent=1, default=str))
    report.write(res, out)
    print(f"results in {out}", file=sys.stderr)


def opencl_device_name():
    """The name of the device opencl0 is (the first matching CEI_OPENCL_DEVICE), from clinfo."""
    exe = shutil.which("clinfo")
    if not exe:
        return ""
    p = subprocess.run([exe, "-l"], capture_output=True, text=True)
    want = os.environ.get("CEI_OPENCL_DEVICE", "")
    for line in p.stdout.splitlines():
        m = re.search(r"Device #\d+: (.*)", line)
        if m and want in m.group(1):
            return m.group(1).strip()
    return ""


if __name__ == "__main__":
    main()
