"""The story of a game, and of many: its moments, and each player's statistics across games.

Pure Python: everything is read from the referee's score sheets (and, for the cards, from
the rounds as entered), so it works for every variant and can never disagree with the sheet.

Decisions:
- **Best round**: the lowest score anyone made in one round (the earliest, then the first in
  turn order, when several share it).
- **Calls**: for each player who called, the calls that succeeded and failed, as the referee
  judged them (a variant without a judgement on calls has none).
- **Biggest comeback**: how far behind the lowest total of the players still in a winner
  ever was (the leaders while a game goes on); none when they never trailed.
- **The card in hands most often**: the card entered most often in hands (penalty cards
  drawn by a caller included, jokers as any card), when one was entered at least twice;
  every card that ties for it, in deck order (a cut would drop the joker, last in that order).
- **Statistics across games** are per variant and per player name (ignoring case, shown as
  first met). Games played and won count finished games only; the round figures (calls,
  average hand total, best and worst round score) count every round, finished game or not;
  a game without a round counts for nothing.
- **The same table over time**: finished games of exactly the same players (ignoring case
  and seats), oldest first, for each set of players that finished two games or more.

A game keeps its ``GameSummary`` when it changes (``summarize`` of its whole sheet), and
each player's figures in it as a row the database sums for the statistics
(``PlayerResult``); ``player_stats`` is what those sums must equal. ``same_tables`` reads a
``GameOutcome`` of each game (as its rows say it) or its ``GameSummary``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.referee.cards import JOKER, RANKS, SUITS, Card
from scoring.referee.engine import Progress, RoundEntry, RoundResult, ScoreSheet, progress_of


@dataclass(frozen=True)
class RoundScore:
    player: str
    round: int
    score: Fraction


@dataclass(frozen=True)
class Calls:
    player: str
    succeeded: int
    failed: int


@dataclass(frozen=True)
class Comeback:
    player: str
    round: int  # after this round he was furthest behind
    behind: Fraction


@dataclass(frozen=True)
class CommonCards:
    cards: tuple[Card, ...]
    count: int


@dataclass(frozen=True)
class Moments:
    best_round: RoundScore | None
    calls: list[Calls]
    comeback: Comeback | None
    common_cards: CommonCards | None


DECK_RANKS = (*RANKS, JOKER)
DECK_SUITS = (*SUITS, None)  # a joker has no suit


def card_order(card: Card) -> tuple[int, int]:
    """Deck order: by rank (A … K, then joker), then suit (♠ ♥ ♦ ♣)."""
    return DECK_RANKS.index(card.rank), DECK_SUITS.index(card.suit)


def best_round(sheet: ScoreSheet) -> RoundScore | None:
    best: RoundScore | None = None
    for result in sheet.rounds:
        for player in sheet.players:
            if player in result.scores and (best is None or result.scores[player] < best.score):
                best = RoundScore(player, result.number, result.scores[player])
    return best


def calls(sheet: ScoreSheet) -> list[Calls]:
    """Each caller's calls that succeeded and failed, in turn order."""
    succeeded: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for result in sheet.rounds:
        if result.caller is None or result.caller_succeeded is None:
            continue
        (succeeded if result.caller_succeeded else failed)[result.caller] += 1
    return [
        Calls(player, succeeded[player], failed[player])
        for player in sheet.players
        if succeeded[player] or failed[player]
    ]


def leaders(sheet: ScoreSheet) -> list[str]:
    """The winners of a finished game; the lowest totals among the players still in else."""
    if sheet.finished:
        return list(sheet.winners)
    if not sheet.rounds:
        return []
    low = min(sheet.totals[p] for p in sheet.in_game)
    return [p for p in sheet.in_game if sheet.totals[p] == low]


def comeback(sheet: ScoreSheet) -> Comeback | None:
    best: Comeback | None = None
    for player in leaders(sheet):
        for result in sheet.rounds:  # a winner or leader has played every round
            low = min(result.totals[p] for p in result.scores)
            behind = result.totals[player] - low
            if behind > 0 and (best is None or behind > best.behind):
                best = Comeback(player, result.number, behind)
    return best


def common_cards(entries: Iterable[RoundEntry]) -> CommonCards | None:
    counts: Counter[Card] = Counter()
    for entry in entries:
        for hand in entry.hands.values():
            if isinstance(hand, tuple):
                counts.update(hand)
        counts.update(entry.penalty_cards)
    if not counts:
        return None
    most = max(counts.values())
    if most < 2:
        return None
    tied = sorted((card for card, n in counts.items() if n == most), key=card_order)
    return CommonCards(tuple(tied), most)


def moments(sheet: ScoreSheet, entries: Sequence[RoundEntry]) -> Moments:
    """The moments of a game, from its score sheet and its rounds as entered."""
    return Moments(best_round(sheet), calls(sheet), comeback(sheet), common_cards(entries))


# --- across games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundFigures:
    """One player's figures over the rounds of a game, for the statistics."""

    hands: int = 0  # rounds played
    hand_points: Fraction = Fraction(0)
    best: Fraction | None = None  # lowest round score
    worst: Fraction | None = None  # highest round score
    calls: int = 0
    calls_succeeded: int = 0


@dataclass(frozen=True)
class GameSummary:
    """What the statistics and the home page know of a game: where it stands after its last
    round (``progress``) and each player's figures over its rounds."""

    variant: str
    players: tuple[str, ...]
    progress: Progress
    figures: dict[str, RoundFigures]

    @property
    def rounds(self) -> int:
        return self.progress.number

    @property
    def finished(self) -> bool:
        return self.progress.finished

    @property
    def winners(self) -> tuple[str, ...]:
        return self.progress.winners

    @property
    def totals(self) -> dict[str, Fraction]:
        return dict(self.progress.totals)

    @property
    def in_game(self) -> tuple[str, ...]:
        return self.progress.in_game


def add_rounds(
    summary: GameSummary, results: Iterable[RoundResult], after: Progress
) -> GameSummary:
    """``summary`` with the figures of ``results``, the rounds that brought it to ``after``.
    (Counted in lists and made figures once: a long game has thousands of hands.)"""
    counts = {
        player: [
            mine.hands,
            mine.hand_points,
            mine.best,
            mine.worst,
            mine.calls,
            mine.calls_succeeded,
        ]
        for player, mine in summary.figures.items()
    }
    for result in results:
        for player, score in result.scores.items():
            mine = counts[player]
            mine[0] += 1
            mine[1] += result.hand_totals[player]
            if mine[2] is None or score < mine[2]:
                mine[2] = score
            if mine[3] is None or score > mine[3]:
                mine[3] = score
        caller = result.caller
        if caller is not None and result.caller_succeeded is not None:
            counts[caller][4] += 1
            counts[caller][5] += result.caller_succeeded
    figures = {player: RoundFigures(*mine) for player, mine in counts.items()}
    return GameSummary(summary.variant, summary.players, after, figures)


def summarize(sheet: ScoreSheet) -> GameSummary:
    """The summary of a whole score sheet."""
    empty = GameSummary(
        sheet.variant,
        tuple(sheet.players),
        progress_of(sheet),
        {p: RoundFigures() for p in sheet.players},
    )
    return add_rounds(empty, sheet.rounds, progress_of(sheet))


def _number(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def _fraction(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def summary_to_json(summary: GameSummary) -> dict:
    """A summary as a JSON object (exact numbers as text: "-3/2")."""
    progress = summary.progress
    return {
        "variant": summary.variant,
        "players": list(summary.players),
        "number": progress.number,
        "totals": {p: str(t) for p, t in progress.totals.items()},
        "in_game": list(progress.in_game),
        "eliminated": list(progress.eliminated),
        "knocked_out_last_round": list(progress.knocked_out_last_round),
        "finished": progress.finished,
        "winners": list(progress.winners),
        "losers": list(progress.losers),
        "figures": {
            p: [
                f.hands,
                str(f.hand_points),
                _number(f.best),
                _number(f.worst),
                f.calls,
                f.calls_succeeded,
            ]
            for p, f in summary.figures.items()
        },
    }


def summary_from_json(data: dict) -> GameSummary:
    progress = Progress(
        number=data["number"],
        totals={p: Fraction(t) for p, t in data["totals"].items()},
        in_game=tuple(data["in_game"]),
        eliminated=tuple(data["eliminated"]),
        knocked_out_last_round=tuple(data["knocked_out_last_round"]),
        finished=data["finished"],
        winners=tuple(data["winners"]),
        losers=tuple(data["losers"]),
    )
    figures = {
        p: RoundFigures(hands, Fraction(points), _fraction(best), _fraction(worst), calls, won)
        for p, (hands, points, best, worst, calls, won) in data["figures"].items()
    }
    return GameSummary(data["variant"], tuple(data["players"]), progress, figures)


@dataclass(frozen=True)
class GameOutcome:
    """Where a game stands after its last round, as much as ``same_tables`` reads: its
    players in seat order, their totals, whether it is finished and its winners (a
    ``GameSummary`` says as much)."""

    players: tuple[str, ...]
    totals: dict[str, Fraction]
    finished: bool
    winners: tuple[str, ...]


@dataclass(frozen=True)
class GameRecord:
    """A stored game as the statistics read it: ``when`` orders games (any comparable value),
    ``ref`` names it for the caller (a link, say)."""

    variant: str
    summary: GameSummary | GameOutcome  # player_stats reads a GameSummary
    when: object
    ref: object = None


@dataclass
class PlayerStats:
    name: str
    games: int = 0  # finished games
    won: int = 0
    calls: int = 0
    calls_succeeded: int = 0
    hands: int = 0  # rounds played
    hand_points: Fraction = Fraction(0)
    best: Fraction | None = None  # lowest round score
    worst: Fraction | None = None  # highest round score

    @property
    def success_rate(self) -> Fraction | None:
        return Fraction(self.calls_succeeded, self.calls) if self.calls else None

    @property
    def average_hand(self) -> Fraction | None:
        return self.hand_points / self.hands if self.hands else None


def player_stats(records: Iterable[GameRecord]) -> dict[str, list[PlayerStats]]:
    """Per variant (in the order first met), each player's statistics: most wins first, then
    most games, then by name."""
    table: dict[str, dict[str, PlayerStats]] = {}
    for record in records:
        summary = record.summary
        if not summary.rounds:
            continue  # a game not started yet says nothing of anyone
        players = table.setdefault(record.variant, {})
        mine = {p: players.setdefault(p.casefold(), PlayerStats(p)) for p in summary.players}
        for player, stats in mine.items():
            if summary.finished:
                stats.games += 1
                stats.won += player in summary.winners
            figures = summary.figures[player]
            stats.hands += figures.hands
            stats.hand_points += figures.hand_points
            stats.calls += figures.calls
            stats.calls_succeeded += figures.calls_succeeded
            if figures.best is not None:
                stats.best = min(
                    figures.best, stats.best if stats.best is not None else figures.best
                )
            if figures.worst is not None:
                stats.worst = max(
                    figures.worst, stats.worst if stats.worst is not None else figures.worst
                )
    return {
        variant: sorted(
            players.values(), key=lambda s: (-s.won, -s.games, s.name.casefold(), s.name)
        )
        for variant, players in table.items()
    }


@dataclass(frozen=True)
class TableGame:
    record: GameRecord
    totals: list[Fraction]  # in the table's column order
    winners: list[bool]

    @property
    def cells(self) -> list[tuple[Fraction, bool]]:
        return list(zip(self.totals, self.winners, strict=True))


@dataclass
class SameTable:
    """The finished games of one set of players, oldest first."""

    players: list[str]  # columns: the seats of the first game
    games: list[TableGame] = field(default_factory=list)

    @property
    def wins(self) -> list[int]:
        return [sum(game.winners[i] for game in self.games) for i in range(len(self.players))]


def same_tables(records: Iterable[GameRecord], at_least: int = 2) -> list[SameTable]:
    """Each set of players that finished ``at_least`` games together, with those games."""
    groups: dict[frozenset[str], SameTable] = {}
    finished = sorted((r for r in records if r.summary.finished), key=lambda r: r.when)
    for record in finished:
        summary = record.summary
        key = frozenset(p.casefold() for p in summary.players)
        table = groups.setdefault(key, SameTable(list(summary.players)))
        seat = {p.casefold(): p for p in summary.players}
        names = [seat[column.casefold()] for column in table.players]
        table.games.append(
            TableGame(
                record,
                [summary.totals[name] for name in names],
                [name in summary.winners for name in names],
            )
        )
    return [table for table in groups.values() if len(table.games) >= at_least]
