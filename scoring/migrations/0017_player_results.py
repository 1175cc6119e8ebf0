"""One row per player per game (``PlayerResult``), which the home page, the statistics and a
table's page sum in the database; every game stored before has its rows made here, scored
by the referee from its rounds as the app scores them (``Game.as_entry``)."""

from decimal import Decimal

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Prefetch


def points(value):
    """Whole or half points, exactly (the referee makes no other)."""
    if value is None:
        return None
    if (value * 2).denominator != 1:
        raise ValueError(f"{value} is not a whole or half point")
    return Decimal(value.numerator) / value.denominator


def fill_results(apps, schema_editor):
    """The rows of every game, from its live rounds scored by the referee (pure Python, so
    importing it here does not tie this migration to the models of today)."""
    from scoring.referee import engine, gamefile, story
    from scoring.referee.tambouille import Tambouille

    Game = apps.get_model("scoring", "Game")
    Round = apps.get_model("scoring", "Round")
    PlayerResult = apps.get_model("scoring", "PlayerResult")
    live = Round.objects.filter(deleted_at__isnull=True).order_by("position")
    games = Game.objects.order_by("pk").prefetch_related(Prefetch("rounds", queryset=live))
    rows = []
    for game in games.iterator(chunk_size=200):
        entries = tuple(
            gamefile.round_from_json(stored.data, number)
            for number, stored in enumerate(game.rounds.all(), 1)
        )
        # As Game.as_entry: an ended game stops after its last round, a match is blocked.
        match = game.variant == Tambouille.key
        settings = dict(game.settings)
        if game.ended and not match:
            settings["rounds"] = max(len(entries), 1)
        entry = engine.GameEntry(
            variant=game.variant,
            players=tuple(game.players),
            rounds=entries,
            settings=settings,
            blocked_after=len(entries) if game.ended and match else None,
            rules_name=game.rules_name or None,
        )
        try:
            summary = story.summarize(engine.score_game(entry))
        except engine.GameError:
            continue  # a game today's referee refuses: its next change writes its rows
        progress, totals = summary.progress, summary.totals
        for seat, player in enumerate(summary.players):
            figures = summary.figures[player]
            rows.append(
                PlayerResult(
                    game_id=game.pk,
                    seat=seat,
                    player=player,
                    folded=player.casefold(),
                    rounds=progress.number,
                    finished=progress.finished,
                    won=progress.finished and player in progress.winners,
                    in_game=player in progress.in_game,
                    total=points(totals[player]),
                    place=1 + sum(other < totals[player] for other in totals.values()),
                    hands=figures.hands,
                    hand_points=points(figures.hand_points),
                    best=points(figures.best),
                    worst=points(figures.worst),
                    calls=figures.calls,
                    calls_succeeded=figures.calls_succeeded,
                )
            )
        if len(rows) >= 1000:
            PlayerResult.objects.bulk_create(rows)
            rows = []
    PlayerResult.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0016_score_on_read'),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('player', models.CharField(max_length=40)),
                ('folded', models.CharField(max_length=120)),
                ('rounds', models.PositiveIntegerField()),
                ('finished', models.BooleanField()),
                ('won', models.BooleanField()),
                ('in_game', models.BooleanField()),
                ('total', models.DecimalField(decimal_places=1, max_digits=15)),
                ('place', models.PositiveSmallIntegerField()),
                ('hands', models.PositiveIntegerField()),
                ('hand_points', models.DecimalField(decimal_places=1, max_digits=15)),
                ('best', models.DecimalField(decimal_places=1, max_digits=15, null=True)),
                ('worst', models.DecimalField(decimal_places=1, max_digits=15, null=True)),
                ('calls', models.PositiveIntegerField()),
                ('calls_succeeded', models.PositiveIntegerField()),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='scoring.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'folded'), name='one_result_per_player')],
            },
        ),
        migrations.RunPython(fill_results, migrations.RunPython.noop, elidable=True),
    ]
