from __future__ import annotations

from django.urls import path

from scoring import views

urlpatterns = [
    path("", views.home, name="home"),
]
