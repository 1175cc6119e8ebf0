"""What the table entered, and nothing the referee computes.

A game keeps its variant, settings and players; each round keeps exactly the
round object of the game file. Totals, winners and explanations are computed
by the engine from these every time, so they can never disagree with history.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone

from scoring import engine, gamefile
from scoring.variants import VARIANTS


def new_key() -> str:
    """128 bits of randomness, URL-safe: games are reached only through such keys."""
    return secrets.token_urlsafe(16)


class GameQuerySet(models.QuerySet):
    def with_rounds(self) -> GameQuerySet:
        return self.prefetch_related(
            models.Prefetch("rounds", queryset=Round.objects.live().order_by("position"))
        )


class Game(models.Model):
    VARIANT_CHOICES = [(key, variant.name) for key, variant in VARIANTS.items()]

    edit_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    share_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # as in the game file
    players = models.JSONField()  # names in turn order
    first_dealer = models.PositiveSmallIntegerField(default=0)  # index in players
    ended = models.BooleanField(default=False)  # an open-ended game the table ended
    version = models.PositiveIntegerField(default=0)  # +1 on every change: ETags, live views
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.variant}: {', '.join(self.players)}"

    def live_rounds(self) -> list[Round]:
        """The rounds in order; uses the prefetch of ``with_rounds()`` when there is one."""
        return (
            list(self.rounds.all())
            if self._prefetched("rounds")
            else list(self.rounds.live().order_by("position"))
        )

    def _prefetched(self, name: str) -> bool:
        return name in getattr(self, "_prefetched_objects_cache", {})

    def effective_settings(self) -> dict:
        """The settings to score with: a game the table ended early stops where it is."""
        settings = dict(self.settings)
        if self.ended:
            settings["rounds"] = max(len(self.live_rounds()), 1)
        return settings

    def as_engine_game(self, rounds: list[engine.Round] | None = None) -> engine.Game:
        if rounds is None:
            rounds = [entry.as_engine_round(n) for n, entry in enumerate(self.live_rounds(), 1)]
        return engine.Game(
            variant=self.variant,
            players=tuple(self.players),
            rounds=tuple(rounds),
            settings=self.effective_settings(),
        )

    def score(self) -> engine.ScoreSheet:
        return engine.score_game(self.as_engine_game())

    def game_file(self) -> dict:
        return gamefile.game_to_json(self.as_engine_game())

    def touch(self) -> None:
        """Record a change: later activity on the home page, a new version for live views."""
        Game.objects.filter(pk=self.pk).update(
            version=models.F("version") + 1, updated_at=timezone.now()
        )


class RoundQuerySet(models.QuerySet):
    def live(self) -> RoundQuerySet:
        return self.filter(deleted_at__isnull=True)


class Round(models.Model):
    """One round as the game file writes it. ``position`` orders rounds; deleted ones keep theirs
    so that undo puts them back where they were."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    position = models.PositiveIntegerField()
    data = models.JSONField()  # hands, caller, counter_caller, emptied, penalties, penalty_cards
    edits = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_round_per_position")
        ]

    def __str__(self) -> str:
        return f"round at {self.position} of game {self.game_id}"

    def as_engine_round(self, number: int) -> engine.Round:
        return gamefile.round_from_json(self.data, number)
