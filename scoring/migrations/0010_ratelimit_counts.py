"""The rate limits' counts are integers now (scoring/ratecache.py), in a table of their own
made as Django's database cache makes one: the old table (0004) holds pickled entries, which
servers of the previous version go on writing while a deploy rolls out. It is left in place
for them; a later migration may drop it."""

from __future__ import annotations

from django.db import migrations

from scoring.migrations._cache_table import cache_table


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_stored_sheet")]

    operations = [cache_table("scoring_ratecount")]
