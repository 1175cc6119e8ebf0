"""The next game of a table whose last game had house settings: they come folded in one
line, and unfold where the player is at work."""

from __future__ import annotations

import re

import pytest

from scoring.store.models import Table
from tests.web.helpers import HOUSE_SEATS, house_table


@pytest.mark.django_db
def test_the_folded_line_names_the_house_settings(client):
    table = house_table()
    page = client.get(f"/new/tamalou/?table={table.edit_key}").content.decode()
    assert '<details class="builder" id="builder">' in page  # folded
    line = "House rules: rounds 3, limit 100, reset 100 → 50"
    assert f'<span class="folded-line">{line}</span>' in page
    # Named, the name comes first; in French, with its narrow no-break space.
    Table.objects.filter(pk=table.pk).update(rules_name="Chez Mamie")
    page = client.get(f"/new/tamalou/?table={table.edit_key}").content.decode()
    assert "House rules: Chez Mamie · rounds 3, limit 100, reset 100 → 50" in page
    client.cookies["django_language"] = "fr"
    page = client.get(f"/new/tamalou/?table={table.edit_key}").content.decode()
    french = "Règles de la maison\u202f: Chez Mamie · manches 3, limite 100, \\w+ 100 → 50<"
    assert re.search(french, page)


@pytest.mark.django_db
def test_the_house_rules_unfold_where_the_player_is_at_work(client):
    """Folded as the page opens (a table's next game starts in one tap); unfolded for a tap in
    the house rules answered without JavaScript (another deck's cards, the sample round), and
    for a value refused."""
    table = house_table()
    sent = {
        **{f"name_{n}": name for n, name in enumerate(HOUSE_SEATS)},
        "dealer": "0",
        "table": table.edit_key,
        "limit": "100",
        "reset_at": "100",
        "reset_to": "50",
        "rounds": "3",
    }
    opened = client.get(f"/new/tamalou/?table={table.edit_key}").content.decode()
    assert '<details class="builder" id="builder">' in opened
    assert "House rules: rounds 3, limit 100, reset 100 → 50" in opened
    for tap in ("cards", "preview"):
        tapped = client.post(f"/new/tamalou/{tap}/", sent).content.decode()
        assert '<details class="builder" id="builder" open>' in tapped
    refused = client.post("/new/tamalou/", {**sent, "rounds": "-4"})
    assert refused.status_code == 400
    assert '<details class="builder" id="builder" open>' in refused.content.decode()
    plain = client.get("/new/tamalou/").content.decode()
    assert '<details class="builder" id="builder">' in plain
    assert '<summary class="button">House rules</summary>' in plain
