"""Drawing positions: :mod:`.text` (the text board of ``gamao position``)."""
