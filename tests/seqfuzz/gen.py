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
# alias_arg: one object as an in and an inout/out of one call (`fz::maxpy(M, M, k)`);
# virtual_ref: an instance CE of a polymorphic class on a reference; span_out: `for (auto& r :
# span) ce(r)` with r an inout; dtor_ce: a CE call in a destructor.
# pointer_arg: a CE argument through a pointer (`*pv`, `pa->add(x)`).
REFUSED = {"lambda_copy_ce", "generic_lambda", "loop_header_var", "default_arg", "alias_arg",
           "virtual_ref", "span_out", "dtor_ce", "pointer_arg"}
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
# The forms of issue 39, always enabled (the ones ceic must refuse are in REFUSED): ptr_keep, a
# pointer, reference, iterator or span into a vector taken before a CE call and used after it;
# ptr_wait_on, a pointer kept in an object, used after cei::wait_on; callback, `cb([&] { ce(d); },
# d)`; dtor_reads, a local whose destructor reads what tasks wrote; virtual, an instance CE of a
# polymorphic class on a variable, and its override; overload, a non-CE overload beside a CE;
# span, reads through a std::span over rows; header, inline functions of fzglobal.hpp reading the
# global gv that tasks write; exc_callee, a function that throws (itself or through a CE) after
# calling CEs. A chunk is one of them with probability I39_P.
I39 = {"ptr_keep", "ptr_wait_on", "callback", "dtor_reads", "virtual", "overload", "span", "header",
       "exc_callee"}
I39_P = 0.3

FORMS = sorted(REFUSED | RISKY | {
    "var", "field", "elem", "call_elem", "container", "range_for", "loop", "branch",
    "result_assign", "result_local", "nested", "waited", "temp_arg", "host_write", "host_read",
    "lambda_ref", "lambda_copy_read", "exception", "instance", "helper", "by_value", "checkpoint",
    "map", "range_for_map", "range_for_copy", "global", "generic_lambda_read"} | I39)

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
    ("shp", "Shape shp;"),
    ("big", "BigShape big;"),
]
# Defined before main: the global of fzglobal.hpp.
GLOBALS = [("gv", "DVec gv{4, 4, 2, 7, 1, 3};")]
NAMES = [n for n, _ in DATA] + [n for n, _ in GLOBALS]


def aliased(whole, part):
    """Whether the argument text `part` is `whole` or a part of it (`a` and `a[2]`, `pk` and `pk.x`)."""
    return part == whole or any(part.startswith(whole + c) for c in "[.(")


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
        allowed = [(t, f) for t, f in options if f is None or self.allowed(f)]
        t, f = self.r.choice(allowed)
        if f:
            self.forms.add(f)
        return t

    def allowed(self, form):
        if form in RISKY:
            return self.on(form)
        if form in REFUSED:
            return form in self.refused
        return True

    def k(self):
        return self.r.randrange(0, 10)

    def some(self, makers, lo=1, hi=3):
        """lo to hi (at most len(makers)) of the zero-argument callables `makers`, called in a
        random order: only the statements used add their forms to the chunk's tag."""
        n = self.r.randint(lo, min(hi, len(makers)))
        return [m() for m in self.r.sample(makers, n)]

    def distinct(self, out, src):
        """An output and an input argument of one call that are not one object as ceic sees it
        (the same text, or a variable and a part of it: refused, alias_arg); after a few tries,
        the pair drawn last, tagged alias_arg."""
        for _ in range(4):
            o, i = out(), src()
            if not (aliased(o, i) or aliased(i, o)):
                return o, i
        self.forms.add("alias_arg")
        return o, i

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
                (f"row({k})", "accessor_lambda"), ("*pv", "pointer_arg"),
                (f"mp[{self.r.choice([1, 4])}]", "map"), (f"mp.at({self.r.choice([1, 4])})", "map"),
                ("gv", "global")]
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
                ("*pm", "pointer_arg")]
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
                (f"a[{e}]", "elem"), (f"rows[{i}][{e}]", "container"), ("*ps", "pointer_arg")]
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
            out, src = self.distinct(lambda: self.dbl_lv(ctx), lambda: self.dvec_in(ctx))
            return [f"fz::sget({out}, {src}, {self.int_in(ctx)});"]
        if kind == 3:
            return [f"fz::iinc({self.int_lv(ctx)}, {self.int_in(ctx)});"]
        if kind == 4:
            out, src = self.distinct(lambda: self.dmat_lv(ctx), lambda: self.dmat_in(ctx))
            return [f"fz::maxpy({out}, {src}, {self.dbl_in(ctx)});"]
        if kind == 5:
            return [f"fz::arow(av, {self.dvec_in(ctx)});"]
        if kind == 6:
            self.forms.add("instance")
            if "pointer_arg" in self.refused and self.r.random() < 0.3:
                self.forms.add("pointer_arg")
                return [f"pa->add({self.dbl_in(ctx)});"]
            if self.r.random() < 0.5:
                return [f"{self.acc_lv(ctx)}.add({self.dbl_in(ctx)});"]
            return [f"{self.acc_lv(ctx)}.absorb({self.dvec_in(ctx)});"]
        if kind == 7:
            self.forms.add("result_assign")
            return [f"{self.dvec_lv(ctx)} = fz::vscale({self.dvec_in(ctx)}, {self.dbl_in(ctx)});"]
        if kind == 8:
            self.forms.add("result_assign")
            ce = self.some([lambda: f"fz::vsum({self.dvec_in(ctx)})", lambda: f"fz::mtrace({self.dmat_in(ctx)})"], 1, 1)[0]
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
        if self.r.random() < I39_P:
            return self.i39_chunk()
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
            ce = self.some([lambda: f"fz::vsum({self.dvec_in(ctx)})", lambda: f"fz::mtrace({self.dmat_in(ctx)})",
                            lambda: f"fz::icount({self.dvec_in(ctx)}, 300.0)"], 1, 1)[0]
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
            # One object in two roles that ceic tracks: a by-value in, a result assigned to an in's
            # variable, two members of one struct.
            self.forms.add("alias")
            return [self.r.choice(["fz::vbump(a, a[2]);", "rows[0] = fz::vscale(rows[0], 3.0);",
                                   "pk.x = fz::vsum(pk.v);", "fz::sget(pk.x, pk.v, 2);",
                                   "a = fz::vscale(a, 2.0);", "fz::maxpy(M, fz::mmake(3, 4, M(0, 0)), 2.0);"])], None
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
        if x < 0.4:
            # A generic lambda using a variable it captured by reference, which tasks write.
            self.forms.add("generic_lambda_read")
            v, e = self.r.choice(["a", "b", "c", "pk.v", "gv"]), self.r.randrange(6)
            use = self.r.choice([f"chk = std::fmod(chk + {v}[{e}] * k, 1009.0);", f"{v}[{e}] = std::fmod(k, 1009.0);"])
            return ([f"auto {f} = [&](auto k) {{ {use} }};"] + self.ce_call(set()) +
                    [f"{f}({self.dbl_in(set())});"])
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
        if "pointer_arg" in self.refused:
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
            self.forms.add("pointer_arg")
        return [line] + self.host_read(ctx)

    # -- the forms of issue 39 -------------------------------------------------------------------
    def i39_chunk(self):
        """One chunk of an issue-39 form (I39, or one of REFUSED drawn for this program); returns
        (lines, helper or None)."""
        makers = {"ptr_keep": self.ptr_keep, "ptr_wait_on": self.ptr_wait_on, "callback": self.callback,
                  "dtor_reads": self.dtor_reads, "virtual": self.virtual, "overload": self.overload,
                  "span": self.span, "header": self.header, "exc_callee": self.exc_callee,
                  "alias_arg": self.alias_arg, "virtual_ref": self.virtual_ref,
                  "span_out": self.span_out, "dtor_ce": self.dtor_ce}
        forms = sorted(f for f in makers if (f in I39 and f not in self.skip) or f in self.refused)
        if not forms:
            return self.simple(set()), None
        form = self.r.choice(forms)
        self.forms.add(form)
        made = makers[form]()
        return made if isinstance(made, tuple) else (made, None)

    # A vector whose storage stays where it is across the in-place CEs below (every DVec of the
    # program has 6 elements: vfill's assign keeps the buffer), so a pointer into it stays valid
    # in the -seq program.
    STABLE = ["a", "b", "c", "pk.v", "rows[1]", "gv", "mp[4]"]

    def in_place(self, v):
        """A CE call that writes the vector `v` in place (no reallocation)."""
        e = self.r.randrange(6)
        src = self.r.choice([x for x in ("a", "b", "c", "pk.v") if x != v])
        return self.r.choice([f"fz::vbump({v}, {self.k()}.0);", f"fz::vfill({v}, 6, {self.k()}.0);",
                              f"fz::sget({v}[{e}], {src}, {self.k()});"])

    def ptr_keep(self):
        v = self.r.choice(self.STABLE)
        n = self.uid("p")
        e, e2 = self.r.randrange(6), self.r.randrange(6)
        kind = self.r.randrange(6)
        if kind == 0:
            take, uses = f"double* {n} = {v}.data();", [f"chk = std::fmod(chk + {n}[{e}], 1009.0);",
                                                       f"{n}[{e2}] = std::fmod({n}[{e2}] + 1.0, 1009.0);"]
        elif kind == 1:
            take, uses = f"auto {n} = {v}.begin();", [f"chk = std::fmod(chk + *({n} + {e}), 1009.0);",
                                                     f"*{n} = std::fmod(*({n} + {e2}) + 2.0, 1009.0);"]
        elif kind == 2:
            take, uses = f"double& {n} = {v}[{e}];", [f"chk = std::fmod(chk + {n}, 1009.0);",
                                                     f"{n} = std::fmod({n} * 2.0, 1009.0);"]
        elif kind == 3:
            take, uses = (f"const double& {n} = *({v}.end() - 1);",
                          [f"chk = std::fmod(chk + {n} * 3.0, 1009.0);"])
        elif kind == 4:
            take, uses = (f"std::span<double> {n}({v});",
                          [f"chk = std::fmod(chk + {n}[{e}] + static_cast<double>({n}.size()), 1009.0);",
                           f"{n}[{e2}] = 5.0;"])
        else:
            take, uses = (f"auto {n} = {v}.cbegin() + {e};",
                          [f"for (auto it = {v}.cbegin(); it != {n}; ++it) chk = std::fmod(chk + *it, 1009.0);"])
        body = [take] + [self.in_place(v) for _ in range(self.r.randrange(1, 3))]
        if self.r.random() < 0.4:
            body += self.host_read(set())
        body += self.r.sample(uses, self.r.randrange(1, len(uses) + 1))
        if self.r.random() < 0.3:
            body += [self.in_place(v), uses[0]]
        return ["{"] + ["  " + l for l in body] + ["}"]

    def ptr_wait_on(self):
        v = self.r.choice(self.STABLE)
        n = self.uid("kp")
        e = self.r.randrange(6)
        wait = self.r.choice([f"cei::wait_on({v});", "cei::barrier();"])
        return ["{", f"  Keep {n}{{{v}.data()}};", "  " + self.in_place(v), "  " + wait,
                f"  chk = std::fmod(chk + {n}.p[{e}], 1009.0);", "}"]

    def callback(self):
        h = self.uid("cb")
        e = self.r.randrange(6)
        if self.r.random() < 0.5:
            helper = [f"double {h}(const std::function<void()>& f, const DVec& d) {{", "  f();",
                      f"  return std::fmod(d[{e}] + d[0], 1009.0);", "}"]
        else:
            helper = ["template <class F>", f"double {h}(F&& f, DVec& d) {{", "  f();",
                      f"  d[{e}] = std::fmod(d[{e}] + 1.0, 1009.0);", "  return d[1];", "}"]
        d = self.r.choice(["a", "b", "c", "pk.v", "rows[2]", "gv"])
        first = self.some([lambda: f"fz::vbump({d}, {self.k()}.0);", lambda: f"{d} = fz::vscale(a, {self.k()}.0);",
                           lambda: f"fz::vfill({d}, 6, {self.k()}.0);", lambda: self.ce_call(set())[0]], 1, 1)[0]
        body = " ".join([first] + (self.simple(set()) if self.r.random() < 0.5 else []))
        if self.r.random() < 0.5:
            return [f"chk = std::fmod(chk + {h}([&] {{ {body} }}, {d}), 1009.0);"], helper
        f = self.uid("f")
        return [f"auto {f} = [&] {{ {body} }};", f"chk = std::fmod(chk + {h}({f}, {d}), 1009.0);"], helper

    def dtor_reads(self):
        cls, t = self.uid("Tally"), self.uid("t")
        e = self.r.randrange(6)
        helper = [f"struct {cls} {{", "  DVec v = DVec{6, 5, 4, 3, 2, 1};", "  double k = 1;",
                  f'  ~{cls}() {{ std::printf("~{cls} %.17g %.17g\\n", v[{e}], k); }}', "};"]
        if self.r.random() < 0.3:
            # The destructor is a member's.
            outer = self.uid("Holder")
            helper += [f"struct {outer} {{", f"  {cls} in;", "};"]
            cls, t = outer, f"{t}"
            obj = f"{t}.in"
        else:
            obj = t
        ops = [lambda: f"fz::vbump({obj}.v, {self.k()}.0);",
               lambda: f"{obj}.v = fz::vscale({self.dvec_in(set())}, {self.k()}.0);",
               lambda: f"fz::sget({obj}.k, {obj}.v, {self.k()});", lambda: f"{obj}.k = fz::vsum({self.dvec_in(set())});",
               lambda: f"fz::vbump(a, {obj}.k);"]
        body = [f"{cls} {t};"] + self.some(ops)
        if self.r.random() < 0.3:
            body += self.simple(set())
        return ["{"] + ["  " + l for l in body] + ["}"], helper

    def virtual(self):
        obj = self.r.choice(["shp", "big"])
        opts = [lambda: f"{obj}.grow({self.dbl_in(set())});", lambda: f"fz::vbump({obj}.v, {self.k()}.0);",
                lambda: f"chk = std::fmod(chk + {obj}.size + {obj}.v[{self.r.randrange(4)}], 1009.0);",
                lambda: f"{obj}.size = fz::vsum({obj}.v);", lambda: f"fz::sget({obj}.size, {self.dvec_in(set())}, 2);"]
        if obj == "big":
            opts.append(lambda: f"big.Shape::grow({self.k()}.0);")
        return self.some(opts)

    def overload(self):
        opts = [lambda: f"fz::iinc({self.int_lv(set())}, {self.r.choice(['2.5', 's1 * 0.5', 'pk.x'])});",
                lambda: f"fz::iinc({self.int_lv(set())}, {self.int_in(set())});",
                lambda: f"fz::vbump({self.dvec_lv(set())}, {self.dvec_lv(set())});",
                lambda: f"fz::vbump({self.dvec_lv(set())}, {self.dbl_in(set())});"]
        lines = self.some(opts)
        if self.r.random() < 0.5:
            lines += self.host_read(set())
        return lines

    def span(self):
        n = self.uid("sp")
        k = self.r.randrange(3)
        opts = [f"fz::vbump(rows[{k}], {self.k()}.0);", f"rows[{k}] = fz::vscale(a, {self.k()}.0);",
                f"chk = std::fmod(chk + {n}[{k}][{self.r.randrange(6)}], 1009.0);",
                f"for (const auto& r : {n}) chk = std::fmod(chk + r[{self.r.randrange(6)}], 1009.0);",
                f"for (const auto& r : {n}) chk = std::fmod(chk + fz::vsum(r), 1009.0);",
                f"chk = std::fmod(chk + fz::vsum({n}[{k}]), 1009.0);",
                f"{n}[{k}][0] = std::fmod({n}[{k}][1] + 1.0, 1009.0);"]
        return ["{", f"  std::span<DVec> {n}(rows);"] + ["  " + l for l in self.r.choices(opts, k=3)] + ["}"]

    def header(self):
        e = self.r.randrange(6)
        reads = [f"chk = std::fmod(chk + gfirst({e}), 1009.0);", "chk = std::fmod(chk + gsum(), 1009.0);",
                 f"chk = std::fmod(chk + gtwice({e}), 1009.0);", f"gset({e}, std::fmod(gfirst({e}) + 3.0, 1009.0));"]
        writes = [lambda: f"fz::vbump(gv, {self.k()}.0);",
                  lambda: f"gv = fz::vscale({self.distinct(lambda: 'gv', lambda: self.dvec_in(set()))[1]}, {self.k()}.0);",
                  lambda: f"fz::sget(gv[{e}], {self.r.choice(['a', 'b', 'pk.v'])}, 3);", lambda: "fz::arow(av, gv);"]
        if self.r.random() < 0.3:
            # The task on gv is started in another function of this file.
            h = self.uid("gbump")
            helper = [f"void {h}(double k) {{", "  fz::vbump(gv, k);", "}"]
            return [f"{h}({self.k()}.0);", self.r.choice(reads)], helper
        return self.some(writes, 1, 1) + self.r.sample(reads, self.r.randrange(1, 3))

    def exc_callee(self):
        h = self.uid("thrower")
        e = self.r.randrange(6)
        d = self.r.choice(["0.0", "2.0", f"std::fmod(a[{e}], 2.0)"])
        kind = self.r.randrange(4)
        if kind == 0:
            # Its own throw after a CE call.
            body = ["  fz::vbump(v, d + 1.0);", f"  if (v[{e}] > {self.k()}00.0) throw std::runtime_error(\"{h}\");",
                    "  return v[1];"]
        elif kind == 1:
            # Its own throw after a CE that may throw (the CE's exception is the one -seq sees).
            body = ["  double x = fz::checked(v, d);", f"  if (v[{e}] >= 0.0) throw std::runtime_error(\"{h}\");",
                    "  return x;"]
        elif kind == 2:
            # A CE that writes nothing and throws, then a CE that must not run.
            body = ["  fz::checked(v, d);", "  fz::vbump(v, 1.0);", "  return v[0];"]
        else:
            body = ["  double k = 1.0;", "  k += fz::checked(v, d);", "  fz::vbump(v, k);",
                    f"  if (d > 1.0) throw std::runtime_error(\"{h}\");", "  return k;"]
        helper = [f"double {h}(DVec& v, double d) {{"] + body + ["}"]
        arg = self.r.choice(["a", "b", "c", "pk.v", "rows[0]", "gv"])
        return (["try {", f"  chk = std::fmod(chk + {h}({arg}, {d}), 1009.0);",
                 "} catch (const std::domain_error& err) {", '  std::printf("domain %s\\n", err.what());',
                 "} catch (const std::runtime_error& err) {", '  std::printf("runtime %s\\n", err.what());', "}"],
                helper)

    # Refused forms of issue 39 (each a build error at its line).
    def alias_arg(self):
        return [self.r.choice(["fz::maxpy(M, M, 2.0);", "fz::sget(a[0], a, 1);", "fz::maxpy(tiles[1], tiles[1], s1);",
                               "fz::sget(sc[2], sc, 4);", "fz::sget(rows[1][2], rows[1], 3);",
                               "acc.absorb(acc.vals);"])]

    def virtual_ref(self):
        r = self.uid("sr")
        return ["{", f"  Shape& {r} = {self.r.choice(['shp', 'big'])};", f"  {r}.grow({self.k()}.0);", "}"]

    def span_out(self):
        n = self.uid("sp")
        return ["{", f"  std::span<DVec> {n}(rows);",
                f"  for (auto& r : {n}) fz::vbump(r, {self.k()}.0);" if self.r.random() < 0.6 else
                f"  fz::vbump({n}[{self.r.randrange(3)}], {self.k()}.0);", "}"]

    def dtor_ce(self):
        cls = self.uid("Closer")
        helper = [f"struct {cls} {{", "  DVec v = DVec(6, 2.0);",
                  f'  ~{cls}() {{ fz::vbump(v, 1.0); std::printf("~{cls} %.17g\\n", v[0]); }}', "};"]
        t = self.uid("cl")
        return ["{", f"  {cls} {t};", f"  fz::vbump({t}.v, {self.k()}.0);", "}"], helper

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
               "#include <functional>", "#include <span>", "#include <vector>", "", "#include <cei/cei.hpp>", "",
               '#include "ces.hpp"', '#include "digest.hpp"', '#include "fzglobal.hpp"', ""]
        out += [decl for _, decl in GLOBALS] + [""]
        if "default_arg" in forms:
            # A second declaration of the native CE with a default argument for `start`.
            out += ["namespace fz {", "void vfill(DVec& v, int n, double start = 0.0);", "}", ""]
        for i, c in zip(idx, chunks):
            if c.helper:
                # Tagged with the chunk's forms: a refusal inside the helper is at a line of them.
                tag = ",".join([f"chunk{i}", "helper"] + sorted(c.forms))
                out += [f"{l}  // @{tag}" for l in c.helper] + [""]
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
