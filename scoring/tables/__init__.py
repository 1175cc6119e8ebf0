"""A table: the friends who play week after week, its page (standings, face to face, evenings,
wins over time) by its edit link and read only, its players renamed, its file."""
