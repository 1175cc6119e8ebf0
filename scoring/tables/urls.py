from __future__ import annotations

from django.urls import path

from scoring.tables import views

urlpatterns = [
    # A table: its page by its edit key, and read only (any other method than GET or HEAD: 405).
    path("t/<key:key>/", views.table, name="table"),
    path("t/<key:key>/rename/", views.rename_player, name="rename_player"),
    path("t/<key:key>/forget/", views.forget_table_view, name="forget_table"),
    path("t/<key:key>/table.json", views.table_export, name="table_export"),
    path("t/r/<key:key>/", views.table_read, name="table_read"),
    path("t/r/<key:key>/table.json", views.table_read_export, name="table_read_export"),
    path("t/r/<key:key>/remove/", views.unfollow_table, name="unfollow_table"),
]
