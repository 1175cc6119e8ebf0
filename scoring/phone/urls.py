from __future__ import annotations

from django.urls import path

from scoring.phone import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.json", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("stats/", views.stats, name="stats"),
    # The home page's form that makes a table.
    path("t/new/", views.new_table, name="new_table"),
]
