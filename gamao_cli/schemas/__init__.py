"""JSON schemas of gamao's documents (a match; a validate report)."""
