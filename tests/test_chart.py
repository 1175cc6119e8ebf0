"""The score chart's geometry (scoring/pages/chart.py), without Django: its points are the sheet's
running totals, inside the plot, with the variant's landmarks from its own rules."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given

from scoring.pages.chart import (
    HEIGHT,
    LEFT,
    PLOT_HEIGHT,
    RIGHT,
    SHAPES,
    TOP,
    WIDTH,
    coordinate,
    extremes,
    nice_step,
    score_chart,
)
from scoring.referee.engine import score_game
from scoring.referee.variants import VARIANTS
from tests.helpers import F, play, rnd
from tests.test_properties import PROPERTY_SETTINGS, games


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
        assert list(series.totals) == expected
        drawn = points_of(series)
        assert len(drawn) == len(expected)
        for number, ((x, y), total) in enumerate(zip(drawn, expected, strict=True)):
            assert x == float(coordinate(chart.scale.x(number)))
            assert abs(chart.scale.total_at(y) - float(total)) <= tolerance
            assert LEFT <= x <= WIDTH - RIGHT and TOP <= y <= HEIGHT - 18
    for line in chart.lines:
        assert TOP <= float(line.y) <= TOP + PLOT_HEIGHT
    assert chart.x_ticks[0].value == 0 and len(chart.x_ticks) <= 11


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


def test_the_extremes_are_exact_where_floats_cannot_tell_values_apart():
    big = Fraction(10**20)
    values = [big, big + 1, Fraction(1, 3), big - 1, Fraction(1, 3) - Fraction(1, 10**30)]
    least, most = extremes(values, [float(value) for value in values])
    assert (
        (least, most)
        == (min(values), max(values))
        == (Fraction(1, 3) - Fraction(1, 10**30), big + 1)
    )


def test_a_coordinate_is_rounded_as_round_rounds_it():
    for value in (0.05, 0.15, 0.25, 2.675, -0.05, -3.25, 12.349999, 1e-9, -1e-9, 180.0):
        expected = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
        assert coordinate(value) == ("0" if expected == "-0" else expected)
