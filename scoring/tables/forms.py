"""A table: made from the home page (its name and players) or kept from a game (its name:
the game's players and rules), a player renamed or two names merged, and which standings its
page shows (the period, the two players face to face)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.referee import engine
from scoring.referee.engine import GameError
from scoring.store.models import MAX_TABLE_PLAYERS, Game, NamesClash, Table
from scoring.web.display import say_detail


def checked_name(value: str) -> str:
    """A table's or a player's name as stored: trimmed, normalised, 1–40 visible characters;
    a ValidationError saying why not."""
    name = engine.clean_name(value)
    if not name:
        raise forms.ValidationError(_("Enter a name."))
    if len(name) > engine.MAX_NAME_LENGTH:
        raise forms.ValidationError(
            _("A name has at most %(most)s characters.") % {"most": engine.MAX_NAME_LENGTH}
        )
    if engine.invisible_character(name):
        raise forms.ValidationError(_("The name has an invisible control character."))
    return name


# The most a name's box takes as typed (spaces trimmed and runs of them made one, a name
# has at most engine.MAX_NAME_LENGTH characters: checked_name says so, and only it).
NAME_TYPED = 200


class TableNameField(forms.CharField):
    def __init__(self, **kwargs):
        attrs = {
            "autocomplete": "off",
            "placeholder": gettext_lazy("Thursdays at Léa's"),
            # Not the field's max_length: its message would say 200, not checked_name's 40.
            "maxlength": NAME_TYPED,
        }
        super().__init__(
            label=gettext_lazy("Name of the table"),
            widget=forms.TextInput(attrs=attrs),
            error_messages={"required": gettext_lazy("Enter a name.")},
            **kwargs,
        )

    def clean(self, value):
        return checked_name(super().clean(value))


class NewTableForm(forms.Form):
    """A table made from the home page: its name and its players in seat order, one a line
    (players may come later, with its first game)."""

    name = TableNameField()
    players = forms.CharField(
        label=gettext_lazy("Players, in seat order, one per line"),
        required=False,
        max_length=MAX_TABLE_PLAYERS * (engine.MAX_NAME_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 5, "autocapitalize": "words"}),
    )

    def clean_players(self):
        lines = [line.strip() for line in self.cleaned_data["players"].splitlines()]
        try:
            return list(engine.check_players([n for n in lines if n], 0, MAX_TABLE_PLAYERS))
        except GameError as error:
            raise forms.ValidationError(say_detail(error)) from None

    def save(self) -> Table:
        return Table.objects.create(
            name=self.cleaned_data["name"], players=self.cleaned_data["players"]
        )


class KeepTableForm(forms.Form):
    """ "Keep this table" on a game's sheet: a table of the game's players and rules, named
    here, that the game joins."""

    name = TableNameField()

    def save(self, game: Game) -> Table | None:
        """The table kept; None if the game is a table's already (a second tap)."""
        return game.keep_in_table(self.cleaned_data["name"])


class RenameForm(forms.Form):
    """A player of the table called otherwise in the table and all its games: ``new`` is a
    new name (a rename) or another player's (a merge: "Lea" into "Léa"). Asked first
    (``confirm`` not sent), done once confirmed."""

    old = forms.ChoiceField(label=gettext_lazy("Player"))
    new = forms.CharField(
        label=gettext_lazy("New name, or the name of the player to merge with"),
        widget=forms.TextInput(
            attrs={"list": "table-names", "autocomplete": "off", "maxlength": NAME_TYPED}
        ),
        error_messages={"required": gettext_lazy("Enter a name.")},
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, table: Table, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.fields["old"].choices = [(name, name) for name in names]

    def clean_new(self):
        return checked_name(self.cleaned_data["new"])

    def clean(self):
        data = super().clean()
        old, new = data.get("old"), data.get("new")
        if old and new:
            if old == new:
                self.add_error("new", _("This is already the player's name."))
            elif clashes := self.table.clashes(old, new):
                self.add_error(
                    "new",
                    _(
                        "%(old)s and %(new)s played together in %(n)s of the table's games: "
                        "they are two players."
                    )
                    % {"old": old, "new": new, "n": clashes},
                )
            elif self.merging:  # one player under the spelling the table already has
                names = {name.casefold(): name for name, _ in self.fields["old"].choices}
                data["new"] = names[new.casefold()]
        return data

    @property
    def merging(self) -> bool:
        """``new`` is another player of the table: the two names become one."""
        new = (self.cleaned_data.get("new") or "").casefold()
        old = (self.cleaned_data.get("old") or "").casefold()
        return new != old and new in {name.casefold() for name, _ in self.fields["old"].choices}

    def games_with(self) -> int:
        """How many of the table's games the player played (what the rename changes)."""
        old = self.cleaned_data["old"].casefold()
        players = self.table.games.values_list("players", flat=True)
        return sum(old in {p.casefold() for p in names} for names in players)

    def save(self) -> bool:
        """Rename, once confirmed; False (and the refusal on ``new``) if a game refused."""
        try:
            self.table.rename(self.cleaned_data["old"], self.cleaned_data["new"])
        except NamesClash:
            self.add_error("new", _("A game of the table has both names: they are two players."))
            return False
        except GameError as error:
            self.add_error("new", say_detail(error))
            return False
        return True


PERIODS = [
    ("all", gettext_lazy("Everything")),
    ("year", gettext_lazy("This year")),
    ("month", gettext_lazy("This month")),
]


class TableViewForm(forms.Form):
    """What the table's page shows (a GET form): the period, and two players face to face."""

    # Chosen by the page's links; the face-to-face form sends it on.
    period = forms.ChoiceField(choices=PERIODS, required=False, widget=forms.HiddenInput)
    evenings = forms.BooleanField(required=False, widget=forms.HiddenInput)  # all of them
    a = forms.ChoiceField(label=gettext_lazy("Player"), required=False)
    b = forms.ChoiceField(label=gettext_lazy("Against"), required=False)

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((name, name) for name in names)]
        self.fields["a"].choices = self.fields["b"].choices = choices

    def value(self, name: str) -> str:
        """The field's value, "" when not sent or not one of its choices (the other fields
        keep theirs)."""
        if not self.is_bound:
            return ""
        self.is_valid()
        return self.cleaned_data.get(name) or ""
