"""What the table entered, and nothing the referee computes.

A game keeps its variant, settings and players; each round keeps exactly the
round object of the game file. Totals, winners and explanations are computed
by the referee from these when the game is read, so they can never disagree
with history.

Every change to a game goes through a method here (add, replace, delete,
restore a round, end or resume the game, a timer tap, a rematch, store a game
file), and each reads the same way: take the game's row lock, score the game
as it would be stored with the referee, write the rows, and renew the game's
version (the state token every ETag is keyed by) with its summary, in one
transaction (``_store``).
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from django.db import models, transaction
from django.db.models import F, Max
from django.utils import timezone

from scoring.referee import engine, gamefile, story
from scoring.referee.house import HouseRules
from scoring.referee.tambouille import TURN_SECONDS, Tambouille

# The shape of a game's edit or share key in a URL, a cookie or a backup: what ``new_key``
# makes (and older keys, up to 32 characters).
KEY_PATTERN = "[A-Za-z0-9_-]{1,32}"


def new_key() -> str:
    """128 bits of randomness, URL-safe: games are reached only through such keys. Never
    starting with "-", which a command line would take for an option (``export_game KEY``)."""
    while (key := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return key


def new_uid() -> str:
    """A game's own identifier, written in its files: it names the game, it opens nothing."""
    return uuid.uuid4().hex


def key_column(link: str) -> str:
    """The column holding the key of a game's ``link``: its edit link or its share link."""
    return {"edit": "edit_key", "share": "share_key"}[link]


class NamesClash(Exception):
    """A rename that would give a game of the table two players of one name."""


class Conflict(Exception):
    """The game changed since the phone's page was drawn: another phone saved first."""


class GameManager(models.Manager):
    def version_by_key(self, link: str, key: str) -> tuple[int, str, str] | None:
        """(id, edit key, state) of the game reached by an edit or share key, or None: its
        version, all the live part's ETag needs."""
        found = self.filter(**{key_column(link): key}).values_list("id", "edit_key", "state")
        return found.first()

    def store(self, parsed: engine.GameEntry, rounds: list[dict] | None = None, **fields) -> Game:
        """Store a checked game file as a game and its rounds, in their canonical form.
        ``rounds`` gives each round's extra fields (a restored backup's); ``fields`` the game's.
        The game as stored is scored by the referee in the same transaction (a GameError
        stores nothing)."""
        canonical = gamefile.game_to_json(parsed)
        extras = rounds or [{} for _ in canonical["rounds"]]
        with transaction.atomic():
            players = list(engine.check_players(parsed.players))
            game = self.create(
                variant=parsed.variant,
                players=players,
                settings=canonical.get("settings", {}),
                rules_name=parsed.rules_name or "",
                **{
                    "ended": parsed.ended or parsed.blocked_after is not None,
                    "first_dealer": players.index(parsed.first_dealer)
                    if parsed.first_dealer in players
                    else 0,
                    "uid": parsed.game_id or new_uid(),
                    **fields,
                },
            )
            Round.objects.bulk_create(
                Round(game=game, position=n, data=data, **extra)
                for n, (data, extra) in enumerate(zip(canonical["rounds"], extras, strict=True), 1)
            )
            game._store(game.as_entry(), updated_at=game.updated_at)
        return game

    def import_file(self, data: bytes | str, mine: list[str] | None = None) -> Game:
        """A game file, checked by the referee and stored whole, or refused whole (GameError).
        A file that is a copy imported on this phone (``mine``: the edit keys of its games) as
        it stands, id and rounds, opens that copy: importing twice makes one game. A file with
        that id and other rounds (exported later, elsewhere) is a new copy beside it. A game
        this phone did not import is never opened by its id (a file widens no access): it gets
        a copy of its own."""
        parsed = gamefile.read_game(data)
        engine.score_game(parsed)
        if parsed.game_id is not None and mine:
            same = gamefile.game_to_json(parsed)
            for copy in self.filter(edit_key__in=mine, uid=parsed.game_id, imported=True):
                if copy.game_file() == same:
                    return copy
        return self.store(parsed, imported=True)


class Game(models.Model):
    VARIANT_CHOICES = [(key, variant.name) for key, variant in engine.GAMES.items()]

    edit_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    share_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # as in the game file
    # The name the table gave its house rules ("Chez Mamie"); empty when it gave none.
    rules_name = models.CharField(max_length=40, blank=True, default="")
    players = models.JSONField()  # names in turn order
    first_dealer = models.PositiveSmallIntegerField(default=0)  # index in players
    # An open-ended game the table ended, or a Tambouille match it declared blocked.
    ended = models.BooleanField(default=False)
    # A fresh random token with every saved change (written in the change's transaction): the
    # version that ETags are built from, the same on every app server.
    state = models.CharField(max_length=32, default=new_key, editable=False)
    # The game's identifier in its files (a copy imported from a file keeps the file's).
    uid = models.CharField(max_length=64, default=new_uid, db_index=True, editable=False)
    imported = models.BooleanField(default=False, editable=False)  # made from a game file
    # The rematch made from this game (once: the row lock and this one column see to it).
    next_game = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="previous_game",
        editable=False,
    )
    # The table the game was started from or kept in (``Table``): it lists the game, and its
    # next game starts from the game's players and rules. Null: a game of no table.
    table = models.ForeignKey(
        "Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
        editable=False,
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Where the game stands after its last round and each player's figures (``story.
    # GameSummary``), summarised from the whole sheet in the transaction of every change to
    # the rounds: the next round's form and the lists of games read it. Null until first
    # computed.
    summary = models.JSONField(null=True, blank=True, editable=False)

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
        """A game as stored now (its own key too: rows migrated from before ``state``
        existed share one initial token)."""
        return f"{edit_key}.{state}"

    # --- reading -------------------------------------------------------------------
    # A page asks for the rounds, their count and the score sheet several times: each is
    # read once for this loaded game (``refresh_from_db`` forgets them).

    def refresh_from_db(self, *args, **kwargs) -> None:
        self.forget_reads()
        super().refresh_from_db(*args, **kwargs)

    def forget_reads(self) -> None:
        for memo in ("_live_rounds", "_sheet", "_summary"):
            self.__dict__.pop(memo, None)

    def read_with_rounds(self) -> None:
        """Read the game again with its rounds, as one change left them, so that a page never
        meets rounds newer than the game it scores them with (a rename rewrites the players
        and every round) and waits for no write: the game, then its rounds with the game's
        version as their statement saw it; both again if a write came between (the versions
        differ). (A game without rounds is as read: a round saved meanwhile would be listed.)"""
        while True:
            self.refresh_from_db()
            rounds = list(
                self.rounds.live().annotate(version=F("game__state")).order_by("position")
            )
            if not rounds or rounds[0].version == self.state:
                break
        for entry in rounds:
            entry.game = self
        self._live_rounds = rounds

    def live_rounds(self) -> list[Round]:
        """The rounds in order."""
        if "_live_rounds" not in self.__dict__:
            self._live_rounds = list(self.rounds.live().order_by("position"))
        return self._live_rounds

    def live_count(self) -> int:
        """How many live rounds the game has: counted by the query that listed the game when
        it did (``with_round_counts``), else those read."""
        counted = self.__dict__.get("round_count")
        if counted is not None and "_live_rounds" not in self.__dict__:
            return counted
        return len(self.live_rounds())

    def round_numbered(self, round_id: int) -> tuple[Round, int] | None:
        """A live round and its number, by its id."""
        for number, stored in enumerate(self.live_rounds(), 1):
            if stored.pk == round_id:
                return stored, number
        return None

    @property
    def is_match(self) -> bool:
        """A Tambouille match (a match sheet of cards left), not a Tamalou score sheet."""
        return self.variant == Tambouille.key

    def effective_settings(self, rounds: int | None = None, ended: bool | None = None) -> dict:
        """The settings to score with: a game the table ended (``ended``, by default as
        stored) stops after its last round (``rounds`` of them, by default those stored)."""
        settings = dict(self.settings)
        if (self.ended if ended is None else ended) and not self.is_match:
            settings["rounds"] = max(self.live_count() if rounds is None else rounds, 1)
        return settings

    def rules(self) -> HouseRules:
        """The variant (or Tambouille) with this game's house settings."""
        return rules_with(self.variant, self.rules_json())

    def rules_json(self) -> str:
        """The settings this game is scored with, as JSON (what its rules are made from)."""
        return json.dumps(self.effective_settings(), sort_keys=True)

    def entries(self, rounds: list[Round] | None = None, first: int = 1) -> list[engine.RoundEntry]:
        """Stored rounds as the referee reads them (numbered from ``first``)."""
        rounds = self.live_rounds() if rounds is None else rounds
        return [stored.as_entry(n) for n, stored in enumerate(rounds, first)]

    def as_entry(
        self,
        rounds: list[engine.RoundEntry] | None = None,
        ended_after: int | None = None,
        ended: bool | None = None,
    ) -> engine.GameEntry:
        """The game for the referee: its stored rounds, or ``rounds`` as a change would store
        them. A game the table ended (``ended``, by default as stored) ends after
        ``ended_after`` rounds, by default all of them."""
        rounds = self.entries() if rounds is None else rounds
        ended = self.ended if ended is None else ended
        count = len(rounds) if ended_after is None else ended_after
        return engine.GameEntry(
            variant=self.variant,
            players=tuple(self.players),
            rounds=tuple(rounds),
            settings=self.effective_settings(count, ended),
            blocked_after=count if ended and self.is_match else None,
            rules_name=self.rules_name or None,
        )

    def score(self) -> engine.ScoreSheet:
        """The referee's score sheet of the game as loaded, scored once for this instance."""
        if "_sheet" not in self.__dict__:
            self._sheet = engine.score_game(self.as_entry())
        return self._sheet

    def next_deal(self) -> tuple[str, str] | None:
        """(dealer, first to play) of the next round; None when the game is over (or for a
        match, whose turns say who plays)."""
        sheet = self.score()
        if sheet.finished or self.is_match:
            return None
        deals = engine.deals(sheet, self.first_dealer)
        return deals[len(sheet.rounds)] if len(deals) > len(sheet.rounds) else None

    def stored_summary(self, rounds: int | None = None) -> story.GameSummary:
        """The summary kept with the game (for ``rounds`` live rounds, by default those
        stored); computed from the score sheet when there is none yet (a read writes nothing:
        the next change keeps it)."""
        if rounds is not None and rounds != self.live_count():
            return self._summary_of(rounds)
        if "_summary" not in self.__dict__:
            self._summary = self._summary_of(self.live_count())
        return self._summary

    def _summary_of(self, count: int) -> story.GameSummary:
        if self.summary is not None and self.summary.get("number") == count:
            return story.summary_from_json(self.summary)
        return story.summarize(self.score())

    def players_in_round(self, number: int) -> list[str]:
        """Who plays round ``number``: everyone not knocked out in an earlier round (for the
        next round, read from the kept summary)."""
        summary = self.stored_summary()
        if number == summary.rounds + 1:
            return [p for p in self.players if p in summary.in_game]
        sheet = self.score()
        out = {p for result in sheet.rounds[: number - 1] for p in result.knocked_out}
        return [p for p in self.players if p not in out]

    def game_file(self, game: engine.GameEntry | None = None, ended: bool | None = None) -> dict:
        """The game file: its settings as created, who dealt first, whether the table ended it,
        and its id. ``game``: the game as a change leaves it (the referee's entry, ``ended``
        or not), by default as stored."""
        game = self.as_entry() if game is None else game
        ended = self.ended if ended is None else ended
        entry = replace(
            game,
            settings=self.settings,
            # A match says "blocked"; an ended game whose rounds were all deleted is not over.
            ended=ended and not self.is_match and bool(game.rounds),
            first_dealer=self.players[self.first_dealer] if self.first_dealer else None,
            game_id=self.uid,
        )
        return gamefile.game_to_json(entry)

    # --- every write: lock, check with the referee, store, notify ------------------------

    def add_round(self, number: int, entry: engine.RoundEntry) -> Round:
        """Store round ``number``; Conflict if the game has another number of rounds now.
        The instance is then the game as this write left it: its rounds and its sheet too."""
        typed_for = list(self.players)
        with self._locked():
            entry, data = self._named_now(entry, typed_for, number)
            rounds = self.live_rounds()
            same = rounds[number - 1] if 0 < number <= len(rounds) else None
            if same is not None and same.data == data:
                # The same round sent again (a second tap on Save, a retry after its answer was
                # lost, or another phone that typed the same hands): it is stored once.
                same.sent_again = True
                return same
            if len(rounds) != number - 1:
                raise Conflict
            game = self.as_entry([*self.entries(), entry])
            last = self.rounds.aggregate(last=Max("position"))["last"] or 0
            created = Round.objects.create(game=self, position=last + 1, data=data)
            self._store(game)
            self._live_rounds = [*rounds, created]
        return created

    def replace_round(self, round_id: int, edits: int | None, entry: engine.RoundEntry) -> None:
        """Correct a round; Conflict if it was corrected or deleted since ``edits``."""
        typed_for = list(self.players)
        with self._locked():
            found = self.round_numbered(round_id)
            if found is None or found[0].edits != edits:
                raise Conflict
            current, number = found
            entry, _ = self._named_now(entry, typed_for, number)
            rounds = self.entries()
            game = self.as_entry([*rounds[: number - 1], entry, *rounds[number:]])
            Round.objects.filter(pk=round_id).update(
                data=gamefile.round_to_json(entry),
                edits=current.edits + 1,
                updated_at=timezone.now(),
            )
            self._store(game)

    def _named_now(
        self, entry: engine.RoundEntry, typed_for: list[str], number: int
    ) -> tuple[engine.RoundEntry, dict]:
        """``entry``, typed for the players as they were named then (``typed_for``), with
        their names as the game has them now: a player renamed at the table meanwhile keeps
        the seat the round was typed for. Its data as stored too."""
        data = gamefile.round_to_json(entry)
        if typed_for == self.players or len(typed_for) != len(self.players):
            return entry, data
        data = gamefile.rename_in_round(data, dict(zip(typed_for, self.players, strict=True)))
        return gamefile.round_from_json(data, number), data

    def delete_round(self, round_id: int) -> None:
        """Set a round aside (undo puts it back); Conflict if it is already gone."""
        with self._locked():
            rounds = self.live_rounds()
            if round_id not in [r.pk for r in rounds]:
                raise Conflict
            kept = [r for r in rounds if r.pk != round_id]
            game = self.as_entry(self.entries(kept))
            Round.objects.filter(pk=round_id).update(deleted_at=timezone.now())
            self._store(game)

    def restore_round(self, round_id: int) -> None:
        """Put a deleted round back where it was; Conflict if it is not set aside."""
        with self._locked():
            stored = self.rounds.filter(pk=round_id, deleted_at__isnull=False).first()
            if stored is None:
                raise Conflict
            rounds = sorted([*self.live_rounds(), stored], key=lambda r: r.position)
            game = self.as_entry(self.entries(rounds))
            Round.objects.filter(pk=round_id).update(deleted_at=None, updated_at=timezone.now())
            self._store(game)

    def end(self) -> None:
        """The table ends an open-ended game now: the lowest total wins."""
        with self._locked():
            self._store(self.as_entry(ended=True), ended=True)

    def resume(self) -> None:
        """Undo ``end``: the game goes on after its last round (checked like any change)."""
        with self._locked():
            self._store(self.as_entry(ended=False), ended=False)

    def set_clock(self, action: str, turn: int, seconds: int | None = None) -> TurnClock:
        """A tap on the match's thinking timer: ``start``, ``pause``, ``next`` player or set
        the ``time`` of a turn to ``seconds``. ``turn`` is the turn the phone showed: a tap
        meant for a turn that has already moved on (two phones tapping Next) changes nothing."""
        with self._locked():
            clock, _ = TurnClock.objects.select_for_update().get_or_create(game=self)
            if turn == clock.turn:
                clock.apply(action, timezone.now(), seconds)
                clock.save()
            self._restate()
        return clock

    def rematch(self) -> Game:
        """The same players, settings and rules name again (a match's time of a turn too); the
        deal moves on by one seat. Made once: a second tap, from this phone or another, gets the
        rematch already made (the game's row lock makes them wait for each other)."""
        with self._locked():
            if self.next_game_id is not None:
                return self.next_game
            game = Game.objects.create(
                variant=self.variant,
                players=self.players,
                settings=self.settings,
                rules_name=self.rules_name,
                first_dealer=(self.first_dealer + 1) % len(self.players),
                table=self.table,  # the evening goes on at the same table
            )
            clock = TurnClock.objects.filter(game=self).first()
            if clock is not None:
                TurnClock.objects.create(game=game, seconds=clock.seconds)
            self._restate(next_game=game)
        return game

    def lead_to(self, game: Game) -> None:
        """``game`` was started after this one from their table's page (not by Rematch): every
        page of this game offers it, and its viewers move on to it, as to a rematch. A next
        game already made (a rematch, or an earlier game from the table) stays."""
        with self._locked():
            if self.next_game_id is None:
                self._restate(next_game=game)

    def keep_in_table(self, name: str) -> Table | None:
        """A new table named ``name`` of the game's players and rules, the game in it; None if
        the game is already a table's by now (a second tap, from this phone or another,
        waits for the first on the game's row lock and makes no other table)."""
        with self._locked():
            if self.table_id is not None:
                return None
            table = Table.objects.create(name=name)
            table.attach(self)
        return table

    def join(self, table: Table | None) -> None:
        """Put the game in ``table``'s games (None: in no table's). What the game is scored
        from is unchanged: a new version, as a timer tap makes."""
        with self._locked():
            self._restate(table=table)

    def rename_player(self, old: str, new: str) -> None:
        """Call player ``old`` (ignoring case) ``new`` in the game: its players and every
        round (deleted ones too, so that undo puts them back as the others read), checked and
        scored again like any change. A GameError (the name taken by another player of the
        game, a name no game accepts) changes nothing."""
        with self._locked():
            old = next((p for p in self.players if p.casefold() == old.casefold()), None)
            if old is None or old == new:
                return
            players = [new if p == old else p for p in self.players]
            engine.check_players(players, len(players), len(players))
            rounds = list(self.rounds.order_by("position"))
            for stored in rounds:
                stored.data = gamefile.rename_in_round(stored.data, {old: new})
            self.players = players
            live = [stored for stored in rounds if stored.deleted_at is None]
            game = self.as_entry(self.entries(live))
            Round.objects.bulk_update(rounds, ["data"])
            self._store(game, players=players)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """A transaction holding the game's row lock, the game read again under it: writes to
        one game happen one at a time (PostgreSQL: SELECT … FOR NO KEY UPDATE; SQLite: its
        write lock, at BEGIN IMMEDIATE), each checked against the game as stored now. (FOR NO
        KEY UPDATE: a write of a row that refers to the game, a round or a player's row, is
        not held up by it.)"""
        with transaction.atomic():
            self.refresh_from_db(from_queryset=Game.objects.select_for_update(no_key=True))
            yield

    def _store(self, game: engine.GameEntry, **changes) -> None:
        """The end of a write that changes what the game is scored from: ``game``, the game
        as the change leaves it, scored by the referee and its file measured against the
        most an import reads (a GameError refuses the change), then ``_new_state`` with the
        sheet's summary."""
        sheet = engine.score_game(game)
        file = self.game_file(game, changes.get("ended", self.ended))
        gamefile.check_file_bytes(len(gamefile.dumps(file).encode()))
        self._new_state(story.summarize(sheet), **changes)
        self._sheet = sheet

    def _restate(self, **changes) -> None:
        """The end of a write that leaves what the game is scored from as it was (a timer tap,
        a rematch made): ``_new_state``, the summary as it was."""
        self._new_state(None, **changes)

    def _new_state(self, summary: story.GameSummary | None, **changes) -> None:
        """The end of every write, in its transaction: the game's ``changes``, a new state
        token (the phones following the game see it at their next poll) and the summary of
        the game as now stored with its players' rows (``PlayerResult``) (None: as they
        were). (``updated_at`` is now unless ``changes`` says otherwise: a restored game
        keeps its.)"""
        changes = {"state": new_key(), "updated_at": timezone.now(), **changes}
        if summary is not None:
            changes["summary"] = story.summary_to_json(summary)
        Game.objects.filter(pk=self.pk).update(**changes)
        if summary is not None:
            # Its players' rows, which every server's pages sum, follow the game in the same
            # transaction (a rename too: the names are the game's).
            PlayerResult.objects.filter(game_id=self.pk).delete()
            PlayerResult.objects.bulk_create(PlayerResult.rows_of(self.pk, summary))
        self.refresh_from_db()  # the game as now stored; its rounds are read again if asked


@lru_cache(maxsize=256)
def rules_with(variant: str, settings: str) -> HouseRules:
    """A variant (or Tambouille) with house ``settings`` (as JSON), made once per process for
    every game that plays them: rules never change once made, and what they work out once
    (each card's value, the lowest hand possible) is then worked out once, not five times
    for each page."""
    return engine.GAMES[variant](**json.loads(settings))


class RuleSet(models.Model):
    """House rules a table named and keeps: a variant and its settings. Reached only by its
    key (like a game); a game copies the settings when it starts, so changing a set later
    never changes a game already played."""

    key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    name = models.CharField(max_length=40)
    variant = models.CharField(max_length=32, choices=Game.VARIANT_CHOICES)
    settings = models.JSONField(default=dict, blank=True)  # as in the game file
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"

    def rules(self) -> HouseRules:
        return engine.GAMES[self.variant](**self.settings)


# The most players a table remembers (a game has at most engine.MAX_PLAYERS of them).
MAX_TABLE_PLAYERS = 24


class Table(models.Model):
    """A group that plays together ("Jeudis chez Léa"): its players in seat order, its house
    rules (those of its last game) and the games started from it, by any of its phones.
    Reached only by its keys: the edit key starts games from it and changes its names; the
    read key only shows it. Neither opens a game by its edit link (the pages give a game's
    edit link only to a phone that already holds it)."""

    edit_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    read_key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    name = models.CharField(max_length=40)
    players = models.JSONField(default=list, blank=True)  # names in seat order
    # The house rules of its last game: the next one starts with them ("" : none yet).
    variant = models.CharField(max_length=32, blank=True, default="")
    settings = models.JSONField(default=dict, blank=True)  # as in the game file
    rules_name = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def column(link: str) -> str:
        """The column holding the key of a table's ``link``: its edit link or its read link."""
        return {"edit": "edit_key", "read": "read_key"}[link]

    def seats_after(self, game: Game) -> list[str]:
        """The table's players once ``game`` is started: its players in its seats, then those
        of the table who sat out (kept, after them)."""
        playing = {p.casefold() for p in game.players}
        return [*game.players, *(p for p in self.players if p.casefold() not in playing)][
            :MAX_TABLE_PLAYERS
        ]

    def attach(self, game: Game) -> None:
        """``game`` joins the table: listed with its games, and its players and rules are the
        table's next game's."""
        with transaction.atomic():
            table = Table.objects.select_for_update(no_key=True).get(pk=self.pk)
            game.join(table)
            changes = {
                "players": table.seats_after(game),
                "variant": game.variant,
                "settings": game.settings,
                "rules_name": game.rules_name,
                "updated_at": timezone.now(),
            }
            Table.objects.filter(pk=self.pk).update(**changes)
            self.refresh_from_db()

    def clashes(self, old: str, new: str) -> int:
        """How many of the table's games have both a player ``old`` and another called
        ``new`` (names ignoring case): a rename would give them two players of one name."""
        old, new = old.casefold(), new.casefold()
        return sum(
            old != new and {old, new} <= {p.casefold() for p in players}
            for players in self.games.values_list("players", flat=True)
        )

    def rename(self, old: str, new: str) -> None:
        """Call ``old`` ``new`` in the table and in every one of its games, each game through
        its own write (``Game.rename_player``); a name merged into another (``new`` already
        a player of the table) becomes that player. NamesClash (a game has both names)
        before anything is changed."""
        # FOR NO KEY UPDATE, as a game's lock (``Game._locked``): a game saved meanwhile that
        # refers to the table (a rematch, holding its own game's lock) is not held up by it,
        # so the two never deadlock.
        with transaction.atomic():
            table = Table.objects.select_for_update(no_key=True).get(pk=self.pk)
            if table.clashes(old, new):
                raise NamesClash
            # Listed again until none is left: a rematch saved while a game's lock was awaited
            # is a game of the table that the list before it did not hold.
            renamed: set[int] = set()
            while games := list(table.games.exclude(pk__in=renamed).order_by("pk")):
                for game in games:
                    game.rename_player(old, new)
                    renamed.add(game.pk)
            seats: list[str] = []
            for name in table.players:
                name = new if name.casefold() == old.casefold() else name
                if name.casefold() not in {s.casefold() for s in seats}:
                    seats.append(name)
            Table.objects.filter(pk=self.pk).update(players=seats, updated_at=timezone.now())
            self.refresh_from_db()


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
    # Set by ``Game.add_round`` on a round that was stored already when it was sent again.
    sent_again = False

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_round_per_position")
        ]

    def __str__(self) -> str:
        return f"round at {self.position} of game {self.game_id}"

    def as_entry(self, number: int) -> engine.RoundEntry:
        return gamefile.round_from_json(self.data, number)


def exact_points(value: Fraction | None) -> Decimal | None:
    """Points as ``PlayerResult`` stores them: the referee's points are whole or half
    (``engine.exact``), which one decimal place holds exactly; anything else is refused
    rather than rounded."""
    if value is None:
        return None
    if (value * 2).denominator != 1:
        raise ValueError(f"{value} is not a whole or half point")
    return Decimal(value.numerator) / value.denominator


class PlayerResult(models.Model):
    """One player's result in one game as the referee scored it after the game's last round:
    written by every change to the game's rounds, in its transaction (``Game._new_state``),
    so that the home page, the statistics and a table's page sum them in the database, the
    same on every server. Only the referee writes them; a game before its first change has
    none (and no round)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()  # index in the game's players
    player = models.CharField(max_length=engine.MAX_NAME_LENGTH)  # as in the game
    # The name ignoring case (Python's casefold, which SQL's LOWER is not): the statistics
    # count a player by it. Casefolding makes a character at most three.
    folded = models.CharField(max_length=3 * engine.MAX_NAME_LENGTH)
    rounds = models.PositiveIntegerField()  # the game's rounds (none: it counts for nothing)
    finished = models.BooleanField()  # the game's, for filtering
    won = models.BooleanField()  # a winner of the finished game (a tie: each of them)
    in_game = models.BooleanField()  # not knocked out: the home page's leader is among them
    # Whole or half points (engine.exact): one decimal place sums and compares them exactly.
    total = models.DecimalField(max_digits=15, decimal_places=1)
    place = models.PositiveSmallIntegerField()  # engine.Progress.places: the winners first
    hands = models.PositiveIntegerField()  # rounds this player played
    hand_points = models.DecimalField(max_digits=15, decimal_places=1)  # their hands' totals
    best = models.DecimalField(max_digits=15, decimal_places=1, null=True)  # lowest round score
    worst = models.DecimalField(max_digits=15, decimal_places=1, null=True)  # highest
    calls = models.PositiveIntegerField()  # calls the referee judged
    calls_succeeded = models.PositiveIntegerField()

    class Meta:
        constraints = [
            # The referee refuses two players of one name ignoring case (engine.check_players).
            models.UniqueConstraint(fields=["game", "folded"], name="one_result_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in game {self.game_id}"

    @staticmethod
    def rows_of(game_id: int, summary: story.GameSummary) -> list[PlayerResult]:
        """The rows of the game ``game_id`` whose referee's summary is ``summary``."""
        progress, totals, places = summary.progress, summary.totals, summary.progress.places()
        rows = []
        for seat, player in enumerate(summary.players):
            figures = summary.figures[player]
            rows.append(
                PlayerResult(
                    game_id=game_id,
                    seat=seat,
                    player=player,
                    folded=player.casefold(),
                    rounds=progress.number,
                    finished=progress.finished,
                    won=progress.finished and player in progress.winners,
                    in_game=player in progress.in_game,
                    total=exact_points(totals[player]),
                    place=places[player],
                    hands=figures.hands,
                    hand_points=exact_points(figures.hand_points),
                    best=exact_points(figures.best),
                    worst=exact_points(figures.worst),
                    calls=figures.calls,
                    calls_succeeded=figures.calls_succeeded,
                )
            )
        return rows


class TurnClock(models.Model):
    """The thinking timer of a Tambouille match: whose turn it is (the count of turns
    begun, in turn order) and how much of it is used. The time left is computed from when
    the clock was started, never by counting ticks, so it stays right across a sleeping
    screen, a reload or another phone."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="clock")
    seconds = models.PositiveIntegerField(default=TURN_SECONDS)  # the time of a turn
    turn = models.PositiveIntegerField(default=0)  # turns begun since the first
    started_at = models.DateTimeField(null=True, blank=True)  # running since; None: paused
    used = models.FloatField(default=0)  # seconds of this turn used before started_at

    def __str__(self) -> str:
        return f"clock of game {self.game_id} at turn {self.turn}"

    @property
    def running(self) -> bool:
        return self.started_at is not None

    def left(self, now: datetime) -> float:
        """Seconds left in this turn (0 once the time is up)."""
        used = self.used
        if self.started_at is not None:
            used += (now - self.started_at).total_seconds()
        return max(self.seconds - used, 0.0)

    @property
    def deadline(self) -> datetime | None:
        """When the running turn's time is up; None while paused."""
        if self.started_at is None:
            return None
        return self.started_at + timedelta(seconds=self.seconds - self.used)

    def apply(self, action: str, now: datetime, seconds: int | None = None) -> None:
        if action == "start" and not self.running:
            if self.left(now) <= 0:  # the time was up: this player starts over
                self.used = 0
            self.started_at = now
        elif action == "pause" and self.running:
            self.used = self.seconds - self.left(now)
            self.started_at = None
        elif action == "next":
            self.turn += 1
            self.used = 0
            self.started_at = now
        elif action == "time" and seconds:
            # The turn under way starts again with the new time (if it was running, it runs).
            self.seconds = seconds
            self.used = 0
            if self.running:
                self.started_at = now
