#!/usr/bin/env python3
"""Random sequential C++ programs over the CEs of ces.cei.hpp, for the seqfuzz differential test.

    gen.py --seed 7 [-o main.cpp] [--skip-forms at,pointer]

A program is the same for the same seed (and skip list). It declares a fixed set of data, then
runs a list of *chunks* (statements, loops, branches, lambdas, helpers, try blocks) that call CEs
and read and write the data on the host, printing digests at some points and of everything at the
end. Every line a chunk writes ends with `// @form,form`: the argument and statement forms it uses
(run.py maps a ceic error or a diverging digest back to them). Chunks do not depend on each other,
so run.py can drop any of them while reducing a finding.

Forms (FORMS below): the rule table of docs/instrumenter.md plus the forms ceic is known to get
wrong or to refuse. RISKY forms are enabled per program with some probability, so that many
programs contain none of them and can find something new.
"""
import argparse
import random
import sys

# Forms ceic should refuse with a build error (docs/instrumenter.md, "Refused constructs").
REFUSED = {"lambda_copy_ce", "generic_lambda", "loop_header_var", "default_arg"}
# Forms whose handling is known to be incomplete (issue 16) or that stress aliasing and
# reallocation; each is enabled in a program with probability RISKY_P.
# exc_late: a statement between a throwing CE call and the read of its result, in a try block
# (ceic waits for the call there, so the statement does not run); exc_type: catching the CE's own
# exception type (the runtime rethrows the CE's exception itself).
# lambda_copy_class: a lambda capturing a task's vector or struct by copy (the lambda is made after
# a sync_read of it).
RISKY = {"at", "accessor_lambda", "user_accessor", "pointer", "ref_local", "alias", "realloc",
         "exc_late", "exc_type", "lambda_copy_class"}
RISKY_P = 0.25
REFUSED_P = 0.05

FORMS = sorted(REFUSED | RISKY | {
    "var", "field", "elem", "call_elem", "container", "range_for", "loop", "branch",
    "result_assign", "result_local", "nested", "waited", "temp_arg", "host_write", "host_read",
    "lambda_ref", "lambda_copy_read", "exception", "instance", "helper", "by_value", "checkpoint",
    "map", "range_for_map", "range_for_copy"})

# The data every program declares (name, C++ declaration, digest expression).
DATA = [
    ("a", "DVec a{3, 1, 4, 1, 5, 9};"),
    ("b", "DVec b{2, 6, 5, 3, 5, 8};"),
    ("c", "DVec c(6, 7.0);"),
    ("M", "DMat M = fz::mmake(3, 4, 11.0);"),
    ("P", "DMat P(3, 4);"),
    ("av", "DArr av(6);"),
    ("s1", "double s1 = 4;"),
    ("s2", "double s2 = 9;"),
    ("i1", "int i1 = 5;"),
    ("chk", "double chk = 0;"),
    ("pk", "Pack pk;"),
    ("rows", "std::vector<DVec> rows(3, DVec{1, 2, 3, 4, 5, 6});"),
    ("tiles", "std::vector<DMat> tiles(4, DMat(3, 4));"),
    ("sc", "std::vector<double> sc{8, 6, 7, 5, 3, 0};"),
    ("cnt", "std::vector<int> cnt{1, 2, 3, 4};"),
    ("acc", "Acc acc;"),
    ("accs", "std::vector<Acc> accs(2);"),
    ("g", "Grid g;"),
    ("mp", "std::map<int, DVec> mp{{1, DVec(6, 2.0)}, {4, DVec(6, 5.0)}};"),
]
NAMES = [n for n, _ in DATA]


class Chunk:
    def __init__(self, lines, forms, helper=None):
        self.lines = lines      # relative to main's body, already indented within the chunk
        self.forms = set(forms)
        self.helper = helper    # a function defined before main, used only by this chunk


class Gen:
    def __init__(self, seed, skip=()):
        self.r = random.Random(seed)
        self.seed = seed
        self.skip = set(skip)
        self.enabled = {f for f in sorted(RISKY) if f not in self.skip and self.r.random() < RISKY_P}
        self.refused = {f for f in sorted(REFUSED) if f not in self.skip and self.r.random() < REFUSED_P}
        self.n = 0
        self.forms = set()  # forms of the chunk being generated

    # -- helpers -----------------------------------------------------------------------------
    def uid(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def on(self, form):
        return form in self.enabled

    def pick(self, options):
        """options: (text, form) pairs, form None for always allowed; returns the text."""
        allowed = [(t, f) for t, f in options if f is None or f not in RISKY or self.on(f)]
        t, f = self.r.choice(allowed)
        if f:
            self.forms.add(f)
        return t

    def k(self):
        return self.r.randrange(0, 10)

    # -- values --------------------------------------------------------------------------------
    def dbl_in(self, ctx):
        opts = [(f"{self.k()}.0", None), ("s1", "var"), ("pk.x", "field"),
                (f"a[{self.r.randrange(6)}]", "elem"),
                (f"M({self.r.randrange(3)}, {self.r.randrange(4)})", "call_elem"),
                ("std::fmod(s2, 7.0)", "temp_arg"), ("fz::vsum(b)", "nested"),
                (f"fz::icount(c, {self.k()}00.0)", "waited"), (f"sc.at({self.r.randrange(6)})", "at")]
        if "i" in ctx:
            opts.append(("static_cast<double>(i)", "loop"))
        return self.pick(opts)

    def int_in(self, ctx):
        opts = [(f"{self.k()}", None), ("i1 % 6", "var"), (f"cnt[{self.r.randrange(4)}] % 6", "elem")]
        if "i" in ctx:
            opts.append(("i", "loop"))
        return self.pick(opts)

    def dvec_lv(self, ctx):
        k = self.r.randrange(3)
        opts = [("a", "var"), ("b", "var"), ("c", "var"), ("pk.v", "field"),
                (f"rows[{k}]", "container"), (f"rows.at({k})", "at"), (f"g.row({k})", "user_accessor"),
                (f"row({k})", "accessor_lambda"), ("*pv", "pointer"),
                (f"mp[{self.r.choice([1, 4])}]", "map"), (f"mp.at({self.r.choice([1, 4])})", "map")]
        if "i" in ctx:
            opts.append(("rows[i]", "loop"))
        if "r" in ctx:
            opts += [("r", "range_for")] * 3
        if "kv" in ctx:
            opts += [("kv.second", "range_for_map")] * 3
        if "rr" in ctx:
            opts += [("rr", "ref_local")] * 3
        return self.pick(opts)

    def dvec_in(self, ctx, depth=0):
        if depth == 0 and self.r.random() < 0.15:
            self.forms.add("nested")
            return f"fz::vscale({self.dvec_in(ctx, 1)}, {self.k()}.0)"
        if self.r.random() < 0.05:
            self.forms.add("temp_arg")
            return f"DVec(6, {self.k()}.0)"
        return self.dvec_lv(ctx)

    def dmat_lv(self, ctx):
        k = self.r.randrange(4)
        opts = [("M", "var"), ("P", "var"), ("pk.m", "field"), (f"tiles[{k}]", "container"),
                (f"tiles.at({k})", "at"), (f"tile({k // 2}, {k % 2})", "accessor_lambda"),
                ("*pm", "pointer")]
        if "i" in ctx:
            opts.append(("tiles[i]", "loop"))
        if "t" in ctx:
            opts += [("t", "range_for")] * 3
        return self.pick(opts)

    def dmat_in(self, ctx):
        if self.r.random() < 0.15:
            self.forms.add("nested")
            return f"fz::mmake(3, 4, {self.dbl_in(ctx)})"
        return self.dmat_lv(ctx)

    def dbl_lv(self, ctx):
        i, j, e = self.r.randrange(3), self.r.randrange(4), self.r.randrange(6)
        opts = [("s1", "var"), ("s2", "var"), ("pk.x", "field"), (f"sc[{e}]", "elem"),
                (f"sc.at({e})", "at"), (f"M({i}, {j})", "call_elem"), (f"av({e})", "call_elem"),
                (f"a[{e}]", "elem"), (f"rows[{i}][{e}]", "container"), ("*ps", "pointer")]
        if "i" in ctx:
            opts.append(("sc[i]", "loop"))
        if "d" in ctx:
            opts += [("d", "range_for")] * 3
        return self.pick(opts)

    def int_lv(self, ctx):
        e = self.r.randrange(4)
        opts = [("i1", "var"), ("pk.n", "field"), (f"cnt[{e}]", "elem"), (f"cnt.at({e})", "at")]
        if "i" in ctx:
            opts.append(("cnt[i]", "loop"))
        return self.pick(opts)

    def acc_lv(self, ctx):
        k = self.r.randrange(2)
        opts = [("acc", "var"), (f"accs[{k}]", "container"), (f"accs.at({k})", "at")]
        if "x" in ctx:
            opts += [("x", "range_for")] * 3
        return self.pick(opts)

    # -- statements: each returns a list of lines ----------------------------------------------
    def ce_call(self, ctx):
        kind = self.r.randrange(11)
        if kind == 0:
            return [f"fz::vbump({self.dvec_lv(ctx)}, {self.dbl_in(ctx)});"]
        if kind == 1:
            return [f"fz::vfill({self.dvec_lv(ctx)}, 6, {self.dbl_in(ctx)});"]
        if kind == 2:
            return [f"fz::sget({self.dbl_lv(ctx)}, {self.dvec_in(ctx)}, {self.int_in(ctx)});"]
        if kind == 3:
            return [f"fz::iinc({self.int_lv(ctx)}, {self.int_in(ctx)});"]
        if kind == 4:
            return [f"fz::maxpy({self.dmat_lv(ctx)}, {self.dmat_in(ctx)}, {self.dbl_in(ctx)});"]
        if kind == 5:
            return [f"fz::arow(av, {self.dvec_in(ctx)});"]
        if kind == 6:
            self.forms.add("instance")
            if self.on("pointer") and self.r.random() < 0.3:
                self.forms.add("pointer")
                return [f"pa->add({self.dbl_in(ctx)});"]
            if self.r.random() < 0.5:
                return [f"{self.acc_lv(ctx)}.add({self.dbl_in(ctx)});"]
            return [f"{self.acc_lv(ctx)}.absorb({self.dvec_in(ctx)});"]
        if kind == 7:
            self.forms.add("result_assign")
            return [f"{self.dvec_lv(ctx)} = fz::vscale({self.dvec_in(ctx)}, {self.dbl_in(ctx)});"]
        if kind == 8:
            self.forms.add("result_assign")
            ce = self.r.choice([f"fz::vsum({self.dvec_in(ctx)})", f"fz::mtrace({self.dmat_in(ctx)})"])
            return [f"{self.dbl_lv(ctx)} = {ce};"]
        if kind == 9:
            self.forms.add("result_assign")
            return [f"{self.dmat_lv(ctx)} = fz::mmake(3, 4, {self.dbl_in(ctx)});"]
        self.forms.add("result_assign")
        return [f"{self.int_lv(ctx)} = fz::icount({self.dvec_in(ctx)}, {self.k()}00.0);"]

    def host_write(self, ctx):
        self.forms.add("host_write")
        v = f"{self.k()}.0"
        i, j, e = self.r.randrange(3), self.r.randrange(4), self.r.randrange(6)
        opts = [
            (f"a[{e}] = {v};", "elem"), (f"pk.x = {v};", "field"), (f"M({i}, {j}) = {v};", "call_elem"),
            (f"rows[{i}][{e}] = {v};", "container"), (f"sc[{e}] = std::fmod(sc[{e}] + 1.0, 1009.0);", "elem"),
            ("for (auto& d : b) d = std::fmod(d + 1.0, 1009.0);", "range_for"),
            ("c = a;", "var"), ("std::swap(a, b);", "var"),
            (f"tiles[{self.r.randrange(4)}]({i}, {j}) = {v};", "container"),
            (f"av({e}) = {v};", "call_elem"), (f"cnt[{self.r.randrange(4)}] += 1;", "elem"),
            ("i1 = (i1 * 3 + 1) % 1000;", "var"), (f"acc.total = {v};", "field"),
            (f"g.row({i})[{e}] = {v};", "user_accessor"), (f"rows.at({i})[{e}] = {v};", "at"),
            (f"(*pv)[{e}] = {v};", "pointer"), ("P = M;", "var"), (f"pk.v[{e}] = {v};", "field"),
            (f"mp[1][{e}] = {v};", "map"),
            (f"for (DVec xc : rows) chk = std::fmod(chk + xc[{e}], 1009.0);", "range_for_copy"),
            (f"for (double xc : sc) chk = std::fmod(chk + xc, 1009.0);", "range_for_copy"),
        ]
        if "kv" in ctx:
            opts.append((f"kv.second[{e}] = {v};", "range_for_map"))
        if self.on("realloc") and self.r.random() < 0.3:
            self.forms.add("realloc")
            # Not sc or accs: the program keeps pointers into them (ps, pa); not the container a
            # range-for walks (r over rows, t over tiles): that is undefined in the -seq program.
            # Nor rows while rr may be one of its elements.
            grow = [g for g, walkers in (("rows.push_back(a);", {"r", "rr"}), ("tiles.push_back(M);", {"t"}))
                    if not walkers & ctx]
            if grow:
                return [self.r.choice(grow)]
        if "i" in ctx and self.r.random() < 0.3:
            self.forms.add("loop")
            return [f"sc[i] = std::fmod(sc[i] + {v}, 1009.0);"]
        return [self.pick(opts)]

    def host_read(self, ctx):
        self.forms.add("host_read")
        i, j, e = self.r.randrange(3), self.r.randrange(4), self.r.randrange(6)
        opts = [(f"a[{e}]", "elem"), (f"b[{e}]", "elem"), ("s1", "var"), ("s2", "var"), ("pk.x", "field"),
                (f"M({i}, {j})", "call_elem"), (f"P({i}, {j})", "call_elem"),
                (f"rows[{i}][{e}]", "container"),
                (f"tiles[{self.r.randrange(4)}]({i}, {j})", "container"), (f"sc[{e}]", "elem"),
                (f"av({e})", "call_elem"), ("static_cast<double>(i1)", "var"), ("acc.total", "field"),
                (f"accs[{self.r.randrange(2)}].total", "container"), (f"g.row({i})[{e}]", "user_accessor"),
                (f"pk.v[{e}]", "field"), (f"c[{e}]", "elem"), ("static_cast<double>(cnt[1])", "elem"),
                (f"rows.at({i})[{e}]", "at"), (f"(*pv)[{e}]", "pointer"), ("*ps", "pointer")]
        if "r" in ctx:
            opts.append((f"r[{e}]", "range_for"))
        if "rr" in ctx:
            opts.append((f"rr[{e}]", "ref_local"))
        if "kv" in ctx:
            opts.append((f"kv.second[{e}]", "range_for_map"))
        opts.append((f"mp.at(4)[{e}]", "map"))
        terms = " + ".join(self.pick(opts) for _ in range(self.r.randrange(1, 3)))
        return [f"chk = std::fmod(chk + {terms}, 1009.0);"]

    def checkpoint(self, label):
        names = self.r.sample(NAMES, self.r.randrange(2, 6))
        puts = " ".join(f'dig::put("{n}", {n});' for n in names)
        return [f'dig::begin("{label}"); {puts} dig::end();']

    def simple(self, ctx):
        x = self.r.random()
        if x < 0.55:
            return self.ce_call(ctx)
        if x < 0.75:
            return self.host_write(ctx)
        return self.host_read(ctx)

    def block(self, ctx, n):
        lines = []
        for _ in range(n):
            lines += self.simple(ctx)
        return ["  " + l for l in lines]

    def chunk(self):
        """One top-level unit: returns (lines, helper or None)."""
        self.forms = set()
        x = self.r.random()
        ctx = set()
        if x < 0.35:
            return self.simple(ctx), None
        if x < 0.42:
            self.forms.add("loop")
            return ["for (int i = 0; i < 3; ++i) {"] + self.block({"i"}, self.r.randrange(1, 3)) + ["}"], None
        if x < 0.50:
            self.forms.add("range_for")
            var, rng = self.r.choice([("r", "rows"), ("t", "tiles"), ("x", "accs"), ("d", "sc"),
                                      ("kv", "mp")])
            if var == "kv":
                self.forms.add("range_for_map")
                lines = ["  " + l for l in self.block({"kv"}, self.r.randrange(1, 3))]
                return [f"for (auto& {var} : {rng}) {{"] + lines + ["}"], None
            lines = ["  " + l for l in self.var_stmt(var)]
            if self.r.random() < 0.5:
                lines += self.block({var}, 1)
            return [f"for (auto& {var} : {rng}) {{"] + lines + ["}"], None
        if x < 0.57:
            self.forms.add("branch")
            cond = self.r.choice([f"a[{self.r.randrange(6)}] > 500.0", "s1 > s2",
                                  f"fz::vsum(c) > {self.k()}00.0",
                                  f"M(1, 1) < {self.k()}00.0", "i1 % 2 == 0"])
            if "fz::" in cond:
                self.forms.add("waited")
            return ([f"if ({cond}) {{"] + self.block(ctx, self.r.randrange(1, 3)) + ["} else {"] +
                    self.block(ctx, 1) + ["}"]), None
        if x < 0.63:
            return self.result_local(), None
        if x < 0.67:
            self.forms.add("waited")
            ce = self.r.choice([f"fz::vsum({self.dvec_in(ctx)})", f"fz::mtrace({self.dmat_in(ctx)})",
                                f"fz::icount({self.dvec_in(ctx)}, 300.0)"])
            op = self.r.choice(["chk = std::fmod(chk + {} * 2.0, 1009.0);", "chk += {};"])
            return [op.format(ce), "chk = std::fmod(chk, 1009.0);"], None
        if x < 0.73:
            return self.lambda_chunk(), None
        if x < 0.78:
            return self.exception_chunk(), None
        if x < 0.83:
            return self.helper_chunk()
        if x < 0.87 and self.on("ref_local"):
            self.forms.add("ref_local")
            src = self.r.choice(["rows[{}]".format(self.r.randrange(3)), "pk.v", "a"])
            return (["{", f"  auto& rr = {src};"] + self.block({"rr"}, self.r.randrange(1, 3)) +
                    ["  " + l for l in self.var_stmt("rr")] + ["}"]), None
        if x < 0.91 and self.on("alias"):
            self.forms.add("alias")
            return [self.r.choice(["fz::maxpy(M, M, 2.0);", "fz::sget(a[0], a, 1);", "fz::vbump(a, a[2]);",
                                   "rows[0] = fz::vscale(rows[0], 3.0);",
                                   "fz::maxpy(tiles[1], tiles[1], s1);",
                                   "fz::sget(sc[2], sc, 4);", "pk.x = fz::vsum(pk.v);"])], None
        if x < 0.95:
            return self.accessor_chunk(), None
        return self.simple(ctx), None

    def var_stmt(self, var):
        """A statement that certainly uses the loop/reference variable `var`."""
        if var in ("r", "rr"):
            return self.r.choice([[f"fz::vbump({var}, {self.k()}.0);"], [f"s2 = fz::vsum({var});"],
                                  [f"{var}[1] = std::fmod({var}[0] + 1.0, 1009.0);"],
                                  [f"chk = std::fmod(chk + {var}[2], 1009.0);"]])
        if var == "t":
            return self.r.choice([[f"fz::maxpy(t, M, {self.k()}.0);"],
                                  ["chk = std::fmod(chk + fz::mtrace(t), 1009.0);"],
                                  ["t(0, 0) = std::fmod(t(0, 0) + 1.0, 1009.0);"]])
        if var == "x":
            self.forms.add("instance")
            return self.r.choice([[f"x.add({self.k()}.0);"], ["x.absorb(a);"],
                                  ["chk = std::fmod(chk + x.total, 1009.0);"]])
        return self.r.choice([["fz::sget(d, b, 3);"], ["d = std::fmod(d * 3.0, 1009.0);"],
                              [f"fz::vbump(b, d);"]])

    def result_local(self):
        self.forms.add("result_local")
        t = self.uid("t")
        kind = self.r.randrange(4)
        if kind == 0:
            lines = [f"double {t} = fz::vsum({self.dvec_in(set())});"]
            use = [f"chk = std::fmod(chk + {t}, 1009.0);"]
        elif kind == 1:
            lines = [f"DVec {t} = fz::vscale({self.dvec_in(set())}, {self.k()}.0);"]
            use = [f"fz::vbump({t}, 1.0);", f"{self.dvec_lv(set())} = {t};"]
        elif kind == 2:
            lines = [f"auto {t} = fz::mmake(3, 4, {self.dbl_in(set())});"]
            use = [f"fz::maxpy({self.dmat_lv(set())}, {t}, 2.0);"]
        else:
            lines = [f"int {t} = fz::icount({self.dvec_in(set())}, 400.0);"]
            use = [f"{self.int_lv(set())} = {t};"]
        middle = self.simple(set()) if self.r.random() < 0.5 else []
        return lines + middle + use

    def lambda_chunk(self):
        f = self.uid("f")
        x = self.r.random()
        if "lambda_copy_ce" in self.refused and x < 0.15:
            self.forms.add("lambda_copy_ce")
            return [f"auto {f} = [a]() {{ return fz::vsum(a); }};", f"chk = std::fmod(chk + {f}(), 1009.0);"]
        if "generic_lambda" in self.refused and x < 0.3:
            self.forms.add("generic_lambda")
            return [f"auto {f} = [&](auto k) {{ fz::vbump(b, k); }};", f"{f}(2.0);"]
        if x < 0.65:
            self.forms.add("lambda_ref")
            body = " ".join(self.simple(set()))
            body2 = " ".join(self.ce_call(set()))
            return [f"auto {f} = [&](double k) {{ {body} {body2} s1 = std::fmod(s1 + k, 1009.0); }};",
                    f"{f}({self.k()}.0);"] + self.simple(set()) + [f"{f}({self.dbl_in(set())});"]
        self.forms.add("lambda_copy_read")
        if self.on("lambda_copy_class") and self.r.random() < 0.5:
            self.forms.add("lambda_copy_class")
            e = self.r.randrange(6)
            v = self.r.choice(["a", "b", "c", "pk"])
            read = f"{v}[{e}]" if v != "pk" else f"pk.v[{e}] + pk.x"
            return ([f"auto {f} = [{v}, s1]() {{ return {read} + s1; }};"] + self.simple(set()) +
                    [f"chk = std::fmod(chk + {f}(), 1009.0);"])
        v = self.r.choice(["s1", "s2", "i1"])
        return ([f"auto {f} = [{v}, s1]() {{ return {v} * 2.0 + s1; }};" if v != "s1" else
                 f"auto {f} = [s1]() {{ return s1 * 3.0; }};"] + self.simple(set()) +
                [f"chk = std::fmod(chk + {f}(), 1009.0);"])

    def exception_chunk(self):
        self.forms.add("exception")
        e = self.uid("e")
        d = self.r.choice(["0.0", "2.0", f"std::fmod(a[{self.r.randrange(6)}], 2.0)", "std::fmod(s1, 3.0)"])
        lines = ["try {", f"  double {e} = fz::checked({self.dvec_in(set())}, {d});"]
        if self.on("exc_late") and self.r.random() < 0.5:
            self.forms.add("exc_late")
            lines += ["  " + l for l in self.ce_call(set())]
        lines += [f"  chk = std::fmod(chk + {e}, 1009.0);"]
        if self.on("exc_type") and self.r.random() < 0.5:
            self.forms.add("exc_type")
            lines += ["} catch (const std::domain_error& err) {",
                      '  std::printf("caught %s\\n", err.what());']
        else:
            lines += ["} catch (const std::exception&) {", '  std::printf("caught\\n");']
        lines += ["  chk = std::fmod(chk + 1.0, 1009.0);", "}"]
        return lines

    def helper_chunk(self):
        h = self.uid("helper")
        self.forms.add("helper")
        if self.r.random() < 0.3:
            self.forms.add("by_value")
            helper = [f"double {h}(DVec v, double k) {{", "  fz::vbump(v, k);", "  return fz::vsum(v);", "}"]
            return [f"chk = std::fmod(chk + {h}({self.dvec_in(set())}, {self.k()}.0), 1009.0);"], helper
        body = []
        for _ in range(self.r.randrange(1, 4)):
            body.append(self.r.choice(["fz::vbump(v, k);", "fz::maxpy(m, M0, k);", "k = fz::vsum(v);",
                                       "v[0] = std::fmod(v[0] + m(0, 0), 1009.0);",
                                       "fz::sget(m(1, 1), v, 2);",
                                       "m = fz::mmake(3, 4, k);"]))
        helper = ([f"double {h}(DVec& v, DMat& m, const DMat& M0, double k) {{"] + ["  " + b for b in body] +
                  ["  return std::fmod(v[1] + m(2, 3) + k, 1009.0);", "}"])
        args = f"{self.dvec_lv(set())}, {self.dmat_lv(set())}, {self.dmat_in(set())}, {self.dbl_in(set())}"
        return [f"chk = std::fmod(chk + {h}({args}), 1009.0);"], helper

    def accessor_chunk(self):
        """CE calls on elements reached through accessors: the forms of issue 16."""
        ctx = set()
        opts = []
        if self.on("accessor_lambda"):
            opts += [f"fz::vbump(row({self.r.randrange(3)}), {self.k()}.0);",
                     f"fz::maxpy(tile({self.r.randrange(2)}, {self.r.randrange(2)}), M, 1.0);"]
        if self.on("user_accessor"):
            opts += [f"fz::vbump(g.row({self.r.randrange(3)}), {self.k()}.0);"]
        if self.on("at"):
            opts += [f"fz::vbump(rows.at({self.r.randrange(3)}), {self.k()}.0);",
                     f"fz::sget(sc.at({self.r.randrange(6)}), a, 2);"]
        if self.on("pointer"):
            opts += [f"fz::vbump(*pv, {self.k()}.0);", "fz::sget(*ps, a, 1);"]
        if not opts:
            return self.simple(ctx)
        line = self.r.choice(opts)
        for f in ("row(", "tile("):
            if f in line:
                self.forms.add("accessor_lambda")
        if "g.row" in line:
            self.forms.add("user_accessor")
        if ".at(" in line:
            self.forms.add("at")
        if "*p" in line:
            self.forms.add("pointer")
        return [line] + self.host_read(ctx)

    # -- the program ----------------------------------------------------------------------------
    def program(self):
        chunks = []
        for i in range(self.r.randrange(12, 26)):
            lines, helper = self.chunk()
            forms = set(self.forms)
            if self.r.random() < 0.3:
                lines = lines + self.checkpoint(f"cp{i}")
                forms.add("checkpoint")
            chunks.append(Chunk(lines, forms, helper))
        if "loop_header_var" in self.refused:
            self.forms = {"loop_header_var"}
            chunks.insert(self.r.randrange(len(chunks) + 1),
                          Chunk(["for (DVec lv = a; lv[0] < 2000.0;) {", "  fz::vbump(lv, 1.0);",
                                 "  chk = std::fmod(chk + lv[0], 1009.0);", "  break;", "}"], self.forms))
        if "default_arg" in self.refused:
            chunks.insert(self.r.randrange(len(chunks) + 1), Chunk(["fz::vfill(c, 6);"], {"default_arg"}))
        return Program(self.seed, chunks, self.enabled | self.refused)


class Program:
    def __init__(self, seed, chunks, enabled):
        self.seed = seed
        self.chunks = chunks
        self.enabled = enabled

    def render(self, keep=None):
        """The C++ source; keep: indices of the chunks to keep (all by default)."""
        idx = range(len(self.chunks)) if keep is None else sorted(keep)
        chunks = [self.chunks[i] for i in idx]
        forms = set().union(*(c.forms for c in chunks)) if chunks else set()
        out = [f"// seqfuzz program, seed {self.seed} (tests/seqfuzz/gen.py); chunks {list(idx)}",
               "#include <cmath>", "#include <cstdio>", "#include <stdexcept>", "#include <utility>",
               "#include <vector>", "", '#include "ces.hpp"', '#include "digest.hpp"', ""]
        if "default_arg" in forms:
            # A second declaration of the native CE with a default argument for `start`.
            out += ["namespace fz {", "void vfill(DVec& v, int n, double start = 0.0);", "}", ""]
        for i, c in zip(idx, chunks):
            if c.helper:
                out += [f"{l}  // @chunk{i},helper" for l in c.helper] + [""]
        out += ["int main() {"]
        out += [f"  {decl}" for _, decl in DATA]
        # Accessors and pointers of the forms of issue 16, declared whether used or not.
        out += ["  auto row = [&](int k) -> DVec& { return rows[static_cast<std::size_t>(k)]; };",
                "  auto tile = [&](int i, int j) -> DMat& { return tiles[static_cast<std::size_t>(i * 2 + j)]; };",
                "  DVec* pv = &b;", "  double* ps = &sc[1];", "  DMat* pm = &P;", "  Acc* pa = &accs[0];",
                "  (void)row; (void)tile; (void)pv; (void)ps; (void)pm; (void)pa;"]
        for i, c in zip(idx, chunks):
            tag = ",".join([f"chunk{i}"] + sorted(c.forms))
            out += [f"  {l}  // @{tag}" for l in c.lines]
        out += ['  dig::begin("end");'] + [f'  dig::put("{n}", {n});' for n in NAMES] + ["  dig::end();",
                                                                                       "  return 0;", "}", ""]
        return "\n".join(out)


def generate(seed, skip=()):
    return Gen(seed, skip).program()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("-o", "--output", help="write the program here (default: stdout)")
    ap.add_argument("--skip-forms", default="", help="comma-separated forms never to generate")
    args = ap.parse_args()
    skip = [f for f in args.skip_forms.split(",") if f]
    unknown = [f for f in skip if f not in FORMS]
    if unknown:
        print(f"gen.py: unknown form(s) {', '.join(unknown)}; known: {', '.join(FORMS)}", file=sys.stderr)
        sys.exit(2)
    text = generate(args.seed, skip).render()
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
