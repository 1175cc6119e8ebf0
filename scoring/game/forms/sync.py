"""A round kept offline, sent when the phone is back online: which round it was meant as,
and its hands as the round form reads them."""

from __future__ import annotations

from django import forms

from scoring.game.forms.rounds import RoundForm


class SyncForm(forms.Form):
    """How a round entered offline is sent (static/js/offline.js): the number it takes, and
    whether it replaces the round another phone stored there (the table chose so)."""

    number = forms.IntegerField(min_value=1, max_value=10_000)
    replace = forms.BooleanField(required=False)
    misplaced = False  # the round is not where the phone expected it: a conflict

    def __init__(self, data, *, game, **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.game = game

    def clean(self):
        data = super().clean()
        number, replace = data.get("number"), data.get("replace")
        if number is None:
            return data
        count = len(self.game.live_rounds())
        self.misplaced = number > count + 1 or (replace and number > count)
        adding = not self.misplaced and not replace and number == count + 1
        if adding and self.game.score().finished:
            raise forms.ValidationError(RoundForm.for_game(self.game).game_over_text)
        return data

    def round_form(self) -> RoundForm:
        """The round form of the round sent, bound to its own fields: the next round, or the
        correction of the round stored at its number."""
        number = self.cleaned_data["number"]
        editing = self.game.live_rounds()[number - 1] if self.cleaned_data["replace"] else None
        form_class = RoundForm.for_game(self.game)
        # The phone asked whether nobody called when the round was typed (static/js/keep.js):
        # a sync's answer has no page to ask on.
        return form_class(
            self.data.copy(), game=self.game, number=number, editing=editing, asked=True
        )
