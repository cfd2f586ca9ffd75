#!/usr/bin/env python3
"""seqfuzz driver: random programs (gen.py), built instrumented and sequential, outputs compared.

    nice -n 19 tests/seqfuzz/run.py --cei-dir build --seed 100 --count 50 --minutes 30
    tests/seqfuzz/run.py --cei-dir build --replay tests/seqfuzz/regressions/*.cpp

Each program is written as the only variable source of one cei_add_application project (app/,
configured once per --work folder), so a program costs one ceic run and two compiles. The
instrumented program runs under every --policies entry (CEI_POLICY) and must print exactly what
the -seq program prints. Outcomes:
  ok         same output under every policy
  refused    ceic stopped the build with `main.cpp:L:C: error: ceic: ...` (counted by rule); each
             diagnostic must be at a line holding a form of gen.REFUSED, else the program is
             kept in --findings as <label>.refused.cpp (REFUSED UNEXPECTEDLY); a program
             that builds although it holds such a form is kept as <label>.missed.cpp (NOT REFUSED)
  build      any other build failure: the -seq program (a generator bug) or the instrumented one
             (ceic wrote code that does not compile, or crashed)
  FINDING    different output, a crash or a hang of the instrumented program: the program is
             kept in --findings with its seed, reduced to fewer chunks when --reduce-builds allows
Exit status: 0 when every program was ok or refused, 1 otherwise, 2 on bad arguments or setup.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

POLICIES = ["only:cpu", "only:opencl0", "dynperf"]
LISTED_PLATFORMS = os.path.join(HERE, "..", "cpu_and_opencl0.toml")
# Forms of issue 16 that today's ceic is known to miscompile; a finding whose reduced program
# uses one of them is classified under it.
KNOWN = ["at", "accessor_lambda", "user_accessor", "pointer", "ref_local"]
CEIC_ERROR = re.compile(r"^(?P<file>[^\s:]*main\.cpp):(?P<line>\d+):(?P<col>\d+): error: ceic: (?P<msg>.*)$",
                        re.M)
RULES = [("inside a template", "template"), ("macro", "macro"), ("on 'this'", "this"),
         ("temporary", "temporary"), ("captured by copy", "lambda_copy"),
         ("must be a variable", "out_not_lvalue"), ("declare it in a block", "loop_header"),
         ("default argument", "default_arg")]


def die(msg):
    print(f"run.py: {msg}", file=sys.stderr)
    sys.exit(2)


def rule_of(msg):
    tag = re.search(r"\[ceic-([a-z-]+)\]", msg)
    if tag:
        return tag.group(1)
    for needle, rule in RULES:
        if needle in msg:
            return rule
    return re.sub(r"'[^']*'", "'X'", msg)


class Project:
    """The app/ project configured in <work>/build, building whatever <work>/main.cpp holds."""

    def __init__(self, work, cei_dir, cxx_flags, linker_flags, build_timeout):
        self.work = os.path.abspath(work)
        self.build_dir = os.path.join(self.work, "build")
        self.main = os.path.join(self.work, "main.cpp")
        self.cei_dir = os.path.abspath(cei_dir)
        self.cxx_flags = cxx_flags
        self.linker_flags = linker_flags
        self.build_timeout = build_timeout

    def write(self, text):
        old = open(self.main).read() if os.path.exists(self.main) else None
        if old != text:
            with open(self.main, "w") as f:
                f.write(text)

    def configure(self, first_text):
        os.makedirs(self.work, exist_ok=True)
        self.write(first_text)
        if os.path.exists(os.path.join(self.build_dir, "build.ninja")):
            return
        cmd = ["cmake", "-S", os.path.join(HERE, "app"), "-B", self.build_dir, "-G", "Ninja",
               f"-DCEI_DIR={self.cei_dir}", f"-DFZ_MAIN={self.main}", "-DCMAKE_BUILD_TYPE=",
               f"-DCMAKE_CXX_FLAGS={self.cxx_flags}", f"-DCMAKE_EXE_LINKER_FLAGS={self.linker_flags}"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            die(f"configuring {self.build_dir} failed:\n{p.stdout}{p.stderr}")

    def build(self, target):
        try:
            p = subprocess.run(["cmake", "--build", self.build_dir, "--target", target],
                               capture_output=True, text=True, timeout=self.build_timeout)
        except subprocess.TimeoutExpired:
            return False, f"building {target} took more than {self.build_timeout} s"
        return p.returncode == 0, p.stdout + p.stderr

    def exe(self, name):
        return os.path.join(self.build_dir, name)


def run(exe, env, timeout):
    """(status, stdout, stderr); status: the exit code, or 'hang'."""
    try:
        p = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "hang", out, ""
    return p.returncode, p.stdout, p.stderr


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<nothing>"
        y = lb[i] if i < len(lb) else "<nothing>"
        if x != y:
            return i, x, y
    return None


def describe_difference(a, b):
    """(the first line that differs narrowed to the first digest item `name=...` that differs,
    that item's name)."""
    d = first_difference(a, b)
    if not d:
        return "same output", ""
    n, x, y = d
    tx, ty = x.split(" "), y.split(" ")
    k = next((i for i in range(min(len(tx), len(ty))) if tx[i] != ty[i]), min(len(tx), len(ty)))
    start = next((i for i in range(min(k, len(tx) - 1), -1, -1) if "=" in tx[i]), 0)

    def item(t):
        end = next((i for i in range(start + 1, len(t)) if "=" in t[i]), len(t))
        return " ".join(t[start:end])
    where = tx[0] if tx and tx[0].endswith(":") else ""
    name = tx[start].split("=", 1)[0] if start < len(tx) else ""
    return f"line {n + 1} {where} expected `{item(tx)}`, got `{item(ty)}`", name


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.project = Project(args.work, args.cei_dir, args.cxx_flags, args.linker_flags,
                               args.build_timeout)
        self.policies = [p for p in args.policies.split(",") if p]
        self.skip = [f for f in args.skip_forms.split(",") if f]
        unknown = [f for f in self.skip if f not in gen.FORMS]
        if unknown:
            die(f"--skip-forms: unknown form(s) {', '.join(unknown)}; known: {', '.join(gen.FORMS)}")
        self.stats = {"generated": 0, "ok": 0, "refused_programs": 0, "refused": {}, "build": [],
                      "findings": [], "unexpected": [], "missed": []}
        self.reduced_classes = set()
        self.reduce_left = args.reduce_builds

    def env(self, policy):
        e = dict(os.environ)
        e["CEI_POLICY"] = policy
        # DynPerf moves tasks between the CPU and PoCL only when the device is listed (found by
        # discovery, a CPU-type device takes only what the CPU cannot run); a user's file wins.
        if not policy.startswith(("only:", "static")):
            e.setdefault("CEI_PLATFORMS", LISTED_PLATFORMS)
        e["CEI_CPU_CORES"] = "4"
        return e

    def build_both(self, text):
        """None when both built, else (kind, log) with kind 'refused' or 'build'."""
        self.project.write(text)
        ok, log = self.project.build("fz-seq")
        if not ok:
            return "build", "the -seq program does not build (a generator bug):\n" + log
        ok, log = self.project.build("fz")
        if ok:
            return None
        if CEIC_ERROR.search(log):
            return "refused", log
        return "build", "the instrumented program does not build (ceic):\n" + log

    def compare(self, policies):
        """None when every policy prints what -seq prints, else (policy, seq, inst, detail,
        signature); the signature (the first differing digest item's name, or how it ended)
        tells a reduced program that still shows this difference from one that shows another."""
        sst, sout, serr = run(self.project.exe("fz-seq"), dict(os.environ), self.args.run_timeout)
        if sst != 0:
            return ("-seq", sout, "", f"the -seq program failed ({sst}): {serr.strip()[-500:]}", "seq")
        first, failing = None, []
        # All of them: which platforms go wrong tells where to look; --repeat catches the races.
        for policy in (p for p in policies for _ in range(self.args.repeat)):
            if policy in failing:
                continue
            st, out, err = run(self.project.exe("fz"), self.env(policy), self.args.run_timeout)
            if st == "hang":
                failing.append(policy)
                first = first or (policy, sout, out, f"hang: no exit after {self.args.run_timeout} s",
                                  "hang")
            elif st != 0 or out != sout:
                failing.append(policy)
                where, name = describe_difference(sout, out)
                sig = name if st == 0 else f"exit {st}"
                first = first or (policy, sout, out, f"exit {st}; {where}; stderr: {err.strip()[-800:]}", sig)
        if not first:
            return None
        return first[:3] + (f"{first[3]} [fails under {', '.join(failing)}]", first[4])

    def refusal(self, text, log):
        lines = text.splitlines()
        rules = []
        for m in CEIC_ERROR.finditer(log):
            n = int(m["line"])
            src = lines[n - 1] if 0 < n <= len(lines) else ""
            tag = src.rsplit("// @", 1)[1].split(",") if "// @" in src else []
            expected = bool(set(tag) & gen.REFUSED)
            rules.append((rule_of(m["msg"]), n, expected, tag, m["msg"]))
        return rules

    @staticmethod
    def first_error(text, log):
        m = re.search(r"main\.cpp:(\d+):\d+: error: (.*)", log)
        if not m:
            return ""
        lines = text.splitlines()
        n = int(m.group(1))
        src = lines[n - 1] if 0 < n <= len(lines) else ""
        tag = src.rsplit("// @", 1)[1] if "// @" in src else "-"
        return f"line {n} (forms {tag}): {m.group(2)}"

    def localize(self, program, seq_out, inst_out):
        """The chunks up to the first diverging checkpoint (all of them if it is the last)."""
        d = first_difference(seq_out, inst_out)
        if d:
            for line in (d[1], d[2]):
                m = re.match(r"cp(\d+):", line)
                if m:
                    return list(range(int(m.group(1)) + 1))
        return list(range(len(program.chunks)))

    def reproduces(self, program, keep, policy, sig):
        """The failure of `keep` if it has signature `sig`, else None."""
        self.reduce_left -= 1
        if self.build_both(program.render(keep)) is not None:
            return None
        failure = self.compare([policy])
        return failure if failure and failure[4] == sig else None

    def reduce(self, program, keep, failure):
        """ddmin-like: drop runs of chunks while the same difference stays, within the build
        budget. Returns (chunks kept, the failure of the program they make)."""
        policy, sig = failure[0], failure[4]
        if len(keep) < len(program.chunks):
            f = self.reproduces(program, keep, policy, sig)
            if f:
                failure = f
            else:
                keep = list(range(len(program.chunks)))
        step = max(1, len(keep) // 2)
        while step >= 1 and self.reduce_left > 0:
            i = 0
            while i < len(keep) and self.reduce_left > 0:
                cand = keep[:i] + keep[i + step:]
                f = self.reproduces(program, cand, policy, sig) if cand else None
                if f:
                    keep, failure = cand, f
                else:
                    i += step
            if step == 1:
                break
            step //= 2
        return keep, failure

    def classify(self, program, keep):
        forms = set().union(*(program.chunks[i].forms for i in keep))
        known = sorted(f for f in KNOWN if f in forms)
        other = sorted(f for f in gen.RISKY | gen.I39 if f in forms and f not in KNOWN)
        return "+".join(known + other) or "new", forms

    def record_finding(self, label, program, text, failure):
        policy, sout, iout, detail, _ = failure
        os.makedirs(self.args.findings, exist_ok=True)
        keep = list(range(len(program.chunks))) if program else None
        klass, forms = ("replay", set())
        if policy == "-seq":
            klass = "seq-failed (a generator bug)"
        elif program:
            keep = self.localize(program, sout, iout)
            klass, forms = self.classify(program, keep)
            key = (klass, failure[4])  # a crash and a wrong value of one class differ
            if self.args.reduce_builds and key not in self.reduced_classes and self.reduce_left > 0:
                self.reduced_classes.add(key)
                keep, failure = self.reduce(program, keep, failure)
                detail = f"reduced: {failure[3]}"
                klass, forms = self.classify(program, keep)
                text = program.render(keep)
        path = os.path.join(self.args.findings, f"{label}.cpp")
        note = [f"// FINDING seqfuzz {label}: policy {policy}; class {klass}", f"// {detail}",
                f"// forms: {', '.join(sorted(forms))}"]
        with open(path, "w") as f:
            f.write("\n".join(note) + "\n" + text)
        self.stats["findings"].append((label, klass, policy, detail, path))
        return klass, path

    def keep(self, label, kind, text, log):
        os.makedirs(self.args.findings, exist_ok=True)
        path = os.path.join(self.args.findings, f"{label}.{kind}.cpp")
        with open(path, "w") as f:
            f.write(text)
        with open(path + ".log", "w") as f:
            f.write(log)
        return path

    def check(self, label, text, program=None):
        """Builds and compares one program; returns its outcome line."""
        self.stats["generated"] += 1
        t0 = time.time()
        failed = self.build_both(text)
        if failed:
            kind, log = failed
            if kind == "refused":
                rules = self.refusal(text, log)
                self.stats["refused_programs"] += 1  # one program, maybe several diagnostics
                for rule, *_ in rules:
                    self.stats["refused"][rule] = self.stats["refused"].get(rule, 0) + 1
                desc = "; ".join(f"{r} at line {n} ({'expected' if e else 'forms ' + ','.join(t)})"
                                 for r, n, e, t, _ in rules)
                # A replayed program carries no form tags: refusing it is an outcome it may have.
                if program is None or all(e for _, _, e, _, _ in rules):
                    return f"refused: {desc}"
                # A refusal of a form the generator holds valid: ceic is wrong, or the form
                # belongs in gen.REFUSED.
                path = self.keep(label, "refused", text, log)
                self.stats["unexpected"].append((label, desc, path))
                return f"REFUSED UNEXPECTEDLY: {desc} (kept in {path})"
            path = self.keep(label, "build", text, log)
            first = log.splitlines()[0] + " " + self.first_error(text, log)
            self.stats["build"].append((label, first, path))
            return f"BUILD ERROR: {first} (kept in {path}, log {path}.log)"
        missed = ""
        if program is not None:
            # Built although it holds a form ceic must refuse: the refusal went missing.
            forms = sorted(set().union(*(c.forms for c in program.chunks)) & gen.REFUSED)
            if forms:
                path = self.keep(label, "missed", text, "")
                self.stats["missed"].append((label, ",".join(forms), path))
                missed = f"NOT REFUSED ({','.join(forms)}, kept in {path}); "
        failure = self.compare(self.policies)
        if failure is None:
            if not missed:
                self.stats["ok"] += 1
            return f"{missed}ok ({time.time() - t0:.0f} s)"
        klass, path = self.record_finding(label, program, text, failure)
        return f"{missed}FINDING [{klass}] under {failure[0]}: {failure[3]} (kept in {path})"

    def summary(self):
        s = self.stats
        print(f"\nseqfuzz: {s['generated']} programs: {s['ok']} ok, {s['refused_programs']} refused "
              f"({len(s['unexpected'])} of them unexpectedly), {len(s['missed'])} not refused, "
              f"{len(s['build'])} build errors, {len(s['findings'])} findings")
        for rule, n in sorted(s["refused"].items()):
            print(f"  diagnostics of rule {rule}: {n}")
        for label, desc, path in s["unexpected"]:
            print(f"  refused unexpectedly {label}: {desc} ({path})")
        for label, forms, path in s["missed"]:
            print(f"  not refused {label}: {forms} ({path})")
        for label, first, path in s["build"]:
            print(f"  build error {label}: {first} ({path})")
        classes = {}
        for label, klass, policy, detail, path in s["findings"]:
            classes.setdefault(klass, []).append(label)
        for klass, labels in sorted(classes.items()):
            print(f"  findings of class {klass}: {len(labels)} ({', '.join(labels)})")
        for label, klass, policy, detail, path in s["findings"]:
            print(f"  FINDING {label} [{klass}] {policy}: {detail[:300]} -> {path}")
        return 0 if not (s["build"] or s["findings"] or s["unexpected"] or s["missed"]) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cei-dir", required=True, help="the CEI build tree (or <prefix>/lib/cmake/CEI)")
    ap.add_argument("--work", default=os.path.join("/tmp", f"seqfuzz-{os.getuid()}"),
                    help="where the project is configured and built (reused between runs)")
    ap.add_argument("--findings", default=os.path.join(HERE, "findings"), help="where findings are kept")
    ap.add_argument("--seed", type=int, default=1, help="the first program's seed; the next ones count up")
    ap.add_argument("--count", type=int, default=10, help="how many programs at most")
    ap.add_argument("--minutes", type=float, default=0, help="start no program after this long (0: no limit)")
    ap.add_argument("--policies", default=",".join(POLICIES), help="CEI_POLICY values to compare under")
    ap.add_argument("--skip-forms", default="", help="forms gen.py must not generate (comma-separated)")
    ap.add_argument("--reduce-builds", type=int, default=40,
                    help="builds spent in all on reducing findings (the first of each class and "
                         "signature: the first differing digest item, or how the program ended)")
    ap.add_argument("--cxx-flags", default="-O0", help="CMAKE_CXX_FLAGS of the programs")
    ap.add_argument("--linker-flags", default="", help="CMAKE_EXE_LINKER_FLAGS of the programs")
    ap.add_argument("--build-timeout", type=int, default=600)
    ap.add_argument("--run-timeout", type=int, default=120)
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of the instrumented program per policy (each must match -seq)")
    ap.add_argument("--replay", nargs="*", help="build and compare these programs instead of generating")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.cei_dir, "CEIConfig.cmake")):
        die(f"--cei-dir {args.cei_dir}: no CEIConfig.cmake there (build CEI first)")
    if shutil.which("ninja") is None:
        die("ninja is needed to build the programs")
    if args.repeat < 1:
        die(f"--repeat {args.repeat}: must be at least 1")

    fz = Fuzzer(args)
    start = time.time()
    if args.replay:
        texts = [(os.path.splitext(os.path.basename(p))[0], open(p).read(), None) for p in args.replay]
    else:
        texts = None
    first = texts[0][1] if texts else gen.generate(args.seed, fz.skip).render()
    fz.project.configure(first)
    items = texts if texts else ((f"seed-{s}", None, s) for s in range(args.seed, args.seed + args.count))
    for label, text, seed in items:
        if args.minutes and time.time() - start > args.minutes * 60:
            print(f"seqfuzz: {args.minutes} minutes are up")
            break
        program = None
        if seed is not None:
            program = gen.generate(seed, fz.skip)
            text = program.render()
            forms = sorted(program.enabled)
            print(f"{label} ({len(program.chunks)} chunks, forms drawn: {','.join(forms) or 'none'}): ",
                  end="", flush=True)
        else:
            print(f"{label}: ", end="", flush=True)
        print(fz.check(label, text, program), flush=True)
    sys.exit(fz.summary())


if __name__ == "__main__":
    main()
