from __future__ import annotations

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Tamalou Ref"

    def ready(self) -> None:
        # Each variant's own round form registers itself (``RoundForm.for_game``).
        from scoring.game import match  # noqa: F401
