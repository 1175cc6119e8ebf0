"""The phone's own pages: home, its statistics, the installable app (manifest, service
worker, the files it keeps for offline use)."""
