"""The new-game form: the house rules builder (``HouseRulesForm``) with the players in turn
order, the first dealer and the table the game is started from; its ``save()`` starts the
game."""

from __future__ import annotations

import re

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy

from scoring.house_rules.forms import HouseRulesForm
from scoring.referee import engine
from scoring.referee.engine import GameError
from scoring.store.models import KEY_PATTERN, Game, Table
from scoring.web.display import say_detail
from scoring.web.fields import (
    small_number,
)

MAX_ROWS = 64  # player rows a posted new-game form may have (more than 8 is refused)


class NewGameForm(HouseRulesForm):
    """Variant settings and its players (2–8, Tambouille 2–4) in turn order, the empty names
    left out. With ``only_rules``, only the house rules are read (to save them
    under their name, or to score a sample round with them)."""

    dealer = forms.TypedChoiceField(
        choices=[(str(row), row) for row in range(engine.MAX_PLAYERS)],
        coerce=int,
        empty_value=0,
        required=False,
        widget=forms.HiddenInput,
    )
    # The edit key of the table the game is started from (``?table=``): the game joins it.
    table = forms.CharField(required=False, max_length=32, widget=forms.HiddenInput)

    def __init__(self, *args, variant: str, rows: int = 4, only_rules=False, **kwargs):
        super().__init__(*args, variant=variant, **kwargs)
        self.rows, self.only_rules = rows, only_rules  # only_rules: the players are not read
        # The rows past ``rows``, up to the variant's most players, are drawn too: without
        # JavaScript a plain list of names (the empty ones left out); new-game.js hides them
        # (and disables them: never sent) and shows one when a player is added on the phone.
        for row in range(max(rows, self.variant.max_players)):
            label = gettext_lazy("Player %(n)s") % {"n": row + 1}
            # The names this phone's games had are offered as one types (known_names).
            attrs = {"list": "known-names", "autocapitalize": "words", "placeholder": label}
            self.fields[f"name_{row}"] = forms.CharField(
                label=label,
                required=False,
                max_length=engine.MAX_NAME_LENGTH,
                widget=forms.TextInput(attrs=attrs),
            )

    @property
    def dealer_row(self) -> int:
        return small_number(str(self["dealer"].value() or 0), 0)

    def name_fields(self):
        """Every row's name field, the hidden rows' included (after the ``rows`` shown)."""
        return [self[name] for name in self.fields if name.startswith("name_")]

    def shown_rows(self) -> list[tuple[int, forms.BoundField]]:
        """The rows shown as the page opens, each with its index."""
        return list(enumerate(self.name_fields()))[: self.rows]

    def spare_rows(self) -> list[tuple[int, forms.BoundField]]:
        """The rows past those, up to the variant's most players, each with its index."""
        return list(enumerate(self.name_fields()))[self.rows :]

    def clean(self):
        data = super().clean()
        kept = [
            (row, data[f"name_{row}"].strip())
            for row in range(self.rows)
            if (data.get(f"name_{row}") or "").strip()
        ]
        if not self.only_rules:
            try:
                self.players = engine.check_players(
                    [name for _, name in kept], self.variant.min_players, self.variant.max_players
                )
            except GameError as error:
                position = dict(error.note.params).get("position")
                field = f"name_{kept[position - 1][0]}" if position else None
                self.add_error(field, say_detail(error))
        rows_kept = [row for row, _ in kept]
        dealer = data.get("dealer") or 0
        self.first_dealer = rows_kept.index(dealer) if dealer in rows_kept else 0
        return data

    def clean_table(self) -> Table | None:
        """The table the game is started from, by its edit key (a key of no table: none)."""
        key = self.cleaned_data.get("table") or ""
        return (
            Table.objects.filter(edit_key=key).first() if re.fullmatch(KEY_PATTERN, key) else None
        )

    def save(self) -> Game:
        """The new game, once the form is valid: these players under these rules (a copy of
        the settings and of their name), in the table it was started from."""
        with transaction.atomic():
            game = Game.objects.create(
                variant=self.variant.key,
                players=list(self.players),
                settings=self.settings,
                rules_name=self.rules_name,
                first_dealer=self.first_dealer,
            )
            table = self.cleaned_data.get("table")
            if table is not None:
                previous = table.games.order_by("-created_at", "-pk").first()
                table.attach(game)
                if previous is not None:
                    previous.lead_to(game)
        return game


def player_rows(data, otherwise: int = engine.MIN_PLAYERS) -> int:
    """How many player rows a new-game form's ``data`` (posted, or a link's query) has: one
    per ``name_`` sent (``otherwise`` when none is), at least 2, at most ``MAX_ROWS``."""
    sent = sum(1 for key in data if key.startswith("name_"))
    return min(max(sent, engine.MIN_PLAYERS), MAX_ROWS) if sent else otherwise


def typed_players(data, rows: int) -> dict[str, str]:
    """The players in a new-game form's ``data``: each row's name, as typed (blank rows
    too, so that the rows and their order stay), and the dealer's row (nothing when no name
    is typed and the first player deals), and the table the game is started from. Carried in
    the query of the page a tap leads to (another variant, a saved set, the set just saved),
    which shows them again."""
    names = {f"name_{row}": data.get(f"name_{row}", "") for row in range(rows)}
    dealer = small_number(data.get("dealer", ""), 0)
    dealer = dealer if dealer < rows else 0
    table = data.get("table", "")
    table = {"table": table} if re.fullmatch(KEY_PATTERN, table) else {}
    if dealer == 0 and not any(name.strip() for name in names.values()):
        return table
    return names | {"dealer": str(dealer)} | table
