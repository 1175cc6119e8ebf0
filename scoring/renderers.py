"""The form renderer: Django's widget templates, with the few a round form draws by the
dozen (inputs, radio and checkbox options, selects, and the project's choices side by side)
written as the Python they compile to.

A round form of 8 players draws about 50 widgets; through the templates, each input is two
template renders (``input.html`` and its ``attrs.html``) and each radio option four, which was
the largest part of drawing a score sheet. The functions below give the same bytes as those
templates (``tests/test_renderers.py`` compares them on every page with a form); any other
template is rendered as usual, and every one of them once the project overrides any of these
(or ``attrs.html``, which they include)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import django.forms
from django.forms.renderers import TemplatesSetting
from django.utils.formats import localize
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeData
from django.utils.timezone import template_localtime

WIDGETS = "django/forms/widgets/"
DJANGOS = str(Path(django.forms.__file__).parent / "templates")  # Django's own widget templates


def shown(value) -> str:
    """``{{ value }}``: localized (a number, a date) and escaped, as a template writes it."""
    if type(value) is str:  # most of them: Django's escape() is html.escape() on text
        return html.escape(value)
    value = localize(template_localtime(value))
    return escape(value if isinstance(value, str) else str(value))


def as_text(value) -> str:
    """``{{ value|stringformat:'s' }}``: the value as text, escaped unless marked safe."""
    text = f"{value}"
    return text if isinstance(value, SafeData) else html.escape(text)


def attrs(widget: dict) -> str:
    """``attrs.html``: each attribute that is not False, bare when it is True."""
    return "".join(
        f" {shown(name)}" if value is True else f' {shown(name)}="{as_text(value)}"'
        for name, value in widget["attrs"].items()
        if value is not False
    )


def input_tag(widget: dict) -> str:
    """``input.html`` (and ``text.html``, ``number.html``, ``hidden.html``…, which include it)."""
    value = "" if widget["value"] is None else f' value="{as_text(widget["value"])}"'
    kind, name = shown(widget["type"]), shown(widget["name"])
    return f'<input type="{kind}" name="{name}"{value}{attrs(widget)}>'


def input_option(widget: dict) -> str:
    """``input_option.html`` (``radio_option.html``, ``checkbox_option.html``)."""
    if not widget.get("wrap_label"):
        return input_tag(widget)
    target = widget["attrs"].get("id")
    label_for = f' for="{shown(target)}"' if target else ""
    # the input as included: with the newline its template ends on
    return f"<label{label_for}>{input_tag(widget)}\n {shown(widget['label'])}</label>"


def segmented(widget: dict) -> str:
    """The project's ``widgets/segmented.html``: each option in its label, side by side."""
    labels = "".join(
        f'<label for="{shown(option["attrs"].get("id", ""))}">{input_tag(option)} '
        f"{shown(option['label'])}</label>"
        for _, options, _ in widget["optgroups"]
        for option in options
    )
    return f'<div class="segmented">{labels}</div>'


def select_option(widget: dict) -> str:
    """``select_option.html``."""
    label = shown(widget["label"])
    return f'<option value="{as_text(widget["value"])}"{attrs(widget)}>{label}</option>'


class FormRenderer(TemplatesSetting):
    """Django's ``TemplatesSetting`` renderer, with the round form's widgets drawn in Python."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: dict[str, Callable[[dict], str]] = {
            **{
                f"{WIDGETS}{name}.html": input_tag
                for name in ("input", "text", "number", "hidden", "email", "url", "password")
            },
            **{
                f"{WIDGETS}{name}.html": input_option
                for name in ("input_option", "radio_option", "checkbox_option")
            },
            f"{WIDGETS}select_option.html": select_option,
            f"{WIDGETS}select.html": self.select,
        }
        # The project's own template under one of those names, or under one they include
        # (attrs.html): every widget is drawn by its template.
        if any(self.is_overridden(name) for name in [*self.drawn, f"{WIDGETS}attrs.html"]):
            self.drawn = {}
        else:  # and the project's own widget, which includes attrs.html
            self.drawn["widgets/segmented.html"] = segmented

    def is_overridden(self, name: str) -> bool:
        return not self.get_template(name).origin.name.startswith(DJANGOS)

    def render(self, template_name, context, request=None):
        draw = self.drawn.get(template_name)
        if draw is None:
            return super().render(template_name, context, request)
        return draw(context["widget"])

    def select(self, widget: dict) -> str:
        """``select.html``, its options drawn by their own template names."""
        parts = [f'<select name="{shown(widget["name"])}"{attrs(widget)}>']
        for group_name, group_choices, _ in widget["optgroups"]:
            if group_name:
                parts.append(f'\n  <optgroup label="{shown(group_name)}">')
            for option in group_choices:
                parts.append(f"\n  {self.option(option)}")
            if group_name:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")
        return "".join(parts)

    def option(self, widget: dict) -> str:
        """An option as ``select.html`` includes it: not stripped, as ``render`` strips a
        widget, so with the newline its template ends on."""
        name = widget["template_name"]
        if self.drawn.get(name) is select_option:
            return f"{select_option(widget)}\n"
        return self.get_template(name).render({"widget": widget})
