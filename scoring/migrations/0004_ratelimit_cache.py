"""The table of the database cache that keeps the rate limits' counts (scoring/limits.py),
shared by every worker and server that uses this database."""

from __future__ import annotations

from django.core.management import call_command
from django.db import migrations

TABLE = "scoring_ratelimit"


def create_table(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_turn_clock")]

    operations = [migrations.RunPython(create_table, drop_table)]
