"""What every variant shares; each variant module declares only what differs.

A variant declares its card values (the deck is exactly the cards that have a
value), its house settings with their defaults, and how it scores a round.
Hooks with a default here: totals adjustments (Tamoul's 100 → 50),
eliminations (Dutch), and the end of the game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import ClassVar

from scoring.referee.cards import JOKER, RANKS, Card, format_points, full_deck, parse_card
from scoring.referee.house import (
    CALL_BONUS,
    CALL_PENALTY,
    CARD_VALUES,
    DECK,
    DECKS,
    JOKERS,
    LIMIT,
    RESET,
    ROUNDS,
    HouseRules,
    HouseSetting,
    SettingError,
)
from scoring.referee.notes import Note, Term, gettext_noop, names, note, notes_together

ZERO = Fraction(0)

# The ranks of each deck a table may choose (setting ``deck``).
DECK_RANKS = {"52": RANKS, "32": ("A", "7", "8", "9", "10", "J", "Q", "K")}


def house_settings(
    *own: HouseSetting, then: tuple[HouseSetting, ...] = (), **defaults: object
) -> tuple[HouseSetting, ...]:
    """A variant's settings in the order the new-game form shows them: rounds, the
    variant's ``own``, the ones every variant takes (decks, deck, jokers, card values),
    then ``then``; ``defaults`` gives this variant's default of any of them (docs/rules.md,
    House settings)."""
    taken = (ROUNDS, *own, DECKS, DECK, JOKERS, CARD_VALUES, *then)
    return tuple(
        setting.but(default=defaults[setting.name]) if setting.name in defaults else setting
        for setting in taken
    )


# The settings of a call's bonus and penalty, of the game's limit and of the reset, in the
# order the new-game form shows them (after a variant's own).
CALL_SETTINGS = (CALL_BONUS, CALL_PENALTY)
END_SETTINGS = (LIMIT, RESET)

# Decisions that hold in every variant, shown on every rules page.
GENERAL_DECISIONS = (
    gettext_noop(
        "Every variant accepts an agreed number of rounds: the game then ends after that "
        "round even if its own end has not come, and the lowest total among the players "
        "still in wins."
    ),
    gettext_noop("Round winners are decided before penalty points are added."),
    gettext_noop(
        "A typed hand total must be possible with the deck: not under all its negative "
        "cards together, not over all its cards together."
    ),
    gettext_noop(
        "With two decks a card may appear twice in a round, and there are up to 4 jokers."
    ),
    gettext_noop(
        "House rules set the joker's value once: by the joker value or by the card values, "
        "not both."
    ),
)


@dataclass(frozen=True)
class RedBlack:
    """A rank worth one value in red (♥ ♦) and another in black (♠ ♣)."""

    red: Fraction | int
    black: Fraction | int


@dataclass(frozen=True)
class CardValues:
    """The value of each rank in a variant. Ranks without a value are not in the deck.

    ``numbers`` are the number cards that exist, each worth its face value.
    """

    numbers: range
    named: Mapping[str, Fraction | int | RedBlack]

    def __init__(self, numbers: range, **named: Fraction | int | RedBlack) -> None:
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "named", named)

    @cached_property
    def ranks(self) -> tuple[str, ...]:
        present = {str(n) for n in self.numbers} | set(self.named)
        return tuple(rank for rank in RANKS if rank in present)

    @property
    def jokers(self) -> int:
        """Jokers in one deck."""
        return 2 if JOKER in self.named else 0

    def value(self, card: Card, joker_value: Fraction | None = None) -> Fraction:
        if card.is_joker and joker_value is not None:
            return Fraction(joker_value)
        worth = self.named.get(card.rank)
        if worth is None:
            # A number card is worth its face; a joker the variant does not have, 0.
            return ZERO if card.is_joker else Fraction(int(card.rank))
        if isinstance(worth, RedBlack):
            worth = worth.red if card.is_red else worth.black
        return Fraction(worth)


@dataclass(frozen=True)
class Power:
    """What a card does when drawn and discarded, for the ranks (and colour) it names."""

    ranks: tuple[str, ...]
    text: str
    colour: str | None = None  # "red" or "black"; None for both

    def applies_to(self, card: Card) -> bool:
        if card.rank not in self.ranks:
            return False
        return self.colour is None or (self.colour == "red") == card.is_red


# The sections of a rules page, in order, with their titles.
SECTIONS = (
    ("setup", gettext_noop("Set-up")),
    ("turn", gettext_noop("A turn")),
    ("quick_discard", gettext_noop("Quick discard")),
    ("call", gettext_noop("Calling the end")),
    ("scoring", gettext_noop("Scoring a round")),
    ("end", gettext_noop("End of the game")),
)

# Texts that several variants share. Placeholders are filled from the variant:
# {call} its call word, {threshold} its call threshold.
SETUP_52 = gettext_noop(
    "52 cards, no joker. The dealer gives each player 4 cards face down, laid out in a "
    "square that never changes. Each player looks once at the two cards nearest to them, "
    "then puts them back face down. The rest is the draw pile; its top card, turned over, "
    "starts the discard pile. The player after the dealer starts."
)
TURN = gettext_noop(
    "On your turn, either take the top card of the discard pile and swap it with one of "
    "your cards, or draw from the pile: swap that card with one of yours, or discard it at "
    "once and use its power if it has one. A card you replace goes face up on the discard."
)
QUICK_DISCARD = gettext_noop(
    "Whenever a card is discarded, any player may throw a card of the same rank from their "
    "own square on top of it; the fastest wins and the slower one takes their card back. "
    "Throwing a wrong card: take it back and draw a penalty card from the pile, face down, "
    "without looking."
)
MISUSED_POWER = gettext_noop(
    "A power used wrongly (looking at a card that must be swapped blind…): the turn is "
    "cancelled and the player draws a penalty card, face down."
)
TAMALOU_POWERS = (
    Power(("7", "8"), gettext_noop("Look at one of your own cards.")),
    Power(("9", "10"), gettext_noop("Look at one card of an opponent.")),
    Power(
        ("J", "Q"),
        gettext_noop("Swap one of your cards with an opponent's, blind: nobody looks."),
    ),
    Power(
        ("K",),
        gettext_noop("Look at an opponent's card, then swap it with one of yours if you like."),
        colour="black",
    ),
)


@dataclass(frozen=True)
class Play:
    """One round as the variant sees it: who played, their hand totals, the calls."""

    order: tuple[str, ...]  # the players in this round, in turn order
    totals: Mapping[str, Fraction]  # t(p); the dutcher's includes his penalty cards
    caller: str | None = None
    counter_caller: str | None = None
    emptied: frozenset[str] = frozenset()
    penalty_cards: tuple[Card, ...] = ()  # drawn by the caller, already in his total

    def t(self, player: str) -> Fraction:
        return self.totals[player]

    def others(self, player: str | None) -> tuple[str, ...]:
        return tuple(p for p in self.order if p != player)

    def lowest(self, among: Sequence[str] | None = None) -> list[str]:
        """The players with the lowest hand total (several when tied), in turn order."""
        among = self.order if among is None else among
        if not among:
            return []
        low = min(self.totals[p] for p in among)
        return [p for p in among if self.totals[p] == low]

    def beaten_by(self, player: str, strictly: bool) -> list[str]:
        """The other players with fewer points (or as few, unless ``strictly``)."""
        mine = self.totals[player]
        return [
            p
            for p in self.others(player)
            if self.totals[p] < mine or (not strictly and self.totals[p] == mine)
        ]

    def strictly_lowest(self, player: str) -> bool:
        return not self.beaten_by(player, strictly=False)


@dataclass
class Outcome:
    """A round scored by a variant, before penalty points."""

    scores: dict[str, Fraction]
    winners: list[str]
    caller_succeeded: bool | None
    notes: list[Note] = field(default_factory=list)


@dataclass(frozen=True)
class Landmark:
    """A running total the variant's rules give a meaning to (Dutch: 100 knocks you out),
    drawn across the score chart. ``label`` is a note, its numbers shown the local way."""

    total: Fraction
    label: Note


@dataclass(frozen=True)
class Standing:
    """Where the game stands after a round: what end-of-game rules look at."""

    order: tuple[str, ...]  # every player, in turn order
    totals: Mapping[str, Fraction]
    in_game: tuple[str, ...]  # the players still playing
    knocked_out_last_round: tuple[str, ...]
    rounds_played: int


class Variant(HouseRules):
    """A Tamalou variant with its house settings applied."""

    summary: ClassVar[str]  # one line, for the variant picker
    call_word: ClassVar[str]  # what the caller says: "Tamalou", "Gabo", …
    values: ClassVar[CardValues]
    hand_size: ClassVar[int] = 4  # the cards each player is dealt
    counter_call: ClassVar[bool] = False  # Tamoul's contre-Tamoul
    counter_call_word: ClassVar[str] = ""  # what the counter-caller says
    penalty_cards: ClassVar[bool] = False  # Dutch toulousain's capoté cards
    # How a round ends (docs/rules.md, Every variant): when a player calls; it may still end
    # without a caller (the draw pile ran out, the table stopped), so the round form asks
    # before saving one without (``ends_with_a_call``). A variant may also end a round when a
    # player gets rid of all their cards (Fontenaysien).
    rounds_end_with_a_call: ClassVar[bool] = True
    emptying_ends_the_round: ClassVar[bool] = False
    # What this app decided where the rules say nothing (shown on the rules page).
    decisions: ClassVar[tuple[str, ...]] = ()
    # Questions the seed texts leave open or answer differently, as the project's rules settle
    # them (shown on the rules page).
    settled: ClassVar[tuple[str, ...]] = ()
    # How the game is played, section by section (keys of SECTIONS), for the rules page.
    rules: ClassVar[Mapping[str, str]] = {}
    powers: ClassVar[tuple[Power, ...]] = ()
    power_rules: ClassVar[tuple[str, ...]] = ()  # how powers are used, beside the list
    # A round the rules page scores with the engine: players in turn order and the round
    # as the game file writes it.
    example: ClassVar[Mapping[str, object]] = {}

    # --- the deck and its values -------------------------------------------

    @property
    def ranks(self) -> tuple[str, ...]:
        """The ranks of the table's deck (setting ``deck``: 52 or 32 cards)."""
        return DECK_RANKS[self.settings.get("deck", "52")]

    @property
    def jokers(self) -> int:
        """Jokers in one deck (setting ``jokers``)."""
        return self.settings.get("jokers", 0)

    def default_value(self, card: Card) -> Fraction:
        """The card's value before ``card_values``: the variant's, or the joker value set."""
        joker_value = self.settings.get("joker_value")
        return self.values.value(card, None if joker_value is None else Fraction(joker_value))

    @cached_property
    def _card_values(self) -> dict[Card, Fraction]:
        changed = self.settings.get("card_values") or {}
        return {
            card: Fraction(changed.get(card.code, changed.get(card.rank, self.default_value(card))))
            for card in self.deck()
        }

    def value(self, card: Card) -> Fraction:
        return self._card_values[card]

    def in_deck(self, card: Card) -> bool:
        return card.rank in self.ranks or (card.is_joker and self.jokers > 0)

    def deck(self) -> tuple[Card, ...]:
        """The distinct cards of one deck (the joker once), for pickers and tables."""
        return full_deck(self.ranks, jokers=min(self.jokers, 1))

    def copies(self, card: Card) -> int:
        """How many of this card the table's decks hold (jokers: per deck × decks)."""
        return self.decks * (self.jokers if card.is_joker else 1)

    def card_value_rows(self) -> list[dict]:
        """What the builder draws for ``card_values``: one row per rank of the chosen deck
        (then the joker), each with its cards, each card with its key (``KH``), its default
        value and its value under these settings; a row's ``default`` is None when its
        cards' defaults differ (a red and a black king)."""
        rows: dict[str, dict] = {}
        for card in self.deck():
            row = rows.setdefault(card.rank, {"key": card.rank, "cards": []})
            row["cards"].append(
                {
                    "card": card,
                    "key": card.code,
                    "default": self.default_value(card),
                    "value": self.value(card),
                }
            )
        for row in rows.values():
            defaults = {item["default"] for item in row["cards"]}
            row["default"] = defaults.pop() if len(defaults) == 1 else None
        return list(rows.values())

    def check_together(self, wrong: set[str]) -> list[SettingError]:
        """Every card_values key must name a card of the chosen deck, and the joker's value
        is set once (``joker_value`` or ``card_values``' JOKER, not both)."""
        if "card_values" in wrong or not self.settings.get("card_values"):
            return []
        setting = self.setting("card_values")
        errors = []
        for key in self.settings["card_values"]:
            card = Card(JOKER) if key == JOKER else parse_card(key + "S" if key in RANKS else key)
            if not self.in_deck(card):
                errors.append(
                    setting.error(
                        gettext_noop("“{name}”: there is no {card} in this deck."),
                        card=Term(gettext_noop("joker")) if card.is_joker else key,
                    )
                )
            elif card.is_joker and "joker_value" in self.given:
                errors.append(
                    setting.error(
                        gettext_noop(
                            "“{name}”: the joker's value is set twice, here and in “{other}”."
                        ),
                        other=Term(self.setting("joker_value").label),
                    )
                )
        return errors

    @property
    def decks(self) -> int:
        return self.settings.get("decks", 1)

    @property
    def threshold(self) -> Fraction | int | None:
        return self.settings.get("call_threshold")

    @property
    def rounds(self) -> int | None:
        return self.settings.get("rounds")

    @property
    def call_bonus(self) -> Fraction:
        """A successful caller's round score, in place of his hand total."""
        return Fraction(self.settings.get("call_bonus", 0))

    @property
    def call_penalty(self) -> Fraction:
        """Added to a failed caller's hand total (Cabo bruxellois: a Cabo raté's score)."""
        return Fraction(self.settings.get("call_penalty", 0))

    @property
    def limit(self) -> Fraction | None:
        limit = self.settings.get("limit")
        return None if limit is None else Fraction(limit)

    @property
    def reset(self) -> tuple[Fraction, Fraction] | None:
        reset = self.settings.get("reset")
        return None if reset is None else (Fraction(reset["at"]), Fraction(reset["to"]))

    def _all_cards_added(self, keep) -> Fraction:
        """Every card of the table's decks in one hand, counting only the values kept."""
        total = ZERO
        for card, value in self._card_values.items():
            total += keep(value, ZERO) * self.copies(card)
        return total

    @cached_property
    def lowest_possible_hand(self) -> Fraction:
        """Every negative card in one hand: what a typed total cannot go under."""
        return self._all_cards_added(min)

    @cached_property
    def highest_possible_hand(self) -> Fraction:
        """Every positive card in one hand: what a typed total cannot go over."""
        return self._all_cards_added(max)

    def power_of(self, card: Card) -> Power | None:
        return next((power for power in self.powers if power.applies_to(card)), None)

    def rule_params(self) -> dict[str, object]:
        """The numbers a rules text may name, from this game's settings: ``{call}`` the call
        word, ``{threshold}``, ``{bonus}`` and ``{penalty}`` of a call, ``{limit}``."""
        reset = self.reset or (None, None)
        return {
            "call": self.call_word,
            "threshold": self.threshold,
            "bonus": self.call_bonus,
            "penalty": self.call_penalty,
            "limit": self.limit,
            "rounds": self.rounds,
            "deck": self.settings.get("deck"),
            "reset_at": reset[0],
            "reset_to": reset[1],
        }

    @property
    def summary_text(self) -> Note:
        """The one-line summary with this game's numbers; the variant's own when the game
        switched off what it names (a Tamoul without its reset)."""
        params = self.rule_params()
        named = [key for key in params if "{" + key + "}" in self.summary]
        if any(params[key] is None for key in named):
            params = type(self)().rule_params()
        return note(self.summary, **params)

    def house_texts(self, section: str) -> list[Note]:
        """What the house settings add to a section of the rules: a failed call's penalty
        where the variant's text has none, the agreed rounds, the reset, the limit."""
        if section == "scoring" and self.call_penalty and not self.defaults.get("call_penalty"):
            text = gettext_noop("A failed caller adds {penalty} to their hand.")
            return [note(text, penalty=self.call_penalty)]
        if section != "end":
            return []
        texts = []
        if self.rounds is not None:
            texts.append(
                note(gettext_noop("The game ends after {rounds} rounds."), rounds=self.rounds)
            )
        if self.reset is not None:
            texts.append(
                note(
                    gettext_noop("After each round a total of exactly {at} falls back to {to}."),
                    at=self.reset[0],
                    to=self.reset[1],
                )
            )
        if self.limit is not None:
            texts.append(self.limit_text(self.limit))
        return texts

    def section_texts(self, key: str, own: Note) -> list[Note]:
        """The section's own text, what the house settings add after its scoring and before
        its end."""
        added = self.house_texts(key)
        return [own, *added] if key == "scoring" else [*added, own]

    def limit_text(self, limit: Fraction) -> Note:
        return note(
            gettext_noop("The game ends after a round in which a total goes over {limit}."),
            limit=limit,
        )

    def rule_texts(self) -> list[tuple[str, Note]]:
        """(title, text) of each section, the placeholders filled from this game's settings,
        with what its house settings add."""
        params = self.rule_params()
        return [
            (title, notes_together(self.section_texts(key, note(self.rules[key], **params))))
            for key, title in SECTIONS
            if key in self.rules
        ]

    # --- a round -----------------------------------------------------------

    def score(self, play: Play) -> Outcome:
        raise NotImplementedError  # every variant module defines it

    def ends_with_a_call(self, emptied: Collection[str]) -> bool:
        """Whether a round in which ``emptied`` got rid of all their cards ends with a call, as
        the rules play it: then a round saved without a caller may be a caller forgotten."""
        return self.rounds_end_with_a_call and not (emptied and self.emptying_ends_the_round)

    def penalty_cards_due(self, play: Play) -> int:
        """How many penalty cards the caller must draw once the hands are in."""
        return 0

    @property
    def adjustment_label(self) -> str:
        """Shown beside a player whose total was reset in the last round ("100 → 50")."""
        reset = self.reset
        return "" if reset is None else f"{format_points(reset[0])} → {format_points(reset[1])}"

    def adjust_total(self, player: str, total: Fraction) -> tuple[Fraction, Note | None]:
        """A running total after the round's score, penalties included, is added: exactly
        the reset's "at" falls back to its "to", once (Tamoul's 100 → 50)."""
        reset = self.reset
        if reset is not None and total == reset[0]:
            return reset[1], note(
                gettext_noop("{player} reached exactly {at} and falls back to {to}."),
                player=player,
                at=reset[0],
                to=reset[1],
            )
        return total, None

    def next_deal(self, rotation: tuple[str, str], caller: str | None, winners: list[str]):
        """Who deals and who plays first next round, given the usual rotation."""
        return rotation

    def landmarks(self) -> tuple[Landmark, ...]:
        """The running totals where this game's rules act (a reset, the limit), from the
        same settings the rules below use."""
        reset, limit = self.reset, self.limit
        if reset is not None and reset[0] == limit:
            # One line: exactly the limit falls back, over it ends the game.
            label = gettext_noop("{total} → {to}; over: the end")
            return (Landmark(limit, note(label, total=limit, to=reset[1])),)
        marks = []
        if reset is not None:
            label = note(gettext_noop("{total} → {to}"), total=reset[0], to=reset[1])
            marks.append(Landmark(reset[0], label))
        if limit is not None:
            marks.append(Landmark(limit, self.limit_label(limit)))
        return tuple(marks)

    def limit_label(self, limit: Fraction) -> Note:
        return note(gettext_noop("over {total}: the end"), total=limit)

    def knocked_out(self, standing: Standing) -> list[str]:
        """The players who leave the game after this round (Dutch)."""
        return []

    def knocked_out_note(self, player: str, total: Fraction) -> Note:
        return note(
            gettext_noop("{player} has {total} and is out of the game."), player=player, total=total
        )

    # --- the end of the game ----------------------------------------------

    def game_over(self, standing: Standing) -> bool:
        """The variant's own end: a running total over the limit (T > limit), when there is
        one; the agreed number of rounds is checked besides."""
        limit = self.limit
        return limit is not None and any(standing.totals[p] > limit for p in standing.order)

    def game_winners(self, standing: Standing) -> list[str]:
        """Lowest running total among the players still in (ties share the win)."""
        low = min(standing.totals[p] for p in standing.in_game)
        return [p for p in standing.in_game if standing.totals[p] == low]

    def game_losers(self, standing: Standing) -> list[str]:
        return []


# --- scoring pieces several variants share ---------------------------------


def hand_totals_scored(play: Play, players: Sequence[str] | None = None) -> dict[str, Fraction]:
    return {p: play.t(p) for p in (play.order if players is None else players)}


def no_caller(play: Play) -> Outcome:
    """Nobody called: everyone scores his hand total; the lowest hand wins."""
    return Outcome(
        scores=hand_totals_scored(play),
        winners=play.lowest(),
        caller_succeeded=None,
        notes=[note(gettext_noop("Nobody called: everyone scores their hand total."))],
    )


def caller_or_lowest_others(play: Play, succeeded: bool) -> list[str]:
    """Round winners: the caller if he succeeded, else the lowest of the others."""
    if succeeded:
        return [play.caller]
    return play.lowest(play.others(play.caller))


def why_caller_failed(variant: Variant, play: Play) -> Note:
    """Say why a call was not a success: over the threshold, or not strictly lowest."""
    caller, total = play.caller, play.t(play.caller)
    threshold = variant.threshold
    if threshold is not None and total > threshold:
        return note(
            gettext_noop(
                "{caller} called {call} with {total}, above the call threshold of {threshold}."
            ),
            caller=caller,
            call=variant.call_word,
            total=total,
            threshold=threshold,
        )
    return note(
        gettext_noop("{caller} called {call} with {total} but {others} had as few or fewer."),
        caller=caller,
        call=variant.call_word,
        total=total,
        others=names(play.beaten_by(caller, strictly=False)),
    )


def call_succeeds(variant: Variant, play: Play) -> bool:
    """Within the threshold (if the variant has one) and strictly lowest."""
    threshold = variant.threshold
    total = play.t(play.caller)
    within = threshold is None or total <= threshold
    return within and play.strictly_lowest(play.caller)


def failed_call_note(caller: str, total: Fraction, penalty: Fraction, score: Fraction) -> Note:
    """What a failed caller scores: the hand total, plus the penalty when there is one."""
    if penalty == 0:
        return note(
            gettext_noop("The call fails: {caller} scores the hand total, {total}."),
            caller=caller,
            total=total,
        )
    return note(
        gettext_noop("The call fails: {caller} scores {total} + {penalty} = {score}."),
        caller=caller,
        total=total,
        penalty=penalty,
        score=score,
    )
