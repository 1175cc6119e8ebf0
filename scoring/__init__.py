"""Tamalou Ref's scoring app.

The rules (cards, variants, engine, game files) are pure Python modules here
that import nothing from Django; models, views and commands sit beside them.
"""
