"""Generated odd and hostile input posted to a table's forms and queried on its page
(hypothesis, with test_fuzz's texts and encodings): never a server error, and nothing changes
unless the answer says the input was accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.store.models import Game, Table
from tests.web.fuzzing import (
    FUZZ,
    fresh_client,
    post,
    query_string,
    sending,
    snapshot,
    texts,
)
from tests.web.helpers import evening_table

pytestmark = pytest.mark.django_db


def tables() -> list:
    return [
        [getattr(t, f.attname) for f in Table._meta.fields] for t in Table.objects.order_by("pk")
    ]


@FUZZ
@given(
    name=texts("Jeudis chez Léa", "x" * 41),
    players=texts("Léa\nMarc", "Léa\nléa"),
    extra=st.lists(st.tuples(st.sampled_from(["name", "players", "x"]), texts()), max_size=3),
    how=sending(),
)
def test_making_a_table(name, players, extra, how):
    before = Table.objects.count()
    response = post(fresh_client(), "/t/new/", [("name", name), ("players", players), *extra], how)
    assert response.status_code in (302, 400), response.status_code
    assert Table.objects.count() == before + (response.status_code == 302)


@FUZZ
@given(
    old=texts("Marc", "lea", "Nobody"),
    new=texts("Marco", "Léa", "Marc"),
    confirm=st.sampled_from(["", "True", "False", "on", "\x00", "1"]),
    how=sending(),
)
def test_renaming_at_a_table(old, new, confirm, how):
    table, _ = evening_table()
    before, rows = snapshot(), tables()
    pairs = [("old", old), ("new", new)] + ([("confirm", confirm)] if confirm else [])
    response = post(fresh_client(), f"/t/{table.edit_key}/rename/", pairs, how)
    assert response.status_code in (200, 302, 400), response.status_code
    if response.status_code != 302:
        assert snapshot() == before and tables() == rows
    Table.objects.all().delete()
    Game.objects.all().delete()


@FUZZ
@given(
    name=texts("Les voisins"),
    how=sending(),
)
def test_keeping_a_table_from_a_game(name, how):
    game = Game.objects.create(variant="tamalou", players=["Léa", "Marc"])
    response = post(fresh_client(), f"/g/{game.edit_key}/table/", [("name", name)], how)
    assert response.status_code in (302, 400), response.status_code
    game.refresh_from_db()
    assert (game.table is not None) == (response.status_code == 302)
    Table.objects.all().delete()
    Game.objects.all().delete()


@FUZZ
@given(
    read=st.booleans(),
    query=st.lists(
        st.tuples(
            st.sampled_from(["period", "a", "b", "evenings", "old"]),
            texts("year", "month", "all", "Léa", "Marc", "True"),
        ),
        max_size=4,
    ),
    raw_query=st.sampled_from(["", "%ff", "a=%ed%a0%80", "b=%00", "period=%c0%80"]),
)
def test_a_tables_page_with_odd_queries(read, query, raw_query):
    table, _ = evening_table()
    before, rows = snapshot(), tables()
    client = fresh_client()
    url = f"/t/r/{table.read_key}/" if read else f"/t/{table.edit_key}/"
    response = client.get(f"{url}?{query_string(query)}&{raw_query}")
    assert response.status_code == 200, response.status_code
    if not read:
        rename = client.get(f"/t/{table.edit_key}/rename/?{query_string(query)}&{raw_query}")
        assert rename.status_code == 200
    assert snapshot() == before and tables() == rows
    Table.objects.all().delete()
    Game.objects.all().delete()
