from __future__ import annotations

from django.urls import path

from scoring.house_rules import views

urlpatterns = [
    path("h/<key:key>/", views.rule_set, name="rule_set"),
    path("h/<key:key>/keep/", views.keep_rule_set, name="keep_rule_set"),
    path("h/<key:key>/edit/", views.edit_rule_set, name="edit_rule_set"),
    path("h/<key:key>/edit/cards/", views.edit_rule_set_cards, name="edit_rule_set_cards"),
]
