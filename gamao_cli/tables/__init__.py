"""Tables of matches: :mod:`.summary` (``gamao summary``)."""
