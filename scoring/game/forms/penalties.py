"""Penalty points of a round: one row each (who, how many points, why), as a formset; the
phone adds rows (round.js), a page without JavaScript shows a few spare ones."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.referee import engine
from scoring.referee.engine import Penalty, unstorable
from scoring.web.fields import (
    NumberField,
)


def no_control_character(text: str) -> None:
    """Free text kept in a game file has no control character or lone surrogate, as a game
    file must not (``engine.unstorable``): the game's export must import again."""
    if unstorable(text):
        raise forms.ValidationError(_("Remove the control character from the reason."))


class PenaltyForm(forms.Form):
    """Penalty points given to one player in a round, with the reason."""

    player = forms.ChoiceField(label=gettext_lazy("Player"), required=False)
    points = NumberField(label=gettext_lazy("Points"), max_length=8)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        max_length=engine.MAX_REASON_LENGTH,
        validators=[no_control_character],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *((p, p) for p in players)]
        self.fields["reason"].widget.attrs["placeholder"] = _("Reason")

    def clean(self):
        data = super().clean()
        player, points = data.get("player"), data.get("points")
        reason = (data.get("reason") or "").strip()
        if self.errors or not (player or points is not None or reason):
            return data
        if not player:
            self.add_error("player", _("Choose who gets the penalty."))
        if points is None:
            self.add_error("points", _("Enter a number of points."))
        if not self.errors:
            self.penalty = Penalty(player, points, reason)
        return data


class BasePenaltyFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": ngettext_lazy(
            "A round has at most %(num)d penalty.", "A round has at most %(num)d penalties.", "num"
        )
    }


# At most 16 rows, refused past that. Django's max_num alone takes 1,000 rows more
# (absolute_max): a post of 150 bytes naming row 99,999 had 1,016 rows built and drawn. Two
# empty rows past those filled, so that a table without JavaScript (no "Another penalty") has
# room for a few penalties in a round.
PenaltyFormSet = forms.formset_factory(
    PenaltyForm,
    BasePenaltyFormSet,
    extra=2,
    min_num=1,
    max_num=16,
    absolute_max=16,
    validate_max=True,
)
