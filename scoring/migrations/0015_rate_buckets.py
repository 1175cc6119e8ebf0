"""The rate limits count in buckets of their own (``scoring.guards.models.RateBucket``): the
two tables of the cache backend they counted in before (0004, 0010) go."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0014_stored_sheet_running_recent'),
    ]

    operations = [
        migrations.CreateModel(
            name='RateBucket',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=100, unique=True)),
                ('tokens', models.FloatField()),
                ('updated_at', models.DateTimeField(db_index=True)),
            ],
        ),
        migrations.RunSQL("DROP TABLE IF EXISTS scoring_ratelimit", migrations.RunSQL.noop),
        migrations.RunSQL("DROP TABLE IF EXISTS scoring_ratecount", migrations.RunSQL.noop),
    ]
