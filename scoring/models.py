"""Where Django looks for the app's models; they live in ``scoring.games.models``."""

from __future__ import annotations

from scoring.games.models import (
    Game,
    PlayerResult,
    Round,
    RuleSet,
    Table,
    TurnClock,
    new_key,
    new_uid,
)
from scoring.guards.models import RateBucket

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
