"""What the web tests share: phones as test clients, games and a table stored from their
files, a round posted through the form, and the figures a table's page shows."""

from __future__ import annotations

import html
import re

from django.test import Client

from scoring.referee import engine, gamefile, story
from scoring.store.models import Game, Table

SEATS = ["Léa", "Marc", "Nina", "Olga"]


HTMX = {"HTTP_HX_REQUEST": "true"}


def phone(language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def url(game: Game, suffix: str = "") -> str:
    return f"/g/{game.edit_key}/{suffix}"


def hand_fields(game: Game, hands: dict) -> dict:
    """The round form's fields for each player's hand: card codes, or a typed total."""
    data = {}
    for name, hand in hands.items():
        seat = game.players.index(name)
        is_total = re.fullmatch(r"[+-]?\d+([.,]\d+)?", hand)
        data[f"total_{seat}" if is_total else f"cards_{seat}"] = hand
    return data


def save_round(client, game, number, hands: dict, **extra):
    data = {"number": number, "save": "1", **extra, **hand_fields(game, hands)}
    return client.post(url(game), data)


def players_shown(page: str) -> tuple[list[str], int]:
    """The new-game page's player rows as shown: each row's name (the spare rows, which
    new-game.js hides, left out), and the row marked as dealing first."""
    names = []
    for row in re.findall(r'<li class="player-row">(.*?)</li>', page, re.S):
        field = re.search(r'<input type="text" name="name_\d+"[^>]*>', row)[0]
        value = re.search(r'value="([^"]*)"', field)
        names.append(html.unescape(value[1]) if value else "")
    dealer = re.findall(
        r'data-row="deal-(\d+)"\s+class="icon js-only on" aria-pressed="true"', page
    )
    return names, int(dealer[0]) if len(dealer) == 1 else -1


def stored_game(
    players, hands_by_round, *, rounds=None, variant="tamalou", callers=(), settings=None, **fields
):
    """A game stored from its file: ``hands_by_round`` lists each round's typed totals in seat
    order; ``rounds`` (the house setting) makes it finish after them; ``settings``, the house's
    settings."""
    data = {
        "format": gamefile.GAME_FORMAT,
        "variant": variant,
        "players": list(players),
        "rounds": [
            {"hands": dict(zip(players, totals, strict=True))}
            | ({"caller": callers[n]} if n < len(callers) and callers[n] else {})
            for n, totals in enumerate(hands_by_round)
        ],
    }
    if rounds or settings:
        data["settings"] = {**(settings or {}), **({"rounds": rounds} if rounds else {})}
    return Game.objects.store(gamefile.game_from_json(data), **fields)


def evening_table() -> tuple[Table, list[Game]]:
    """A table with games of two variants, finished and not, called and not, one of them
    with a player written otherwise ("lea") and one with a player who sat out."""
    table = Table.objects.create(name="Jeudis", players=SEATS)
    games = [
        stored_game(SEATS, [[3, 10, 12, 20], [5, 2, 30, 7]], rounds=2, callers=["Léa", "Marc"]),
        stored_game(SEATS, [[0, 9, 8, 11]], rounds=1, callers=["Léa"]),
        stored_game(SEATS[:3], [[12, 4, 7], [6, 1, 9]], rounds=3, callers=[None, "Marc"]),
        stored_game(["lea", "Marc", "Olga"], [[2, 5, 11], [3, 8, 1]], rounds=2, variant="gabo"),
        stored_game(SEATS, []),  # not started: counts for nothing
    ]
    for game in games:
        table.attach(game)
    return table, games


def recomputed(games: list[Game]) -> tuple[list[story.PlayerStats], dict]:
    """The standings recomputed from each game's file, as exported: scored afresh."""
    records = []
    for game in games:
        parsed = gamefile.read_game(gamefile.dumps(game.game_file()))
        summary = story.summarize(engine.score_game(parsed))
        records.append(story.GameRecord(parsed.variant, summary, game.created_at))
    overall = story.player_stats(story.GameRecord("all", r.summary, r.when) for r in records)
    return overall["all"], story.player_stats(records)


def figures(rows) -> list[tuple]:
    return [
        (
            r.name,
            r.games,
            r.won,
            r.hands,
            r.hand_points,
            r.calls,
            r.calls_succeeded,
            r.best,
            r.worst,
        )
        for r in rows
    ]


# A table's last game with a limit, a reset and three rounds: its next game takes them.
HOUSE = {"limit": 100, "reset": {"at": 100, "to": 50}, "rounds": 3}
HOUSE_SEATS = ["Léa", "Marc", "Nina", "Omar"]


def house_table() -> Table:
    """Four players whose last game had house settings: the next game takes them."""
    table = Table.objects.create(name="Jeudis chez Léa", players=HOUSE_SEATS)
    table.attach(stored_game(HOUSE_SEATS, [[3, 10, 12, 20]], settings=HOUSE))
    return table


def finished_dutch_game(players: list[str], seed: int = 5) -> Game:
    """A Dutch game played to its end with typed totals: players go out at 100 one by one."""
    import random

    from scoring.referee import engine, gamefile

    rng = random.Random(seed)
    rounds: list[dict] = []
    while True:
        entries = tuple(gamefile.round_from_json(d, n) for n, d in enumerate(rounds, 1))
        sheet = engine.score_game(engine.GameEntry("dutch", tuple(players), entries))
        if sheet.finished:
            break
        hands = {p: rng.randint(0, 28) for p in sheet.in_game}
        rounds.append({"hands": hands, "caller": rng.choice(sheet.in_game)})
    # Stored as the app stores a game (its rows too, which the statistics sum).
    return Game.objects.store(engine.GameEntry("dutch", tuple(players), entries))
