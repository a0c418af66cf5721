#!/usr/bin/python3
"""Golden tests for a generator: each case directory holds a root/ with the
configuration and the drop-in (or unit) files we expect, written by hand:

  case/root/...                  configuration read with --root
  case/expected/PATH             every file the generator must write, below NORMAL_DIR
  case/expected-stderr           (optional) lines that must appear on stderr, in order
  case/args                      (optional) extra arguments

A case with no expected/ directory must write nothing. Cases are never
regenerated from the generator's output."""
import os
import subprocess
import sys
import tempfile

generator, cases_dir = sys.argv[1], sys.argv[2]
# e.g. "valgrind --leak-check=full --error-exitcode=99": the same cases, checked
# for memory errors and leaks too
wrapper = os.environ.get("GENERATOR_WRAPPER", "").split()
passed = failed = 0


def files_below(top):
    found = {}
    for dirpath, _, names in os.walk(top):
        for n in names:
            p = os.path.join(dirpath, n)
            with open(p, "rb") as f:
                found[os.path.relpath(p, top)] = f.read()
    return found


for case in sorted(os.listdir(cases_dir)):
    case_dir = os.path.join(cases_dir, case)
    if not os.path.isdir(case_dir):
        continue
    problems = []
    with tempfile.TemporaryDirectory() as out:
        extra = []
        if os.path.exists(os.path.join(case_dir, "args")):
            extra = open(os.path.join(case_dir, "args")).read().split()
        r = subprocess.run(wrapper + [generator, "--root=" + os.path.join(case_dir, "root")] + extra + [out, out, out],
                           capture_output=True)
        if r.returncode != 0:
            problems.append(f"exit status {r.returncode}")
        got = files_below(out)
        expected_dir = os.path.join(case_dir, "expected")
        want = files_below(expected_dir) if os.path.isdir(expected_dir) else {}
        for name in sorted(set(got) | set(want)):
            if name not in got:
                problems.append(f"missing {name}")
            elif name not in want:
                problems.append(f"unexpected {name}:\n{got[name].decode(errors='replace')}")
            elif got[name] != want[name]:
                problems.append(f"{name} differs:\n--- expected\n{want[name].decode(errors='replace')}"
                                f"--- got\n{got[name].decode(errors='replace')}")
        stderr_file = os.path.join(case_dir, "expected-stderr")
        stderr = r.stderr.decode(errors="replace")
        if os.path.exists(stderr_file):
            pos = 0
            for line in open(stderr_file).read().splitlines():
                i = stderr.find(line, pos)
                if i < 0:
                    problems.append(f"stderr lacks (in order): {line}\nstderr was:\n{stderr}")
                    break
                pos = i + len(line)
        elif stderr and not wrapper:
            problems.append(f"unexpected stderr:\n{stderr}")
    if problems:
        failed += 1
        print(f"FAIL {case}")
        for p in problems:
            print("     " + p.replace("\n", "\n     "))
    else:
        passed += 1
        print(f"ok   {case}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
