"""The app's addresses: each feature's own ``urls`` (the phone's pages, a game, a new game,
tables, house rules, the rules), and the converters of the keys in them."""

from __future__ import annotations

from django.urls import include, path, register_converter

from scoring.store.models import KEY_PATTERN


class KeyConverter:
    """A game's edit or share key as the app makes them: anything else matches no page (404)."""

    regex = KEY_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class RoundIdConverter(KeyConverter):
    """A round's id: digits that fit the database's integer."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(KeyConverter, "key")
register_converter(RoundIdConverter, "round")

urlpatterns = [
    path("", include("scoring.phone.urls")),
    path("", include("scoring.game.urls")),
    path("", include("scoring.tables.urls")),
    path("", include("scoring.house_rules.urls")),
    path("", include("scoring.rules.urls")),
]
