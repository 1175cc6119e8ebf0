"""The score chart's geometry: running totals per player per round, as SVG coordinates.

Pure Python (no Django): game.html's ``chart`` partial draws what ``score_chart`` computes as
inline SVG, so the page needs no chart script and the Content-Security-Policy is unchanged.

Decisions, as players read the chart:
- x is the round: 0 (everyone at 0) then each round played; y is the running total, higher
  up (the lowest total, usually the best, is the lowest line).
- A player knocked out (Dutch) stops at the round that knocked him out.
- The variant's landmarks (Dutch's 100, Tamoul's 100 → 50, Fontenaysien's limit and grand
  win, halved in a half game) are always inside the scale: how far each player is from them
  is the story of the game.
- Each player keeps a colour and a marker shape by his seat (``SHAPES``), so the lines can be
  told apart without colours (the markers shrink as rounds get closer together); the
  colours are CSS variables (``--c0`` … ``--c7`` in app.css), one set per theme.
- Coordinates are rounded to a tenth of a unit (a tenth of a pixel at 360 px wide), the
  points of one player are one polyline and the markers are SVG markers on its vertices:
  a 30-round, 8-player chart stays a few kilobytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from scoring.referee.engine import ScoreSheet
from scoring.referee.variants.base import Landmark

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 30, 8, 8, 18  # room for the labels of the axes
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MAX_X_LABELS = 10
Y_TICKS = 4  # about this many steps between the lowest and highest tick

# A marker shape per seat, drawn around (0, 0) in a box of -4..4: circle, square, triangle,
# diamond, triangle down, plus, cross, ring.
SHAPES = (
    "M-3 0a3 3 0 1 0 6 0a3 3 0 1 0-6 0z",
    "M-2.7-2.7h5.4v5.4h-5.4z",
    "M0-3.6l3.4 5.8h-6.8z",
    "M0-3.8l3.8 3.8-3.8 3.8-3.8-3.8z",
    "M0 3.6l3.4-5.8h-6.8z",
    "M-1-3.6h2v2.6h2.6v2h-2.6v2.6h-2v-2.6h-2.6v-2h2.6z",
    "M-3.3-1.9l1.4-1.4 1.9 1.9 1.9-1.9 1.4 1.4-1.9 1.9 1.9 1.9-1.4 1.4-1.9-1.9-1.9 1.9"
    "-1.4-1.4 1.9-1.9z",
    "M-3.6 0a3.6 3.6 0 1 0 7.2 0a3.6 3.6 0 1 0-7.2 0zM-1.6 0a1.6 1.6 0 1 1 3.2 0a1.6 1.6 0 1 1"
    "-3.2 0z",
)


@dataclass(frozen=True)
class Series:
    """One player's line: his running total after round 0 (0), 1, 2, … while he plays."""

    player: str
    seat: int  # his colour and marker shape
    totals: tuple[Fraction, ...]
    points: str  # "x,y x,y …" for the polyline
    shape: str  # SVG path of his marker


@dataclass(frozen=True)
class Tick:
    at: str  # x or y in the chart's units, written for SVG (templates would localise a float)
    value: Fraction | int


@dataclass(frozen=True)
class Line:
    y: str
    label_y: str  # above the line, or below it when the line is at the top
    landmark: Landmark


@dataclass(frozen=True)
class Scale:
    """Running totals ``low``…``high`` on the plot's height; round 0…``rounds`` on its width."""

    low: Fraction
    high: Fraction
    rounds: int

    def x(self, number: int) -> float:
        return LEFT + PLOT_WIDTH * number / max(self.rounds, 1)

    def y(self, total: Fraction | float) -> float:
        # In floats: exact enough for a tenth of a unit; a 500-round, 8-player chart has some
        # 4,000 points, and with fractions a save at round 500 cost 49 ms in process, not 39.
        high, span = self.floats
        return TOP + PLOT_HEIGHT * (high - float(total)) / span

    @cached_property
    def floats(self) -> tuple[float, float]:
        """``high`` and the span ``high - low`` as floats, worked out once for all points."""
        return float(self.high), float(self.high - self.low)

    def total_at(self, y: float) -> float:
        """The running total a height stands for (what the tests read points back with)."""
        return float(self.high) - (y - TOP) / PLOT_HEIGHT * float(self.high - self.low)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    scale: Scale
    series: list[Series]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[Line]
    left: int
    right: int  # x where the plot ends
    label_x: str  # of the running totals (right-aligned)
    label_y: str  # of the rounds
    marker: int  # width of a marker: smaller as the rounds get closer together

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


def nice_step(span: Fraction, steps: int = Y_TICKS) -> Fraction:
    """A round step (1, 2 or 5 times a power of ten, at least 1) cutting ``span`` into about
    ``steps`` parts."""
    raw = max(float(span) / steps, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return Fraction(factor * power)
    return Fraction(10 * power)  # pragma: no cover - the loop always returns


def coordinate(value: float) -> str:
    """A coordinate to a tenth, without trailing zeros: ``12``, ``12.5``, ``-3.2``."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")  # rounded as round(value, 1) rounds
    return "0" if text == "-0" else text


def running_totals(sheet: ScoreSheet) -> dict[str, list[Fraction]]:
    """Each player's running total after round 0, 1, … for as long as he plays."""
    series = {player: [Fraction(0)] for player in sheet.players}
    for result in sheet.rounds:
        for player in result.scores:
            series[player].append(result.totals[player])
    return series


def extremes(values: Sequence[Fraction], floats: Sequence[float]) -> tuple[Fraction, Fraction]:
    """The least and the greatest of ``values``, found by their ``floats`` (a long game's
    chart has thousands of totals, and comparing fractions took most of drawing it), and
    exact: a float never orders two values the wrong way round, so the least value is one
    of those with the least float."""
    low, high = min(floats), max(floats)
    least = min(value for value, at in zip(values, floats, strict=True) if at == low)
    most = max(value for value, at in zip(values, floats, strict=True) if at == high)
    return least, most


def score_chart(sheet: ScoreSheet, landmarks: Sequence[Landmark] = ()) -> Chart:
    """The chart of a score sheet, with the variant's ``landmarks`` drawn across it."""
    totals = running_totals(sheet)
    heights = {player: [float(total) for total in line] for player, line in totals.items()}
    values = [value for line in totals.values() for value in line]
    values += [landmark.total for landmark in landmarks]
    floats = [at for line in heights.values() for at in line]
    floats += [float(landmark.total) for landmark in landmarks]
    least, most = extremes(values, floats)
    step = nice_step(most - least)
    low = math.floor(least / step) * step
    high = math.ceil(most / step) * step
    if high == low:
        high = low + step
    scale = Scale(Fraction(low), Fraction(high), len(sheet.rounds))
    across = [coordinate(scale.x(n)) for n in range(scale.rounds + 1)]  # each round's x, once
    series = [
        Series(
            player=player,
            seat=seat,
            totals=tuple(totals[player]),
            points=" ".join(
                f"{across[n]},{coordinate(scale.y(total))}"
                for n, total in enumerate(heights[player])
            ),
            shape=SHAPES[seat % len(SHAPES)],
        )
        for seat, player in enumerate(sheet.players)
    ]
    every = math.ceil(max(scale.rounds, 1) / MAX_X_LABELS)
    x_ticks = [Tick(across[n], n) for n in range(0, scale.rounds + 1, every)]
    count = int((scale.high - scale.low) / step)
    y_ticks = [
        Tick(coordinate(scale.y(scale.low + i * step)), scale.low + i * step)
        for i in range(count + 1)
    ]
    lines = []
    for landmark in landmarks:
        y = scale.y(landmark.total)
        label_y = y - 3 if y - 3 >= TOP + 10 else y + 12
        lines.append(Line(coordinate(y), coordinate(label_y), landmark))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        scale=scale,
        series=series,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        lines=lines,
        left=LEFT,
        right=WIDTH - RIGHT,
        label_x=coordinate(LEFT - 4),
        label_y=coordinate(HEIGHT - 4),
        marker=marker_size(scale.rounds),
    )


def marker_size(rounds: int) -> int:
    """8 units while rounds are far apart, down to 5 for 25 rounds or more."""
    return 8 if rounds <= 12 else 6 if rounds < 25 else 5
