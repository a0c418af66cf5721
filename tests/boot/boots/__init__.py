"""One module per boot. Scenarios share a boot when none of them can spoil another's
result on either side; each module says which scenarios it holds (SCENARIOS), what goes
into the guest (DISKS, FSTAB, FILES, PREPARE, SCENARIO_SH) and the host-side check().
Optional, for boots unlike the rest:
  RELEASES = ('trixie', ...)  boots only on these releases (default: every release);
  SIDES = ('ours',)           no stock side (default: both);
  INSTALL = 'runtime'         the package only lies in the guest: the boot's steps install it;
  PHASES = N                  N cold boots on one root disk; check() gets a list of results;
  PREFIX = '/usr/local'       our side as a meson install tree with this prefix."""
ALL = ['main', 'missing', 'v4only', 'reexport', 'keytab', 'volatile', 'badline', 'client', 'usretc',
       'takeover', 'usrlocal', 'loopre']
