#!/usr/bin/env python3
"""One ordering rule of nfs.systemd(7), checked on systemd's own view.

    rules.py RULE ROOT

ROOT is a scratch root made by rule.sh (host units, this project's units
in ROOT/etc/systemd/system, daemon stubs).  Each rule reads the dependency
dump that `SYSTEMD_LOG_LEVEL=debug systemd-analyze verify --root=ROOT`
prints for a unit ("After: x (origin-file)", "RequiresMountsFor: /p",
"-> ExecStop:" ...) and asserts what the rule says, so that an edit that
breaks a lesson fails here.  Where the dump does not carry a detail (the
"-" prefix of a command), the unit files as systemd found them (the
"Fragment Path:" and "DropIn Path:" of the dump) are read.

Exit status: 0 the rule holds, 1 it does not (each violation is printed),
77 only when systemd-analyze is absent.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

ROOT = ""
PIPEFS_MOUNT = os.environ.get("PIPEFS_MOUNT_UNIT", "")
STATEDIR = os.environ.get("STATEDIR", "")

# Every long-running daemon unit and the oneshots of the set.
DAEMONS = [
    "nfs-mountd.service",
    "nfs-idmapd.service",
    "nfsdcld.service",
    "rpc-statd.service",
    "rpc-statd-notify.service",
    "rpc-gssd.service",
    "rpc-svcgssd.service",
    "nfs-blkmap.service",
]
EARLY = DAEMONS + ["nfs-server.service", "auth-rpcgss-module.service"]
PIPEFS_USERS = [
    "nfs-idmapd.service",
    "nfsdcld.service",
    "rpc-gssd.service",
    "nfs-blkmap.service",
]
SERVER_ONLY = ["nfs-mountd.service", "nfs-idmapd.service", "nfsdcld.service"]
FAILED_HELPER = "nfs-server-failed@nfs-server.service.service"
DEP_KEYS = {
    "Requires", "Requisite", "Wants", "BindsTo", "PartOf", "Upholds",
    "RequiredBy", "RequisiteOf", "WantedBy", "BoundBy", "ConsistsOf",
    "Conflicts", "ConflictedBy", "Before", "After", "OnFailure",
    "Triggers", "TriggeredBy", "PropagatesReloadTo", "ReloadPropagatedFrom",
    "JoinsNamespaceOf", "References", "ReferencedBy",
}


class Unit:
    def __init__(self, name):
        self.name = name
        self.props = defaultdict(list)  # key -> [value]
        self.deps = defaultdict(dict)  # key -> {unit: origins}
        self.commands = defaultdict(list)  # ExecStart -> [command line]

    def has(self, key, other, origin=None):
        origins = self.deps[key].get(other)
        if origins is None:
            return False
        return origin is None or origin in origins

    def prop(self, key):
        return self.props.get(key, [])


# The dump is systemd's unit_dump() format, the one `systemd-analyze dump`
# prints: the same keys from 252 to 262.  Only its arrow glyph depends on
# the locale (257 draws "→" where 252 drew "->"); SYSTEMD_UTF8=0 asks for
# ASCII and the pattern accepts both, so no release's wording is assumed.
ARROW = r"(?:->|\u2192) "


def parse_dump(text):
    """Unit dumps of systemd-analyze verify: {unit name: Unit}."""
    units = {}
    unit = None
    command = None
    for line in text.splitlines():
        m = re.match(r"^\t" + ARROW + r"Unit (.+):$", line)
        if m:
            unit = units.setdefault(m.group(1), Unit(m.group(1)))
            command = None
            continue
        if unit is None:
            continue
        if not line.startswith("\t\t"):
            # the dump ended (log lines follow)
            unit = None
            continue
        m = re.match(r"^\t\t" + ARROW + r"(Exec\w+):$", line)
        if m:
            command = m.group(1)
            continue
        m = re.match(r"^\t\t\tCommand Line: (.*)$", line)
        if m and command:
            unit.commands[command].append(m.group(1))
            continue
        m = re.match(r"^\t\t([A-Za-z][A-Za-z ]*): (.*)$", line)
        if not m:
            continue
        command = None
        key, value = m.group(1), m.group(2)
        dm = re.match(r"^(\S+) \(([^)]*)\)$", value)
        if key in DEP_KEYS and dm:
            unit.deps[key][dm.group(1)] = dm.group(2).split()
        else:
            unit.props[key].append(value)
    return units


def analyze_streams(*units):
    """(exit status, dump, log) of debug-level verify of units: the unit
    dumps go to stdout, the log (transaction, cycles) to stderr; kept
    apart because the two interleave mid-line on a shared pipe."""
    env = dict(os.environ, SYSTEMD_LOG_LEVEL="debug", SYSTEMD_LOG_COLOR="0",
               SYSTEMD_UTF8="0")
    p = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "--root=" + ROOT, *units],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        cwd=tempfile.gettempdir(), check=False)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def analyze(*units):
    """(exit status, log) of debug-level verify of units."""
    status, _, log = analyze_streams(*units)
    return status, log


def load(*units, aliases=()):
    status, out, log = analyze_streams(*units)
    dumps = parse_dump(out)
    missing = [u for u in units if u not in dumps and u not in aliases]
    if missing:
        print(log[-4000:], file=sys.stderr)
        raise SystemExit(f"FAIL: no dependency dump for {', '.join(missing)} "
                         f"(systemd-analyze verify exited {status})")
    return dumps


def unit_file_lines(unit):
    """Lines of a unit's fragment and drop-ins, as systemd loaded them."""
    lines = []
    for key in ("Fragment Path", "DropIn Path"):
        for path in unit.prop(key):
            with open(path, encoding="utf-8") as f:
                lines += [line.strip() for line in f]
    return lines


def exec_prefixes(unit, key):
    """The command prefixes ("-", "@", ...) of key= lines of a unit."""
    out = []
    for line in unit_file_lines(unit):
        m = re.match(rf"^{key}=([-@:+!]*)(.*)$", line)
        if m and m.group(2).strip():
            out.append((m.group(1), m.group(2).strip()))
    return out


class Check:
    def __init__(self):
        self.errors = []
        self.passed = 0

    def that(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.errors.append(message)


# ---------------------------------------------------------------- rules

def rule_early_boot(c):
    """Seed 001: services that can run early have DefaultDependencies=no and
    say After=local-fs.target themselves (no basic.target, no sysinit)."""
    d = load(*EARLY)
    for name in EARLY:
        u = d[name]
        c.that(u.prop("DefaultDependencies") == ["no"],
               f"{name}: DefaultDependencies is {u.prop('DefaultDependencies')}, not no")
        c.that(u.has("After", "local-fs.target"),
               f"{name}: not After=local-fs.target")
        for t in ("basic.target", "sysinit.target"):
            c.that(not u.has("After", t) and not u.has("Requires", t)
                   and not u.has("Wants", t),
                   f"{name}: depends on {t} (early boot impossible)")


def rule_client_after_gss(c):
    """Seed 002: nfs-client.target orders itself after the GSS daemons it
    wants, never before them."""
    d = load("nfs-client.target", "auth-rpcgss-module.service")
    client = d["nfs-client.target"]
    gss = ["rpc-gssd.service", "rpc-svcgssd.service", "gssproxy.service",
           "nfs-blkmap.service"]
    for g in gss:
        c.that(client.has("After", g), f"nfs-client.target: not After={g}")
        c.that(not client.has("Before", g), f"nfs-client.target: Before={g} (seed 002 cycle)")
    c.that(client.has("Wants", "auth-rpcgss-module.service"),
           "nfs-client.target: does not want auth-rpcgss-module.service")
    mod = d["auth-rpcgss-module.service"]
    c.that(mod.has("Wants", "rpc-gssd.service"),
           "auth-rpcgss-module.service: does not want rpc-gssd.service")
    c.that(client.has("Before", "remote-fs-pre.target")
           and client.has("Wants", "remote-fs-pre.target"),
           "nfs-client.target: not Wants=+Before=remote-fs-pre.target")
    # The client target must not come after the server (directly or through
    # units it orders after): with a re-export the server is ordered after
    # an NFS mount, which is after remote-fs-pre.target, after this target.
    c.that(not client.has("After", "nfs-server.service"),
           "nfs-client.target: After=nfs-server.service")
    c.that(not client.has("After", "rpc-statd-notify.service"),
           "nfs-client.target: After=rpc-statd-notify.service (which is after the server)")


def rule_pipefs_after_tmpfiles(c):
    """Seed 003: the rpc_pipefs mount comes after systemd-tmpfiles-setup;
    every pipefs user depends on rpc_pipefs.target, which requires the
    mount named after the state directory."""
    c.that(PIPEFS_MOUNT != "", "PIPEFS_MOUNT_UNIT not set")
    expected = subprocess.run(
        ["systemd-escape", "--path", "--suffix=mount", STATEDIR + "/rpc_pipefs"],
        stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    c.that(PIPEFS_MOUNT == expected,
           f"pipefs mount unit is {PIPEFS_MOUNT}, systemd-escape says {expected}")
    d = load(PIPEFS_MOUNT, "rpc_pipefs.target", *PIPEFS_USERS)
    m = d[PIPEFS_MOUNT]
    c.that(m.has("After", "systemd-tmpfiles-setup.service", "origin-file"),
           f"{PIPEFS_MOUNT}: not After=systemd-tmpfiles-setup.service")
    c.that(m.prop("DefaultDependencies") == ["no"],
           f"{PIPEFS_MOUNT}: has default dependencies")
    c.that(m.prop("Where") == [STATEDIR + "/rpc_pipefs"],
           f"{PIPEFS_MOUNT}: Where={m.prop('Where')}")
    t = d["rpc_pipefs.target"]
    c.that(t.has("Requires", PIPEFS_MOUNT) and t.has("After", PIPEFS_MOUNT),
           f"rpc_pipefs.target: not Requires=+After={PIPEFS_MOUNT}")
    for name in PIPEFS_USERS:
        u = d[name]
        c.that(u.has("Requires", "rpc_pipefs.target") and u.has("After", "rpc_pipefs.target"),
               f"{name}: not Requires=+After=rpc_pipefs.target")
        for key in ("Requires", "After", "Wants", "BindsTo"):
            c.that(not u.has(key, PIPEFS_MOUNT, "origin-file"),
                   f"{name}: {key}={PIPEFS_MOUNT} by name (use rpc_pipefs.target)")


def rule_server_mounts_by_generator(c):
    """Seed 004 and the article: no blanket remote-fs ordering on the
    server; the generator's drop-in (RequiresMountsFor=, Before=) is read
    and makes no cycle (rule.sh put fixtures/order-with-mounts.conf and
    the fixture's fstab mounts in ROOT)."""
    d = load("nfs-server.service")
    s = d["nfs-server.service"]
    for t in ("remote-fs-pre.target", "remote-fs.target"):
        for key in ("Before", "After", "Wants", "Requires"):
            c.that(not s.has(key, t, "origin-file"),
                   f"nfs-server.service: {key}={t} in the unit (the generator orders mounts)")
    dropins = [p for p in s.prop("DropIn Path") if p.endswith(
        "/nfs-server.service.d/order-with-mounts.conf")]
    c.that(dropins, "nfs-server.service: order-with-mounts.conf drop-in not read")
    paths = set(s.prop("RequiresMountsFor"))
    for p in ("/srv/export", "/srv/iscsi", "/srv/nofail", "/srv/reexport"):
        c.that(any(x.startswith(p + " ") or x == p for x in paths),
               f"nfs-server.service: no RequiresMountsFor: {p} from the drop-in")
    c.that(s.has("Before", "mnt-loop.mount"), "nfs-server.service: not Before=mnt-loop.mount")
    c.that(not s.has("Before", "srv-reexport.mount"),
           "nfs-server.service: Before= its re-exported mount")
    status, out = analyze("multi-user.target")
    c.that(status == 0, f"verify multi-user.target exited {status}")
    c.that("cycle" not in out.lower(), "ordering cycle in the boot transaction")
    for job in ("nfs-server.service", "srv-iscsi.mount", "mnt-loop.mount"):
        c.that(f"Installed new job {job}/start" in out,
               f"boot transaction has no start job for {job}")


def rule_rpcbind_socket_only(c):
    """Only rpcbind.socket is depended on, never rpcbind.target or the
    service; Wants= everywhere except rpc-statd, which requires (and binds
    to) it; masked rpcbind leaves a clean server transaction."""
    ours = load(*EARLY, "nfs-client.target", "nfs-utils.service")
    for name, u in ours.items():
        if name not in EARLY + ["nfs-client.target", "nfs-utils.service"]:
            continue
        for key in ("Requires", "Wants", "BindsTo", "After", "Before", "Requisite"):
            for t in ("rpcbind.target", "rpcbind.service"):
                # statd's After=rpcbind.service is ordering only (rule
                # statd-after-rpcbind-service); nothing pulls the service in.
                if (name, key, t) == ("rpc-statd.service", "After", "rpcbind.service"):
                    continue
                c.that(not u.has(key, t, "origin-file"), f"{name}: {key}={t}")
        if name == "rpc-statd.service":
            continue
        for key in ("Requires", "BindsTo", "Requisite"):
            c.that(not u.has(key, "rpcbind.socket", "origin-file"),
                   f"{name}: {key}=rpcbind.socket (only statd may require rpcbind)")
    for name in ("nfs-server.service", "nfs-mountd.service"):
        u = ours[name]
        c.that(u.has("Wants", "rpcbind.socket") and u.has("After", "rpcbind.socket"),
               f"{name}: not Wants=+After=rpcbind.socket")
    statd = ours["rpc-statd.service"]
    c.that(statd.has("Requires", "rpcbind.socket"), "rpc-statd.service: not Requires=rpcbind.socket")
    # BindsTo= + After= is what stops statd at start time when the socket is
    # masked: systemd 252 keeps the job of a unit whose Requires= failed.
    c.that(statd.has("BindsTo", "rpcbind.socket") and statd.has("After", "rpcbind.socket"),
           "rpc-statd.service: not BindsTo=+After=rpcbind.socket")
    c.that(ours["nfs-server.service"].has("Wants", "rpc-statd.service")
           and not ours["nfs-server.service"].has("Requires", "rpc-statd.service"),
           "nfs-server.service: must want, not require, rpc-statd.service")

    masked = os.path.join(ROOT, "etc/systemd/system")
    links = [os.path.join(masked, u) for u in ("rpcbind.service", "rpcbind.socket")]
    try:
        for link in links:
            os.symlink("/dev/null", link)
        status, out = analyze("nfs-server.service", "nfs-client.target")
        c.that(status == 0, f"rpcbind masked: verify exited {status}")
        c.that("cycle" not in out.lower(), "rpcbind masked: ordering cycle")
        c.that("Installed new job nfs-server.service/start" in out,
               "rpcbind masked: nfs-server.service not started")
        c.that(not re.search(r"Installed new job rpcbind\.(socket|service)/start", out),
               "rpcbind masked: a job for rpcbind was installed")
    finally:
        for link in links:
            if os.path.islink(link):
                os.unlink(link)


def rule_gss_keytab_and_maskable(c):
    """rpc-gssd and rpc-svcgssd start only with a keytab; a keytab without a
    usable key leaves no failed unit; idmapd, gssd, statd can each be
    masked without breaking the rest."""
    d = load("rpc-gssd.service", "rpc-svcgssd.service", "auth-rpcgss-module.service",
             "nfs-server.service", "nfs-client.target")
    for name in ("rpc-gssd.service", "rpc-svcgssd.service", "auth-rpcgss-module.service"):
        conds = d[name].prop("ConditionPathExists")
        c.that(any(x.split()[0] == "/etc/krb5.keytab" for x in conds),
               f"{name}: no ConditionPathExists=/etc/krb5.keytab ({conds})")
    # rpc.svcgssd exits 1 when the keytab has no nfs/ key: that exit must
    # not mark the unit failed (SuccessExitStatus=1; not "-", which would
    # also make a crash a success, and Restart= would not bring it back);
    # nor may the module loader's failure.
    svcgssd = d["rpc-svcgssd.service"]
    c.that("SuccessExitStatus=1" in unit_file_lines(svcgssd),
           "rpc-svcgssd.service: exit status 1 (no usable key) is not a success")
    pre = exec_prefixes(d["auth-rpcgss-module.service"], "ExecStart")
    c.that(pre and all("-" in p for p, _ in pre),
           f"auth-rpcgss-module.service: ExecStart= without '-' prefix ({pre})")
    for name in ("nfs-server.service",):
        for dep in ("nfs-idmapd.service", "rpc-statd.service", "rpc-svcgssd.service"):
            c.that(d[name].has("Wants", dep) and not d[name].has("Requires", dep),
                   f"{name}: {dep} must be wanted, not required")
    for masked_unit in ("nfs-idmapd.service", "rpc-gssd.service", "rpc-statd.service"):
        link = os.path.join(ROOT, "etc/systemd/system", masked_unit)
        saved = link + ".saved"
        os.rename(link, saved)
        try:
            os.symlink("/dev/null", link)
            status, out = analyze("nfs-server.service", "nfs-client.target")
            c.that(status == 0, f"{masked_unit} masked: verify exited {status}")
            c.that("cycle" not in out.lower(), f"{masked_unit} masked: ordering cycle")
            for job in ("nfs-server.service", "nfs-client.target", "nfs-mountd.service"):
                c.that(f"Installed new job {job}/start" in out,
                       f"{masked_unit} masked: {job} not started")
            c.that(f"Installed new job {masked_unit}/start" not in out,
                   f"{masked_unit} masked: it was started anyway")
        finally:
            os.unlink(link)
            os.rename(saved, link)


def rule_server_failure_cleanup(c):
    """When nfs-server cannot start, its status says why and the daemons
    that exist only for it are not left running."""
    d = load("nfs-server.service", FAILED_HELPER, *SERVER_ONLY)
    s = d["nfs-server.service"]
    c.that(s.has("OnFailure", FAILED_HELPER),
           f"nfs-server.service: no OnFailure={FAILED_HELPER}")
    h = d[FAILED_HELPER]
    for name in SERVER_ONLY + ["rpc-svcgssd.service"]:
        c.that(h.has("Conflicts", name), f"{FAILED_HELPER}: does not conflict with {name}")
    c.that(h.prop("DefaultDependencies") == ["no"],
           f"{FAILED_HELPER}: must run in early boot too (DefaultDependencies=no)")
    cmds = h.commands.get("ExecStart", [])
    c.that(any(x.endswith("nfs-server-failed nfs-server.service") for x in cmds),
           f"{FAILED_HELPER}: ExecStart is {cmds}")
    # Normal stop: mountd is bound to the server, idmapd and nfsdcld are
    # part of it.
    c.that(d["nfs-mountd.service"].has("BindsTo", "nfs-server.service"),
           "nfs-mountd.service: not BindsTo=nfs-server.service")
    for name in ("nfs-idmapd.service", "nfsdcld.service"):
        c.that(d[name].has("PartOf", "nfs-server.service"),
               f"{name}: not PartOf=nfs-server.service")
    # The helper script exists, is executable, and is valid shell.
    for x in cmds:
        path = os.path.join(ROOT, x.split()[0].lstrip("/"))
        c.that(os.access(path, os.X_OK), f"{path}: helper not executable")
        if os.access(path, os.X_OK):
            p = subprocess.run(["sh", "-n", path], check=False)
            c.that(p.returncode == 0, f"{path}: sh -n failed")


def rule_restart_via_nfs_utils(c):
    """`systemctl restart nfs-utils.service` restarts every running NFS
    daemon: each is PartOf=nfs-utils.service."""
    names = DAEMONS + ["nfs-server.service"]
    d = load("nfs-utils.service", *names)
    for name in names:
        c.that(d[name].has("PartOf", "nfs-utils.service"),
               f"{name}: not PartOf=nfs-utils.service")
        c.that(d["nfs-utils.service"].has("ConsistsOf", name),
               f"nfs-utils.service: does not consist of {name}")
    u = d["nfs-utils.service"]
    c.that(u.prop("RemainAfterExit") == ["yes"], "nfs-utils.service: RemainAfterExit is not yes")


def rule_stop_and_reload(c):
    """Stopping nfs-server unexports and stops the kernel server; reload
    re-exports."""
    d = load("nfs-server.service")
    s = d["nfs-server.service"]
    control = os.environ["HELPERDIR"] + "/nfs-server-control"
    exportfs = os.environ["SBINDIR_NFS"] + "/exportfs"
    # The helper picks nfsdctl or rpc.nfsd (rule server-start-tool).
    c.that(s.commands.get("ExecStart") == [control + " start"], f"ExecStart: {s.commands.get('ExecStart')}")
    # statd's records are kept for sm-notify before the threads (and with
    # them the lock manager, which unmonitors every client) stop.
    keep = os.environ["HELPERDIR"] + "/keep-statd-monitors"
    c.that(s.commands.get("ExecStop") == [keep, control + " stop"], f"ExecStop: {s.commands.get('ExecStop')}")
    c.that(("-", keep) in exec_prefixes(s, "ExecStop"),
           "ExecStop: keep-statd-monitors without '-' (its failure would fail the stop)")
    c.that(s.commands.get("ExecStopPost") == [exportfs + " -au", exportfs + " -f"],
           f"ExecStopPost: {s.commands.get('ExecStopPost')}")
    c.that(s.commands.get("ExecReload") == [exportfs + " -r"],
           f"ExecReload: {s.commands.get('ExecReload')}")
    c.that(s.commands.get("ExecStartPre") == [exportfs + " -r"],
           f"ExecStartPre: {s.commands.get('ExecStartPre')}")
    c.that(s.prop("RemainAfterExit") == ["yes"], "nfs-server.service: RemainAfterExit is not yes")
    c.that(s.has("Conflicts", "shutdown.target") and s.has("Before", "shutdown.target"),
           "nfs-server.service: not stopped at shutdown (Conflicts=+Before=shutdown.target)")


def systemd_version():
    """The major version of the systemd-analyze that checks the rules."""
    out = subprocess.run(["systemd-analyze", "--version"], capture_output=True,
                         text=True, check=True).stdout
    return int(re.match(r"systemd (\d+)", out).group(1))


def restart_daemons():
    """The long-running daemons installed in ROOT: DAEMONS but the one-shot
    sm-notify, and fsidd and nfsv4.exportd where the build ships them."""
    names = [n for n in DAEMONS if n != "rpc-statd-notify.service"]
    for extra in ("fsidd.service", "nfsv4-exportd.service"):
        if os.path.exists(os.path.join(ROOT, "etc/systemd/system", extra)):
            names.append(extra)
    return names


def rule_daemon_restart(c):
    """Every long-running NFS daemon is back a moment after it dies
    (Restart=on-failure, RestartSec=250ms), a daemon that keeps dying ends
    failed (5 starts a minute), systemd 254 and later restart it directly,
    and no daemon's restart can stop the server."""
    names = restart_daemons()
    d = load("nfs-server.service", *names)
    direct = systemd_version() >= 254
    for name in names:
        u = d[name]
        lines = unit_file_lines(u)
        c.that(u.prop("Restart") == ["on-failure"], f"{name}: Restart={u.prop('Restart')}")
        c.that(u.prop("RestartSec") == ["250ms"], f"{name}: RestartSec={u.prop('RestartSec')}")
        c.that("StartLimitIntervalSec=60s" in lines and "StartLimitBurst=5" in lines,
               f"{name}: no start limit of 5 starts in 60 s")
        c.that(("RestartMode=direct" in lines) == direct,
               f"{name}: RestartMode=direct {'missing' if direct else 'given'} on systemd "
               f"{systemd_version()}")
        # "-" makes any end of the main process a success: no restart.
        pre = exec_prefixes(u, "ExecStart")
        c.that(pre and not any("-" in p for p, _ in pre),
               f"{name}: ExecStart= with '-' (a crash would count as success): {pre}")
        # BindsTo= stops the server when the daemon leaves "active", which
        # an automatic restart without RestartMode=direct does.
        c.that(not d["nfs-server.service"].has("BindsTo", name),
               f"nfs-server.service: BindsTo={name} (its crash would stop the server)")
        c.that(not u.has("PartOf", "rpcbind.service") and not u.has("BindsTo", "rpcbind.service"),
               f"{name}: bound to rpcbind.service (rpcbind-reregister restarts it instead)")


def rule_rpcbind_reregister(c):
    """Every start of rpcbind.service runs rpcbind-reregister, which puts
    the running daemons back into rpcbind's table, and never fails
    rpcbind."""
    d = load("rpcbind.service", "nfs-rpcbind-reregister.service")
    r, u = d["rpcbind.service"], d["nfs-rpcbind-reregister.service"]
    c.that(r.has("Wants", "nfs-rpcbind-reregister.service"),
           "rpcbind.service does not want nfs-rpcbind-reregister.service")
    c.that(not r.has("Requires", "nfs-rpcbind-reregister.service"),
           "rpcbind.service requires nfs-rpcbind-reregister.service")
    c.that(u.has("BindsTo", "rpcbind.service") and u.has("After", "rpcbind.service"),
           "nfs-rpcbind-reregister.service: not bound to and after rpcbind.service "
           "(it would not run again at rpcbind's next start)")
    c.that(not u.has("Before", "rpcbind.service"), "nfs-rpcbind-reregister.service: before rpcbind")
    c.that(u.prop("Type") == ["oneshot"] and u.prop("RemainAfterExit") == ["yes"],
           f"nfs-rpcbind-reregister.service: Type={u.prop('Type')} "
           f"RemainAfterExit={u.prop('RemainAfterExit')}")
    helper = os.environ["HELPERDIR"] + "/rpcbind-reregister"
    c.that(u.commands.get("ExecStart") == [helper], f"ExecStart: {u.commands.get('ExecStart')}")
    c.that(("-", helper) in exec_prefixes(u, "ExecStart"),
           "nfs-rpcbind-reregister.service: ExecStart= without '-'")
    path = os.path.join(ROOT, helper.lstrip("/"))
    c.that(os.access(path, os.X_OK), f"{path}: helper not executable")
    if os.access(path, os.X_OK):
        c.that(subprocess.run(["sh", "-n", path], check=False).returncode == 0,
               f"{path}: sh -n failed")


def rule_keytab_watch(c):
    """A keytab that appears after boot starts the Kerberos units: on every
    host that uses NFS, nfs-keytab.path watches /etc/krb5.keytab and runs
    nfs-keytab-changed.service, which never fails a boot."""
    d = load("nfs-client.target", "nfs-server.service", "nfs-keytab.path", "nfs-keytab-changed.service")
    for name in ("nfs-client.target", "nfs-server.service"):
        c.that(d[name].has("Wants", "nfs-keytab.path"), f"{name} does not want nfs-keytab.path")
    p = d["nfs-keytab.path"]
    lines = unit_file_lines(p)
    c.that("PathChanged=/etc/krb5.keytab" in lines, "nfs-keytab.path does not watch /etc/krb5.keytab")
    c.that(p.has("Triggers", "nfs-keytab-changed.service"),
           "nfs-keytab.path does not trigger nfs-keytab-changed.service")
    # the keytab the Kerberos units' conditions name is the one watched
    d2 = load("rpc-gssd.service")
    conds = [x.split()[0] for x in d2["rpc-gssd.service"].prop("ConditionPathExists")]
    c.that("/etc/krb5.keytab" in conds, f"rpc-gssd.service's condition names another keytab: {conds}")
    u = d["nfs-keytab-changed.service"]
    helper = os.environ["HELPERDIR"] + "/nfs-keytab-changed"
    c.that(u.commands.get("ExecStart") == [helper], f"ExecStart: {u.commands.get('ExecStart')}")
    c.that(u.prop("Type") == ["oneshot"], f"nfs-keytab-changed.service: Type={u.prop('Type')}")
    path = os.path.join(ROOT, helper.lstrip("/"))
    c.that(os.access(path, os.X_OK), f"{path}: helper not executable")
    if os.access(path, os.X_OK):
        c.that(subprocess.run(["sh", "-n", path], check=False).returncode == 0, f"{path}: sh -n failed")


def rule_debian_alias(c):
    """Debian's nfs-kernel-server.service names the same unit, enabled or
    not."""
    link = os.path.join(ROOT, "etc/systemd/system/nfs-kernel-server.service")
    c.that(os.path.islink(link) and os.readlink(link) == "nfs-server.service",
           "nfs-kernel-server.service is not a symlink to nfs-server.service")
    d = load("nfs-kernel-server.service", aliases=("nfs-kernel-server.service",))
    c.that("nfs-server.service" in d, "nfs-kernel-server.service does not load nfs-server.service")
    if "nfs-server.service" in d:
        c.that("nfs-kernel-server.service" in d["nfs-server.service"].prop("Alias"),
               "nfs-server.service has no alias nfs-kernel-server.service")


def rule_documentation(c):
    """Each unit has a Description a user can read and Documentation=."""
    names = EARLY + ["nfs-client.target", "nfs-utils.service", "proc-fs-nfsd.mount",
                     "rpc_pipefs.target", PIPEFS_MOUNT, FAILED_HELPER]
    d = load(*names)
    for name in names:
        u = d[name]
        desc = u.prop("Description")
        c.that(desc and desc[0] != name and len(desc[0]) > 8,
               f"{name}: Description {desc}")
        docs = u.prop("Documentation")
        c.that(any(x.startswith("man:") for x in docs), f"{name}: no man: Documentation")
        c.that("man:nfs.systemd(7)" in docs, f"{name}: does not point to nfs.systemd(7)")


def rule_volatile_state(c):
    """Seed 003, the other half: on a system whose /var starts empty,
    systemd-tmpfiles creates the state directory, the rpc_pipefs mount
    point and statd's directories, before the rpc_pipefs mount."""
    tmpfilesdir = os.environ["TMPFILESDIR"]
    conf = os.path.join(ROOT, tmpfilesdir.lstrip("/"), "nfs-systemd.conf")
    c.that(os.path.isfile(conf), f"{tmpfilesdir}/nfs-systemd.conf is not installed")
    if not os.path.isfile(conf):
        return
    with tempfile.TemporaryDirectory() as empty:
        dest = os.path.join(empty, tmpfilesdir.lstrip("/"))
        os.makedirs(dest)
        shutil.copy(conf, dest)
        p = subprocess.run(["systemd-tmpfiles", "--root=" + empty, "--create"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
        out = p.stdout.decode("utf-8", "replace")
        c.that(p.returncode == 0 and out.strip() == "",
               f"systemd-tmpfiles --create exited {p.returncode}: {out.strip()}")
        for d in ("", "/rpc_pipefs", "/sm", "/sm.bak"):
            path = os.path.join(empty, (STATEDIR + d).lstrip("/"))
            c.that(os.path.isdir(path), f"tmpfiles did not create {STATEDIR}{d}")
    d = load(PIPEFS_MOUNT)
    c.that(d[PIPEFS_MOUNT].has("After", "systemd-tmpfiles-setup.service"),
           f"{PIPEFS_MOUNT}: not After=systemd-tmpfiles-setup.service")



def rule_statd_after_rpcbind_service(c):
    """nfs-utils df920ac1: rpc-statd is ordered after rpcbind.service as well
    as the socket, so `systemctl restart rpcbind.socket` restarts statd
    once rpcbind runs again (stalled for a minute without it)."""
    d = load("rpc-statd.service")
    statd = d["rpc-statd.service"]
    c.that(statd.has("After", "rpcbind.service", "origin-file"),
           "rpc-statd.service: not After=rpcbind.service")
    c.that(statd.has("After", "rpcbind.socket", "origin-file"),
           "rpc-statd.service: not After=rpcbind.socket")
    for key in ("Requires", "Wants", "BindsTo", "Requisite"):
        c.that(not statd.has(key, "rpcbind.service"),
               f"rpc-statd.service: {key}=rpcbind.service (only ordering; the socket activates it)")


def rule_statd_outlives_remote_mounts(c):
    """rpc-statd stops only after every remote mount is unmounted: an
    NFSv3 unmount releases its locks through statd (stopped in parallel, it
    left the unmount waiting 64.7 s and the poweroff 79.8 s in session 3's
    two-guest boot)."""
    mounts = ["mnt-loop.mount", "srv-reexport.mount"]
    d = load("rpc-statd.service", "remote-fs-pre.target", *mounts)
    statd = d["rpc-statd.service"]
    c.that(statd.has("Before", "remote-fs-pre.target", "origin-file"),
           "rpc-statd.service: not Before=remote-fs-pre.target")
    # systemd stops in the reverse of the start order: each NFS mount is
    # after remote-fs-pre.target (systemd's default for a network mount),
    # which is after statd, so every unmount finishes before statd stops.
    for m in mounts:
        c.that(d[m].has("After", "remote-fs-pre.target"),
               f"{m}: not After=remote-fs-pre.target (the chain to statd is broken)")
    for key in ("Wants", "Requires", "BindsTo", "Requisite"):
        c.that(not statd.has(key, "remote-fs-pre.target"),
               f"rpc-statd.service: {key}=remote-fs-pre.target (ordering only)")
    # and the ordering makes no cycle in a start of the server and client
    status, log = analyze("nfs-server.service", "nfs-client.target", "remote-fs.target")
    c.that("ordering cycle" not in log.lower(), "an ordering cycle: " +
           " | ".join(l for l in log.splitlines() if "cycle" in l.lower())[:300])


def rule_client_not_network_online(c):
    """nfs-utils 4c275442: an enabled nfs-client.target never pulls
    network-online.target into a boot (offline and cloud boots); the units
    it wants may only be ordered after it."""
    names = ["nfs-client.target", "rpc-statd-notify.service", "auth-rpcgss-module.service",
             "nfs-blkmap.service", "rpc-gssd.service"]
    d = load(*names)
    for name in names:
        for key in ("Wants", "Requires", "BindsTo", "Requisite"):
            c.that(not d[name].has(key, "network-online.target"),
                   f"{name}: {key}=network-online.target (pulled into every client boot)")
    c.that(d["rpc-statd-notify.service"].has("After", "network-online.target"),
           "rpc-statd-notify.service: no longer After=network-online.target")
    # and systemd's own transaction agrees: starting the client target
    # installs no job for network-online.target
    status, log = analyze("nfs-client.target")
    c.that("Installed new job" in log, "no start transaction in the log of verify nfs-client.target")
    c.that("Installed new job network-online.target" not in log,
           "starting nfs-client.target installs a job for network-online.target")


def rule_nfsd_after_modules_load(c):
    """nfs-utils 8c5a1ad1: /proc/fs/nfsd is mounted after
    systemd-modules-load, so modprobe.d options for nfsd apply; nfs-utils
    092971c4: nfsdcld waits for the root to be writable."""
    d = load("proc-fs-nfsd.mount", "nfsdcld.service")
    c.that(d["proc-fs-nfsd.mount"].has("After", "systemd-modules-load.service", "origin-file"),
           "proc-fs-nfsd.mount: not After=systemd-modules-load.service")
    c.that(d["nfsdcld.service"].has("After", "systemd-remount-fs.service", "origin-file"),
           "nfsdcld.service: not After=systemd-remount-fs.service")


def rule_daemon_conditions(c):
    """A daemon the release or host lacks (no blkmapd in nfs-utils 3, no
    server daemons on a client) leaves a skipped unit, never a failed one:
    every unit that runs a daemon is conditioned on its binary."""
    binaries = {
        "nfs-server.service": os.environ["SBINDIR_NFS"] + "/exportfs",
        "nfs-mountd.service": os.environ["SBINDIR_NFS"] + "/rpc.mountd",
        "nfs-idmapd.service": os.environ["SBINDIR_NFS"] + "/rpc.idmapd",
        "nfsdcld.service": os.environ["SBINDIR_NFS"] + "/nfsdcld",
        "rpc-gssd.service": os.environ["SBINDIR_NFS"] + "/rpc.gssd",
        "rpc-svcgssd.service": os.environ["SBINDIR_NFS"] + "/rpc.svcgssd",
        "nfs-blkmap.service": os.environ["SBINDIR_NFS"] + "/blkmapd",
        "rpc-statd.service": os.environ["SBINDIR_STATD"] + "/rpc.statd",
        "rpc-statd-notify.service": os.environ["SBINDIR_STATD"] + "/sm-notify",
    }
    if os.path.exists(os.path.join(ROOT, "etc/systemd/system/fsidd.service")):
        binaries["fsidd.service"] = os.environ["SBINDIR_NFS"] + "/fsidd"
    d = load(*binaries)
    for name, binary in binaries.items():
        c.that(f"ConditionFileIsExecutable={binary}" in unit_file_lines(d[name]),
               f"{name}: no ConditionFileIsExecutable={binary}")


def rule_server_start_tool(c):
    """nfs-utils 21ded9ee: the server threads start with nfsdctl where it
    exists and the kernel has the nfsd and lockd netlink families, with
    rpc.nfsd otherwise; the helper asks the kernel before it runs either."""
    helper = os.path.join(ROOT, os.environ["HELPERDIR"].lstrip("/"), "nfs-server-control")
    probe = os.path.join(ROOT, os.environ["HELPERDIR"].lstrip("/"), "genl-family-exists")
    c.that(os.access(helper, os.X_OK), f"{helper} is not installed executable")
    c.that(os.access(probe, os.X_OK), f"{probe} is not installed executable")
    if not os.access(helper, os.X_OK):
        return
    text = open(helper, encoding="utf-8").read()
    nfs = os.environ["SBINDIR_NFS"]
    for needle in (f"{nfs}/nfsdctl", f"{nfs}/rpc.nfsd", "genl-family-exists nfsd lockd",
                   '"$nfsdctl" autostart', '"$nfsdctl" threads 0', '"$rpc_nfsd" 0'):
        c.that(needle in text, f"nfs-server-control does not say {needle}")


def rule_gss_module_not_in_container(c):
    """nfs-utils ca5b0e7e: a container cannot load kernel modules, so the
    RPCSEC_GSS module unit is skipped there instead of failing."""
    d = load("auth-rpcgss-module.service")
    c.that("ConditionVirtualization=!container" in unit_file_lines(d["auth-rpcgss-module.service"]),
           "auth-rpcgss-module.service: no ConditionVirtualization=!container")


def rule_udev_sysctl(c):
    """nfs-utils 9466df03: 60-nfs.rules re-applies each module's sysctls
    when sunrpc, rpcrdma, lockd, nfsv4 or nfs loads (systemd-sysctl ran
    before they were loaded), each with its own key pattern only."""
    path = os.path.join(ROOT, os.environ["UDEVRULESDIR"].lstrip("/"), "60-nfs.rules")
    c.that(os.path.isfile(path), f"{path} is not installed")
    if not os.path.isfile(path):
        return
    rules = {}
    text = open(path, encoding="utf-8").read().replace("\\\n", " ")
    for line in text.splitlines():
        m = re.search(r'KERNEL=="([^"]+)".*RUN\+="(\S+) -q --pattern (\S+) --system"', line)
        if m and 'ACTION=="add"' in line and 'SUBSYSTEM=="module"' in line:
            rules[m.group(1)] = (m.group(2), m.group(3))
    want = {"sunrpc": "^sunrpc", "rpcrdma": "^sunrpc.svc_rdma", "lockd": "^fs.nfs.n[sl]m",
            "nfsv4": "^fs.nfs.(nfs_callback_tcpport|idmap_cache_timeout)", "nfs": "^fs.nfs"}
    for module, pattern in want.items():
        got = rules.get(module)
        c.that(got is not None and got[1] == pattern,
               f"60-nfs.rules: module {module}: want --pattern {pattern}, got {got}")
        if got:
            c.that(got[0] == os.environ["SYSCTL"], f"60-nfs.rules runs {got[0]}, not {os.environ['SYSCTL']}")
    # udev itself accepts the file, where this systemd has `udevadm verify` (254 and later)
    has_verify = shutil.which("udevadm") and subprocess.run(
        ["udevadm", "verify", "--help"], capture_output=True).returncode == 0
    if has_verify:
        p = subprocess.run(["udevadm", "verify", path], capture_output=True, text=True)
        c.that(p.returncode == 0, f"udevadm verify 60-nfs.rules: {p.stdout.strip()} {p.stderr.strip()}")
    else:
        print("udevadm verify is not available here (systemd 254 and later): textual checks only")


RULES = {
    "early-boot": rule_early_boot,
    "client-after-gss": rule_client_after_gss,
    "pipefs-after-tmpfiles": rule_pipefs_after_tmpfiles,
    "server-mounts-by-generator": rule_server_mounts_by_generator,
    "rpcbind-socket-only": rule_rpcbind_socket_only,
    "gss-keytab-maskable": rule_gss_keytab_and_maskable,
    "server-failure-cleanup": rule_server_failure_cleanup,
    "restart-via-nfs-utils": rule_restart_via_nfs_utils,
    "stop-and-reload": rule_stop_and_reload,
    "debian-alias": rule_debian_alias,
    "documentation": rule_documentation,
    "volatile-state": rule_volatile_state,
    "statd-after-rpcbind-service": rule_statd_after_rpcbind_service,
    "statd-outlives-remote-mounts": rule_statd_outlives_remote_mounts,
    "client-not-network-online": rule_client_not_network_online,
    "nfsd-after-modules-load": rule_nfsd_after_modules_load,
    "daemon-conditions": rule_daemon_conditions,
    "server-start-tool": rule_server_start_tool,
    "gss-module-not-in-container": rule_gss_module_not_in_container,
    "udev-sysctl": rule_udev_sysctl,
    "daemon-restart": rule_daemon_restart,
    "rpcbind-reregister": rule_rpcbind_reregister,
    "keytab-watch": rule_keytab_watch,
}


def main():
    global ROOT
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(RULES))
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in RULES:
        print(f"usage: rules.py {{{'|'.join(RULES)}}} ROOT", file=sys.stderr)
        return 2
    if shutil.which("systemd-analyze") is None:
        print("SKIP: systemd-analyze is not installed", file=sys.stderr)
        return 77
    ROOT = sys.argv[2]
    rule = RULES[sys.argv[1]]
    c = Check()
    rule(c)
    print(f"{sys.argv[1]}: {rule.__doc__.strip().splitlines()[0]}")
    for e in c.errors:
        print(f"FAIL: {e}", file=sys.stderr)
    if c.passed == 0 and not c.errors:
        print("FAIL: the rule checked nothing", file=sys.stderr)
        return 1
    print(f"{c.passed} checks passed, {len(c.errors)} failed")
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
