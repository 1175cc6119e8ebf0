"""The referee: card values, the variants' rules, scoring and the game file.

Pure Python with no Django import, so ``score_game``, stored games and the rules
pages are scored by the same code. The Django app around it (``scoring/``)
stores what the table entered and shows what the referee says.
"""
