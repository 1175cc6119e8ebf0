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
- A landmark's label sits on a plate of the chart's background, drawn after the curves, just
  above its line or just below it, as far right as it can go where no curve passes; where
  every place is crossed, over the curves but not over a marker if it can (``place_labels``).
- Coordinates are rounded to a tenth of a unit (a tenth of a pixel at 360 px wide), the
  points of one player are one polyline and the markers are SVG markers on its vertices:
  a 30-round, 8-player chart stays a few kilobytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import pairwise

from scoring.referee.engine import ScoreSheet, running_totals
from scoring.referee.notes import Note
from scoring.referee.variants.base import Landmark

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 30, 8, 8, 18  # room for the labels of the axes
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MAX_X_LABELS = 10
Y_TICKS = 4  # about this many steps between the lowest and highest tick

# A landmark's label, in the chart's units. Its text is app.css's `.chart text.lm` (11px,
# bold), its width reckoned from DejaVu Sans Bold's glyphs (``label_width``), the widest of the
# fonts a phone draws it with (Roboto and San Francisco are narrower): the plate holds the
# text, which ends at its right end (what is left over is on the left, unseen).
PLATE_HEIGHT = 15
PLATE_PAD = 4  # between the text and either end of its plate
PLATE_GAP = 1.5  # between the landmark's line and its plate
BASELINE = 11.3  # from the plate's top: the text's ascent (0.93 em) and descent (0.24 em) centred
# Glyph widths in ems, rounded up from DejaVu Sans Bold's; any other character is 0.72 (the
# digits, most lower-case letters) or 0.85 (capitals, arrows and signs).
EMS = (
    (0.4, frozenset(" \u00a0\u202f'’,.:;!|iIjJlîïì")),
    (0.5, frozenset("frt()-/")),
    (1.1, frozenset("mwMWœŒ%…")),
)
LABEL_SIZE = 11

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
    totals: tuple[float, ...]
    points: str  # "x,y x,y …" for the polyline
    shape: str  # SVG path of his marker


@dataclass(frozen=True)
class Tick:
    at: str  # x or y in the chart's units, written for SVG (templates would localise a float)
    value: Fraction | int


@dataclass(frozen=True)
class Plate:
    """Where a landmark's label goes, in the chart's units (floats, for placing the others)."""

    left: float
    top: float
    width: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + PLATE_HEIGHT

    @cached_property
    def drawn(self) -> dict[str, str]:
        """The plate's rectangle and its text's anchor (its end) and baseline, for SVG."""
        return {
            "x": coordinate(self.left),
            "y": coordinate(self.top),
            "width": coordinate(self.width),
            "height": coordinate(PLATE_HEIGHT),
            "text_x": coordinate(self.right - PLATE_PAD),
            "text_y": coordinate(self.top + BASELINE),
        }


@dataclass(frozen=True)
class Line:
    y: str
    landmark: Landmark
    label: str  # as shown, in the page's language
    plate: Plate


@dataclass(frozen=True)
class Scale:
    """Running totals ``low``…``high`` on the plot's height; round 0…``rounds`` on its width."""

    low: Fraction
    high: Fraction
    rounds: int

    def x(self, number: int) -> float:
        return LEFT + PLOT_WIDTH * number / max(self.rounds, 1)

    def y(self, total: Fraction | float) -> float:
        # In floats: exact enough for a tenth of a unit, and a long game's chart has thousands
        # of points, which fractions would make slow to draw.
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


def label_width(text: str) -> float:
    """The width of a landmark's label in the chart's units, at most (``EMS``)."""
    ems = 0.0
    for char in text:
        ems += next((em for em, chars in EMS if char in chars), 0.85 if char.isupper() else 0.72)
    return ems * LABEL_SIZE


def crossed(
    curves: Sequence[Sequence[tuple[float, float]]], top: float, bottom: float, reach: float
) -> Iterator[tuple[float, float]]:
    """The stretches of x where a curve passes between the heights ``top`` and ``bottom``,
    ``reach`` wider on every side (half a marker: its markers, and its stroke)."""
    low, high = top - reach, bottom + reach
    for points in curves:
        if len(points) == 1:
            (x, y), *_ = points
            if low <= y <= high:
                yield x - reach, x + reach
        for (xa, ya), (xb, yb) in pairwise(points):
            if (ya < low and yb < low) or (ya > high and yb > high):
                continue
            start, end = 0.0, 1.0  # of the segment, where it is between the heights
            if ya != yb:
                start, end = sorted(((low - ya) / (yb - ya), (high - ya) / (yb - ya)))
                start, end = max(start, 0.0), min(end, 1.0)
            yield xa + (xb - xa) * start - reach, xa + (xb - xa) * end + reach


def rightmost_free(busy: Sequence[tuple[float, float]], width: float) -> float | None:
    """The right end of the rightmost stretch of the plot ``width`` long that touches none of
    the ``busy`` stretches, or None."""
    merged: list[list[float]] = []
    for start, end in sorted(busy):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    right = WIDTH - RIGHT
    for start, end in reversed(merged):
        if right - max(end, LEFT) >= width:
            return right
        right = min(right, start)
    return right if right - LEFT >= width else None


def place_labels(
    heights: Sequence[float],
    labels: Sequence[str],
    curves: Sequence[Sequence[tuple[float, float]]],
    reach: float,
) -> list[Plate]:
    """A plate for each landmark's label, its line at ``heights``: just above the line or just
    below it, as far right as it can go where it hides no curve, no other landmark's line and
    no other plate; failing that, where it hides no marker (a player's total), no line and no
    plate; then no line and no plate; then no plate; failing all, at the right end above its
    line (below it at the top of the plot), over what is there."""
    plates: list[Plate] = []
    for n, (y, label) in enumerate(zip(heights, labels, strict=True)):
        width = min(label_width(label) + 2 * PLATE_PAD, PLOT_WIDTH)
        sides = [
            top
            for top in (y - PLATE_GAP - PLATE_HEIGHT, y + PLATE_GAP)
            if top >= 0 and top + PLATE_HEIGHT <= TOP + PLOT_HEIGHT
        ]
        others = [*heights[:n], *heights[n + 1 :]]
        found = None
        for spared, lines in to_spare(curves, others):
            free = []
            for side, top in enumerate(sides):
                busy = in_the_way(top, plates, spared, lines, reach)
                right = rightmost_free(busy, width)
                if right is not None:
                    free.append((right, -side, top))  # the furthest right, then above
            if free:
                right, _, top = max(free)
                found = Plate(right - width, top, width)
                break
        plates.append(found or Plate(WIDTH - RIGHT - width, sides[0], width))
    return plates


def to_spare(curves: Sequence[Sequence[tuple[float, float]]], lines: Sequence[float]):
    """What a plate should not hide, from the most to the least: the curves and the lines,
    the markers (each point a curve of its own) and the lines, the lines, nothing."""
    yield curves, lines
    yield [[point] for points in curves for point in points], lines
    yield (), lines
    yield (), ()


def in_the_way(
    top: float,
    plates: Sequence[Plate],
    curves: Sequence[Sequence[tuple[float, float]]],
    lines: Sequence[float],
    reach: float,
) -> list[tuple[float, float]]:
    """The stretches of x that a plate at ``top`` would hide something on: another ``plates``
    (2 units apart at least), a landmark's line at one of the heights ``lines`` (anywhere),
    one of the ``curves``."""
    bottom = top + PLATE_HEIGHT
    busy = [(p.left - 2, p.right + 2) for p in plates if p.top < bottom and top < p.bottom]
    if any(top <= line <= bottom for line in lines):
        busy.append((LEFT, WIDTH - RIGHT))
    busy += crossed(curves, top, bottom, reach)
    return busy


def score_chart(
    sheet: ScoreSheet,
    landmarks: Sequence[Landmark] = (),
    say: Callable[[Note], str] = str,
) -> Chart:
    """The chart of a score sheet, with the variant's ``landmarks`` drawn across it, each
    labelled as ``say`` puts its note (in the page's language)."""
    totals = running_totals(sheet)
    heights = {
        player: [0.0] + [row[seat] for row in totals.rows if row[seat] is not None]
        for seat, player in enumerate(sheet.players)
    }
    least = min([totals.least, *(landmark.total for landmark in landmarks)])
    most = max([totals.most, *(landmark.total for landmark in landmarks)])
    step = nice_step(most - least)
    low = math.floor(least / step) * step
    high = math.ceil(most / step) * step
    if high == low:
        high = low + step
    scale = Scale(Fraction(low), Fraction(high), len(sheet.rounds))
    xs = [scale.x(n) for n in range(scale.rounds + 1)]
    across = [coordinate(x) for x in xs]  # each round's x, once
    curves = {p: [(xs[n], scale.y(total)) for n, total in enumerate(heights[p])] for p in heights}
    series = [
        Series(
            player=player,
            seat=seat,
            totals=tuple(heights[player]),
            points=" ".join(
                f"{across[n]},{coordinate(y)}" for n, (_, y) in enumerate(curves[player])
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
    marker = marker_size(scale.rounds)
    ys = [scale.y(landmark.total) for landmark in landmarks]
    labels = [say(landmark.label) for landmark in landmarks]
    plates = place_labels(ys, labels, list(curves.values()), marker / 2)
    lines = [
        Line(coordinate(y), landmark, label, plate)
        for y, landmark, label, plate in zip(ys, landmarks, labels, plates, strict=True)
    ]
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
        marker=marker,
    )


def marker_size(rounds: int) -> int:
    """8 units while rounds are far apart, down to 5 for 25 rounds or more."""
    return 8 if rounds <= 12 else 6 if rounds < 25 else 5
