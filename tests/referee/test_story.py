"""The moments of a game and the statistics across games (scoring/referee/story.py), worked
by hand on small games, without Django."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given

from scoring.referee.cards import parse_card
from scoring.referee.engine import score_game
from scoring.referee.story import (
    Calls,
    Comeback,
    CommonCards,
    GameRecord,
    RoundScore,
    moments,
    player_stats,
    same_tables,
    summarize,
)
from tests.helpers import F, play, rnd
from tests.strategies import PROPERTY_SETTINGS, games

pytestmark = pytest.mark.no_database


def tamoul_game():
    """Marc trails by 30 after round 1, then two Tamouls of his bring him back to win."""
    return [
        rnd({"Léa": 2, "Marc": 30, "Nina": 8}, caller="Léa"),  # Léa -20, Marc 30, Nina 8
        rnd({"Léa": 9, "Marc": 1, "Nina": 7}, caller="Marc"),  # Léa -11, Marc 10, Nina 15
        rnd({"Léa": 60, "Marc": 1, "Nina": 5}, caller="Marc"),  # Léa 49, Marc -10, Nina 20
        rnd({"Léa": 4, "Marc": 3, "Nina": 90}, caller="Léa"),  # Léa 73 (fail +20), Nina 110
    ]


def test_the_moments_of_a_tamoul_game():
    rounds = tamoul_game()
    sheet = play("tamoul", "Léa Marc Nina", *rounds)
    assert sheet.finished and sheet.winners == ["Marc"]
    found = moments(sheet, rounds)
    assert found.best_round == RoundScore("Léa", 1, F(-20))  # the first of the -20s
    assert found.calls == [Calls("Léa", 1, 1), Calls("Marc", 2, 0)]
    assert found.comeback == Comeback("Marc", 1, F(50))  # 30 against Léa's -20
    assert found.common_cards is None  # typed totals only


def test_a_winner_who_never_trailed_made_no_comeback():
    sheet = play("koubo", "Léa Marc", rnd({"Léa": 1, "Marc": 9}), rounds=1)
    assert moments(sheet, []).comeback is None


def test_a_comeback_of_one_point_counts_and_the_first_of_equal_ones_is_kept():
    rounds = [
        rnd({"Léa": 5, "Marc": 4}),  # Léa 1 behind
        rnd({"Léa": 3, "Marc": 3}),  # still 1 behind
        rnd({"Léa": 0, "Marc": 9}),
    ]
    sheet = play("koubo", "Léa Marc", *rounds, rounds=3)
    assert sheet.winners == ["Léa"]
    assert moments(sheet, rounds).comeback == Comeback("Léa", 1, F(1))


def test_a_game_in_progress_has_the_comeback_of_its_leader():
    rounds = [rnd({"Léa": 2, "Marc": 9, "Nina": 20}), rnd({"Léa": 30, "Marc": 9, "Nina": 0})]
    sheet = play("tamalou", "Léa Marc Nina", *rounds)
    assert not sheet.finished and sheet.totals == {"Léa": 32, "Marc": 18, "Nina": 20}
    assert moments(sheet, rounds).comeback == Comeback("Marc", 1, F(7))
    assert moments(play("tamalou", "Léa Marc"), []).comeback is None


def test_calls_count_only_rounds_with_a_caller_that_the_referee_judged():
    rounds = [
        rnd({"Léa": 2, "Marc": 9}),  # nobody called
        rnd({"Léa": 2, "Marc": 9}, caller="Léa"),
        rnd({"Léa": 9, "Marc": 2}, caller="Léa"),
    ]
    sheet = play("tamalou", "Léa Marc", *rounds)
    assert moments(sheet, rounds).calls == [Calls("Léa", 1, 1)]
    # A variant that does not judge calls (no verdict for a caller) counts none.
    unjudged = replace(sheet, rounds=[replace(r, caller_succeeded=None) for r in sheet.rounds])
    assert moments(unjudged, rounds).calls == []
    [lea, _marc] = player_stats([GameRecord("tamalou", summarize(unjudged), 0)])["tamalou"]
    assert lea.calls == 0 and lea.success_rate is None


def test_the_card_in_hands_most_often_counts_penalty_cards_and_ties_in_deck_order():
    rounds = [
        rnd({"Léa": "KS 3H", "Marc": "QS 2C"}),
        rnd({"Léa": "3H 2C", "Marc": "KS QD"}),
        rnd({"Léa": "9D", "Marc": "AS"}, caller="Marc"),
    ]
    sheet = play("tamalou", "Léa Marc", *rounds)
    cards = [parse_card(code) for code in ("2C", "3H", "KS")]
    assert moments(sheet, rounds).common_cards == CommonCards(tuple(cards), 2)
    # Ties in the deck's order: 9 before 10, spades before clubs, the joker last.
    rounds = [
        rnd({"Léa": "10H 3C JOKER", "Marc": "9D 3S"}),
        rnd({"Léa": "10H 3C", "Marc": "9D 3S JOKER"}),
    ]
    sheet = play("tamalou", "Léa Marc", *rounds)
    codes = [card.code for card in moments(sheet, rounds).common_cards.cards]
    assert codes == ["3S", "3C", "9D", "10H", "JOKER"]  # every one that ties, the joker too
    rounds = [rnd({"Léa": "JOKER KC", "Marc": "KD"}), rnd({"Léa": "KC", "Marc": "JOKER KD"})]
    sheet = play("tamalou", "Léa Marc", *rounds)
    codes = [card.code for card in moments(sheet, rounds).common_cards.cards]
    assert codes == ["KD", "KC", "JOKER"]
    toulousain = [rnd({"Léa": "2C", "Marc": "3H"}, caller="Marc", penalty_cards="2S")] * 1
    assert (
        moments(play("dutch_toulousain", "Léa Marc", *toulousain), toulousain).common_cards is None
    )
    again = [*toulousain, rnd({"Léa": "2S", "Marc": "KH"})]
    found = moments(play("dutch_toulousain", "Léa Marc", *again), again).common_cards
    assert found == CommonCards((parse_card("2S"),), 2)


def test_statistics_per_variant_and_player_name():
    koubo_1 = play("koubo", "Léa Marc", rnd({"Léa": 2, "Marc": 9}, caller="Léa"), rounds=1)
    koubo_2 = play(
        "koubo",
        "marc LÉA",  # the same players, other seats and spelling
        rnd({"marc": 5, "LÉA": 6}, caller="LÉA"),
        rnd({"marc": 1, "LÉA": 7}),
        rounds=2,
    )
    unfinished = play("koubo", "Léa Nina", rnd({"Léa": 4, "Nina": 3}, caller="Nina"))
    tamoul = play("tamoul", "Léa Marc Nina", *tamoul_game())
    records = [
        GameRecord("dutch", summarize(play("dutch", "Zoé Omar")), 4),  # not started: nobody
        GameRecord("koubo", summarize(koubo_1), 1),
        GameRecord("koubo", summarize(koubo_2), 2),
        GameRecord("koubo", summarize(unfinished), 3),
        GameRecord("tamoul", summarize(tamoul), 0),
    ]
    stats = player_stats(records)
    assert list(stats) == ["koubo", "tamoul"]
    lea, marc, nina = stats["koubo"]
    assert (lea.name, lea.games, lea.won) == ("Léa", 2, 1)
    assert (marc.name, marc.games, marc.won) == ("Marc", 2, 1)
    assert (nina.games, nina.won, nina.hands) == (0, 0, 1)  # played, but nothing finished
    assert (lea.calls, lea.calls_succeeded, lea.success_rate) == (2, 1, F(1) / 2)
    assert (nina.calls, nina.success_rate) == (1, 1)
    assert lea.hands == 4 and lea.average_hand == Fraction(2 + 6 + 7 + 4, 4)
    assert (lea.best, lea.worst) == (F(-3), F(26))  # a right call; 6 + 20 for a wrong one
    assert marc.success_rate is None
    tamoul_players = {s.name: s for s in stats["tamoul"]}
    assert tamoul_players["Marc"].won == 1 and tamoul_players["Nina"].worst == 90

    [table] = same_tables(records)
    assert table.players == ["Léa", "Marc"]
    assert [game.record.when for game in table.games] == [1, 2]
    assert [game.totals for game in table.games] == [[-3, 9], [33, 6]]
    assert [game.winners for game in table.games] == [[True, False], [False, True]]
    assert table.wins == [1, 1]


def test_players_with_as_many_wins_are_listed_by_games_played_then_name():
    lost = play("koubo", "Zoé Léa", rnd({"Zoé": 9, "Léa": 1}), rounds=1)
    started = play("koubo", "Nina Léa", rnd({"Nina": 9, "Léa": 1}))
    stats = player_stats(
        [GameRecord("koubo", summarize(started), 1), GameRecord("koubo", summarize(lost), 2)]
    )
    assert [(s.name, s.won, s.games) for s in stats["koubo"]] == [
        ("Léa", 1, 1),
        ("Zoé", 0, 1),
        ("Nina", 0, 0),
    ]


@PROPERTY_SETTINGS
@given(games())
def test_statistics_add_up_the_sheets_rounds(game):
    sheet = score_game(game)
    stats = player_stats([GameRecord(game.variant, summarize(sheet), 0)]).get(game.variant, [])
    assert len(stats) == (len(sheet.players) if sheet.rounds else 0)
    for row in stats:
        scores = [r.scores[row.name] for r in sheet.rounds if row.name in r.scores]
        hands = [r.hand_totals[row.name] for r in sheet.rounds if row.name in r.scores]
        assert row.hands == len(scores) and row.hand_points == sum(hands, Fraction(0))
        assert (row.best, row.worst) == ((min(scores), max(scores)) if scores else (None, None))
        assert row.games == int(sheet.finished) and row.won == int(row.name in sheet.winners)


@PROPERTY_SETTINGS
@given(games())
def test_a_summary_written_as_json_and_read_back_is_the_same_summary(game):
    """What each game keeps in the database (``Game.summary``): every figure read back
    exactly, after each round of the game (none played yet included: no best, no worst)."""
    import json

    from scoring.referee.engine import GameEntry
    from scoring.referee.story import summary_from_json, summary_to_json

    for count in range(len(game.rounds) + 1):
        summary = summarize(
            score_game(GameEntry(**{**game.__dict__, "rounds": game.rounds[:count]}))
        )
        written = json.loads(json.dumps(summary_to_json(summary)))
        assert summary_from_json(written) == summary
        assert summary_to_json(summary_from_json(written)) == written


def test_a_summary_read_back_keeps_eliminations_and_each_players_calls():
    """Dutch, worked by hand: Léa out after round 2 (110 points), then Nina; Marc's two calls."""
    from scoring.referee.story import summary_from_json, summary_to_json

    sheet = play(
        "dutch",
        "Léa Marc Nina",
        rnd({"Léa": 60, "Marc": 1, "Nina": 40}, caller="Marc"),
        rnd({"Léa": 50, "Marc": 2, "Nina": 30}, caller="Marc"),
        rnd({"Marc": 3, "Nina": 40}, caller="Nina"),
    )
    summary = summarize(sheet)
    back = summary_from_json(summary_to_json(summary))
    assert back == summary
    assert back.progress.eliminated == summary.progress.eliminated != ()
    assert back.progress.eliminated == ("Léa", "Nina") and back.totals["Léa"] == 110
    assert back.figures["Léa"].hands == 2 and back.figures["Marc"].calls == 2
    assert back.figures["Marc"].calls_succeeded == 2  # both his calls held, counted
