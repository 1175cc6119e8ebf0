"""What the table entered, and nothing the referee computes.

A game keeps its variant, settings and players; each round keeps exactly the
round object of the game file. Totals, winners and explanations are computed
by the engine from these every time, so they can never disagree with history.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import connection, models, transaction
from django.utils import timezone

from scoring.referee import engine, gamefile
from scoring.referee.variants import VARIANTS


def new_key() -> str:
    """128 bits of randomness, URL-safe: games are reached only through such keys."""
    return secrets.token_urlsafe(16)


class GameManager(models.Manager):
    def state_of(self, link: str, key: str) -> tuple[int, str, str] | None:
        """(id, edit key, state) of the game reached by this edit or share key, or None.

        The one read a phone's repeated view of a sheet costs while its page is cached: plain
        SQL, because building the ORM query took most of that request's time."""
        column = {"edit": "edit_key", "share": "share_key"}[link]
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {quote('id')}, {quote('edit_key')}, {quote('state')} "
            f"FROM {quote(self.model._meta.db_table)} WHERE {quote(column)} = %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [key])
            return cursor.fetchone()

    def store(self, parsed: engine.GameEntry, rounds: list[dict] | None = None, **fields) -> Game:
        """Store a checked game file as a game and its rounds, in their canonical form.
        ``rounds`` gives each round's extra fields (a restored backup's); ``fields`` the game's."""
        canonical = gamefile.game_to_json(parsed)
        extras = rounds or [{} for _ in canonical["rounds"]]
        with transaction.atomic():
            game = self.create(
                variant=parsed.variant,
                players=list(engine.check_players(parsed.players)),
                settings=canonical.get("settings", {}),
                **fields,
            )
            Round.objects.bulk_create(
                Round(game=game, position=n, data=data, **extra)
                for n, (data, extra) in enumerate(zip(canonical["rounds"], extras, strict=True), 1)
            )
        return game


class Game(models.Model):
    VARIANT_CHOICES = [(key, variant.name) for key, variant in VARIANTS.items()]

    edit_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    share_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # as in the game file
    players = models.JSONField()  # names in turn order
    first_dealer = models.PositiveSmallIntegerField(default=0)  # index in players
    ended = models.BooleanField(default=False)  # an open-ended game the table ended
    # A fresh random token with every saved change (written in the change's transaction):
    # caches and ETags are keyed by it, so they are never stale on any app server.
    state = models.CharField(max_length=32, default=new_key, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = GameManager()

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.variant}: {', '.join(self.players)}"

    @property
    def version(self) -> str:
        return self.version_of(self.edit_key, self.state)

    @staticmethod
    def version_of(edit_key: str, state: str) -> str:
        """A game as stored now, for cache keys (its own key too: rows migrated from before
        ``state`` existed share one initial token)."""
        return f"{edit_key}.{state}"

    def live_rounds(self) -> list[Round]:
        """The rounds in order, read once for this loaded game (``refresh_from_db`` rereads)."""
        if not hasattr(self, "_live_rounds"):
            self._live_rounds = list(self.rounds.live().order_by("position"))
        return self._live_rounds

    def refresh_from_db(self, *args, **kwargs) -> None:
        for memo in ("_live_rounds", "_engine_rounds"):
            self.__dict__.pop(memo, None)
        super().refresh_from_db(*args, **kwargs)

    def effective_settings(self) -> dict:
        """The settings to score with: a game the table ended early stops where it is."""
        settings = dict(self.settings)
        if self.ended:
            settings["rounds"] = max(len(self.live_rounds()), 1)
        return settings

    def engine_rounds(self) -> list[engine.RoundEntry]:
        """The stored rounds as the engine reads them, parsed once for this loaded game."""
        if not hasattr(self, "_engine_rounds"):
            self._engine_rounds = [
                entry.as_engine_round(n) for n, entry in enumerate(self.live_rounds(), 1)
            ]
        return self._engine_rounds

    def as_engine_game(self, rounds: list[engine.RoundEntry] | None = None) -> engine.GameEntry:
        if rounds is None:
            rounds = self.engine_rounds()
        return engine.GameEntry(
            variant=self.variant,
            players=tuple(self.players),
            rounds=tuple(rounds),
            settings=self.effective_settings(),
        )

    def score(self) -> engine.ScoreSheet:
        """The engine's score sheet, computed once for each state of the game."""
        key = f"sheet:{self.version}"
        sheet = cache.get(key)
        if sheet is None:
            sheet = engine.score_game(self.as_engine_game())
            cache.set(key, sheet, 86400)
        return sheet

    def game_file(self) -> dict:
        return gamefile.game_to_json(self.as_engine_game())

    def changed(self) -> None:
        """Record a saved change: a new state for caches and live views, and the time of the
        last activity for the home page. Call it inside the change's transaction."""
        Game.objects.filter(pk=self.pk).update(state=new_key(), updated_at=timezone.now())


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

    def as_engine_round(self, number: int) -> engine.RoundEntry:
        return gamefile.round_from_json(self.data, number)
