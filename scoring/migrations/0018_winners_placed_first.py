"""The players' places of every game with a winner, again: the winners first, then the players
still in, then those out, each by total (``Progress.places``), read from the rows themselves.
Only a game whose winner has more points than someone changes (a Dutch game whose last players
all went out at once is won by the lowest of them, not always the lowest of all)."""

from django.db import migrations


def place_winners_first(apps, schema_editor):
    PlayerResult = apps.get_model("scoring", "PlayerResult")
    games = PlayerResult.objects.filter(won=True).values_list("game_id", flat=True).distinct()
    for game_id in games.iterator():
        rows = list(PlayerResult.objects.filter(game_id=game_id))
        ranked = {row.pk: (not row.won, not row.in_game, row.total) for row in rows}
        changed = []
        for row in rows:
            place = 1 + sum(other < ranked[row.pk] for other in ranked.values())
            if place != row.place:
                row.place = place
                changed.append(row)
        PlayerResult.objects.bulk_update(changed, ["place"])


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0017_player_results"),
    ]

    operations = [
        migrations.RunPython(place_winners_first, migrations.RunPython.noop, elidable=True),
    ]
