#!/usr/bin/env python3
"""Quality vs energy under a sweep of energy budgets (and accuracy ratios): the Centaurus figure.

Runs examples/bezier_budget with CEI_SUMMARY=1 under budgets from the accurate plan's energy down
to a tenth of it, reads each run's group line (energy spent, its source, tasks accurate /
approximate / dropped, the furthest budget step) and the PSNR against the -seq surface, and writes
a Markdown table, a CSV and a plot (PSNR vs energy; energy vs budget).

  bench/budget/sweep.py BUILD_DIR [--out DIR] [--block 64] [--reps 3] [--fractions 1,0.8,...]

Every figure is the median of --reps runs, after warm-up runs that give both versions a profile
(CEI_PROFILE in a temporary folder). Environment variables (CEI_PLATFORMS, CEI_POLICY,
CEI_CPU_CORES) pass through to the runs.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited with {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout, p.stderr


def group_line(stderr):
    """The summary's last group line: (energy J, source, accurate, approximate, dropped, plan,
    why): `why` is the line below the table that says why the group ended more than 5% away from
    its budget, "" when there is none."""
    lines = stderr.splitlines()
    try:
        head = max(i for i, l in enumerate(lines) if l.startswith("group ") and "energy J" in l)
    except ValueError:
        sys.exit("no group table in the run summary:\n" + stderr)
    f = lines[head + 2].split()
    why = next((l.split(": ", 1)[1] for l in lines[head + 3:] if l.startswith(f"group {f[0]}: ")), "")
    return float(f[4]), f[5], int(f[6]), int(f[7]), int(f[8]), " ".join(f[9:]), why


def psnr(stdout):
    vals = dict(l.split(None, 1) for l in stdout.splitlines() if l.startswith(("psnr_db", "max_abs")))
    return float(vals["psnr_db"]), float(vals["max_abs_error"])


def measure(exe, goal, block, ref, reps, env, work):
    rows = []
    for _ in range(reps):
        out, err = run([exe, goal, str(block), "1024", os.path.join(work, "s.f32"), ref], env)
        rows.append(group_line(err) + psnr(out))
    energy = statistics.median(r[0] for r in rows)
    # The run whose energy is the median gives the other columns.
    r = min(rows, key=lambda r: abs(r[0] - energy))
    return {"energy_j": energy, "source": r[1], "accurate": r[2], "approximate": r[3],
            "dropped": r[4], "plan": r[5], "why": r[6], "psnr_db": r[7], "max_err": r[8]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--out", default="bench/budget/results")
    ap.add_argument("--block", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--fractions", default="1,0.9,0.8,0.7,0.6,0.5,0.4,0.3,0.2,0.1")
    ap.add_argument("--ratios", default="1,0.75,0.5,0.25,0")
    a = ap.parse_args()
    exe = os.path.join(a.build, "examples/bezier_budget/bezier_budget")
    for e in (exe, exe + "-seq"):
        if not os.access(e, os.X_OK):
            sys.exit(f"{e}: not built (cmake --build {a.build} --target bezier_budget bezier_budget-seq)")
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, CEI_SUMMARY="1")
    with tempfile.TemporaryDirectory() as work:
        ref = os.path.join(work, "exact.f32")
        run([exe + "-seq", "none", str(a.block), "1024", ref], env)
        # The plans are as good as the forecasts: a profile history (CEI_PROFILE) in which both
        # versions have run, the exact one (a budget the accurate plan meets) and the coarse one
        # (a budget of 0 J), so that no measured run plans from the config's guesses.
        env["CEI_PROFILE"] = os.path.join(work, "profile.json")
        for goal in ("1e12", "0", "1e12", "0"):
            run([exe, goal, str(a.block), "1024", os.path.join(work, "s.f32"), ref], env)
        # The accurate plan's energy: a budget it meets.
        accurate = measure(exe, "1e12", a.block, ref, a.reps, env, work)
        rows = []
        for f in (float(x) for x in a.fractions.split(",")):
            budget = f * accurate["energy_j"]
            m = measure(exe, f"{budget:.6g}", a.block, ref, a.reps, env, work)
            rows.append(dict(goal=f"{budget:.3f} J", budget_j=budget, **m))
            print(f"budget {budget:9.3f} J -> {m['energy_j']:9.3f} J, PSNR {m['psnr_db']:.2f} dB, "
                  f"{m['accurate']} accurate / {m['approximate']} approximate", file=sys.stderr)
        for r in (float(x) for x in a.ratios.split(",")):
            m = measure(exe, f"ratio:{r}", a.block, ref, a.reps, env, work)
            rows.append(dict(goal=f"ratio {r}", budget_j=None, **m))

    fields = ["goal", "budget_j", "energy_j", "source", "accurate", "approximate", "dropped",
              "plan", "psnr_db", "max_err", "why"]
    with open(os.path.join(a.out, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    md = ["| goal | energy (J) | energy / budget | energy from | accurate / approximate / dropped "
          "| PSNR (dB) | max error | budget step | the summary's why (> 5% off) |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['energy_j'] / r['budget_j']:.3f}" if r["budget_j"] else "-"
        md.append(f"| {r['goal']} | {r['energy_j']:.3f} | {ratio} | {r['source']} | "
                  f"{r['accurate']} / {r['approximate']} / {r['dropped']} | {r['psnr_db']:.2f} | "
                  f"{r['max_err']:.3g} | {r['plan']} | {r['why']} |")
    with open(os.path.join(a.out, "sweep.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))

    try:
        import matplotlib
    except ImportError:  # a bare GPU machine: the table and the CSV are the results
        print("sweep.py: no matplotlib here, no plot", file=sys.stderr)
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # In order of the energy spent, so that each line reads left to right.
    budgets = sorted((r for r in rows if r["budget_j"]), key=lambda r: r["energy_j"])
    ratios = sorted((r for r in rows if not r["budget_j"]), key=lambda r: r["energy_j"])
    fig, (q, e) = plt.subplots(1, 2, figsize=(11, 4.2))
    cap = 100  # an exact surface has infinite PSNR: drawn at the top
    for rs, style, label in ((budgets, "o-", "energy budget"), (ratios, "s--", "accuracy ratio")):
        q.plot([r["energy_j"] for r in rs], [min(r["psnr_db"], cap) for r in rs], style, label=label)
    q.set_xlabel("energy spent by the group (J)")
    q.set_ylabel(f"PSNR vs exact surface (dB, exact drawn at {cap})")
    q.set_title("quality vs energy")
    q.legend()
    q.grid(alpha=0.3)
    by_budget = sorted(budgets, key=lambda r: r["budget_j"])
    xs = [r["budget_j"] for r in by_budget]
    e.plot(xs, [r["energy_j"] for r in by_budget], "o-", label="spent")
    e.plot(xs, xs, ":", color="gray", label="budget")
    e.fill_between(xs, [0.95 * x for x in xs], [1.05 * x for x in xs], color="gray", alpha=0.15,
                   label="budget ±5%")
    e.set_xlabel("budget (J)")
    e.set_ylabel("energy spent (J)")
    e.set_title("energy vs budget")
    e.legend()
    e.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "quality_vs_energy.png"), dpi=120)


if __name__ == "__main__":
    main()
