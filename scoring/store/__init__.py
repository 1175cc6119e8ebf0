"""The game's data and its writes: what the table entered (models), and its files (backups, the
spreadsheet)."""
