#!/usr/bin/env python3
"""One ceic rule, checked against the expectations written in its test source (lit style).

  rule_check.py CEIC SRC OUT -- CEIC_ARGS...

SRC's comments hold what ceic must do with it:
  // RULE: name                      the rule the file tests (named in every failure)
  code;  // expected-error@COL {{text}}   ceic reports an error on this line at column COL whose
  code;  // expected-note@COL {{text}}    message contains text (a note likewise)
  // CHECK: text                     the rewritten source holds text (comments left out), after
                                     the previous CHECK's match
  // CHECK-NOT: text                 the rewritten source does not hold text
A file with expected errors must be refused with exactly those diagnostics; a file without must
be accepted with none.
"""
import re
import subprocess
import sys


def main():
    ceic, src, out = sys.argv[1:4]
    ceic_args = sys.argv[sys.argv.index("--") + 1:]
    text = open(src, encoding="utf-8").read().splitlines()
    rule = next((m.group(1) for line in text
                 for m in [re.search(r"// RULE: (\S+)", line)] if m), src)
    expected, checks, check_nots = [], [], []
    for number, line in enumerate(text, 1):
        for kind, col, msg in re.findall(r"expected-(error|note)@(\d+) \{\{(.*?)\}\}", line):
            expected.append((number, int(col), kind, msg))
        m = re.search(r"// CHECK: (.*)$", line)
        if m:
            checks.append((number, m.group(1).strip()))
        m = re.search(r"// CHECK-NOT: (.*)$", line)
        if m:
            check_nots.append((number, m.group(1).strip()))

    run = subprocess.run([ceic, "--instrument", src, "-o", out, *ceic_args],
                         capture_output=True, text=True)
    name = src.rsplit("/", 1)[-1]
    got = []
    for line in run.stderr.splitlines():
        m = re.match(r"(.*?):(\d+):(\d+): (error|note|warning): (.*)$", line)
        if m and m.group(1).rsplit("/", 1)[-1] == name:
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
        failures.append(f"{name}: ceic accepted the file; expected it to refuse")
    if not expected:
        if run.returncode != 0:
            failures.append(f"{name}: ceic refused the file:\n{run.stderr}")
        else:
            rewritten = "\n".join(line.split("//", 1)[0]
                                  for line in open(out, encoding="utf-8").read().splitlines())
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
    if failures:
        print(f"rule {rule}: FAILED")
        print("\n".join(failures))
        print("--- ceic said:\n" + run.stderr)
        return 1
    print(f"rule {rule}: {len(expected)} diagnostics, {len(checks) + len(check_nots)} checks "
          "as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
