"""The referee: checks what the table entered and scores a whole game, round by round.

The variant modules say how a round is scored; this module does what is the
same for every variant: refusing bad input with a message that names the
round, player and card at fault, adding penalty points, keeping running
totals, eliminations, and the end of the game.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from scoring.referee.cards import Card, format_points
from scoring.referee.house import MAX_ROUNDS, HouseRules, SettingErrors
from scoring.referee.notes import (
    NOTES,
    Note,
    Term,
    english_plural,
    gettext_noop,
    names,
    note,
    plural_noop,
)
from scoring.referee.tambouille import CARDS, Tambouille
from scoring.referee.variants import VARIANTS, Variant
from scoring.referee.variants.base import ZERO, Play, Standing

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_NAME_LENGTH = 40
MAX_REASON_LENGTH = 200
MAX_PENALTY = Fraction(999)

# The cards, or a total typed in (a number, checked when the round is scored).
Hand = tuple[Card, ...] | Fraction | int | float


class GameError(ValueError):
    """Input that breaks the rules, said as a note (translatable) with where it is:
    ``detail`` for next to the field at fault, ``str()`` with the round and player."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        player: str | None = None,
        field: str | None = None,
        **params: object,
    ) -> None:
        self.note = note(message, **params)
        self.round, self.player, self.field = round, player, field
        self.problems = [self]  # several settings at fault: one GameError each
        super().__init__(self.render())

    @property
    def detail(self) -> str:
        return self.note.render()

    def render(
        self, translate: Callable[[str], str] = str, number=format_points, plural=english_plural
    ) -> str:
        detail = self.note.render(translate, number, plural)
        if self.round and self.player:
            where = translate(gettext_noop("Round {round}, {player}: {detail}"))
        elif self.round:
            where = translate(gettext_noop("Round {round}: {detail}"))
        elif self.player:
            where = translate(gettext_noop("{player}: {detail}"))
        else:
            return detail
        return where.format(round=self.round, player=self.player, detail=detail)


# --- what the table entered ------------------------------------------------


@dataclass(frozen=True)
class Penalty:
    player: str
    points: Fraction | int | float  # checked when the round is scored
    reason: str = ""


@dataclass(frozen=True)
class RoundEntry:
    hands: Mapping[str, Hand]
    caller: str | None = None
    counter_caller: str | None = None
    emptied: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    penalty_cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class GameEntry:
    variant: str
    players: tuple[str, ...]
    rounds: tuple[RoundEntry, ...] = ()
    settings: Mapping[str, object] = field(default_factory=dict)
    # Tambouille: the table declared the match blocked after this turn round.
    blocked_after: int | None = None
    rules_name: str | None = None  # the name a table gave its house rules (1–40 characters)
    # The table ended the game after its last round ("End the game now"; a match: blocked).
    ended: bool = False
    first_dealer: str | None = None  # who dealt the first round; None: the first player
    game_id: str | None = None  # the app's own identifier of the game (never a link's key)


# Every game the referee keeps, by the key game files and URLs use: the Tamalou variants, and
# Tambouille, a different game kept on a match sheet.
GAMES: dict[str, type[HouseRules]] = {**VARIANTS, Tambouille.key: Tambouille}


# --- what the referee says -------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    number: int
    hand_totals: dict[str, Fraction]
    scores: dict[str, Fraction]
    totals: dict[str, Fraction]
    winners: list[str]
    caller_succeeded: bool | None
    notes: list[Note]
    knocked_out: list[str]  # out of the game after this round
    adjusted: list[str]  # whose running total the variant adjusted after this round
    penalty_cards_due: int  # penalty cards the caller had to draw
    caller: str | None = None


@dataclass(frozen=True)
class ScoreSheet:
    variant: str
    players: tuple[str, ...]
    rounds: Sequence[RoundResult]
    totals: dict[str, Fraction]
    in_game: tuple[str, ...]
    finished: bool
    winners: list[str]
    losers: list[str]
    eliminated: list[str]


# --- names, numbers and settings -------------------------------------------


def unstorable(text: str) -> str | None:
    """The first character of ``text`` that no database or file format here can hold safely:
    a control character (NUL included) or half of a surrogate pair; None if there is none."""
    return next((char for char in text if unicodedata.category(char) in ("Cc", "Cs")), None)


ZWJ = "\u200d"  # zero width joiner: joins emoji into one (👩 + 🍳 = 👩‍🍳)
VS16 = "\ufe0f"  # asks for the emoji look of the character before it (❤️)
SKIN_TONES = range(0x1F3FB, 0x1F400)
# A subdivision's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿): a black flag, invisible tag letters, a cancel tag.
FLAG_TAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def _emoji_before(char: str) -> bool:
    return unicodedata.category(char) == "So" or char == VS16 or ord(char) in SKIN_TONES


def invisible_character(name: str) -> str | None:
    """The first character of a name that players would not see or that no file can hold: a
    control, format, private-use or unassigned character (categories C*), but not those
    that make an emoji sequence (a joiner between two emoji, the tags of a subdivision's
    flag); None if there is none. Flags, skin tones and VS16 are not C* characters."""
    text = FLAG_TAGS.sub("\U0001f3f4", name)
    for i, char in enumerate(text):
        if not unicodedata.category(char).startswith("C"):
            continue
        joins = (
            char == ZWJ
            and 0 < i < len(text) - 1
            and _emoji_before(text[i - 1])
            and unicodedata.category(text[i + 1]) == "So"
        )
        if not joins:
            return char
    return None


def clean_name(name: object) -> str:
    """A player's name as stored: trimmed, Unicode-normalised. Not yet checked."""
    if not isinstance(name, str):
        return ""
    return unicodedata.normalize("NFC", name).strip()


def check_players(
    raw: Sequence[object], low: int = MIN_PLAYERS, high: int = MAX_PLAYERS
) -> tuple[str, ...]:
    """``low`` to ``high`` names (2–8 unless the game says otherwise), trimmed, 1–40
    characters, unique ignoring case."""
    if not low <= len(raw) <= high:
        raise GameError(
            gettext_noop("a game needs {low} to {high} players, not {count}."),
            field="players",
            low=low,
            high=high,
            count=len(raw),
        )
    names: list[str] = []
    seen: dict[str, str] = {}
    for position, value in enumerate(raw, 1):
        if not isinstance(value, str):
            raise GameError(
                gettext_noop("player {position}: a name must be text."),
                field="players",
                position=position,
            )
        name = clean_name(value)
        if not name:
            raise GameError(
                gettext_noop("player {position}: the name is blank."),
                field="players",
                position=position,
            )
        if len(name) > MAX_NAME_LENGTH:
            raise GameError(
                gettext_noop("player {position}: a name has at most {most} characters."),
                field="players",
                position=position,
                most=MAX_NAME_LENGTH,
            )
        if invisible_character(name):
            raise GameError(
                gettext_noop("player {position}: the name has an invisible control character."),
                field="players",
                position=position,
            )
        key = name.casefold()
        if key in seen:
            raise GameError(
                gettext_noop("player {position}: '{name}' is the same name as '{other}'."),
                field="players",
                position=position,
                name=name,
                other=seen[key],
            )
        seen[key] = name
        names.append(name)
    return tuple(names)


def check_rules_name(value: object) -> str:
    """The name of a table's house rules as stored: trimmed, 1–40 characters."""
    name = clean_name(value)
    if not isinstance(value, str) or not name or len(name) > MAX_NAME_LENGTH:
        raise GameError(
            gettext_noop("the name of the house rules must be 1 to {most} characters."),
            most=MAX_NAME_LENGTH,
            field="rules_name",
        )
    if unstorable(name):  # a control character (Cc) or half of a surrogate pair
        raise GameError(
            gettext_noop("the name of the house rules has an invisible control character."),
            field="rules_name",
        )
    return name


def exact(value: object, *, variant: Variant, what: str, **where: object) -> Fraction:
    """A JSON or Python number as exact points: whole, or a half where the variant has halves."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise GameError(gettext_noop("{what} must be a number."), what=Term(what), **where)
    if isinstance(value, float) and not math.isfinite(value):
        raise GameError(gettext_noop("{what} must be a finite number."), what=Term(what), **where)
    number = Fraction(value)
    if number.denominator == 1:
        return number
    if not variant.half_points:
        raise GameError(
            gettext_noop("{what} is {value}: there are no half points in {variant}."),
            what=Term(what),
            value=number,
            variant=Term(variant.name),
            **where,
        )
    if number.denominator != 2:
        raise GameError(
            gettext_noop("{what} is {value}: only whole or half points."),
            what=Term(what),
            value=f"{float(number):g}",
            **where,
        )
    return number


def check_settings(variant_key: str, raw: Mapping[str, object]) -> HouseRules:
    """The variant (or Tambouille) with its house settings, each checked against its
    declaration; every setting at fault is said at once, by its label (``problems``: one
    GameError per setting, for the form's fields)."""
    if variant_key not in GAMES:
        raise GameError(
            gettext_noop("unknown variant '{key}'; one of: {keys}."),
            field="variant",
            key=variant_key,
            keys=", ".join(GAMES),
        )
    variant = GAMES[variant_key]
    for name in raw:
        if name not in variant.defaults:
            raise GameError(
                gettext_noop("{key} takes no setting '{name}' (it takes: {taken})."),
                key=variant_key,
                name=name,
                taken=", ".join(variant.defaults),
                field=f"settings.{name}",
            )
    try:
        return variant(**raw)
    except SettingErrors as refused:
        problems = [
            GameError(error.message, field=f"settings.{error.setting}", **error.params)
            for error in refused.errors
        ]
        if len(problems) == 1:
            raise problems[0] from None
        error = GameError(
            NOTES, field=problems[0].field, notes=tuple(problem.note for problem in problems)
        )
        error.problems = problems
        raise error from None


# --- a round -----------------------------------------------------------------


def hand_total(variant: Variant, hand: Hand, *, round: int, player: str) -> Fraction:
    """t(p): the cards' values added up, or the typed total once checked."""
    where = {"round": round, "player": player, "field": "hands"}
    if isinstance(hand, tuple):
        for card in hand:
            if not variant.in_deck(card):
                raise GameError(
                    gettext_noop("there is no {card} in the {variant} deck."),
                    card=card,
                    variant=Term(variant.name),
                    **where,
                )
        return sum((variant.value(card) for card in hand), ZERO)
    total = exact(hand, variant=variant, what=gettext_noop("the hand total"), **where)
    lowest, highest = variant.lowest_possible_hand, variant.highest_possible_hand
    if total < lowest:
        if lowest == 0:
            raise GameError(
                gettext_noop(
                    "a hand total of {total} is impossible: "
                    "no card is worth less than 0 in {variant}."
                ),
                total=total,
                variant=Term(variant.name),
                **where,
            )
        raise GameError(
            gettext_noop(
                "a hand total of {total} is impossible: "
                "the lowest possible in {variant} is {lowest}."
            ),
            total=total,
            variant=Term(variant.name),
            lowest=lowest,
            **where,
        )
    if total > highest:
        raise GameError(
            gettext_noop(
                "a hand total of {total} is impossible: all the cards together make {highest}."
            ),
            total=total,
            highest=highest,
            **where,
        )
    return total


def check_cards_once(variant: Variant, entry: RoundEntry, *, round: int) -> None:
    """With one deck no card can be in two places in a round (two decks: twice)."""
    owners: dict[Card, list[str]] = {}
    for player, hand in entry.hands.items():
        if isinstance(hand, tuple):
            for card in hand:
                owners.setdefault(card, []).append(player)
    for card in entry.penalty_cards:
        owners.setdefault(card, []).append(entry.caller or "")
    for card, places in owners.items():
        allowed = variant.copies(card)
        if len(places) > allowed:
            who = ", ".join(sorted(set(places), key=places.index)) or "?"
            if card.is_joker:
                message = gettext_noop(
                    "{count} jokers in one round ({who}), "
                    "but there are only {allowed} with {decks}."
                )
            else:
                message = gettext_noop(
                    "the {card} {count} times in one round ({who}), but there are only "
                    "{allowed} with {decks}."
                )
            raise GameError(
                message,
                card=card,
                count=len(places),
                who=who,
                allowed=allowed,
                decks=Term(
                    gettext_noop("one deck") if variant.decks == 1 else gettext_noop("two decks")
                ),
                round=round,
                player=places[-1] or None,
                field="hands",
            )


ROLES = {
    "caller": gettext_noop("caller"),
    "counter_caller": gettext_noop("counter-caller"),
    "emptied": gettext_noop("player who emptied their hand"),
    "penalties": gettext_noop("player given penalty points"),
}


def check_player(
    name: str | None, in_round: Sequence[str], everyone: Sequence[str], *, round: int, role: str
) -> None:
    """A name given in a round must be a player who plays that round."""
    if name is None:
        return
    if name not in everyone:
        raise GameError(
            gettext_noop("the {role} '{name}' is not a player of this game."),
            role=Term(ROLES[role]),
            name=name,
            round=round,
            field=role,
        )
    if name not in in_round:
        raise GameError(
            gettext_noop("the {role} {name} is out of the game."),
            role=Term(ROLES[role]),
            name=name,
            round=round,
            player=name,
            field=role,
        )


def score_round(
    variant: Variant,
    entry: RoundEntry,
    *,
    number: int,
    everyone: Sequence[str],
    in_game: Sequence[str],
) -> RoundResult:
    """Check one round and score it with the variant. Running totals come later."""
    where = {"round": number}
    for player in entry.hands:
        if player not in everyone:
            raise GameError(
                gettext_noop("'{name}' is not a player of this game."),
                name=player,
                field="hands",
                **where,
            )
        if player not in in_game:
            raise GameError(
                gettext_noop("{name} is out of the game and has no hand."),
                name=player,
                player=player,
                field="hands",
                **where,
            )
    for player in in_game:
        if player not in entry.hands:
            raise GameError(
                gettext_noop("no hand for {name}."),
                name=player,
                player=player,
                field="hands",
                **where,
            )
    order = tuple(in_game)

    totals = {p: hand_total(variant, entry.hands[p], round=number, player=p) for p in order}
    check_cards_once(variant, entry, round=number)

    check_player(entry.caller, order, everyone, round=number, role="caller")
    if entry.counter_caller is not None:
        if not variant.counter_call:
            raise GameError(
                gettext_noop("there is no counter-call in {variant}."),
                variant=Term(variant.name),
                field="counter_caller",
                **where,
            )
        check_player(entry.counter_caller, order, everyone, round=number, role="counter_caller")
        if entry.caller is None:
            raise GameError(
                gettext_noop("a counter-call needs a caller."),
                player=entry.counter_caller,
                field="counter_caller",
                **where,
            )
        if entry.counter_caller == entry.caller:
            raise GameError(
                gettext_noop("the caller cannot counter their own call."),
                player=entry.caller,
                field="counter_caller",
                **where,
            )

    for player in entry.emptied:
        check_player(player, order, everyone, round=number, role="emptied")
        if totals[player] != 0 or (isinstance(entry.hands[player], tuple) and entry.hands[player]):
            raise GameError(
                gettext_noop("got rid of all cards, so the hand must be empty (or 0)."),
                player=player,
                field="emptied",
                **where,
            )
    if len(set(entry.emptied)) != len(entry.emptied):
        raise GameError(
            gettext_noop("a player is listed twice as emptied."), field="emptied", **where
        )

    penalties = []
    for penalty in entry.penalties:
        at = {**where, "player": penalty.player, "field": "penalties"}
        check_player(penalty.player, order, everyone, round=number, role="penalties")
        points = exact(penalty.points, variant=variant, what=gettext_noop("penalty points"), **at)
        if points == 0:
            raise GameError(gettext_noop("penalty points cannot be 0."), **at)
        if abs(points) > MAX_PENALTY:
            raise GameError(gettext_noop("penalty points go up to {most}."), most=MAX_PENALTY, **at)
        penalties.append(replace(penalty, points=points))

    play = Play(
        order=order,
        totals=totals,
        caller=entry.caller,
        counter_caller=entry.counter_caller,
        emptied=frozenset(entry.emptied),
    )
    due = variant.penalty_cards_due(play)
    if entry.penalty_cards and not variant.penalty_cards:
        raise GameError(
            gettext_noop("there are no penalty cards in {variant}."),
            variant=Term(variant.name),
            field="penalty_cards",
            **where,
        )
    if len(entry.penalty_cards) != due:
        raise GameError(
            plural_noop(
                "{count} player had fewer points than the caller, who draws {count} "
                "penalty card, not {given}.",
                "{count} players had fewer points than the caller, who draws {count} "
                "penalty cards, not {given}.",
            ),
            count=due,
            given=len(entry.penalty_cards),
            player=entry.caller,
            field="penalty_cards",
            **where,
        )
    for card in entry.penalty_cards:
        if not variant.in_deck(card):
            raise GameError(
                gettext_noop("there is no {card} in the {variant} deck."),
                card=card,
                variant=Term(variant.name),
                player=entry.caller,
                field="penalty_cards",
                **where,
            )
    if entry.penalty_cards:
        drawn = sum((variant.value(card) for card in entry.penalty_cards), ZERO)
        totals = {**totals, entry.caller: totals[entry.caller] + drawn}
        play = replace(play, totals=totals, penalty_cards=tuple(entry.penalty_cards))

    outcome = variant.score(play)
    scores = dict(outcome.scores)
    notes = list(outcome.notes)
    for penalty in penalties:
        scores[penalty.player] += penalty.points
        notes.append(penalty_note(penalty))
    return RoundResult(
        number=number,
        hand_totals=dict(totals),
        scores=scores,
        totals={},
        winners=outcome.winners,
        caller_succeeded=outcome.caller_succeeded,
        notes=notes,
        knocked_out=[],
        adjusted=[],
        penalty_cards_due=due,
        caller=entry.caller,
    )


def penalty_note(penalty: Penalty) -> Note:
    if penalty.reason:
        return note(
            gettext_noop("{player}: {points} penalty points ({reason})."),
            player=penalty.player,
            points=penalty.points,
            reason=penalty.reason,
        )
    return note(
        gettext_noop("{player}: {points} penalty points."),
        player=penalty.player,
        points=penalty.points,
    )


# --- the whole game ----------------------------------------------------------


def ended_after_last_round(game: GameEntry) -> GameEntry:
    """A game the table ended: a match is blocked after its last turn round; a Tamalou game is
    played to exactly the rounds it has (the lowest totals win)."""
    return ended_after(game, len(game.rounds))


def ended_after(game: GameEntry, count: int) -> GameEntry:
    """The game the table ended after its ``count`` rounds (see ``ended_after_last_round``)."""
    if not count:
        raise GameError(
            gettext_noop("a game can be ended only after its first round."), field="ended"
        )
    if game.variant == Tambouille.key:
        return replace(game, ended=False, blocked_after=count)
    agreed = game.settings.get("rounds")  # a game ended early never runs past the agreed end
    last = count if agreed is None else min(count, agreed)
    return replace(game, ended=False, settings={**game.settings, "rounds": last})


@dataclass(frozen=True)
class Progress:
    """Where a game stands after its first ``number`` rounds: all the next round is scored
    from (the variants keep no other state between rounds: their rules read this standing)."""

    number: int
    totals: Mapping[str, Fraction]
    in_game: tuple[str, ...]
    eliminated: tuple[str, ...] = ()
    knocked_out_last_round: tuple[str, ...] = ()
    finished: bool = False
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()

    def places(self) -> dict[str, int]:
        """Each player's place: the game's winners first (a Dutch game whose last players all
        went out is won by the lowest of them, who may have more than a player out before),
        then the players still in, then those out, each by running total; players equal on
        all of it share a place."""
        won, out = self.winners, set(self.totals) - set(self.in_game)
        rank = {p: (p not in won, p in out, total) for p, total in self.totals.items()}
        return {p: 1 + sum(other < mine for other in rank.values()) for p, mine in rank.items()}


@dataclass(frozen=True)
class RunningTotals:
    """Each player's running total after each round, as a chart draws it (a float: exact for
    any total a hand can make, to far below a tenth of a point), with the least and the
    greatest of them exactly (0 before the first round), for the chart."""

    players: tuple[str, ...]
    # Round by round, each player's in seat order (None: not in that round).
    rows: tuple[tuple[float | None, ...], ...] = ()
    least: Fraction = ZERO
    most: Fraction = ZERO

    def after(self, results: Sequence[RoundResult]) -> RunningTotals:
        """These running totals followed by those of ``results``."""
        rows, least, most = list(self.rows), self.least, self.most
        for result in results:
            played = [result.totals[p] for p in self.players if p in result.scores]
            rows.append(
                tuple(float(result.totals[p]) if p in result.scores else None for p in self.players)
            )
            least, most = min([least, *played]), max([most, *played])
        return replace(self, rows=tuple(rows), least=least, most=most)


def running_totals(sheet: ScoreSheet) -> RunningTotals:
    """The running totals of every round of ``sheet``."""
    return RunningTotals(sheet.players).after(sheet.rounds)


def why_over(variant: HouseRules, after: Progress) -> tuple[str, dict]:
    """Why a game is over, for the refusal of a round after its end (a correction that would
    leave a round after it): the text and what it says."""
    if after.eliminated and len(after.in_game) == 1:
        return gettext_noop(
            "the game ended after round {last}: only {last_in} is still in; "
            "no more rounds can be added."
        ), {"last_in": after.in_game[0]}
    limit = variant.limit
    over = [p for p in after.totals if limit is not None and after.totals[p] > limit]
    if over:
        return gettext_noop(
            "the game ended after round {last}: {players} went past {limit}; "
            "no more rounds can be added."
        ), {"players": names(over), "limit": limit}
    if variant.rounds is not None and after.number >= variant.rounds:
        return gettext_noop(
            "the game ended after round {last}, the last of the {rounds} agreed; "
            "no more rounds can be added."
        ), {"rounds": variant.rounds}
    return gettext_noop("the game ended after round {last}; no more rounds can be added."), {}


def checked_rules(game: GameEntry) -> tuple[HouseRules, tuple[str, ...]]:
    """The game's variant with its house settings, and its players, checked."""
    variant = check_settings(game.variant, game.settings)
    if game.rules_name is not None:
        check_rules_name(game.rules_name)
    if isinstance(variant, Tambouille):
        players = check_players(game.players, variant.min_players, variant.max_players)
        if game.blocked_after is not None and game.blocked_after < 1:
            raise GameError(
                gettext_noop("a match can be declared blocked only after a turn round."),
                field="blocked",
            )
    else:
        if game.blocked_after is not None:
            raise GameError(
                gettext_noop("only a Tambouille match can be blocked."), field="blocked"
            )
        players = check_players(game.players)
    return variant, players


def beginning(variant: HouseRules, players: tuple[str, ...]) -> Progress:
    """A game before its first round (Tambouille: everyone holds the cards dealt)."""
    dealt = variant.dealt(len(players)) if isinstance(variant, Tambouille) else 0
    return Progress(0, {p: Fraction(dealt) for p in players}, players)


def score_game(game: GameEntry) -> ScoreSheet:
    """Check and score every round in order; the first fault stops it with a GameError."""
    if game.ended:
        game = ended_after_last_round(game)
    variant, players = checked_rules(game)
    results, after = continue_game(game, beginning(variant, players), game.rounds)
    return sheet_of(variant.key, players, results, after)


def extend_sheet(sheet: ScoreSheet, game: GameEntry, rounds: Sequence[RoundEntry]) -> ScoreSheet:
    """``sheet`` (the game's sheet so far) with ``rounds`` played after it: only they are
    scored. ``game`` gives the rules (its own rounds are not read)."""
    results, after = continue_game(game, progress_of(sheet), rounds)
    return sheet_of(sheet.variant, sheet.players, [*sheet.rounds, *results], after)


def progress_of(sheet: ScoreSheet) -> Progress:
    """Where the game of ``sheet`` stands after its last round."""
    last = sheet.rounds[-1] if sheet.rounds else None
    return Progress(
        number=len(sheet.rounds),
        totals=dict(sheet.totals),
        in_game=tuple(sheet.in_game),
        eliminated=tuple(sheet.eliminated),
        knocked_out_last_round=tuple(last.knocked_out) if last else (),
        finished=sheet.finished,
        winners=tuple(sheet.winners),
        losers=tuple(sheet.losers),
    )


def progress_after(sheet: ScoreSheet, count: int) -> Progress:
    """Where the game of ``sheet`` stood after its first ``count`` rounds, read from their
    results: a correction of round ``count + 1`` is scored on from there. (A Tamalou variant's
    sheet: a Tambouille match keeps the cards dealt, which its results do not say.)"""
    if count >= len(sheet.rounds):
        return progress_of(sheet)
    in_game = list(sheet.players)
    eliminated: list[str] = []
    for result in sheet.rounds[:count]:
        for player in result.knocked_out:
            in_game.remove(player)
            eliminated.append(player)
    last = sheet.rounds[count - 1] if count else None
    return Progress(
        number=count,
        totals=dict(last.totals) if last else {p: Fraction(0) for p in sheet.players},
        in_game=tuple(in_game),
        eliminated=tuple(eliminated),
        knocked_out_last_round=tuple(last.knocked_out) if last else (),
    )


def sheet_of(
    variant: str, players: tuple[str, ...], results: list[RoundResult], after: Progress
) -> ScoreSheet:
    return ScoreSheet(
        variant=variant,
        players=players,
        rounds=results,
        totals=dict(after.totals),
        in_game=after.in_game,
        finished=after.finished,
        winners=list(after.winners),
        losers=list(after.losers),
        eliminated=list(after.eliminated),
    )


def continue_game(
    game: GameEntry, before: Progress, rounds: Sequence[RoundEntry]
) -> tuple[list[RoundResult], Progress]:
    """Check and score ``rounds``, played after ``before`` (numbered on from it), with the
    rules of ``game``: their results, and where the game stands after them. Continuing from
    the standing after some rounds scores exactly as scoring the whole game again. (A game
    the table ``ended`` ends after ``rounds``.)"""
    if game.ended:
        game = ended_after(game, before.number + len(rounds))
    variant, players = checked_rules(game)
    if before.number + len(rounds) > MAX_ROUNDS:
        raise GameError(
            gettext_noop("a game has at most {most} rounds."), most=MAX_ROUNDS, field="rounds"
        )
    if isinstance(variant, Tambouille):
        return continue_match(game, variant, players, before, rounds)

    totals = {p: before.totals[p] for p in players}
    in_game = list(before.in_game)
    eliminated = list(before.eliminated)
    results: list[RoundResult] = []
    after = before

    for number, entry in enumerate(rounds, before.number + 1):
        if after.finished:
            message, why = why_over(variant, after)
            raise GameError(message, last=number - 1, round=number, field="rounds", **why)
        result = score_round(variant, entry, number=number, everyone=players, in_game=in_game)
        notes = result.notes
        adjusted: list[str] = []
        for p, score in result.scores.items():
            totals[p], why = variant.adjust_total(p, totals[p] + score)
            if why is not None:
                adjusted.append(p)
                notes.append(why)
        partial = Standing(players, dict(totals), tuple(in_game), (), number)
        knocked_out = variant.knocked_out(partial)
        for p in knocked_out:
            in_game.remove(p)
            eliminated.append(p)
            notes.append(variant.knocked_out_note(p, totals[p]))
        standing = Standing(players, dict(totals), tuple(in_game), tuple(knocked_out), number)
        finished = variant.game_over(standing) or (
            variant.rounds is not None and number >= variant.rounds
        )
        after = Progress(
            number=number,
            totals=dict(totals),
            in_game=tuple(in_game),
            eliminated=tuple(eliminated),
            knocked_out_last_round=tuple(knocked_out),
            finished=finished,
            winners=tuple(variant.game_winners(standing)) if finished else (),
            losers=tuple(variant.game_losers(standing)) if finished else (),
        )
        results.append(
            replace(
                result, totals=dict(totals), knocked_out=knocked_out, adjusted=adjusted, notes=notes
            )
        )
    return results, after


def continue_match(
    game: GameEntry,
    rules: Tambouille,
    players: tuple[str, ...],
    before: Progress,
    rounds: Sequence[RoundEntry],
) -> tuple[list[RoundResult], Progress]:
    """A Tambouille match sheet: each turn round's counts of cards left are its hand totals,
    scores and totals; the round is won by the fewest cards. See tambouille.py."""
    results: list[RoundResult] = []
    after = before
    for number, entry in enumerate(rounds, before.number + 1):
        if after.finished:
            raise GameError(
                gettext_noop("the match ended after turn round {last}; no more can be added."),
                last=number - 1,
                round=number,
                field="rounds",
            )
        check_no_calls(entry, round=number)
        for name in entry.hands:
            if name not in players:
                raise GameError(
                    gettext_noop("'{name}' is not a player of this game."),
                    name=name,
                    round=number,
                    field="hands",
                )
        counts = {p: cards_left(entry.hands, p, round=number) for p in players}
        fewest = rules.fewest(counts)
        notes = [
            note(
                gettext_noop("Fewest cards left: {players} ({count})."),
                players=names(fewest),
                count=counts[fewest[0]],
            )
        ]
        finished, winners = False, []
        emptied = rules.emptied(counts)
        if emptied:
            finished, winners = True, emptied
            notes.append(
                note(
                    gettext_noop("{players} emptied their hand: the match is over."),
                    players=names(emptied),
                )
            )
        elif number == game.blocked_after:
            finished, winners = True, fewest
            notes.append(
                note(gettext_noop("The table declared the match blocked: the fewest cards win."))
            )
        exact_counts = {p: Fraction(count) for p, count in counts.items()}
        results.append(
            RoundResult(
                number=number,
                hand_totals=exact_counts,
                scores=dict(exact_counts),
                totals=dict(exact_counts),
                winners=fewest,
                caller_succeeded=None,
                notes=notes,
                knocked_out=[],
                adjusted=[],
                penalty_cards_due=0,
            )
        )
        after = Progress(number, exact_counts, players, finished=finished, winners=tuple(winners))
    return results, after


def check_no_calls(entry: RoundEntry, *, round: int) -> None:
    """A turn round of Tambouille has only the cards each player holds: nobody calls."""
    if (
        entry.caller is not None
        or entry.counter_caller is not None
        or entry.emptied
        or entry.penalties
        or entry.penalty_cards
    ):
        raise GameError(
            gettext_noop("a turn round of Tambouille has only the cards each player holds."),
            round=round,
            field="rounds",
        )


def cards_left(hands: Mapping[str, Hand], player: str, *, round: int) -> int:
    """How many cards ``player`` still holds after a turn round: a whole number, 0–123."""
    where = {"round": round, "player": player, "field": "hands"}
    if player not in hands:
        raise GameError(gettext_noop("the number of cards left is missing."), **where)
    count = hands[player]
    if isinstance(count, tuple):
        raise GameError(gettext_noop("enter the number of cards left, not the cards."), **where)
    if isinstance(count, bool) or not isinstance(count, int | float | Fraction):
        raise GameError(gettext_noop("the cards left must be a number."), **where)
    if isinstance(count, float) and not math.isfinite(count):
        raise GameError(gettext_noop("the cards left must be a finite number."), **where)
    if Fraction(count).denominator != 1 or not 0 <= count <= CARDS:
        raise GameError(
            gettext_noop("the cards left must be a whole number from 0 to {most}."),
            most=CARDS,
            **where,
        )
    return int(count)


def deals(sheet: ScoreSheet, first_dealer: int = 0) -> list[tuple[str, str]]:
    """(dealer, first to play) of every round, and of the next one: the deal passes to the
    next player still in, who lets the player after him start; a variant may say otherwise."""
    variant = VARIANTS[sheet.variant]()
    players = sheet.players
    dealer = players[first_dealer % len(players)]
    result = [(dealer, seat_after(players, dealer, players))]
    in_game = list(players)
    for scored in sheet.rounds:
        in_game = [p for p in in_game if p not in scored.knocked_out]
        if not in_game:
            break
        result.append(deal_after(variant, players, result[-1][0], in_game, scored))
    return result


def deal_after(
    variant: Variant,
    players: Sequence[str],
    dealer: str,
    in_game: Sequence[str],
    scored: RoundResult,
) -> tuple[str, str]:
    """(dealer, first to play) of the round after ``scored``, which ``dealer`` dealt and
    after which ``in_game`` are still in."""
    dealer = seat_after(players, dealer, in_game)
    rotation = (dealer, seat_after(players, dealer, in_game))
    return variant.next_deal(rotation, scored.caller, scored.winners)


def seat_after(players: Sequence[str], player: str, among: Sequence[str]) -> str:
    """The next player of ``among`` after ``player``'s seat, round the table."""
    start = players.index(player)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in among:
            return candidate
    return player
