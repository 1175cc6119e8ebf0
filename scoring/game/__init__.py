"""A game: the new-game page, the sheet (edit and share links, its live part, the chart, the
match clock), its rounds (entered, corrected, deleted, synced from offline), and its files."""
