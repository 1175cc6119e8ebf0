from __future__ import annotations

from django.urls import path

from scoring import rules_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("new/", views.new_game, name="new_game"),
    path("new/<str:variant>/", views.new_game_variant, name="new_game_variant"),
    path("import/", views.import_game, name="import_game"),
    path("rules/", rules_views.rules_index, name="rules"),
    path("rules/tambouille/", rules_views.rules_tambouille, name="rules_tambouille"),
    path("rules/<str:variant>/", rules_views.rules_variant, name="rules_variant"),
    path("g/<str:key>/", views.game_sheet, name="game"),
    path("g/<str:key>/live/", views.game_live, name="game_live"),
    path("g/<str:key>/export/", views.game_export, name="game_export"),
    path("g/<str:key>/rematch/", views.game_rematch, name="game_rematch"),
    path("g/<str:key>/end/", views.game_end, name="game_end"),
    path("g/<str:key>/rounds/<int:round_id>/edit/", views.round_edit, name="round_edit"),
    path("g/<str:key>/rounds/<int:round_id>/delete/", views.round_delete, name="round_delete"),
    path("g/<str:key>/rounds/<int:round_id>/restore/", views.round_restore, name="round_restore"),
    # The share link: the same sheet, read only; every write request gets 403.
    path("s/<str:key>/", views.shared_sheet, name="shared"),
    path("s/<str:key>/live/", views.shared_live, name="shared_live"),
    path("s/<str:key>/export/", views.shared_export, name="shared_export"),
    path("s/<str:key>/<path:rest>", views.shared_other, name="shared_other"),
]
