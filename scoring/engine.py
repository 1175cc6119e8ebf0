"""The referee: checks what the table entered and scores a whole game, round by round.

The variant modules say how a round is scored; this module does what is the
same for every variant: refusing bad input with a message that names the
round, player and card at fault, adding penalty points, keeping running
totals, eliminations, and the end of the game.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from scoring.cards import Card, format_points
from scoring.notes import Note, gettext_noop, note
from scoring.variants import VARIANTS, Variant
from scoring.variants.base import ZERO, Play, Standing

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_NAME_LENGTH = 40
MAX_ROUNDS = 999
MAX_REASON_LENGTH = 200
MAX_PENALTY = Fraction(999)

# The cards, or a total typed in (a number, checked when the round is scored).
Hand = tuple[Card, ...] | Fraction | int | float


class GameError(ValueError):
    """Input that breaks the rules. ``detail`` is the message for the field at fault."""

    def __init__(
        self,
        detail: str,
        *,
        round: int | None = None,
        player: str | None = None,
        field: str | None = None,
    ) -> None:
        self.detail, self.round, self.player, self.field = detail, round, player, field
        where = ", ".join(
            part for part in (f"Round {round}" if round else "", player or "") if part
        )
        super().__init__(f"{where}: {detail}" if where else detail)


# --- what the table entered ------------------------------------------------


@dataclass(frozen=True)
class Penalty:
    player: str
    points: Fraction | int | float  # checked when the round is scored
    reason: str = ""


@dataclass(frozen=True)
class Round:
    hands: Mapping[str, Hand]
    caller: str | None = None
    counter_caller: str | None = None
    emptied: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    penalty_cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Game:
    variant: str
    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    settings: Mapping[str, object] = field(default_factory=dict)


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
    knocked_out: list[str]  # Dutch: out after this round
    reset: list[str]  # Tamoul: fell back from 100 to 50
    penalty_cards_due: int  # Dutch toulousain: cards the dutcher had to draw


@dataclass(frozen=True)
class ScoreSheet:
    variant: str
    players: tuple[str, ...]
    rounds: list[RoundResult]
    totals: dict[str, Fraction]
    in_game: tuple[str, ...]
    finished: bool
    winners: list[str]
    losers: list[str]
    eliminated: list[str]


# --- names, numbers and settings -------------------------------------------


def clean_name(name: object) -> str:
    """A player's name as stored: trimmed, Unicode-normalised. Not yet checked."""
    if not isinstance(name, str):
        return ""
    return unicodedata.normalize("NFC", name).strip()


def check_players(raw: Sequence[object]) -> tuple[str, ...]:
    """2–8 names, trimmed, 1–40 characters, unique ignoring case."""
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise GameError(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(raw)}.",
            field="players",
        )
    names: list[str] = []
    seen: dict[str, str] = {}
    for position, value in enumerate(raw, 1):
        if not isinstance(value, str):
            raise GameError(f"player {position}: a name must be text.", field="players")
        name = clean_name(value)
        if not name:
            raise GameError(f"player {position}: the name is blank.", field="players")
        if len(name) > MAX_NAME_LENGTH:
            raise GameError(
                f"player {position}: a name has at most {MAX_NAME_LENGTH} characters.",
                field="players",
            )
        if any(unicodedata.category(char).startswith("C") for char in name):
            raise GameError(
                f"player {position}: the name has an invisible control character.",
                field="players",
            )
        key = name.casefold()
        if key in seen:
            raise GameError(
                f"player {position}: {name!r} is the same name as {seen[key]!r}.",
                field="players",
            )
        seen[key] = name
        names.append(name)
    return tuple(names)


def exact(value: object, *, halves: bool, what: str, **where: object) -> Fraction:
    """A JSON or Python number as exact points: whole, or a half where the variant has halves."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise GameError(f"{what} must be a number.", **where)
    if isinstance(value, float) and not math.isfinite(value):
        raise GameError(f"{what} must be a finite number.", **where)
    number = Fraction(value)
    if number.denominator == 1:
        return number
    if not halves:
        raise GameError(f"{what} is {float(number):g}: half points exist only in Tamoul.", **where)
    if number.denominator != 2:
        raise GameError(f"{what} is {float(number):g}: only whole or half points.", **where)
    return number


def check_settings(variant_key: str, raw: Mapping[str, object]) -> Variant:
    """The variant with its house settings, each checked."""
    if variant_key not in VARIANTS:
        raise GameError(
            f"unknown variant {variant_key!r}; one of: {', '.join(VARIANTS)}.", field="variant"
        )
    variant = VARIANTS[variant_key]
    settings: dict[str, object] = {}
    for name, value in raw.items():
        where = {"field": f"settings.{name}"}
        if name not in variant.defaults:
            taken = ", ".join(variant.defaults)
            raise GameError(
                f"{variant_key} takes no setting {name!r} (it takes: {taken}).", **where
            )
        if name == "rounds":
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 1 <= value <= MAX_ROUNDS
            ):
                raise GameError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}.", **where)
        elif name == "decks":
            if isinstance(value, bool) or value not in (1, 2):
                raise GameError("decks must be 1 or 2.", **where)
        elif name == "half_game":
            if not isinstance(value, bool):
                raise GameError("half_game must be true or false.", **where)
        elif name in ("call_threshold", "joker_value"):
            value = exact(value, halves=variant.half_points, what=name, **where)
            if abs(value) > 100:
                raise GameError(f"{name} must be between -100 and 100.", **where)
        settings[name] = value
    return variant(**settings)


# --- a round -----------------------------------------------------------------


def hand_total(variant: Variant, hand: Hand, *, round: int, player: str) -> Fraction:
    """t(p): the cards' values added up, or the typed total once checked."""
    where = {"round": round, "player": player, "field": "hands"}
    if isinstance(hand, tuple):
        for card in hand:
            if not variant.in_deck(card):
                raise GameError(f"there is no {card} in the {variant.name} deck.", **where)
        return sum((variant.value(card) for card in hand), ZERO)
    total = exact(hand, halves=variant.half_points, what="the hand total", **where)
    lowest, highest = variant.lowest_possible_hand, variant.highest_possible_hand
    if total < lowest:
        if lowest == 0:
            raise GameError(
                f"a hand total of {format_points(total)} is impossible: "
                f"no card is worth less than 0 in {variant.name}.",
                **where,
            )
        raise GameError(
            f"a hand total of {format_points(total)} is impossible: "
            f"the lowest possible in {variant.name} is {format_points(lowest)}.",
            **where,
        )
    if total > highest:
        raise GameError(
            f"a hand total of {format_points(total)} is impossible: "
            f"all the cards together make {format_points(highest)}.",
            **where,
        )
    return total


def check_cards_once(variant: Variant, entry: Round, *, round: int) -> None:
    """With one deck no card can be in two places in a round (two decks: twice)."""
    owners: dict[Card, list[str]] = {}
    for player, hand in entry.hands.items():
        if isinstance(hand, tuple):
            for card in hand:
                owners.setdefault(card, []).append(player)
    for card in entry.penalty_cards:
        owners.setdefault(card, []).append(entry.caller or "")
    for card, places in owners.items():
        allowed = variant.decks * (variant.values.jokers if card.is_joker else 1)
        if len(places) > allowed:
            who = ", ".join(sorted(set(places), key=places.index)) or "?"
            decks = "one deck" if variant.decks == 1 else f"{variant.decks} decks"
            what = f"{len(places)} jokers" if card.is_joker else f"the {card} {len(places)} times"
            raise GameError(
                f"{what} in one round ({who}), but there are only {allowed} with {decks}.",
                round=round,
                player=places[-1] or None,
                field="hands",
            )


ROLES = {
    "caller": "caller",
    "counter_caller": "counter-caller",
    "emptied": "player who emptied their hand",
    "penalties": "player given penalty points",
}


def check_player(
    name: str | None, in_round: Sequence[str], everyone: Sequence[str], *, round: int, role: str
) -> None:
    """A name given in a round must be a player who plays that round."""
    if name is None:
        return
    if name not in everyone:
        raise GameError(
            f"the {ROLES[role]} {name!r} is not a player of this game.", round=round, field=role
        )
    if name not in in_round:
        raise GameError(
            f"the {ROLES[role]} {name} is out of the game.", round=round, player=name, field=role
        )


def score_round(
    variant: Variant,
    entry: Round,
    *,
    number: int,
    everyone: Sequence[str],
    in_game: Sequence[str],
) -> RoundResult:
    """Check one round and score it with the variant. Running totals come later."""
    where = {"round": number}
    for player in entry.hands:
        if player not in everyone:
            raise GameError(f"{player!r} is not a player of this game.", field="hands", **where)
        if player not in in_game:
            raise GameError(
                f"{player} is out of the game and has no hand.",
                player=player,
                field="hands",
                **where,
            )
    for player in in_game:
        if player not in entry.hands:
            raise GameError(f"no hand for {player}.", player=player, field="hands", **where)
    order = tuple(in_game)

    totals = {p: hand_total(variant, entry.hands[p], round=number, player=p) for p in order}
    check_cards_once(variant, entry, round=number)

    check_player(entry.caller, order, everyone, round=number, role="caller")
    if entry.counter_caller is not None:
        if not variant.counter_call:
            raise GameError(
                f"there is no counter-call in {variant.name}.", field="counter_caller", **where
            )
        check_player(entry.counter_caller, order, everyone, round=number, role="counter_caller")
        if entry.caller is None:
            raise GameError(
                "a counter-call needs a caller.",
                player=entry.counter_caller,
                field="counter_caller",
                **where,
            )
        if entry.counter_caller == entry.caller:
            raise GameError(
                "the caller cannot counter their own call.",
                player=entry.caller,
                field="counter_caller",
                **where,
            )

    for player in entry.emptied:
        check_player(player, order, everyone, round=number, role="emptied")
        if totals[player] != 0 or (isinstance(entry.hands[player], tuple) and entry.hands[player]):
            raise GameError(
                "got rid of all cards, so the hand must be empty (or 0).",
                player=player,
                field="emptied",
                **where,
            )
    if len(set(entry.emptied)) != len(entry.emptied):
        raise GameError("a player is listed twice as emptied.", field="emptied", **where)

    penalties = []
    for penalty in entry.penalties:
        at = {**where, "player": penalty.player, "field": "penalties"}
        check_player(penalty.player, order, everyone, round=number, role="penalties")
        points = exact(penalty.points, halves=variant.half_points, what="penalty points", **at)
        if points == 0:
            raise GameError("penalty points cannot be 0.", **at)
        if abs(points) > MAX_PENALTY:
            raise GameError(f"penalty points go up to {MAX_PENALTY}.", **at)
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
            f"there are no penalty cards in {variant.name}.", field="penalty_cards", **where
        )
    if len(entry.penalty_cards) != due:
        raise GameError(
            f"{due} player(s) had fewer points than the dutcher, who draws {due} "
            f"penalty card(s), not {len(entry.penalty_cards)}.",
            player=entry.caller,
            field="penalty_cards",
            **where,
        )
    for card in entry.penalty_cards:
        if not variant.in_deck(card):
            raise GameError(
                f"there is no {card} in the {variant.name} deck.",
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
        reset=[],
        penalty_cards_due=due,
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


def score_game(game: Game) -> ScoreSheet:
    """Check and score every round in order; the first fault stops it with a GameError."""
    variant = check_settings(game.variant, game.settings)
    players = check_players(game.players)
    if len(game.rounds) > MAX_ROUNDS:
        raise GameError(f"a game has at most {MAX_ROUNDS} rounds.", field="rounds")

    totals = {p: ZERO for p in players}
    in_game = list(players)
    eliminated: list[str] = []
    results: list[RoundResult] = []
    standing: Standing | None = None
    finished = False

    for number, entry in enumerate(game.rounds, 1):
        if finished:
            raise GameError(
                f"the game ended after round {number - 1}; no more rounds can be added.",
                round=number,
                field="rounds",
            )
        result = score_round(variant, entry, number=number, everyone=players, in_game=in_game)
        notes = result.notes
        reset: list[str] = []
        for p, score in result.scores.items():
            adjusted, why = variant.adjust_total(p, totals[p] + score)
            totals[p] = adjusted
            if why is not None:
                reset.append(p)
                notes.append(why)
        partial = Standing(players, dict(totals), tuple(in_game), (), number)
        knocked_out = variant.knocked_out(partial)
        for p in knocked_out:
            in_game.remove(p)
            eliminated.append(p)
            notes.append(
                note(
                    gettext_noop("{player} has {total}, reaches 100 and is out of the game."),
                    player=p,
                    total=totals[p],
                )
            )
        standing = Standing(players, dict(totals), tuple(in_game), tuple(knocked_out), number)
        finished = variant.game_over(standing) or (
            variant.rounds is not None and number >= variant.rounds
        )
        results.append(
            replace(result, totals=dict(totals), knocked_out=knocked_out, reset=reset, notes=notes)
        )

    winners = variant.game_winners(standing) if finished else []
    losers = variant.game_losers(standing) if finished else []
    return ScoreSheet(
        variant=variant.key,
        players=players,
        rounds=results,
        totals=dict(totals),
        in_game=tuple(in_game),
        finished=finished,
        winners=winners,
        losers=losers,
        eliminated=eliminated,
    )


def deals(game: Game, sheet: ScoreSheet, first_dealer: int = 0) -> list[tuple[str, str]]:
    """(dealer, first to play) of every round, and of the next one: the deal passes to the
    next player still in, who lets the player after him start; a variant may say otherwise."""
    variant = check_settings(game.variant, game.settings)
    players = sheet.players
    in_game = list(players)

    def after(player: str, among: list[str]) -> str:
        start = players.index(player)
        for step in range(1, len(players) + 1):
            candidate = players[(start + step) % len(players)]
            if candidate in among:
                return candidate
        return player

    dealer = players[first_dealer % len(players)]
    result = [(dealer, after(dealer, in_game))]
    for entry, scored in zip(game.rounds, sheet.rounds, strict=False):
        for player in scored.knocked_out:
            in_game.remove(player)
        if not in_game:
            break
        dealer = after(dealer, in_game)
        rotation = (dealer, after(dealer, in_game))
        dealer, first = variant.next_deal(rotation, entry.caller, scored.winners)
        result.append((dealer, first))
    return result
