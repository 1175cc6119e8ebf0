from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Tamalou Ref"
