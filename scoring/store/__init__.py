"""The game's data and its writes: what the table entered (models), what the games' rows say
read by the database (``results``), and their files (backups, the table file, the
spreadsheet)."""
