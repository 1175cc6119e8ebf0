"""The rate limits' counts are integers now (scoring/ratecache.py), in a table of their own
made as Django's database cache makes one: the old table (0004) holds pickled entries, which
servers of the previous version go on writing while a deploy rolls out. It is left in place
for them; a later migration may drop it."""

from __future__ import annotations

from django.core.management import call_command
from django.db import migrations

TABLE = "scoring_ratecount"


def create_table(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_stored_sheet")]

    operations = [migrations.RunPython(create_table, drop_table)]
