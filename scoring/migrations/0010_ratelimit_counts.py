"""The rate limits' counts are integers now (scoring/ratecache.py), kept in the same table:
the entries Django's database cache wrote there (pickled) go. They are counts of the current
ten minutes at most."""

from __future__ import annotations

from django.db import migrations

TABLE = "scoring_ratelimit"


def forget_counts(apps, schema_editor):
    schema_editor.execute(f"DELETE FROM {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_stored_sheet")]

    operations = [migrations.RunPython(forget_counts, forget_counts)]
