from __future__ import annotations

from django.urls import path, register_converter

from scoring.games.models import KEY_PATTERN
from scoring.pages import house_views, table_views, views


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
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.json", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("new/", house_views.new_game, name="new_game"),
    path("new/<slug:variant>/", views.new_game_variant, name="new_game_variant"),
    # The new-game page's other buttons, each its own address (the form posted to it).
    path(
        "new/<slug:variant>/save-rules/",
        house_views.new_game_save_rules,
        name="new_game_save_rules",
    ),
    path("new/<slug:variant>/preview/", house_views.new_game_preview, name="new_game_preview"),
    path("new/<slug:variant>/cards/", house_views.new_game_cards, name="new_game_cards"),
    path(
        "new/<slug:variant>/house-rules/", house_views.new_game_rule_set, name="new_game_rule_set"
    ),
    path(
        "new/<slug:variant>/other/",
        house_views.new_game_other_variant,
        name="new_game_other_variant",
    ),
    path("import/", views.import_game, name="import_game"),
    path("stats/", views.stats, name="stats"),
    path("rules/", views.rules_index, name="rules"),
    path("rules/tambouille/", views.rules_tambouille, name="rules_tambouille"),
    path("rules/<slug:variant>/", views.rules_variant, name="rules_variant"),
    path("h/<key:key>/", house_views.rule_set, name="rule_set"),
    path("h/<key:key>/keep/", house_views.keep_rule_set, name="keep_rule_set"),
    path("h/<key:key>/edit/", house_views.edit_rule_set, name="edit_rule_set"),
    path("h/<key:key>/edit/cards/", house_views.edit_rule_set_cards, name="edit_rule_set_cards"),
    # A table: its page by its edit key, and read only (any other method than GET or HEAD: 405).
    path("t/new/", table_views.new_table, name="new_table"),
    path("t/<key:key>/", table_views.table, name="table"),
    path("t/<key:key>/rename/", table_views.rename_player, name="rename_player"),
    path("t/<key:key>/forget/", table_views.forget_table_view, name="forget_table"),
    path("t/<key:key>/table.json", table_views.table_export, name="table_export"),
    path("t/r/<key:key>/", table_views.table_read, name="table_read"),
    path("t/r/<key:key>/table.json", table_views.table_read_export, name="table_read_export"),
    path("t/r/<key:key>/remove/", table_views.unfollow_table, name="unfollow_table"),
    path("g/<key:key>/table/", table_views.keep_table, name="keep_table"),
    path("g/<key:key>/", views.edit_sheet, name="edit"),
    path("g/<key:key>/live/", views.edit_live, name="edit_live"),
    path("g/<key:key>/export/", views.edit_export, name="edit_export"),
    path("g/<key:key>/sheet.csv", views.edit_csv, name="edit_csv"),
    path("g/<key:key>/rematch/", views.rematch, name="rematch"),
    path("g/<key:key>/end/", views.end_game, name="end_game"),
    path("g/<key:key>/resume/", views.resume_game, name="resume_game"),
    path("g/<key:key>/forget/", views.forget_game, name="forget_game"),
    # This phone's list of the games it follows by their read-only link (the share link itself
    # takes no write).
    path("followed/<key:key>/remove/", views.unfollow_game, name="unfollow_game"),
    path("g/<key:key>/clock/", views.clock, name="clock"),
    # The sheet with every round whole (a long game's older rounds are folded on the sheet).
    path("g/<key:key>/rounds/", views.edit_sheet, name="edit_rounds"),
    path("s/<key:key>/rounds/", views.share_sheet, name="share_rounds"),
    path("g/<key:key>/rounds/sync/", views.sync_round, name="sync_round"),
    path("g/<key:key>/rounds/<round:round_id>/edit/", views.round_edit, name="round_edit"),
    path("g/<key:key>/rounds/<round:round_id>/delete/", views.round_delete, name="round_delete"),
    path("g/<key:key>/rounds/<round:round_id>/restore/", views.round_restore, name="round_restore"),
    # The share link: the same sheet, read only (any other method than GET or HEAD: 405).
    path("s/<key:key>/", views.share_sheet, name="share"),
    path("s/<key:key>/live/", views.share_live, name="share_live"),
    path("s/<key:key>/export/", views.share_export, name="share_export"),
    path("s/<key:key>/sheet.csv", views.share_csv, name="share_csv"),
]
