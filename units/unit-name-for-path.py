#!/usr/bin/env python3
"""Print the unit name systemd gives to a path, with a suffix.

    unit-name-for-path.py PATH SUFFIX

Equals `systemd-escape --path --suffix=SUFFIX PATH` (systemd's
unit_name_path_escape()): used by Meson to name the rpc_pipefs mount unit
after the configured state directory without needing systemd installed
at build time.  tests/verify/escape.sh checks it against systemd-escape.
"""
import os
import sys

VALID = set(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ:_.")


def simplify(path: bytes) -> bytes:
    # systemd's path_simplify(): drop empty and "." components.
    parts = [p for p in path.split(b"/") if p not in (b"", b".")]
    if b".." in parts:
        raise ValueError("path is not normalized (contains ..)")
    return b"/".join(parts)


def escape_char(c: int) -> bytes:
    return b"\\x%02x" % c


def path_escape(path: bytes) -> bytes:
    p = simplify(path)
    if not p:
        return b"-"
    out = bytearray()
    for i, c in enumerate(p):
        if c == ord("/"):
            out += b"-"
        elif i == 0 and c == ord("."):
            # no unit name may start with a dot
            out += escape_char(c)
        elif c in VALID:
            out.append(c)
        else:
            out += escape_char(c)
    return bytes(out)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path = os.fsencode(sys.argv[1])
    if not path.startswith(b"/"):
        print(f"{sys.argv[1]}: not an absolute path", file=sys.stderr)
        return 1
    try:
        name = path_escape(path) + b"." + os.fsencode(sys.argv[2])
    except ValueError as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(name + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
