"""What the table entered, and nothing the referee computes.

A game keeps its variant, settings and players; each round keeps exactly the
round object of the game file. Totals, winners and explanations are computed
by the referee from these every time, so they can never disagree with history.

Every change to a game goes through a method here (add, replace, delete,
restore a round, end the game, store a game file): each runs in a transaction
that holds the game's row lock, checks the whole game as it would be stored
with the referee, and renews the game's ``state`` token, which every cache
and ETag is keyed by.
"""

from __future__ import annotations

import io
import json
import pickle
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cached_property, lru_cache

from django.core.cache import cache
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Max
from django.utils import timezone

from scoring.caching import sheet_key
from scoring.live import push
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


class Conflict(Exception):
    """The game changed since the phone's page was drawn: another phone saved first."""


class GameManager(models.Manager):
    def version_by_key(self, link: str, key: str) -> tuple[int, str, str] | None:
        """(id, edit key, state) of the game reached by an edit or share key, or None: the one
        read a phone's view of a cached sheet costs. Plain SQL, because building the ORM
        query took most of that request's time (``make bench``)."""
        column = key_column(link)
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
            game.save_summary()
        return game

    def import_file(self, data: bytes | str, mine: list[str] | None = None) -> Game:
        """A game file, checked by the referee and stored whole, or refused whole (GameError).
        A file whose id is the id of a copy imported on this phone (``mine``: the edit keys of
        its games) opens that copy: importing twice makes one game. A game this phone did not
        import is never opened by its id (a file widens no access): it gets a copy of its own."""
        parsed = gamefile.read_game(data)
        engine.score_game(parsed)
        if parsed.game_id is not None and mine:
            copy = self.filter(edit_key__in=mine, uid=parsed.game_id, imported=True).first()
            if copy is not None:
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
    # A fresh random token with every saved change (written in the change's transaction):
    # caches and ETags are keyed by it, so they are never stale on any app server.
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
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Where the game stands after its last round and each player's figures (``story.
    # GameSummary``), written in the transaction of every change to the rounds: the next round
    # is scored from it, the statistics and the home page read it. Null until first computed.
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

    def live_rounds(self) -> list[Round]:
        """The rounds in order, read once for this loaded game (``refresh_from_db`` rereads)."""
        if not hasattr(self, "_live_rounds"):
            self._live_rounds = list(self.rounds.live().order_by("position"))
        return self._live_rounds

    def live_count(self) -> int:
        """How many live rounds the game has: counted once for this loaded game, not read."""
        if "_live_rounds" in self.__dict__:
            return len(self._live_rounds)
        if "_live_count" not in self.__dict__:
            self._live_count = self.live_round_rows("COUNT(*)")[0][0]
        return self._live_count

    def rounds_between(self, first: int, last: int) -> list[Round | ListedRound]:
        """Live rounds ``first + 1`` to ``last`` in order: only those are read (unless every
        round was read already), and only what the sheet lists of them."""
        if last <= first:
            return []
        if "_live_rounds" in self.__dict__:
            return self._live_rounds[first:last]
        # The data comes as text, read as JSON only if the round is shown whole.
        quote = connection.ops.quote_name
        columns = (
            f"{quote('id')}, {quote('position')}, {quote('edits')}, CAST({quote('data')} AS text)"
        )
        rest = f"ORDER BY {quote('position')} LIMIT %s OFFSET %s"
        rows = self.live_round_rows(columns, rest, [last - first, first])
        return [ListedRound(*row) for row in rows]

    def live_round_rows(self, columns: str, rest: str = "", params: list | None = None) -> list:
        """``columns`` of the game's live rounds (as ``RoundQuerySet.live`` says: not deleted),
        then ``rest`` of the query (its ``params`` after the game's id). Plain SQL, as
        ``version_by_key``: building the ORM query cost more than running it (a sheet counts
        its rounds and reads those it lists)."""
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {columns} FROM {quote(Round._meta.db_table)} "
            f"WHERE {quote('game_id')} = %s AND {quote('deleted_at')} IS NULL {rest}"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.pk, *(params or [])])
            return cursor.fetchall()

    def refresh_from_db(self, *args, **kwargs) -> None:
        for memo in ("_live_rounds", "_live_count", "_sheet", "_sheet_packed"):
            self.__dict__.pop(memo, None)
        super().refresh_from_db(*args, **kwargs)

    def effective_settings(self, rounds: int | None = None) -> dict:
        """The settings to score with: a game the table ended early stops after its last round
        (``rounds`` of them when a change is checked, else the rounds stored)."""
        settings = dict(self.settings)
        if self.ended and not self.is_match:
            count = len(self.live_rounds()) if rounds is None else rounds
            settings["rounds"] = max(count, 1)
        return settings

    @property
    def is_match(self) -> bool:
        """A Tambouille match (a match sheet of cards left), not a Tamalou score sheet."""
        return self.variant == Tambouille.key

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
        self, rounds: list[engine.RoundEntry] | None = None, ended_after: int | None = None
    ) -> engine.GameEntry:
        """The game for the referee: its stored rounds, or ``rounds`` as a change would store
        them (an ended game then ends after ``ended_after`` rounds, by default all of them)."""
        rounds = self.entries() if rounds is None else rounds
        count = len(rounds) if ended_after is None else ended_after
        return engine.GameEntry(
            variant=self.variant,
            players=tuple(self.players),
            rounds=tuple(rounds),
            settings=self.effective_settings(count),
            blocked_after=count if self.ended and self.is_match else None,
            rules_name=self.rules_name or None,
        )

    def sheet_key(self, state: str | None = None) -> str:
        """Names the score sheet of the game in ``state`` (by default, as loaded) with
        everything it is scored from besides the rounds, which only change with the state."""
        settings = json.dumps(self.settings, sort_keys=True)
        where = (self.edit_key, state or self.state, self.variant, self.players, settings)
        return sheet_key(*where, self.ended, self.rules_name)

    def score(self) -> engine.ScoreSheet:
        """The referee's score sheet, computed once for each state of the game: read from the
        cache, else from the database, where the change that made the state stored it (read
        once for this loaded game). A game no change has stored yet is scored, and stored."""
        if "_sheet" not in self.__dict__:
            key = self.sheet_key()
            packed = cache.get(key)
            if packed is None:
                packed = StoredSheet.read(self.pk, key)
            sheet = StoredSheet.unpack(packed) if packed is not None else None
            if sheet is None:
                sheet = engine.score_game(self.as_entry())
                packed = StoredSheet.pack(sheet)
                StoredSheet.keep(self.pk, key, packed)
            cache.set(key, packed, 86400)
            self._sheet, self._sheet_packed = sheet, packed
        return self._sheet

    def packed_sheet(self) -> bytes | None:
        """The stored sheet of the game as loaded, packed (from the cache, else the
        database), without reading it; None when there is none."""
        key = self.sheet_key()
        return cache.get(key) or StoredSheet.read(self.pk, key)

    def stored_summary(self, rounds: int | None = None) -> story.GameSummary:
        """The summary kept with the game (for ``rounds`` live rounds, by default those
        stored); computed from the score sheet when there is none yet (a read writes nothing:
        the next change keeps it)."""
        count = self.live_count() if rounds is None else rounds
        if self.summary is not None and self.summary.get("number") == count:
            read = self.__dict__.get("_read_summary")
            if read is None or read[0] is not self.summary:  # read once for this loaded game
                read = self._read_summary = (self.summary, story.summary_from_json(self.summary))
            return read[1]
        return story.summarize(self.score())

    def save_summary(self) -> story.GameSummary:
        """Compute the summary from the game's score sheet and keep it."""
        summary = story.summarize(self.score())
        self.summary = story.summary_to_json(summary)
        Game.objects.filter(pk=self.pk).update(summary=self.summary)
        return summary

    def players_in_round(self, number: int) -> list[str]:
        """Who plays round ``number``: everyone not knocked out in an earlier round (for the
        next round, read from the kept summary)."""
        summary = self.stored_summary()
        if number == summary.rounds + 1:
            return [p for p in self.players if p in summary.in_game]
        sheet = self.score()
        out = {p for result in sheet.rounds[: number - 1] for p in result.knocked_out}
        return [p for p in self.players if p not in out]

    def round_numbered(self, round_id: int) -> tuple[Round, int] | None:
        """A live round and its number, by its id (the other rounds are counted, not read)."""
        if "_live_rounds" in self.__dict__:
            for number, stored in enumerate(self._live_rounds, 1):
                if stored.pk == round_id:
                    return stored, number
            return None
        live = self.rounds.live()
        stored = live.filter(pk=round_id).first()
        if stored is None:
            return None
        return stored, live.filter(position__lt=stored.position).count() + 1

    def game_file(self) -> dict:
        """The game file: its settings as created, who dealt first, whether the table ended it,
        and its id."""
        entry = replace(
            self.as_entry(),
            settings=self.settings,
            # A match says "blocked"; an ended game whose rounds were all deleted is not over.
            ended=self.ended and not self.is_match and bool(self.live_rounds()),
            first_dealer=self.players[self.first_dealer] if self.first_dealer else None,
            game_id=self.uid,
        )
        return gamefile.game_to_json(entry)

    # --- every write --------------------------------------------------------------

    @contextmanager
    def _locked(self, read_rounds: bool = True, same_sheet: bool = False) -> Iterator[list[Round]]:
        """A transaction holding the game's row lock: writes to one game happen one at a time
        (PostgreSQL: SELECT … FOR NO KEY UPDATE; SQLite: its write lock, at BEGIN IMMEDIATE).
        Yields the rounds as stored now (none unless ``read_rounds``); the change is checked
        against them. ``same_sheet``: a change that leaves what the game is scored from as it
        was (a timer tap, a rematch made): the new state keeps the stored sheet of the old."""
        self._scored = None
        self._packed = None
        self._summarized = None
        sheet, packed, key = (
            self.__dict__.get("_sheet"),
            self.__dict__.get("_sheet_packed"),
            self.sheet_key(),
        )
        with transaction.atomic():
            # FOR NO KEY UPDATE (PostgreSQL): a reader storing the sheet it scored (a row that
            # refers to the game) is not held up by it, so the two never deadlock
            Game.objects.select_for_update(no_key=True).filter(pk=self.pk).first()
            self.refresh_from_db()
            if sheet is not None and self.sheet_key() == key:
                # nothing changed since it was read: the same sheet
                self._sheet, self._sheet_packed = sheet, packed
            yield list(self.rounds.live().order_by("position")) if read_rounds else []
            if same_sheet and self._scored is None:
                self._packed = self.__dict__.get("_sheet_packed") or self.packed_sheet()
            state = new_key()
            changes = {"state": state, "updated_at": timezone.now()}
            if self._summarized is None and self._scored is not None:
                self._summarized = story.summarize(self._scored)
            if self._summarized is not None:
                changes["summary"] = story.summary_to_json(self._summarized)
            Game.objects.filter(pk=self.pk).update(**changes)
            scored_key = self.sheet_key(state)
            if self._packed is None and self._scored is not None:
                self._packed = StoredSheet.pack(self._scored)
            if self._packed is not None:
                # The sheet of exactly what this change stores: no server scores it again.
                StoredSheet.keep(self.pk, scored_key, self._packed)
            push.announce(self.pk, state)
        self.refresh_from_db()
        if self._packed is not None:
            # Under its own state token, even if another phone has written since.
            cache.set(scored_key, self._packed, 86400)
        if self._scored is not None and self.state == state:
            self._sheet, self._sheet_packed = self._scored, self._packed

    def _check_and_keep(
        self, entries: list[engine.RoundEntry], ended_after: int | None = None
    ) -> None:
        """``_check``, keeping the sheet for the new state (same rounds, same settings)."""
        self._scored = self._check(entries, ended_after)

    def _check(
        self, entries: list[engine.RoundEntry], ended_after: int | None = None
    ) -> engine.ScoreSheet:
        """The whole game as it would be stored; a GameError refuses the change. (Its summary
        is kept with the change.)"""
        sheet = engine.score_game(self.as_entry(entries, ended_after))
        self._summarized = story.summarize(sheet)
        return sheet

    def _check_from(self, number: int, entries: list[engine.RoundEntry]) -> None:
        """The game with its rounds from ``number`` on replaced by ``entries``: scored on from
        the standing its stored sheet gives after round ``number - 1``, the rounds before it
        neither read nor scored again (a correction of the last round scores one round); a
        GameError refuses it. Keeps the new sheet and its summary."""
        sheet = self.score()  # of the state the row lock holds: the rounds as stored now
        before = engine.progress_after(sheet, number - 1)
        count = number - 1 + len(entries)
        rules = self.as_entry([], ended_after=count)  # an ended game stays ended
        results, after = engine.continue_game(rules, before, entries)
        self._scored = engine.sheet_of(
            sheet.variant, sheet.players, [*sheet.rounds[: number - 1], *results], after
        )
        self._summarized = story.summarize(self._scored)
        packed = self.__dict__.get("_sheet_packed")
        if packed is not None:  # the rounds before it kept as they were stored, not packed again
            tail = engine.sheet_of(sheet.variant, sheet.players, [], after)
            self._packed = StoredSheet.replaced_from(packed, number - 1, tail, results)

    def _check_next(self, count: int, entry: engine.RoundEntry) -> None:
        """The next round scored from where the game stood after its ``count`` rounds (its
        kept summary), not from the whole game again; a GameError refuses it. Keeps the new
        summary, and the new sheet as the stored one with this round added, when it is at
        hand: its rounds are neither scored nor read again."""
        before = self.stored_summary(count)
        rules = self.as_entry([], ended_after=count)  # an ended game stays ended
        results, after = engine.continue_game(rules, before.progress, [entry])
        self._summarized = story.add_rounds(before, results, after)
        previous = self.__dict__.get("_sheet")
        if previous is not None and len(previous.rounds) == count:
            self._scored = engine.sheet_of(
                previous.variant, previous.players, [*previous.rounds, *results], after
            )
        packed = self.__dict__.get("_sheet_packed") or self.packed_sheet()
        if packed is not None and StoredSheet.rounds_in(packed) == count:
            tail = engine.sheet_of(self.variant, tuple(self.players), [], after)
            self._packed = StoredSheet.extended(packed, tail, results)

    def add_round(self, number: int, entry: engine.RoundEntry) -> Round:
        """Store round ``number``; Conflict if the game has another number of rounds now."""
        with self._locked(read_rounds=False):
            live = self.rounds.live().order_by("position")
            count = live.count()  # the rounds before it are not read: only their summary
            if 0 < number <= count:
                stored = live[number - 1]
                if stored.data == gamefile.round_to_json(entry):
                    # The same round sent again (a second tap on Save, or a retry after its
                    # answer was lost): it is stored already, whatever was saved after it.
                    return stored
            if count != number - 1:
                raise Conflict
            self._check_next(count, entry)
            last = self.rounds.aggregate(last=Max("position"))["last"] or 0
            return Round.objects.create(
                game=self, position=last + 1, data=gamefile.round_to_json(entry)
            )

    def replace_round(self, round_id: int, edits: int | None, entry: engine.RoundEntry) -> None:
        """Correct a round; Conflict if it was corrected or deleted since ``edits``."""
        with self._locked(read_rounds=False):
            found = self.round_numbered(round_id)  # the rounds before it are counted, not read
            if found is None or found[0].edits != edits:
                raise Conflict
            current, number = found
            if self.is_match:
                rounds = self.live_rounds()
                self._check_and_keep(
                    [
                        entry if r == current else e
                        for r, e in zip(rounds, self.entries(rounds), strict=True)
                    ]
                )
            else:
                later = self.rounds.live().filter(position__gt=current.position)
                later = list(later.order_by("position"))
                self._check_from(number, [entry, *self.entries(later, number + 1)])
            Round.objects.filter(pk=round_id).update(
                data=gamefile.round_to_json(entry),
                edits=current.edits + 1,
                updated_at=timezone.now(),
            )

    def delete_round(self, round_id: int) -> None:
        """Set a round aside (undo puts it back); Conflict if it is already gone."""
        with self._locked() as rounds:
            if round_id not in [r.pk for r in rounds]:
                raise Conflict
            self._check_and_keep(self.entries([r for r in rounds if r.pk != round_id]))
            Round.objects.filter(pk=round_id).update(deleted_at=timezone.now())

    def restore_round(self, round_id: int) -> None:
        """Put a deleted round back where it was."""
        with self._locked() as rounds:
            stored = self.rounds.filter(pk=round_id, deleted_at__isnull=False).first()
            if stored is None:
                raise Conflict
            self._check_and_keep(self.entries(sorted([*rounds, stored], key=lambda r: r.position)))
            Round.objects.filter(pk=round_id).update(deleted_at=None, updated_at=timezone.now())

    def end(self) -> None:
        """The table ends an open-ended game now: the lowest total wins."""
        with self._locked() as rounds:
            self.ended = True
            self._check_and_keep(self.entries(rounds))
            Game.objects.filter(pk=self.pk).update(ended=True)

    def resume(self) -> None:
        """Undo ``end``: the game goes on after its last round (checked like any change)."""
        with self._locked() as rounds:
            self.ended = False
            self._check_and_keep(self.entries(rounds))
            Game.objects.filter(pk=self.pk).update(ended=False)

    def set_clock(self, action: str, turn: int, seconds: int | None = None) -> TurnClock:
        """A tap on the match's thinking timer: ``start``, ``pause``, ``next`` player or set
        the ``time`` of a turn to ``seconds``. ``turn`` is the turn the phone showed: a tap
        meant for a turn that has already moved on (two phones tapping Next) changes nothing."""
        with self._locked(read_rounds=False, same_sheet=True):
            clock, _ = TurnClock.objects.select_for_update().get_or_create(game=self)
            if turn == clock.turn:
                clock.apply(action, timezone.now(), seconds)
                clock.save()
        return clock

    def rematch(self) -> Game:
        """The same players, settings and rules name again (a match's time of a turn too); the
        deal moves on by one seat. Made once: a second tap, from this phone or another, gets the
        rematch already made (the game's row lock makes them wait for each other)."""
        with self._locked(read_rounds=False, same_sheet=True):
            if self.next_game_id is not None:
                return Game.objects.get(pk=self.next_game_id)
            game = Game.objects.create(
                variant=self.variant,
                players=self.players,
                settings=self.settings,
                rules_name=self.rules_name,
                first_dealer=(self.first_dealer + 1) % len(self.players),
            )
            clock = TurnClock.objects.filter(game=self).first()
            if clock is not None:
                TurnClock.objects.create(game=game, seconds=clock.seconds)
            Game.objects.filter(pk=self.pk).update(next_game=game)
        return game


class StoredSheet(models.Model):
    """The referee's score sheet of a game as a change left it, under the key of what it was
    scored from (``Game.sheet_key``), so that a server just started, or another one, reads it
    instead of scoring every round again. Only a cache of what the rounds say: a key that does
    not match, or data that does not read, is scored afresh.

    Packed so that a saved round is added without reading the rounds before it: a frame with
    the count of rounds and the sheet's standing after them, then a frame for each round's
    result (each frame: its length in 4 bytes, then a pickle)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="stored_sheet"
    )
    key = models.CharField(max_length=80)
    data = models.BinaryField()  # StoredSheet.pack

    def __str__(self) -> str:
        return f"score sheet of game {self.game_id}"

    @classmethod
    def read(cls, game_id: int, key: str) -> bytes | None:
        """The packed sheet stored under ``key`` for the game, or None. Plain SQL, as
        ``version_by_key``: building the ORM query cost more than running it."""
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {quote('data')} FROM {quote(cls._meta.db_table)} "
            f"WHERE {quote('game_id')} = %s AND {quote('key')} = %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [game_id, key])
            found = cursor.fetchone()
        return None if found is None else bytes(found[0])

    @classmethod
    def keep(cls, game_id: int, key: str, packed: bytes) -> None:
        """Store a packed sheet as the game's, under ``key``. A write that fails (another
        phone storing at the same moment) loses nothing: the sheet is scored again when read."""
        try:
            with transaction.atomic():
                if not cls.objects.filter(game_id=game_id).update(key=key, data=packed):
                    cls.objects.create(game_id=game_id, key=key, data=packed)
        except DatabaseError:
            pass

    @staticmethod
    def pack(sheet: engine.ScoreSheet) -> bytes:
        return StoredSheet.replaced_from(b"", 0, replace(sheet, rounds=[]), sheet.rounds)

    @staticmethod
    def extended(
        packed: bytes, tail: engine.ScoreSheet, results: list[engine.RoundResult]
    ) -> bytes:
        """``packed`` with ``results`` added after its rounds, and ``tail`` (a sheet without
        rounds) as the standing after them."""
        return StoredSheet.replaced_from(packed, StoredSheet.rounds_in(packed), tail, results)

    @staticmethod
    def replaced_from(
        packed: bytes, kept: int, tail: engine.ScoreSheet, results: list[engine.RoundResult]
    ) -> bytes:
        """``packed`` with its first ``kept`` rounds as they are (neither read nor packed
        again), ``results`` after them in place of the others, and ``tail`` (a sheet without
        rounds) as the standing after them."""
        start = end = 4 + int.from_bytes(packed[:4], "big") if packed else 0
        for _ in range(kept):  # past each kept round's frame, by its length
            end += 4 + int.from_bytes(packed[end : end + 4], "big")
        first = _frame((kept + len(results), tail))
        return first + packed[start:end] + b"".join(_frame(result) for result in results)

    @staticmethod
    def rounds_in(packed: bytes) -> int | None:
        try:
            return _unframe(packed, 0)[0][0]
        except Exception:  # unreadable: as if missing
            return None

    @staticmethod
    def unpack(packed: bytes) -> engine.ScoreSheet | None:
        """The sheet, or None when the data does not read (a class changed shape). (Pickle:
        the database is this app's own, and what it holds was written by ``keep`` alone.)"""
        try:
            (count, tail), at = _unframe(packed, 0)
            rounds = []
            while at < len(packed):
                result, at = _unframe(packed, at)
                rounds.append(result)
            if len(rounds) != count or not isinstance(tail, engine.ScoreSheet):
                return None
            return replace(tail, rounds=rounds)
        except Exception:  # unreadable: scored again, as if missing
            return None


def _frame(value: object) -> bytes:
    packed = io.BytesIO()
    _SheetPickler(packed, pickle.HIGHEST_PROTOCOL).dump(value)
    data = packed.getvalue()
    return len(data).to_bytes(4, "big") + data


class _SheetPickler(pickle.Pickler):
    """Pickles a sheet's fractions as their two integers, read back by ``_fraction``: a
    30-round sheet holds some 500 of them, and ``Fraction(n, d)`` checking its arguments
    took most of reading the sheet."""

    def reducer_override(self, obj):
        if type(obj) is Fraction:
            return _fraction, (obj.numerator, obj.denominator)
        return NotImplemented


def _fraction(numerator: int, denominator: int) -> Fraction:
    """The fraction ``numerator/denominator``, already in lowest terms with a positive
    denominator (as a ``Fraction`` pickled them), made without checking them again."""
    value = object.__new__(Fraction)
    value._numerator, value._denominator = numerator, denominator
    return value


@lru_cache(maxsize=256)
def rules_with(variant: str, settings: str) -> HouseRules:
    """A variant (or Tambouille) with house ``settings`` (as JSON), made once per process for
    every game that plays them: rules never change once made, and what they work out once
    (each card's value, the lowest hand possible) is then worked out once, not five times
    for each page."""
    return engine.GAMES[variant](**json.loads(settings))


def _unframe(packed: bytes, at: int) -> tuple[object, int]:
    size = int.from_bytes(packed[at : at + 4], "big")
    end = at + 4 + size
    if size == 0 or end > len(packed):
        raise ValueError("a frame cut short")
    return pickle.loads(packed[at + 4 : end]), end


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

    def as_entry(self, number: int) -> engine.RoundEntry:
        return gamefile.round_from_json(self.data, number)


@dataclass(frozen=True)
class ListedRound:
    """A stored round as the sheet lists it, read without the rest of its row (a model
    instance and its three dates cost more than the rest of a listed round), its data as
    stored: a folded round shows none of it, and reading 30 rounds' hands cost a tenth of a
    sheet."""

    pk: int  # the stored round's id, for its edit and delete links
    position: int
    edits: int
    text: str  # its data, as JSON

    @cached_property
    def data(self) -> dict:
        return json.loads(self.text)

    def as_entry(self, number: int) -> engine.RoundEntry:
        return gamefile.round_from_json(self.data, number)


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
