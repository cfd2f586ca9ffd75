#!/usr/bin/env python3
"""One ceic rule, checked against the expectations written in its test source (lit style).

  rule_check.py CEIC SRC OUT -- CEIC_ARGS...

SRC's comments hold what ceic must do with it:
  // RULE: name                      the rule the file tests: the file's name without .cpp (named
                                     in every failure, and in the ctest name instrumenter.rule.NAME)
  code;  // expected-error@COL {{text}}   ceic reports an error on this line at column COL whose
  code;  // expected-note@COL {{text}}    message contains text (a note likewise)
  // CHECK: text                     the rewritten source holds text (comments left out), after
                                     the previous CHECK's match
  // CHECK-NOT: text                 the rewritten source does not hold text
  // -----                           ends a case (as clang's -split-input-file)
SRC's own folder is on the include path (rules/*.hpp: headers a rule needs).
The lines before the first `// -----` are the prelude (includes, shared declarations); each case
after one is instrumented on its own, with the prelude, every other case's lines left blank so
that lines and columns stay those of SRC. A case with expected errors must be refused with exactly
those diagnostics; a case without must be accepted with none, and its rewrite hold its CHECKs.
So one file holds a rule's positive cases (what it rewrites) and its negative ones (near forms it
must leave alone, or refuse).
"""
import os
import re
import subprocess
import sys

SEPARATOR = re.compile(r"^\s*// -----")


def cases_of(text):
    """[(prelude, first line, lines)]: the prelude's lines, then each case's, 1-based."""
    bounds = [i for i, line in enumerate(text) if SEPARATOR.match(line)]
    if not bounds:
        return [(0, 0, len(text))]
    cases = []
    for k, start in enumerate(bounds):
        end = bounds[k + 1] if k + 1 < len(bounds) else len(text)
        cases.append((bounds[0], start + 1, end))
    return cases


def check_case(ceic, ceic_args, src, text, prelude_end, begin, end, work):
    name = os.path.basename(src)
    lines = [line if i < prelude_end or begin <= i < end else "" for i, line in enumerate(text)]
    os.makedirs(work, exist_ok=True)
    case_src = os.path.join(work, name)
    case_out = os.path.join(work, "instrumented_" + name)
    with open(case_src, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    if os.path.exists(case_out):
        os.remove(case_out)
    expected, checks, check_nots = [], [], []
    for number in range(begin + 1, end + 1):
        line = text[number - 1]
        for kind, col, msg in re.findall(r"expected-(error|note)@(\d+) \{\{(.*?)\}\}", line):
            expected.append((number, int(col), kind, msg))
        m = re.search(r"// CHECK: (.*)$", line)
        if m:
            checks.append((number, m.group(1).strip()))
        m = re.search(r"// CHECK-NOT: (.*)$", line)
        if m:
            check_nots.append((number, m.group(1).strip()))

    run = subprocess.run([ceic, "--instrument", case_src, "-o", case_out, *ceic_args],
                         capture_output=True, text=True)
    got = []
    for line in run.stderr.splitlines():
        m = re.match(r"(.*?):(\d+):(\d+): (error|note|warning): (.*)$", line)
        if m and os.path.basename(m.group(1)) == name:
            got.append((int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    failures = []
    for exp in expected:
        line, col, kind, msg = exp
        if not any(g[0] == line and g[1] == col and g[2] == kind and msg in g[3] for g in got):
            failures.append(f"{name}:{line}:{col}: expected {kind} not reported: {msg}")
    for g in got:
        if not any(g[0] == e[0] and g[1] == e[1] and g[2] == e[2] and e[3] in g[3]
                   for e in expected):
            failures.append(f"{name}:{g[0]}:{g[1]}: unexpected {g[2]}: {g[3]}")
    if expected and run.returncode == 0:
        failures.append(f"{name}:{begin + 1}: ceic accepted the case; expected it to refuse")
    if (expected and run.returncode != 2) or (not expected and run.returncode not in (0, 2)):
        failures.append(f"{name}:{begin + 1}: ceic exited with {run.returncode}, not 0 or 2")
    if not expected and run.returncode != 0:
        failures.append(f"{name}:{begin + 1}: ceic refused the case")
    if (checks or check_nots) and run.returncode == 0:
        rewritten = "\n".join(line.split("//", 1)[0]
                              for line in open(case_out, encoding="utf-8").read().splitlines())
        at = 0
        for line, want in checks:
            found = rewritten.find(want, at)
            if found < 0:
                failures.append(f"{name}:{line}: CHECK not found (after the previous "
                                f"match): {want}")
            else:
                at = found + len(want)
        for line, unwanted in check_nots:
            if unwanted in rewritten:
                failures.append(f"{name}:{line}: CHECK-NOT found: {unwanted}")
    elif (checks or check_nots) and expected:
        failures.append(f"{name}:{begin + 1}: a case both refused and CHECKed: split it")
    if failures:
        failures.append(f"--- ceic said (case at line {begin + 1}):\n{run.stderr}")
        if run.returncode == 0:
            failures.append(f"--- rewritten: {case_out}")
    return failures, len(expected), len(checks) + len(check_nots)


def main():
    ceic, src, out = sys.argv[1:4]
    ceic_args = sys.argv[sys.argv.index("--") + 1:]
    # Each case is instrumented from a copy elsewhere: its #include "..." still finds SRC's folder.
    if "--" not in ceic_args:
        ceic_args.append("--")
    ceic_args.append("-I" + os.path.dirname(os.path.abspath(src)))
    text = open(src, encoding="utf-8").read().splitlines()
    stem = os.path.splitext(os.path.basename(src))[0]
    rule = next((m.group(1) for line in text
                 for m in [re.search(r"// RULE: (\S+)", line)] if m), None)
    failures = []
    if rule != stem:
        failures.append(f"{os.path.basename(src)}: '// RULE: {stem}' missing (found: {rule})")
        rule = rule or stem
    n_diags = n_checks = 0
    cases = cases_of(text)
    for number, line in enumerate(text[:cases[0][0]], 1):
        if re.search(r"// CHECK|expected-(error|note)@", line):
            failures.append(f"{os.path.basename(src)}:{number}: an expectation in the prelude "
                            "(before the first '// -----') is not checked: move it into a case")
    for k, (prelude_end, begin, end) in enumerate(cases):
        f, d, c = check_case(ceic, ceic_args, src, text, prelude_end, begin, end,
                             f"{out}.d/case{k + 1}")
        failures += f
        n_diags += d
        n_checks += c
    if n_diags + n_checks == 0:
        failures.append(f"{os.path.basename(src)}: no expectations")
    if failures:
        print(f"rule {rule}: FAILED")
        print("\n".join(failures))
        return 1
    print(f"rule {rule}: {len(cases)} cases, {n_diags} diagnostics, {n_checks} checks as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
