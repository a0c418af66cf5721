#!/usr/bin/python3
"""Our unit names against systemd's: `systemd-escape --path --suffix=mount` for
thousands of random byte strings, and systemd-fstab-generator for names too
long for a unit (systemd shortens them with a hash; systemd-escape does not)."""
import os
import random
import subprocess
import sys
import tempfile

tool = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
seed = int(os.environ.get("TEST_SEED", random.randrange(1 << 30)))
rng = random.Random(seed)
print(f"seed {seed}, {count} strings")

ALPHABET = [b"/", b"/", b"/", b".", b"..", b"-", b"\\", b" ", b"%", b"a", b"Z", b"9", b":", b"_",
            b"\xc3\xa9", b"\n", b"\t", b"\xff", b"\"", b"'", b"x"]


def random_path():
    parts = [rng.choice(ALPHABET) if rng.random() < 0.6 else bytes([rng.randrange(1, 256)])
             for _ in range(rng.randrange(0, 24))]
    p = b"".join(parts)
    return p if rng.random() < 0.1 else b"/" + p


def ours(paths):
    out = subprocess.run([tool, "name"], input=b"\0".join(paths) + b"\0", capture_output=True, check=True)
    lines = out.stdout.split(b"\n")
    # one line per path, each ended by a newline: a line missing or extra is
    # a failure, never something zip() silently drops
    if lines[-1] != b"" or len(lines) - 1 != len(paths):
        print(f"FAIL: the tool printed {len(lines) - 1} lines for {len(paths)} paths")
        sys.exit(1)
    return lines[:-1]


def theirs(path):
    r = subprocess.run(["systemd-escape", "--path", "--suffix=mount", "--", path], capture_output=True)
    if r.returncode != 0 or not path.startswith(b"/"):
        return b"!"
    return r.stdout.rstrip(b"\n")


paths = [random_path() for _ in range(count)]
mine = ours(paths)
failures = skipped = compared = 0


def theirs_many(chunk):
    """systemd-escape for many paths in one call; a call that fails (a path it
    refuses) or prints a name with a space is split in two, so that a refused
    path costs a few calls instead of one call per path."""
    if not chunk:
        return []
    if len(chunk) == 1:
        return [theirs(chunk[0])]
    r = subprocess.run(["systemd-escape", "--path", "--suffix=mount", "--"] + chunk, capture_output=True)
    if r.returncode == 0:
        names = r.stdout.rstrip(b"\n").split(b" ")
        if len(names) == len(chunk):
            return names
    half = len(chunk) // 2
    return theirs_many(chunk[:half]) + theirs_many(chunk[half:])


batch = 200
for i in range(0, len(paths), batch):
    chunk = paths[i:i + batch]
    # a relative path is refused by both: no call needed
    absolute = [p for p in chunk if p.startswith(b"/")]
    names = iter(theirs_many(absolute))
    expected = [next(names) if p.startswith(b"/") else b"!" for p in chunk]
    assert len(expected) == len(chunk)
    for p, e, m in zip(chunk, expected, mine[i:i + batch]):
        # systemd-escape prints names past the unit-name limit; units that
        # long are shortened by systemd, checked below (skipped here, and
        # counted as skipped, not passed)
        if len(e) >= 256:
            skipped += 1
            continue
        if e != m and b".." in p.split(b"/") and m == b"!":
            # systemd-escape 252 refuses a ".." component; 257 resolves it lexically
            # (/.. is /). Refusing is the answer that is right on every release: the
            # generator then orders through the fstab mounts the path lies on.
            skipped += 1
            continue
        compared += 1
        if e != m:
            failures += 1
            if failures <= 10:
                print(f"MISMATCH {p!r}: systemd-escape {e!r}, ours {m!r}")

# Long names: ask systemd-fstab-generator which unit it writes.
long_paths = [b"/" + b"/".join(b"dir%02d-with-some-length" % k for k in range(n)) for n in (10, 11, 20, 60)]
long_paths.append(b"/srv/" + b"x" * 250 + b"/" + b"\xc3\xa9" * 40)
generator = "/lib/systemd/system-generators/systemd-fstab-generator"
for p in long_paths:
    with tempfile.TemporaryDirectory() as d:
        fstab = os.path.join(d, "fstab")
        with open(fstab, "wb") as f:
            f.write(b"/dev/vdb " + p.replace(b" ", b"\\040") + b" ext4 defaults 0 0\n")
        out = os.path.join(d, "out")
        os.mkdir(out)
        subprocess.run([generator, out, out, out], env={"SYSTEMD_FSTAB": fstab, "SYSTEMD_LOG_LEVEL": "err"},
                       check=True)
        units = [n.encode() for n in os.listdir(out) if n.endswith(".mount")]
    m = ours([p])[0]
    compared += 1
    if units != [m]:
        failures += 1
        print(f"MISMATCH long {p[:40]!r}...: systemd-fstab-generator {units!r}, ours {m!r}")

print(f"{skipped} skipped (name of 256 bytes or more, or a \"..\" systemd-escape refuses)")
print(f"{compared - failures} passed, {failures} failed")
sys.exit(1 if failures or compared == 0 else 0)
