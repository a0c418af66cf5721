#!/usr/bin/python3
"""shell_quote() (escape.c), the one quoting step for every command the
checker prints: each hostile string, quoted, must come back byte for byte as
ONE word from bash (and from dash for strings without control bytes, which
need bash's $'..'), and must run nothing. Then the checker itself: a
keytab-file= that tries to run a command is printed so that pasting the fix
runs only kadmin, with the path as written.

usage: check-shell-quote.py ESCAPE_TOOL CHECKER"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

tool, checker = sys.argv[1], sys.argv[2]
passed = failed = 0


def result(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


hostile = [b"", b"plain", b"/etc/krb5.keytab", b"a b", b"it's", b"'", b"''", b'"', b"$(touch PWNED)",
           b"`touch PWNED`", b"x; touch PWNED", b"a\nb", b"\x1b[2J", b"\\", b"a\\", b"*", b"~root", b"!x",
           b"-n", b"%s", b"caf\xc3\xa9", b"\xff\xfe", b"tab\there", b"$HOME", b"{a,b}", b"a#b", b"#x"]
rng = random.Random(4)
for _ in range(300):
    hostile.append(bytes(rng.choice(b"ab '\"\\$`;|&<>()*?[]{}~!#\n\t\x1b\x7f\xc3\xa9-=/.") for _ in range(rng.randint(1, 12))))

r = subprocess.run([tool, "shell"], input=b"\0".join(hostile) + b"\0", capture_output=True, check=True)
quoted = r.stdout.split(b"\n")[:-1]
result(len(quoted) == len(hostile), f"tool printed {len(quoted)} lines for {len(hostile)} strings")

shells = [s for s in ("bash", "dash") if shutil.which(s)]
result("bash" in shells, "bash is needed to check the quoting")
with tempfile.TemporaryDirectory() as scratch:
    for sh in shells:
        for raw, q in zip(hostile, quoted):
            if sh == "dash" and b"$'" in q:
                continue  # control bytes: bash's form, said in escape.h
            out = subprocess.run([sh, "-c", b"printf '%s\\0' " + q + b"; printf '%s' \"$#\" >/dev/null"],
                                 capture_output=True, cwd=scratch)
            ok = out.returncode == 0 and out.stdout == raw + b"\0"
            result(ok, f"{sh}: {raw!r} quoted as {q!r} came back as {out.stdout!r} {out.stderr!r}")
            result(all(c >= 0x20 and c != 0x7f for c in q), f"raw control byte in {q!r}")
        result(not os.path.exists(os.path.join(scratch, "PWNED")), f"{sh}: a quoted string ran a command")

    # The checker's printed fix, pasted into a shell with a stand-in kadmin
    root = os.path.join(scratch, "root")
    os.makedirs(os.path.join(root, "etc"))
    keytab = "/etc/k\"; touch PWNED; echo \"'$(touch PWNED)'"
    with open(os.path.join(root, "etc/nfs.conf"), "w") as f:
        f.write("[gssd]\nkeytab-file=%s\n" % keytab)
    with open(os.path.join(root, "etc/exports"), "w") as f:
        f.write("/srv/k *(sec=krb5,rw)\n")
    with open(os.path.join(root, "etc/fstab"), "w") as f:
        f.write("server:/k /mnt/k nfs4 sec=krb5p 0 0\n")
    out = subprocess.run([checker, "--root=" + root], capture_output=True, text=True)
    fixes = [l[len("  fix: "):] for l in out.stdout.splitlines() if l.startswith("  fix: kadmin")]
    result(len(fixes) == 2, f"expected 2 kadmin fixes, got {fixes!r}:\n{out.stdout}")
    for fix in fixes:
        stub = 'kadmin() { printf "%s\\0" "$@"; }; hostname() { echo host.example; }; ' + fix
        run = subprocess.run(["bash", "-c", stub], capture_output=True, cwd=scratch)
        want = b"-q\0ktadd -k " + keytab.encode() + b" nfs/host.example\0"
        result(run.stdout == want, f"fix {fix!r} gives kadmin {run.stdout!r}, want {want!r}")
    result(not os.path.exists(os.path.join(scratch, "PWNED")), "pasting the checker's fix ran a command")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
