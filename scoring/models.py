"""Where Django looks for the app's models; they live in ``scoring.store.models``."""

from __future__ import annotations

from scoring.guards.models import RateBucket
from scoring.store.models import (
    Game,
    PlayerResult,
    Round,
    RuleSet,
    Table,
    TurnClock,
    new_key,
    new_uid,
)

__all__ = [
    "Game",
    "PlayerResult",
    "RateBucket",
    "Round",
    "RuleSet",
    "Table",
    "TurnClock",
    "new_key",
    "new_uid",
]
