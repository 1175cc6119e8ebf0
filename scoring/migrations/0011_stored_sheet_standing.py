"""A stored sheet keeps where the game stands after its rounds (``standing``) apart from the
rounds' results (``data``), so that a saved round is added without unpickling the results
before it. A sheet stored whole before (``data`` a pickle of the ScoreSheet, no standing)
does not read: it is scored afresh when next read (its key, made with the code before, does
not match anyway). ``data`` keeps its name, so that servers of the previous version still read
and write theirs while a deploy rolls out (a row one of them adds, without a standing, is not
stored: scored again when read)."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0010_ratelimit_counts")]

    operations = [
        migrations.AddField(
            model_name="storedsheet",
            name="standing",
            field=models.BinaryField(default=b""),
        ),
    ]
