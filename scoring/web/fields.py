"""The fields and widgets the forms share: a number typed on the phone's keypad, a number
between − and + buttons (the house rules; the buttons are the phone's), and choices side by
side (a round's caller); and the few helpers that read and write numbers the way those fields do."""

from __future__ import annotations

from fractions import Fraction

from django import forms
from django.utils.translation import gettext as _

from scoring.referee.numbers import NotANumber, parse_number


class NumberField(forms.Field):
    """A number typed on the phone's numeric keypad: digits 0–9, a sign, ``.`` or ``,``
    (``4,5`` as well as ``4.5``). Read by the one number parser every field uses."""

    def __init__(self, *, whole: bool = False, max_length: int = 16, **kwargs) -> None:
        kwargs.setdefault("required", False)
        mode = "numeric" if whole else "decimal"
        attrs = {"inputmode": mode, "autocomplete": "off", "maxlength": str(max_length)}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)
        self.whole, self.max_length = whole, max_length

    def to_python(self, value) -> Fraction | None:
        text = str(value or "").strip()
        if not text:
            return None
        if len(text) > self.max_length:
            raise forms.ValidationError(
                _("Enter at most %(n)s characters.") % {"n": self.max_length}, code="long"
            )
        try:
            number = parse_number(text)
        except NotANumber:
            raise forms.ValidationError(
                _("Enter a number with the digits 0 to 9."), code="number"
            ) from None
        if self.whole and number.denominator != 1:
            raise forms.ValidationError(_("Enter a whole number."), code="whole")
        return number


class StepperInput(forms.TextInput):
    """A number on the numeric keypad between a − and a + button, and ± to change its sign (a
    phone's numeric keypad may have no minus key). The buttons are static/js/house.js's,
    shown only once it runs: without JavaScript the number is typed."""

    template_name = "widgets/stepper.html"

    def __init__(self, low: int | None = None, high: int | None = None, *, halves=False):
        attrs = {"inputmode": "decimal" if halves else "numeric", "autocomplete": "off"}
        attrs |= {"class": "step-value", "data-low": low, "data-high": high}
        super().__init__({key: value for key, value in attrs.items() if value is not None})
        self.low = low

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        what = {"what": getattr(self, "what", "")}  # its field's label
        context["widget"] |= {
            "signed": self.low is None or self.low < 0,
            "less": _("%(what)s: one less") % what,
            "more": _("%(what)s: one more") % what,
            "sign": _("%(what)s: change the sign") % what,
        }
        return context


class Segmented(forms.RadioSelect):
    """Radio buttons side by side, each in its label (``.segmented``): Django's own options,
    laid out by scoring/templates/widgets/segmented.html without the ``<div>`` around each."""

    template_name = "widgets/segmented.html"


class SegmentedBoxes(forms.CheckboxSelectMultiple):
    """Checkboxes drawn as ``Segmented`` draws radio buttons."""

    template_name = "widgets/segmented.html"


def number_text(value) -> str:
    """A number as a field shows it: typed back as is (``-5``, ``6.5``)."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    return str(int(value)) if value.denominator == 1 else str(float(value))


def json_number(value) -> int | float:
    """A number as game files write it."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def small_number(text: str, otherwise: int) -> int:
    """A posted count, index or seat, ``otherwise`` when it is not a whole number of at most
    six digits (Python refuses to read one of 4,300 digits: a 500)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else otherwise


def error_texts(form: forms.Form) -> list[str]:
    """Every refusal of a form (and of a round form's penalty rows), each with its field's
    label, for an answer without a page to show them in."""
    texts = []
    forms_ = [form, *getattr(getattr(form, "penalties", None), "forms", [])]
    for one in forms_:
        for name, errors in one.errors.items():
            label = one.fields[name].label if name in one.fields else None
            for error in errors:
                texts.append(f"{label}: {error}" if label else str(error))
    penalties = getattr(form, "penalties", None)
    if penalties is not None:
        texts.extend(str(error) for error in penalties.non_form_errors())
    return texts
