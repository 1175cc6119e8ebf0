from __future__ import annotations

from django.urls import path

from scoring.game import new_game, views

urlpatterns = [
    path("new/", new_game.new_game, name="new_game"),
    path("new/<slug:variant>/", new_game.new_game_variant, name="new_game_variant"),
    # The new-game page's other buttons, each its own address (the form posted to it).
    path("new/<slug:variant>/save-rules/", new_game.save_rules, name="new_game_save_rules"),
    path("new/<slug:variant>/preview/", new_game.preview, name="new_game_preview"),
    path("new/<slug:variant>/cards/", new_game.cards, name="new_game_cards"),
    path("new/<slug:variant>/house-rules/", new_game.rule_set, name="new_game_rule_set"),
    path("new/<slug:variant>/other/", new_game.other_variant, name="new_game_other_variant"),
    path("import/", views.import_game, name="import_game"),
    # The edit link: the sheet, its live part, its files, and every change to the game.
    path("g/<key:key>/", views.edit_sheet, name="edit"),
    path("g/<key:key>/live/", views.edit_live, name="edit_live"),
    path("g/<key:key>/export/", views.edit_export, name="edit_export"),
    path("g/<key:key>/sheet.csv", views.edit_csv, name="edit_csv"),
    path("g/<key:key>/rematch/", views.rematch, name="rematch"),
    path("g/<key:key>/end/", views.end_game, name="end_game"),
    path("g/<key:key>/resume/", views.resume_game, name="resume_game"),
    path("g/<key:key>/forget/", views.forget_game, name="forget_game"),
    path("g/<key:key>/table/", views.keep_table, name="keep_table"),
    # The match's thinking timer, a tap each.
    path("g/<key:key>/clock/start/", views.clock, {"action": "start"}, name="clock_start"),
    path("g/<key:key>/clock/pause/", views.clock, {"action": "pause"}, name="clock_pause"),
    path("g/<key:key>/clock/next/", views.clock, {"action": "next"}, name="clock_next"),
    path("g/<key:key>/clock/time/", views.clock, {"action": "time"}, name="clock_time"),
    # The sheet with every round whole (a long game's older rounds are folded on the sheet).
    path("g/<key:key>/rounds/", views.edit_sheet, name="edit_rounds"),
    path("g/<key:key>/rounds/sync/", views.sync_round, name="sync_round"),
    path("g/<key:key>/rounds/<round:round_id>/edit/", views.round_edit, name="round_edit"),
    path("g/<key:key>/rounds/<round:round_id>/delete/", views.round_delete, name="round_delete"),
    path("g/<key:key>/rounds/<round:round_id>/restore/", views.round_restore, name="round_restore"),
    # The share link: the same sheet, read only (any other method than GET or HEAD: 405).
    path("s/<key:key>/", views.share_sheet, name="share"),
    path("s/<key:key>/rounds/", views.share_sheet, name="share_rounds"),
    path("s/<key:key>/live/", views.share_live, name="share_live"),
    path("s/<key:key>/export/", views.share_export, name="share_export"),
    path("s/<key:key>/sheet.csv", views.share_csv, name="share_csv"),
    # This phone's list of the games it follows by their read-only link (the share link itself
    # takes no write).
    path("followed/<key:key>/remove/", views.unfollow_game, name="unfollow_game"),
]
