"""The table of the database cache that keeps the rate limits' counts (scoring/limits.py),
shared by every worker and server that uses this database."""

from __future__ import annotations

from django.db import migrations

from scoring.migrations._cache_table import cache_table


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_turn_clock")]

    operations = [cache_table("scoring_ratelimit")]
