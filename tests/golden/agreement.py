#!/usr/bin/python3
"""Do nfs-server-generator and nfs-systemd-check agree? For every root under
the given directories (each golden case's root/, each checker fixture's pos/
and neg*/), run the generator with --explain and the checker with --json,
and compare what the two programs say about each line:

  - the exported paths: every export line the checker reports a path finding
    on is an export line the generator ordered or skipped (one per path);
  - noauto: the generator skips a path for a noauto mount exactly where the
    checker reports export-on-noauto-mount (except a loopback re-export,
    where the loopback rule wins);
  - re-exports: the generator leaves an NFS mount without Before= because it
    holds an export exactly where the checker reports reexport-ordering; an
    export line the checker finds on an NFS mount (reexport-without-fsid) is,
    if the generator orders it, ordered as a re-export;
  - loopback re-exports: the checker warns loopback-reexport-without-mp only
    for a path the generator skipped as a loopback re-export;
  - the configuration read: every diagnostic of the generator (a malformed
    line, an unusable or ".." export path, an fstab line that does not own
    its mount point) is a finding of the checker with the same severity,
    file and line, and back.

Both programs read the root themselves, so this compares the two programs,
not the library with itself. It fails when no root gave anything to compare.

usage: agreement.py GENERATOR CHECKER DIR..."""
import json
import os
import re
import subprocess
import sys

generator, checker, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]

ITEM = re.compile(r"^# (?P<file>/\S*?):(?P<line>\d+): (?P<skipped>skipped )?(?P<rest>.*)$")
LOGGED = re.compile(r"^nfs-server-generator: (?P<file>/[^:]*?)(?::(?P<line>\d+))?: (?P<msg>.*)$")
DIAG = re.compile(r"^# (?P<file>/[^:]*?)(?::(?P<line>\d+))?: (?P<sev>error|warning|note): (?P<msg>.*)$")

# the generator's reasons, by how they start (src/lib/server_order.c)
REASONS = [
    ("noauto", "not ordered: lies at or below the noauto mount"),
    ("mp", "not ordered: every client has the mp/mountpoint option"),
    ("loopback-path", "not ordered: lies on the NFS mount"),
    ("reexport-mount", "NFS mount holds an export"),
    ("loopback-mount", "NFS mount from this host that holds an export"),
    ("nfs-mount", "NFS mount:"),
    ("unit-name", "NFS mount point has no valid mount unit name"),
    ("ordered-reexport", "exported path; it lies on an NFS mount"),
    ("ordered", "exported path: the server starts only once it is mounted"),
    ("fallback", "exported path has bytes systemd cannot read"),
]


def roots():
    for top in dirs:
        for case in sorted(os.listdir(top)):
            d = os.path.join(top, case)
            if os.path.isdir(os.path.join(d, "root")):
                yield os.path.join(d, "root")
            for sub in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if sub == "pos" or sub.startswith("neg"):
                    if os.path.isdir(os.path.join(d, sub)):
                        yield os.path.join(d, sub)


def generator_says(root):
    """{(file, line): [(kind, path-text)]} and [(severity, file, line, message)]"""
    r = subprocess.run([generator, "--root=" + root, "--explain"], capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f"generator exit status {r.returncode}: {r.stderr.decode(errors='replace')}")
    items, diags = {}, []
    problems = False
    for text in r.stdout.decode(errors="replace").splitlines():
        if text.startswith("# Problems found"):
            problems = True
            continue
        m = DIAG.match(text) if problems else None
        if m:
            # the listing writes each message as the reader escaped it, as
            # the log and the checker do: compared as it stands
            diags.append((m["file"], int(m["line"] or 0), m["msg"]))
            continue
        m = ITEM.match(text)
        if not m or problems:
            continue
        for kind, start in REASONS:
            i = m["rest"].find(": " + start)
            if i >= 0:
                items.setdefault((m["file"], int(m["line"])), []).append((kind, m["rest"][:i]))
                break
        else:
            raise RuntimeError(f"generator line with a reason this test does not know: {text}")
    # every diagnostic is logged, exported or not (with --explain it is
    # listed in the output too, but only when something is written)
    logged = diags
    for text in r.stderr.decode(errors="replace").splitlines():
        m = LOGGED.match(text)
        if not m:
            raise RuntimeError(f"generator log line this test cannot read: {text}")
        logged.append((m["file"], int(m["line"] or 0), m["msg"]))
    return items, logged


def checker_says(root):
    r = subprocess.run([checker, "--root=" + root, "--json"], capture_output=True)
    if r.returncode not in (0, 1, 2):
        raise RuntimeError(f"checker exit status {r.returncode}: {r.stderr.decode(errors='replace')}")
    return json.loads(r.stdout)


def compare(root):
    """Returns (problems, number of facts compared)"""
    items, diags = generator_says(root)
    findings = checker_says(root)
    problems, facts = [], 0

    def kinds(file, line):
        return {k for k, _ in items.get((file, line), [])}

    def where(f):
        return (f["file"], f["line"])

    by_id = {}
    for f in findings:
        by_id.setdefault(f["id"], set()).add(where(f))
    export_lines = {key for key, its in items.items()
                    if any(k in ("noauto", "mp", "loopback-path", "ordered", "ordered-reexport", "fallback")
                           for k, _ in its)}

    # the exported paths: one per path, on the same first line
    for id_ in ("export-not-on-own-mount", "export-on-noauto-mount"):
        for key in by_id.get(id_, ()):
            facts += 1
            if key not in export_lines:
                problems.append(f"checker {id_} at {key[0]}:{key[1]}, where the generator has no exported path")

    # noauto, both ways
    gen_noauto = {key for key in export_lines if "noauto" in kinds(*key)}
    chk_noauto = by_id.get("export-on-noauto-mount", set())
    for key in gen_noauto | chk_noauto:
        facts += 1
        if key in gen_noauto and key not in chk_noauto:
            problems.append(f"generator skips {key[0]}:{key[1]} for a noauto mount; the checker does not say so")
        if key in chk_noauto and key not in gen_noauto and "loopback-path" not in kinds(*key):
            problems.append(f"checker says {key[0]}:{key[1]} lies on a noauto mount; the generator "
                            f"decided {sorted(kinds(*key)) or 'nothing'}")

    # NFS mounts left without Before= because they hold an export, both ways
    gen_reexport = {key for key, its in items.items() if any(k == "reexport-mount" for k, _ in its)}
    chk_reexport = by_id.get("reexport-ordering", set())
    for key in gen_reexport ^ chk_reexport:
        problems.append(f"{key[0]}:{key[1]}: re-exported NFS mount: generator "
                        f"{'skips it' if key in gen_reexport else 'does not skip it'}, checker "
                        f"{'notes it' if key in chk_reexport else 'does not note it'}")
    facts += len(gen_reexport | chk_reexport)

    # an export line on an NFS mount, if ordered, is ordered as a re-export
    for key in by_id.get("reexport-without-fsid", ()):
        facts += 1
        k = kinds(*key)
        if k & {"ordered"}:
            problems.append(f"checker says {key[0]}:{key[1]} re-exports an NFS mount; the generator orders it "
                            f"as a local path")

    # loopback re-exports without mp: only for paths the generator skipped so
    gen_loopback_paths = {p for its in items.values() for k, p in its if k == "loopback-path"}
    for f in findings:
        if f["id"] != "loopback-reexport-without-mp":
            continue
        facts += 1
        if not any(f["message"].startswith(p + " ") for p in gen_loopback_paths):
            problems.append(f"checker warns loopback-reexport-without-mp at {f['file']}:{f['line']}, "
                            f"but the generator skipped no such path as a loopback re-export")

    # what both say about the configuration they read: each diagnostic of the
    # generator is a finding of the checker at the same place and severity,
    # and back (the generator's re-export warning is the checker's
    # reexport-ordering note, compared above)
    read_ids = ("exports-malformed", "export-path-unusable", "fstab-malformed", "nfs-conf-malformed",
                "mount-unit-malformed", "loopback-reexport-not-withdrawn")
    gen_diags = {(f, l, m) for f, l, m in diags if not re.match(r"NFS mount .* is re-exported \(", m)}
    chk_diags = {(f["file"], f["line"] or 0, f["message"]) for f in findings if f["id"] in read_ids}
    for key in gen_diags ^ chk_diags:
        problems.append(f"{key[0]}:{key[1]}: only the {'generator' if key in gen_diags else 'checker'} says: {key[2]}")
    facts += len(gen_diags | chk_diags)
    return problems, facts


passed = failed = total_facts = 0
for root in roots():
    try:
        problems, facts = compare(root)
    except (RuntimeError, json.JSONDecodeError) as e:
        problems, facts = [str(e)], 0
    total_facts += facts
    if problems:
        failed += 1
        print(f"FAIL {root}")
        for p in problems:
            print("     " + p)
    else:
        passed += 1
        print(f"ok   {root} ({facts} compared)")

print(f"{total_facts} facts compared")
if total_facts == 0:
    print("FAIL: nothing was compared")
    failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
