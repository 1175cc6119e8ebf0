"""A table made as Django's database cache makes one (``createcachetable``), as a migration's
operation: the rate limits' counts are kept in one (0004, then 0010)."""

from __future__ import annotations

from django.core.management import call_command
from django.db import migrations


def cache_table(table: str) -> migrations.RunPython:
    def create_table(apps, schema_editor):
        alias = schema_editor.connection.alias
        call_command("createcachetable", table, database=alias, verbosity=0)

    def drop_table(apps, schema_editor):
        schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(table)}")

    return migrations.RunPython(create_table, drop_table)
