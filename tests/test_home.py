from __future__ import annotations

import pytest
from django.utils import translation

from scoring.pages.display import say
from scoring.referee.variants import VARIANTS

pytestmark = pytest.mark.no_database


def test_home_page_says_what_the_app_is_and_lists_every_variant(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Tamalou" in page and 'name="viewport"' in page
    for variant in VARIANTS.values():
        with translation.override("en"):
            summary = say(variant().summary_text)  # its numbers filled in, the page's way
        assert "{" not in summary and summary.replace("'", "&#x27;") in page
