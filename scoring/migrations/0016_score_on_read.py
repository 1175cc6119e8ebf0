"""A game's sheet is scored when it is read: the stored sheets and the size of the game's
file kept beside it go."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0015_rate_buckets'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='game',
            name='file_bytes',
        ),
        migrations.DeleteModel(
            name='StoredSheet',
        ),
    ]
