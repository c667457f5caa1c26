"""eXtreme Gammon binary files (.xg matches, .xgp positions)."""
