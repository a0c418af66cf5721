"""One module per multi-guest run (tests/boot/run-wire). Scenarios share a run when none can
spoil another on either side. Each module says which scenarios it holds (SCENARIOS), its
guests (GUESTS: role -> what goes into that guest, as boots/*.py modules say it for one),
its hard TIMEOUT, optionally react() (the host acting on what the guests said) and the
host-side check()."""
ALL = ['locks', 'faults', 'downserver', 'linkdown', 'nfsroot']
