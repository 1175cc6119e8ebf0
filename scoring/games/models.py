"""What the table entered, and nothing the referee computes.

A game keeps its variant, settings and players; each round keeps exactly the
round object of the game file. Totals, winners and explanations are computed
by the referee from these, so they can never disagree with history.

Every change to a game goes through a method here (add, replace, delete,
restore a round, end or resume the game, a timer tap, a rematch, store a game
file), and each reads the same way: take the game's row lock, check the game
as it would be stored with the referee, store it, and end with a new state
token (which every cache and ETag is keyed by), the summary and the score
sheet in the same transaction, telling the phones that follow the game once
it commits (``_store``; a saved round adds its result to the stored sheet and
the summary instead, ``add_round``).
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import secrets
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from functools import cache, cached_property, lru_cache
from pathlib import Path

from django.db import DatabaseError, models, transaction
from django.db.models import Max
from django.utils import timezone

from scoring.referee import engine, gamefile, story
from scoring.referee.house import HouseRules
from scoring.referee.tambouille import TURN_SECONDS, Tambouille
from scoring.referee.variants import VARIANTS

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
            game._store(engine.score_game(game.as_entry()), updated_at=game.updated_at)
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
    # A fresh random token with every saved change (written in the change's transaction):
    # caches and ETags are keyed by it, so they are never stale on any app server.
    state = models.CharField(max_length=32, default=new_key, editable=False)
    # The size of the game's file as its export writes it (UTF-8 bytes), kept by each change,
    # which is refused past what an import reads (gamefile.check_file_bytes). None: not known
    # yet (a new game, or one stored before it was kept): worked out at its next change.
    file_bytes = models.PositiveIntegerField(null=True, blank=True, editable=False)
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
    # GameSummary``), written in the transaction of every change to the rounds (a saved round
    # adds its figures to it): the statistics and the home page read it. Null until first
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
        for memo in ("_live_rounds", "_live_count", "_sheet", "_stored", "_summary"):
            self.__dict__.pop(memo, None)
        super().refresh_from_db(*args, **kwargs)

    def read_with_rounds(self) -> None:
        """Read the game again with its rounds, as one change left them: under its row lock,
        which waits for a change under way (a rename rewrites the players and every round),
        so that a page never meets rounds newer than the game it scores them with."""
        with self._locked():
            self.live_rounds()

    def live_rounds(self) -> list[Round]:
        """The rounds in order."""
        if "_live_rounds" not in self.__dict__:
            self._live_rounds = list(self.rounds.live().order_by("position"))
        return self._live_rounds

    def live_count(self) -> int:
        """How many live rounds the game has (counted, not read)."""
        if "_live_rounds" in self.__dict__:
            return len(self._live_rounds)
        if "_live_count" not in self.__dict__:
            # Counted by the query that listed the game, when it did (``with_round_counts``).
            counted = self.__dict__.get("round_count")
            self._live_count = self.rounds.live().count() if counted is None else counted
        return self._live_count

    def rounds_between(self, first: int, last: int) -> list[Round]:
        """Live rounds ``first + 1`` to ``last`` in order: only those are read, and only what
        the sheet lists of them."""
        if "_live_rounds" in self.__dict__:
            return self._live_rounds[first:last]
        listed = self.rounds.live().order_by("position")
        listed = listed.only("id", "game_id", "position", "edits", "data")  # not its dates
        return list(listed[first:last]) if last > first else []

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

    def sheet_key(self) -> str:
        """Names the score sheet of the game as loaded: its state (which changes with its
        rounds), everything else it is scored from, and the code that scores and stores it."""
        settings = json.dumps(self.settings, sort_keys=True)
        scored_from = (self.state, self.variant, self.players, settings, self.ended)
        seed = "\x1f".join(map(str, (referee_version(), *scored_from, self.rules_name)))
        return f"sheet:{hashlib.sha256(seed.encode()).hexdigest()}"

    def score(self) -> engine.ScoreSheet:
        """The referee's score sheet of the game as loaded: the one the change that made its
        state stored, so that no server scores the game again to show it. A game no change
        has stored a sheet for (stored before a deploy that changed the referee, or written
        around the app) is scored, and its sheet stored."""
        if "_sheet" not in self.__dict__:
            key = self.sheet_key()
            stored = StoredSheet.objects.filter(game_id=self.pk, key=key).first()
            sheet = None if stored is None else stored.sheet(rescore=self._rescored_rounds)
            if sheet is None:
                sheet = engine.score_game(self.as_entry())
                stored = StoredSheet.of(self, key, sheet)
                stored.keep()
            self._sheet, self._stored = sheet, stored
        return self._sheet

    def _rescored_rounds(self) -> list[engine.RoundResult]:
        """The rounds' results, scored afresh and stored, for a stored sheet whose rounds do
        not read."""
        sheet = engine.score_game(self.as_entry())
        StoredSheet.of(self, self.sheet_key(), sheet).keep()
        return list(sheet.rounds)

    def next_deal(self) -> tuple[str, str] | None:
        """(dealer, first to play) of the next round, kept with the stored sheet: a page reads
        no round for it. None when the game is over."""
        return None if self.score().finished else self._stored.next_deal()

    def file_size(self) -> int:
        """The size of the game's file as its export writes it (``file_bytes``, worked out if
        it is not known)."""
        if self.file_bytes is None:
            return len(gamefile.dumps(self.game_file()).encode())
        return self.file_bytes

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

    # --- every write: lock, check with the referee, store, notify ------------------------

    def add_round(self, number: int, entry: engine.RoundEntry) -> Round:
        """Store round ``number``; Conflict if the game has another number of rounds now. The
        round is scored on from where the stored sheet stands after the rounds before it, and
        its result added to that sheet and to the game's summary: the rounds before it are
        neither read nor scored again, nor their results unpickled. (The page the save answers
        with reads the whole sheet, for its chart.)"""
        data = gamefile.round_to_json(entry)
        with self._locked():
            count = self.live_count()  # the rounds before it are not read: only their sheet
            live = self.rounds.live().order_by("position")
            same = live[number - 1] if 0 < number <= count else None
            if same is not None and same.data == data:
                # The same round sent again (a second tap on Save, a retry after its answer was
                # lost, or another phone that typed the same hands): it is stored once.
                same.sent_again = True
                return same
            if count != number - 1:
                raise Conflict
            stored = StoredSheet.objects.filter(game=self, key=self.sheet_key()).first()
            before = stored.standing_after() if stored is not None else None
            if before is not None and before.number == count:
                summary = self.stored_summary(count)
            else:  # no stored sheet that reads (older code stored it): the game scored afresh
                sheet = engine.score_game(self.as_entry())
                stored = StoredSheet.of(self, self.sheet_key(), sheet)
                before, summary = engine.progress_of(sheet), story.summarize(sheet)
            rules = self.as_entry([], ended_after=count)  # its rules; an ended game stays ended
            results, after = engine.continue_game(rules, before, [entry])
            size = self.file_size() + gamefile.round_bytes(data, first=count == 0)
            gamefile.check_file_bytes(size)
            summary = story.add_rounds(summary, results, after)
            last = self.rounds.aggregate(last=Max("position"))["last"] or 0
            created = Round.objects.create(game=self, position=last + 1, data=data)
            self._new_state(summary, file_bytes=size)
            stored.add(self.sheet_key(), results, after)
            # The game as this write leaves it, for the page the save answers with.
            self._live_count, self._stored = count + 1, stored
            self._sheet = stored.sheet(rescore=self._rescored_rounds)
        return created

    def replace_round(self, round_id: int, edits: int | None, entry: engine.RoundEntry) -> None:
        """Correct a round; Conflict if it was corrected or deleted since ``edits``."""
        with self._locked():
            found = self.round_numbered(round_id)  # the rounds before it are counted, not read
            if found is None or found[0].edits != edits:
                raise Conflict
            current, number = found
            later = self.rounds.live().filter(position__gt=current.position).order_by("position")
            sheet = self._scored_on(number, [entry, *self.entries(list(later), number + 1)])
            Round.objects.filter(pk=round_id).update(
                data=gamefile.round_to_json(entry),
                edits=current.edits + 1,
                updated_at=timezone.now(),
            )
            self._store(sheet)

    def delete_round(self, round_id: int) -> None:
        """Set a round aside (undo puts it back); Conflict if it is already gone."""
        with self._locked():
            rounds = self.live_rounds()
            if round_id not in [r.pk for r in rounds]:
                raise Conflict
            kept = [r for r in rounds if r.pk != round_id]
            sheet = engine.score_game(self.as_entry(self.entries(kept)))
            Round.objects.filter(pk=round_id).update(deleted_at=timezone.now())
            self._store(sheet)

    def restore_round(self, round_id: int) -> None:
        """Put a deleted round back where it was; Conflict if it is not set aside."""
        with self._locked():
            stored = self.rounds.filter(pk=round_id, deleted_at__isnull=False).first()
            if stored is None:
                raise Conflict
            rounds = sorted([*self.live_rounds(), stored], key=lambda r: r.position)
            sheet = engine.score_game(self.as_entry(self.entries(rounds)))
            Round.objects.filter(pk=round_id).update(deleted_at=None, updated_at=timezone.now())
            self._store(sheet)

    def end(self) -> None:
        """The table ends an open-ended game now: the lowest total wins."""
        with self._locked():
            sheet = engine.score_game(self.as_entry(ended=True))
            self._store(sheet, ended=True)

    def resume(self) -> None:
        """Undo ``end``: the game goes on after its last round (checked like any change)."""
        with self._locked():
            sheet = engine.score_game(self.as_entry(ended=False))
            self._store(sheet, ended=False)

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
                stored.data = gamefile.rename_in_round(stored.data, old, new)
            self.players = players
            live = [stored for stored in rounds if stored.deleted_at is None]
            sheet = engine.score_game(self.as_entry(self.entries(live)))
            Round.objects.bulk_update(rounds, ["data"])
            Game.objects.filter(pk=self.pk).update(players=players)  # the file _store measures
            self._store(sheet, players=players)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """A transaction holding the game's row lock, the game read again under it: writes to
        one game happen one at a time (PostgreSQL: SELECT … FOR NO KEY UPDATE; SQLite: its
        write lock, at BEGIN IMMEDIATE), each checked against the game as stored now. (FOR NO
        KEY UPDATE: a reader storing the sheet it scored, a row that refers to the game, is
        not held up by it, so the two never deadlock.)"""
        with transaction.atomic():
            self.refresh_from_db(from_queryset=Game.objects.select_for_update(no_key=True))
            yield

    def _scored_on(self, number: int, entries: list[engine.RoundEntry]) -> engine.ScoreSheet:
        """The game's sheet with its rounds from ``number`` on replaced by ``entries``: scored
        on from where the stored sheet stood after round ``number - 1``, the rounds before it
        not scored again (a correction of the last round scores one round). A GameError
        refuses the change. (A Tambouille match's
        standing is not in its rounds' results: a correction scores the match again.)"""
        sheet = self.score()
        count = len(sheet.rounds)
        if self.is_match and number <= count:
            before = self.entries(self.live_rounds()[: number - 1])
            return engine.score_game(self.as_entry([*before, *entries]))
        rules = self.as_entry([], ended_after=count)  # its rules; an ended game stays ended
        before = engine.progress_after(sheet, number - 1)
        results, after = engine.continue_game(rules, before, entries)
        return engine.sheet_of(
            sheet.variant, sheet.players, [*sheet.rounds[: number - 1], *results], after
        )

    def _store(self, sheet: engine.ScoreSheet, **changes) -> None:
        """The end of a write that scored the game's sheet (``sheet``, checked by the
        referee): ``_new_state`` with the sheet's summary and the size of the game's file
        (refused past the most a file holds), and the sheet stored whole."""
        as_stored = Game.objects.get(pk=self.pk)  # its rounds as this change leaves them
        as_stored.ended = changes.get("ended", self.ended)
        size = len(gamefile.dumps(as_stored.game_file()).encode())
        gamefile.check_file_bytes(size)
        self._new_state(story.summarize(sheet), file_bytes=size, **changes)
        stored = StoredSheet.of(self, self.sheet_key(), sheet)
        stored.keep()
        self._sheet, self._stored = sheet, stored

    def _restate(self, **changes) -> None:
        """The end of a write that leaves what the game is scored from as it was (a timer tap,
        a rematch made): ``_new_state``, the summary and the stored sheet as they were, the
        sheet under the new state's key. (None stored: the next read scores the game.)"""
        kept = self.sheet_key()
        self._new_state(None, **changes)
        StoredSheet.objects.filter(game=self, key=kept).update(key=self.sheet_key())

    def _new_state(self, summary: story.GameSummary | None, **changes) -> None:
        """The end of every write, in its transaction: the game's ``changes``, a new state
        token (the phones following the game see it at their next poll) and the summary of
        the game as now stored (None: as it was). (``updated_at`` is now unless ``changes``
        says otherwise: a restored game keeps its.)"""
        changes = {"state": new_key(), "updated_at": timezone.now(), **changes}
        if summary is not None:
            changes["summary"] = story.summary_to_json(summary)
        Game.objects.filter(pk=self.pk).update(**changes)
        self.refresh_from_db()  # the game as now stored; its rounds are read again if asked


@cache
def referee_version() -> str:
    """A digest of the code a stored score sheet is made and read with: the referee
    (``scoring/referee``), this module (how a game is given to the referee, how its sheet is
    stored), and the migrations (one may rewrite stored rounds). A sheet stored by other
    code is scored again."""
    digest = hashlib.sha256()
    scoring = Path(__file__).resolve().parent.parent
    code = [*(scoring / "referee").rglob("*.py"), Path(__file__).resolve()]
    for path in sorted([*code, *(scoring / "migrations").glob("*.py")]):
        digest.update(str(path.relative_to(scoring)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# The newest rounds a sheet lists (scoring.pages.sheet): kept with their deals beside the stored
# sheet, so that its page reads them and not every round's result.
RECENT_ROUNDS = 30


class StoredSheet(models.Model):
    """The referee's score sheet of a game as its last change left it, under the key of what
    it was scored from (``Game.sheet_key``), so that a server just started, or another one,
    reads it instead of scoring every round again. Only a cache of what the rounds say: a
    key that does not match, or data that does not read (a sheet stored by older code), is
    scored afresh.

    Kept in parts, so that a saved round is added to it without unpickling the results
    before it, and a page reads only what it shows: where the game stands after its rounds
    (``standing``: with the last round's result and the next deal), the running totals of
    every round (``running``: the chart), the newest rounds' results with their deals
    (``recent``: the history), and every round's result (``data``: one pickle for each change
    that added rounds, end to end; a change that scored the whole game writes them all in
    one). Plain pickles: the database is this app's own, and what it holds here was written
    by ``keep`` alone."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="stored_sheet"
    )
    key = models.CharField(max_length=80)
    # Pickled lists of engine.RoundResult, end to end: the sheet's rounds, in order.
    data = models.BinaryField()
    # pickle.dumps((variant, players, engine.Progress after the rounds, the last round's
    # engine.RoundResult or None, the next round's (dealer, first to play) or None)).
    standing = models.BinaryField(default=b"")
    # pickle.dumps(engine.RunningTotals of the rounds): what the chart draws.
    running = models.BinaryField(default=b"")
    # pickle.dumps([(engine.RoundResult, its (dealer, first to play)), …] of the newest
    # RECENT_ROUNDS rounds): what the history lists.
    recent = models.BinaryField(default=b"")

    def __str__(self) -> str:
        return f"score sheet of game {self.game_id}"

    @classmethod
    def of(cls, game: Game, key: str, sheet: engine.ScoreSheet) -> StoredSheet:
        """The sheet as it is stored (not stored yet: ``keep`` stores it)."""
        last = sheet.rounds[-1] if sheet.rounds else None
        deals = engine.deals(sheet, game.first_dealer) if sheet.variant in VARIANTS else []
        deal = deals[len(sheet.rounds)] if len(deals) > len(sheet.rounds) else None
        standing = (sheet.variant, sheet.players, engine.progress_of(sheet), last, deal)
        return cls(
            game_id=game.pk,
            key=key,
            standing=pickle.dumps(standing, pickle.HIGHEST_PROTOCOL),
            data=pickle.dumps(list(sheet.rounds), pickle.HIGHEST_PROTOCOL),
            running=pickle.dumps(engine.running_totals(sheet), pickle.HIGHEST_PROTOCOL),
            recent=pickle.dumps(
                list(zip(sheet.rounds, deals, strict=False))[-RECENT_ROUNDS:],
                pickle.HIGHEST_PROTOCOL,
            ),
        )

    @classmethod
    def read(cls, game_id: int, key: str) -> engine.ScoreSheet | None:
        """The sheet stored under ``key`` for the game; None if there is none or it does not
        read."""
        found = cls.objects.filter(game_id=game_id, key=key).first()
        return None if found is None else found.sheet()

    def sheet(self, rescore: Callable[[], list[engine.RoundResult]] | None = None):
        """The score sheet; None if its standing does not read (a class changed shape, an
        older format). Its rounds are read when first needed (``StoredRounds``); data that
        does not read then is ``rescore``d."""
        try:
            variant, players, after, last, _ = pickle.loads(self.standing)
        except Exception:  # unreadable: as if missing
            return None
        if not isinstance(after, engine.Progress):
            return None
        rounds = StoredRounds(
            bytes(self.data), after.number, last, rescore, bytes(self.running), bytes(self.recent)
        )
        return engine.sheet_of(variant, players, rounds, after)

    def standing_after(self) -> engine.Progress | None:
        """Where the game stands after the sheet's rounds (their results not read); None if
        it does not read."""
        try:
            _, _, after, _, _ = pickle.loads(self.standing)
        except Exception:  # unreadable: as if missing
            return None
        return after if isinstance(after, engine.Progress) else None

    def next_deal(self) -> tuple[str, str] | None:
        """(dealer, first to play) of the next round; None when there is none (a match, or
        nobody left in)."""
        return pickle.loads(self.standing)[4]

    def add(self, key: str, results: list[engine.RoundResult], after: engine.Progress) -> None:
        """Store the sheet with ``results`` after its rounds and ``after`` as its standing,
        under ``key``. The results before are not unpickled, their bytes only copied."""
        variant, players, before, last, deal = pickle.loads(self.standing)
        in_game = list(before.in_game)
        recent = kept_recent(bytes(self.recent), before.number)
        for result in results:
            if recent is not None:
                recent = [*recent, (result, deal)][-RECENT_ROUNDS:]
            in_game = [p for p in in_game if p not in result.knocked_out]
            if deal is not None:
                deal = engine.deal_after(VARIANTS[variant](), players, deal[0], in_game, result)
            deal = deal if in_game else None
        last = results[-1] if results else last
        self.key = key
        self.standing = pickle.dumps((variant, players, after, last, deal), pickle.HIGHEST_PROTOCOL)
        self.data = bytes(self.data) + pickle.dumps(results, pickle.HIGHEST_PROTOCOL)
        # None kept (a sheet stored by older code): its chart and history read the rounds.
        kept = kept_running_totals(bytes(self.running), before.number)
        self.running = (
            b"" if kept is None else pickle.dumps(kept.after(results), pickle.HIGHEST_PROTOCOL)
        )
        self.recent = b"" if recent is None else pickle.dumps(recent, pickle.HIGHEST_PROTOCOL)
        self.keep()

    def keep(self) -> None:
        """Store the sheet as its game's, in place of the one it had. A write that fails
        (another phone storing at the same moment) loses nothing: the sheet is scored again
        when read."""
        try:
            with transaction.atomic():
                self.save()
        except DatabaseError:
            pass


class StoredRounds(Sequence):
    """A stored sheet's rounds, unpickled when first read beyond the last one; the running
    totals and the newest rounds kept beside them read on their own. `make bench`'s long
    games measured the sheet of a 500-round game at 4.5 times the CPU of a 30-round one
    while every read unpickled each round's result, and its save at 1.95–3.6 times while the
    chart and the history did (budget: twice)."""

    def __init__(
        self, data: bytes, count: int, last, rescore=None, running: bytes = b"", recent: bytes = b""
    ) -> None:
        self.data, self.count, self.last, self.rescore = data, count, last, rescore
        self.running_data, self.recent_data = running, recent
        self.results: list[engine.RoundResult] | None = None

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):
        if isinstance(index, int) and self.last is not None and index in (-1, self.count - 1):
            return self.last
        return self.read()[index]

    def __iter__(self):
        return iter(self.read())

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"StoredRounds({self.count} rounds)"

    @cached_property
    def running_totals(self) -> engine.RunningTotals | None:
        """The running totals kept with the rounds, read without them; None if none were
        kept (a sheet stored by older code)."""
        return kept_running_totals(self.running_data, self.count)

    @cached_property
    def recent(self) -> list[tuple[engine.RoundResult, tuple[str, str]]] | None:
        """The newest rounds kept with their deals, read without the others; None if none
        were kept."""
        return kept_recent(self.recent_data, self.count)

    def since(self, first: int) -> list[tuple[engine.RoundResult, tuple[str, str]]] | None:
        """Rounds ``first + 1`` to the last with their deals, read without the others, when
        they are among the newest kept (``RECENT_ROUNDS``); None otherwise."""
        recent = self.recent
        if recent is None or first < self.count - len(recent):
            return None
        return recent[len(recent) - (self.count - first) :]

    def read(self) -> list[engine.RoundResult]:
        if self.results is None:
            results = []
            try:
                stream = io.BytesIO(self.data)
                while stream.tell() < len(self.data):
                    results += pickle.load(stream)
            except Exception:  # unreadable: scored afresh, if it can be
                results = None
            readable = results is not None and len(results) == self.count
            if not (readable and all(isinstance(r, engine.RoundResult) for r in results)):
                if self.rescore is None:
                    raise ValueError("a stored sheet's rounds that do not read")
                results = self.rescore()
            self.results = results
            # Not needed again, and ``rescore`` holds the game whose sheet holds these rounds:
            # a cycle, which only the garbage collector's passes freed, with every round read
            # (the CSV of a 300-round game left 11,000 objects to them; `make probe`'s exports
            # saw the passes stop a server process for 25-100 ms).
            self.rescore = None
        return self.results


def kept_running_totals(data: bytes, count: int) -> engine.RunningTotals | None:
    """The running totals of ``count`` rounds pickled in ``data``; None if they do not read."""
    running = unpickled(data)
    readable = isinstance(running, engine.RunningTotals) and len(running.rows) == count
    return running if readable else None


def kept_recent(data: bytes, count: int) -> list | None:
    """The newest rounds of ``count`` with their deals, pickled in ``data``; None if they do
    not read."""
    recent = unpickled(data)
    readable = isinstance(recent, list) and len(recent) == min(count, RECENT_ROUNDS)
    return recent if readable else None


def unpickled(data: bytes):
    """What ``data`` holds; None if nothing was kept, or it does not read (older code's)."""
    try:
        return pickle.loads(data)
    except Exception:
        return None


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
