"""Replaying matches under the rules: :mod:`.replay` (the validator),
:mod:`.record_rules` (the rules a record's tags set), :mod:`.diagnostics`,
:mod:`.check` (one file, start to end), :mod:`.snapshots` (the position
before every action)."""
