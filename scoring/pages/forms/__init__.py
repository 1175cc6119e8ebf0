"""Forms, one module per area: the shared fields (``fields``), a new game and its house
rules (``house``), a round and its card picker (``rounds``), and every other change to a
game (``changes``). Each form that changes a game owns its ``save()``: it calls the ``Game``
method (which locks, checks with the referee and stores) and puts the refusal on the field at
fault.

Every control is a form field rendered by Django's form machinery (the widgets' templates,
``templates/widgets/`` for the project's own), so each has a name, a value and its errors
from one place."""

from __future__ import annotations

from scoring.pages.forms.changes import (
    DeleteRoundForm,
    EndGameForm,
    GameChangeForm,
    ImportForm,
    RematchForm,
    RestoreRoundForm,
    ResumeGameForm,
)
from scoring.pages.forms.fields import NumberField
from scoring.pages.forms.house import (
    CARD_VALUES,
    RESET,
    HouseRulesForm,
    NewGameForm,
    player_rows,
    typed_players,
)
from scoring.pages.forms.rounds import HandsForm, RoundForm, SyncForm, error_texts

__all__ = [
    "CARD_VALUES",
    "RESET",
    "DeleteRoundForm",
    "EndGameForm",
    "GameChangeForm",
    "HandsForm",
    "HouseRulesForm",
    "ImportForm",
    "NewGameForm",
    "NumberField",
    "RematchForm",
    "RestoreRoundForm",
    "ResumeGameForm",
    "RoundForm",
    "SyncForm",
    "error_texts",
    "player_rows",
    "typed_players",
]
