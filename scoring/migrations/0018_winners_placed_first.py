"""The players' places of every game with a winner, again: the winners first, then the players
still in, then those out, each by total (``Progress.places``), read from the rows themselves.
Only a game whose winner has more points than someone changes (a Dutch game whose last players
all went out at once is won by the lowest of them, not always the lowest of all)."""

from django.db import migrations


def place_winners_first(apps, schema_editor):
    """The referee's own rule, given the rows' totals, players still in and winners (pure
    Python, so importing it here does not tie this migration to the models of today)."""
    from scoring.referee.engine import Progress

    PlayerResult = apps.get_model("scoring", "PlayerResult")
    games = PlayerResult.objects.filter(won=True).values_list("game_id", flat=True).distinct()
    for game_id in games.iterator():
        rows = list(PlayerResult.objects.filter(game_id=game_id))
        places = Progress(
            number=0,
            totals={row.player: row.total for row in rows},
            in_game=tuple(row.player for row in rows if row.in_game),
            winners=tuple(row.player for row in rows if row.won),
        ).places()
        changed = [row for row in rows if row.place != places[row.player]]
        for row in changed:
            row.place = places[row.player]
        PlayerResult.objects.bulk_update(changed, ["place"])


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0017_player_results"),
    ]

    operations = [
        migrations.RunPython(place_winners_first, migrations.RunPython.noop, elidable=True),
    ]
