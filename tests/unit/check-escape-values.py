#!/usr/bin/python3
"""Our RequiresMountsFor= values read back by systemd itself: random byte
strings are escaped by our escaper, written into one unit, and
`systemd-analyze verify` at debug level dumps what it read; every path must
come back byte for byte, and every refused path must be one systemd cannot
read (newline, carriage return, invalid UTF-8)."""
import os
import random
import shutil
import subprocess
import sys
import tempfile

tool = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
seed = int(os.environ.get("TEST_SEED", random.randrange(1 << 30)))
rng = random.Random(seed)
print(f"seed {seed}, {count} strings")

PIECES = [b" ", b"\t", b"%", b"%%", b"\\", b"\"", b"'", b"a", b"-", b".", b"\xc3\xa9", b"\xf0\x9f\x98\x80",
          b"\x01", b"\x1b", b"\x7f", b"\x0b", b"\x0c", b";", b"#", b"=", b"$", b"{", b"}", b"\xff", b"\n"]


def random_path():
    # the generator hands over normalised paths: no "." or ".." component
    while True:
        body = b"".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 10)))
        if body not in (b".", b".."):
            return b"/srv/" + body


def escape(paths):
    out = subprocess.run([tool, "value"], input=b"\0".join(paths) + b"\0", capture_output=True, check=True)
    return out.stdout.split(b"\n")[:len(paths)]


def representable(p):
    if b"\n" in p or b"\r" in p:
        return False
    try:
        s = p.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(0xFDD0 <= ord(c) <= 0xFDEF or (ord(c) & 0xFFFE) == 0xFFFE for c in s)


paths = list(dict.fromkeys(random_path() for _ in range(count)))
values = escape(paths)
failures = 0
kept = []
for p, v in zip(paths, values):
    if v == b"!":
        if representable(p):
            failures += 1
            print(f"REFUSED but representable: {p!r}")
    else:
        kept.append((p, v))

root = tempfile.mkdtemp()
try:
    os.makedirs(f"{root}/etc/systemd/system")
    os.makedirs(f"{root}/usr/lib/systemd")
    shutil.copytree("/lib/systemd/system", f"{root}/usr/lib/systemd/system", symlinks=True)
    os.makedirs(f"{root}/bin")
    shutil.copy("/bin/true", f"{root}/bin/true")
    with open(f"{root}/etc/systemd/system/readback.service", "wb") as f:
        f.write(b"[Unit]\nDescription=read back\n")
        for _, v in kept:
            f.write(b"RequiresMountsFor=" + v + b"\n")
        f.write(b"[Service]\nExecStart=/bin/true\n")
    r = subprocess.run(["systemd-analyze", "verify", "--man=no", f"--root={root}", "readback.service"],
                       capture_output=True, env=dict(os.environ, SYSTEMD_LOG_LEVEL="debug", SYSTEMD_LOG_COLOR="0",
                                               SYSTEMD_UTF8="0"),
                       cwd=root)
finally:
    shutil.rmtree(root)

complaints = [l for l in r.stderr.split(b"\n") if b"readback.service:" in l and
              (b"ignoring" in l.lower() or b"invalid" in l.lower() or b"failed" in l.lower())]
for c in complaints[:10]:
    failures += 1
    print("systemd complained:", c)
got, inside = set(), False
# The unit dump's arrow is "->" with SYSTEMD_UTF8=0, "\u2192" on systemd 257 in
# a UTF-8 locale without it: accept both, assume neither.
ARROWS = (b"\t-> Unit ", "\t\u2192 Unit ".encode())
for line in r.stdout.split(b"\n"):
    if line.startswith(ARROWS):
        inside = line.strip().endswith(b" Unit readback.service:")
    elif inside and line.startswith(b"\t\tRequiresMountsFor: "):
        got.add(line[len(b"\t\tRequiresMountsFor: "):].rsplit(b" (", 1)[0])
want = {p for p, _ in kept}
# systemd simplifies what it reads ("//" and trailing "/"): our inputs have none
for p in sorted(want - got)[:10]:
    print(f"NOT READ BACK: {p!r}")
for p in sorted(got - want)[:10]:
    print(f"READ BUT NOT WRITTEN: {p!r}")
failures += len(want ^ got)
checked = len(paths)
print(f"{checked - min(failures, checked)} passed, {failures} failed")
sys.exit(1 if failures or not kept else 0)
