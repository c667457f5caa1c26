"""Archive tools: the tolerant match fingerprint (:mod:`.fingerprint`),
grouping the copies of each match (:mod:`.dedupe`), picking matches by
criteria (:mod:`.select`); :mod:`.inputs` reads an archive's inputs in
partitions, :mod:`.output` writes the copies a command keeps."""
