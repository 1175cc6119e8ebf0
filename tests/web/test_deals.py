"""Who deals next, as the sheet says it after every round saved, corrected or deleted: the
deal the stored sheet keeps with its standing agrees with the deal worked out from every
round of the game (engine.deals), for every worked example, the Dutch toulousain's dutcher
who deals and a game whose players are knocked out included."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from scoring.models import Game
from scoring.referee import engine, gamefile
from tests.helpers import EXAMPLES

pytestmark = pytest.mark.django_db

GAMES = sorted(path for path in EXAMPLES.glob("*.game.json") if "tambouille" not in path.name)


def shown_deal(client, game: Game) -> str | None:
    page = client.get(f"/g/{game.edit_key}/").content.decode()
    found = re.search(r'<p class="deal">(.*?)</p>', page)
    return None if found is None else unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def expected_deal(game: Game) -> str | None:
    game = Game.objects.get(pk=game.pk)
    sheet = engine.score_game(game.as_entry())
    deals = engine.deals(sheet, game.first_dealer)
    if sheet.finished or len(deals) <= len(sheet.rounds):
        return None
    dealer, first = deals[len(sheet.rounds)]
    return f"{dealer} deals, {first} plays first."


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.name.removesuffix(".game.json"))
def test_the_next_deal_follows_every_round_saved(client, path):
    data = json.loads(path.read_text())
    entry = gamefile.game_from_json(data)
    game = Game.objects.create(
        variant=entry.variant,
        players=list(entry.players),
        settings=data.get("settings", {}),
        first_dealer=1,
    )
    for number, played in enumerate(entry.rounds, 1):
        if Game.objects.get(pk=game.pk).score().finished:
            break
        game.add_round(number, played)
        assert shown_deal(client, game) == expected_deal(game), f"after round {number}"


def test_the_next_deal_after_a_correction_and_a_deletion(client):
    game = Game.objects.import_file((EXAMPLES / "dutch_toulousain.game.json").read_bytes())
    first, second = game.live_rounds()[:2]
    game.replace_round(first.pk, first.edits, game.entries([second])[0])
    assert shown_deal(client, game) == expected_deal(game)
    game.delete_round(second.pk)
    assert shown_deal(client, game) == expected_deal(game)
