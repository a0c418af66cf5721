"""One module per boot. Scenarios share a boot when none of them can spoil another's
result on either side; each module says which scenarios it holds (SCENARIOS), what goes
into the guest (DISKS, FSTAB, FILES, PREPARE, SCENARIO_SH) and the host-side check()."""
ALL = ['main', 'missing', 'v4only', 'reexport', 'keytab', 'volatile', 'badline', 'client', 'usretc']
# A module may say RELEASES = ('trixie', ...): it boots only there (default: every release).
