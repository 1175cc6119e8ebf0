"""The score chart's geometry (scoring/pages/chart.py), without Django: its points are the sheet's
running totals, inside the plot, with the variant's landmarks from its own rules, each label on
a plate inside the plot where no curve passes when there is such a place."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given

from scoring.game.chart import (
    HEIGHT,
    LEFT,
    PLATE_GAP,
    PLATE_HEIGHT,
    PLATE_PAD,
    PLOT_HEIGHT,
    PLOT_WIDTH,
    RIGHT,
    SHAPES,
    TOP,
    WIDTH,
    Plate,
    coordinate,
    label_width,
    nice_step,
    place_labels,
    score_chart,
)
from scoring.referee.engine import RunningTotals, running_totals, score_game
from scoring.referee.variants import VARIANTS
from tests.helpers import F, play, rnd
from tests.strategies import PROPERTY_SETTINGS, games, house_games

pytestmark = pytest.mark.no_database


def points_of(series) -> list[tuple[float, float]]:
    return [tuple(map(float, point.split(","))) for point in series.points.split()]


@PROPERTY_SETTINGS
@given(games())
def test_chart_points_are_the_sheets_running_totals(game):
    sheet = score_game(game)
    variant = VARIANTS[game.variant]()
    chart = score_chart(sheet, variant.landmarks())
    # Half a tenth of a unit of rounding, in points.
    tolerance = 0.051 * float(chart.scale.high - chart.scale.low) / PLOT_HEIGHT
    assert [s.player for s in chart.series] == list(sheet.players)
    for series in chart.series:
        expected = [Fraction(0)] + [
            r.totals[series.player] for r in sheet.rounds if series.player in r.scores
        ]
        assert list(series.totals) == [float(total) for total in expected]
        drawn = points_of(series)
        assert len(drawn) == len(expected)
        for number, ((x, y), total) in enumerate(zip(drawn, expected, strict=True)):
            assert x == float(coordinate(chart.scale.x(number)))
            assert abs(chart.scale.total_at(y) - float(total)) <= tolerance
            assert LEFT <= x <= WIDTH - RIGHT and TOP <= y <= HEIGHT - 18
    for line in chart.lines:
        assert TOP <= float(line.y) <= TOP + PLOT_HEIGHT
    assert chart.x_ticks[0].value == 0 and len(chart.x_ticks) <= 11


def hides(left, top, right, bottom, curves, reach=0.0) -> bool:
    """Whether a box hides part of a curve (a segment, or a marker ``reach`` around a point):
    each segment clipped to the box grown by ``reach`` (Liang and Barsky)."""
    left, top, right, bottom = left - reach, top - reach, right + reach, bottom + reach
    for points in curves:
        if len(points) == 1 and left <= points[0][0] <= right and top <= points[0][1] <= bottom:
            return True
        for (xa, ya), (xb, yb) in pairwise(points):
            start, end = 0.0, 1.0
            for p, q in ((xa - xb, xa - left), (xb - xa, right - xa), (ya - yb, ya - top)):
                start, end = clip(p, q, start, end)
            start, end = clip(yb - ya, bottom - ya, start, end)
            if start <= end:
                return True
    return False


def clip(p: float, q: float, start: float, end: float) -> tuple[float, float]:
    if p == 0:
        return (start, end) if q >= 0 else (1.0, 0.0)
    t = q / p
    return (max(start, t), end) if p < 0 else (start, min(end, t))


def curves_of(chart) -> list[list[tuple[float, float]]]:
    return [points_of(series) for series in chart.series]


def places(y: float, width: float):
    """Every place of a plate ``width`` wide just above or below a line at ``y``, a unit apart."""
    for top in (y - PLATE_GAP - PLATE_HEIGHT, y + PLATE_GAP):
        if top >= 0 and top + PLATE_HEIGHT <= TOP + PLOT_HEIGHT:
            right = WIDTH - RIGHT
            while right - width >= LEFT:
                yield Plate(right - width, top, width)
                right -= 1


@PROPERTY_SETTINGS
@given(house_games())
def test_each_landmark_label_is_inside_the_plot_where_no_curve_passes_if_it_can(game):
    """On a plate as wide as its text at most, inside the plot, beside its line and away from
    the other labels; over a curve only where every place beside its line is taken by one, by
    another landmark's line or by another label; over a marker only where every place is
    taken by a marker, a line or a label."""
    chart = score_chart(score_game(game), VARIANTS[game.variant](**game.settings).landmarks())
    curves = curves_of(chart)
    markers = [[point] for points in curves for point in points]
    reach = chart.marker / 2  # the drawn points are a tenth away at most: 0.1 either way
    heights = [float(line.y) for line in chart.lines]
    for n, line in enumerate(chart.lines):
        plate, y = line.plate, float(line.y)
        assert plate.width >= label_width(line.label) + 2 * PLATE_PAD
        assert plate.left >= LEFT and plate.right <= WIDTH - RIGHT
        assert plate.top >= 0 and plate.bottom <= TOP + PLOT_HEIGHT
        assert plate.bottom < y or y < plate.top  # its own line shows
        others = [other.plate for m, other in enumerate(chart.lines) if m != n]
        assert not any(near(plate, other, 1.9) for other in others)
        for hidden in (curves, markers):
            if hides(plate.left, plate.top, plate.right, plate.bottom, hidden, reach - 0.1):
                for place in places(y, plate.width):
                    box = (place.left, place.top, place.right, place.bottom)
                    assert (
                        hides(*box, hidden, reach + 0.1)
                        or any(place.top <= h <= place.bottom for h in heights if h != y)
                        or any(near(place, other, 2) for other in others)
                    ), (line.label, plate, place)


def near(plate: Plate, other: Plate, apart: float) -> bool:
    """Whether two plates are closer than ``apart`` side by side, one over the other."""
    across = other.left - apart <= plate.right and plate.left <= other.right + apart
    return across and other.top < plate.bottom and plate.top < other.bottom


def test_a_label_goes_left_of_the_curves_that_cross_its_line_near_the_end():
    """Dutch's 100 is crossed by Marc at the last round: "100: out" moves left of him."""
    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 20, "Marc": 20, "Nina": 5}),
        rnd({"Léa": 20, "Marc": 20, "Nina": 5}),
        rnd({"Léa": 20, "Marc": 70, "Nina": 5}),
    )
    chart = score_chart(sheet, VARIANTS["dutch"]().landmarks())
    [line] = chart.lines
    plate = line.plate
    # Half a marker around Marc's line, less the tenth the drawn points are rounded to.
    assert not hides(plate.left, plate.top, plate.right, plate.bottom, curves_of(chart), 3.9)
    assert plate.right < WIDTH - RIGHT - 20  # left of Marc's rise to 110
    assert plate.bottom < float(line.y)  # above the line


def test_a_label_with_no_free_place_goes_at_the_right_end_over_the_curves():
    """Curves through both sides of the line everywhere: the label goes where the other
    labels' were (at the right end, above its line), its plate drawn over the curves."""
    zigzag = [(LEFT + 10 * n, 80 if n % 2 else 120) for n in range(31)]
    [plate] = place_labels([100], ["100: out"], [zigzag], 4)
    width = label_width("100: out") + 2 * PLATE_PAD
    assert plate == Plate(WIDTH - RIGHT - width, 100 - PLATE_GAP - PLATE_HEIGHT, width)
    assert hides(plate.left, plate.top, plate.right, plate.bottom, [zigzag])


def test_a_label_goes_below_its_line_when_a_curve_runs_along_above_it():
    along = [(LEFT, 92), (WIDTH - RIGHT, 92)]
    [plate] = place_labels([100], ["100: out"], [along], 4)
    assert plate.top == 100 + PLATE_GAP and plate.right == WIDTH - RIGHT


def test_two_landmarks_close_together_keep_their_labels_apart_and_off_each_others_line():
    """Fall back at 100, the end over 110: the lines are 12 units apart, each label on the
    side away from the other line."""
    reset, limit = place_labels([100, 88], ["100 → 50", "over 110: the end"], [], 4)
    assert reset.top == 100 + PLATE_GAP
    assert limit.bottom == 88 - PLATE_GAP


def test_the_longest_labels_fit_in_the_plot_with_room_to_move():
    """The longest texts a house setting gives a landmark: less than two thirds of the plot's
    width, in English here (French's, in the browser test, are no longer)."""
    extreme = {"limit": 1000, "reset": {"at": 1000, "to": -1000}}
    for key, variant in VARIANTS.items():
        if "limit" in variant.defaults and "reset" in variant.defaults:
            for landmark in variant(**extreme).landmarks():
                assert label_width(str(landmark.label)) + 2 * PLATE_PAD < PLOT_WIDTH * 2 / 3, key


def test_a_player_knocked_out_stops_on_the_chart_and_the_100_line_is_drawn():
    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 40, "Marc": 70, "Nina": 5}),
        rnd({"Léa": 40, "Marc": 35, "Nina": 5}),
        rnd({"Léa": 10, "Nina": 5}),
    )
    chart = score_chart(sheet, VARIANTS["dutch"]().landmarks())
    marc = chart.series[1]
    assert marc.totals == (0, 70, 105)  # out after round 2: no point for round 3
    assert len(points_of(marc)) == 3 and len(points_of(chart.series[0])) == 4
    [line] = chart.lines
    assert line.landmark.total == 100 and str(line.landmark.label) == "100: out"
    assert float(line.y) == chart.scale.y(F(100))


def test_landmarks_come_from_each_variants_own_rules():
    lines = {
        key: [(lm.total, str(lm.label)) for lm in v().landmarks()] for key, v in VARIANTS.items()
    }
    assert lines["tamoul"] == [(100, "100 → 50; over: the end")]
    assert lines["fontenaysien"] == [(100, "100: lost"), (-50, "-50: won")]
    assert lines["dutch_toulousain"] == [(100, "over 100: the end")]
    assert lines["tamalou"] == lines["gabo"] == lines["koubo"] == []
    half = VARIANTS["fontenaysien"](half_game=True)
    assert [lm.total for lm in half.landmarks()] == [50, -25]


def test_the_fontenaysien_grand_win_line_is_where_the_game_ends():
    """The chart's -25 of a half game is the total that ends the game, not a copy of it."""
    rounds = [rnd({"Léa": 0, "Marc": 3}, emptied=["Léa"]) for _ in range(2)]
    before = play("fontenaysien", "Léa Marc", *rounds, half_game=True)
    assert not before.finished and before.totals["Léa"] == -20
    ended = play("fontenaysien", "Léa Marc", *rounds, rnd({"Léa": 0, "Marc": 3}), half_game=True)
    assert ended.finished and ended.totals["Léa"] == -25 and ended.winners == ["Léa"]
    chart = score_chart(ended, VARIANTS["fontenaysien"](half_game=True).landmarks())
    assert chart.scale.low <= -25 and chart.scale.high >= 50


def test_the_scale_has_round_steps_and_always_holds_zero_and_the_landmarks():
    assert [nice_step(F(n)) for n in (0, 3, 40, 90, 130, 1000)] == [1, 1, 10, 50, 50, 500]
    sheet = play("tamoul", "Léa Marc", rnd({"Léa": 3, "Marc": F(9) / 2}, caller="Léa"))
    chart = score_chart(sheet, VARIANTS["tamoul"]().landmarks())
    assert chart.scale.low <= -20 and chart.scale.high >= 100
    values = [tick.value for tick in chart.y_ticks]
    assert values == sorted(values) and 0 in values


def test_every_seat_has_its_own_marker_shape():
    assert len(set(SHAPES)) == 8
    sheet = play("tamalou", "A B C D E F G H", rnd(dict.fromkeys("ABCDEFGH", 5)))
    assert [s.seat for s in score_chart(sheet).series] == list(range(8))
    assert len({s.shape for s in score_chart(sheet).series}) == 8


def test_coordinates_are_short():
    assert [coordinate(v) for v in (12.0, 12.04, 12.06, -0.01, 3.25)] == [
        "12",
        "12",
        "12.1",
        "0",
        "3.2",
    ]


def test_markers_shrink_as_rounds_get_closer_together():
    sizes = [
        score_chart(play("tamalou", "A B", *[rnd({"A": 1, "B": 2})] * n)).marker
        for n in (1, 12, 13, 24, 25, 40)
    ]
    assert sizes == [8, 8, 6, 6, 5, 5]


def test_running_totals_keep_the_least_and_greatest_exactly_round_after_round():
    sheet = play(
        "dutch",
        "A B C",
        rnd({"A": 40, "B": 70, "C": 5}),
        rnd({"A": 40, "B": 35, "C": 5}),  # B reaches 105: out
        rnd({"A": 10, "C": 5}),
    )
    whole = running_totals(sheet)
    totals = [t for r in sheet.rounds for t in r.totals.values()]
    assert (whole.least, whole.most) == (0, max(totals)) == (0, 105)
    assert isinstance(whole.most, Fraction)
    assert whole.rows == ((40.0, 70.0, 5.0), (80.0, 105.0, 10.0), (90.0, None, 15.0))
    # Kept with a stored sheet and followed on as rounds are saved, one or more at a time.
    stepped = RunningTotals(("A", "B", "C")).after(sheet.rounds[:1]).after(sheet.rounds[1:])
    assert stepped == whole


def test_a_coordinate_is_rounded_as_round_rounds_it():
    for value in (0.05, 0.15, 0.25, 2.675, -0.05, -3.25, 12.349999, 1e-9, -1e-9, 180.0):
        expected = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
        assert coordinate(value) == ("0" if expected == "-0" else expected)
