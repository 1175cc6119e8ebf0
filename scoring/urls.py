from __future__ import annotations

from django.urls import path, register_converter

from scoring import rules_views, views


class KeyConverter:
    """A game's edit or share key as the app makes them: anything else matches no page (404)."""

    regex = "[A-Za-z0-9_-]{1,32}"

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
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("new/", views.new_game, name="new_game"),
    path("new/<slug:variant>/", views.new_game_variant, name="new_game_variant"),
    path("import/", views.import_game, name="import_game"),
    path("rules/", rules_views.rules_index, name="rules"),
    path("rules/tambouille/", rules_views.rules_tambouille, name="rules_tambouille"),
    path("rules/<slug:variant>/", rules_views.rules_variant, name="rules_variant"),
    path("g/<key:key>/", views.game_sheet, name="game"),
    path("g/<key:key>/live/", views.game_live, name="game_live"),
    path("g/<key:key>/export/", views.game_export, name="game_export"),
    path("g/<key:key>/rematch/", views.game_rematch, name="game_rematch"),
    path("g/<key:key>/end/", views.game_end, name="game_end"),
    path("g/<key:key>/rounds/<round:round_id>/edit/", views.round_edit, name="round_edit"),
    path("g/<key:key>/rounds/<round:round_id>/delete/", views.round_delete, name="round_delete"),
    path("g/<key:key>/rounds/<round:round_id>/restore/", views.round_restore, name="round_restore"),
    # The share link: the same sheet, read only (any other method than GET or HEAD: 405).
    path("s/<key:key>/", views.shared_sheet, name="shared"),
    path("s/<key:key>/live/", views.shared_live, name="shared_live"),
    path("s/<key:key>/export/", views.shared_export, name="shared_export"),
]
