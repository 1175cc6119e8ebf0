"""The form renderer draws the round form's widgets in Python (scoring/renderers.py): every
page with a form gives the same bytes as Django's widget templates would, and so does each
widget drawn with awkward values."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.forms.renderers import TemplatesSetting
from django.test import override_settings
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from scoring.games.models import Game
from scoring.referee.variants import VARIANTS
from scoring.renderers import FormRenderer

TEMPLATES = "django.forms.renderers.TemplatesSetting"
PLAYERS = ["Léa", "Marc & <Zoé>", "Nina", "Paul", "Quentin", "Rose", "Sam", "Théo"]
TOKEN = re.compile(r"\b[A-Za-z0-9]{64}\b")  # a CSRF token, masked afresh in each page


def both(client, method: str, url: str, data: dict | None = None) -> tuple[str, str]:
    """A page drawn with the project's renderer and with Django's widget templates (each from
    a fresh cache, its CSRF token left out), after its status (400: a form refused)."""
    drawn = []
    for renderer in ("scoring.renderers.FormRenderer", TEMPLATES):
        with override_settings(FORM_RENDERER=renderer):
            for alias in ("default", "template_fragments"):  # pages, and the kept parts
                caches[alias].clear()
            response = getattr(client, method)(url, data or {})
            assert response.status_code in (200, 400), (url, response.status_code)
            drawn.append(f"{response.status_code} {TOKEN.sub('', response.content.decode())}")
    return drawn[0], drawn[1]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_with_a_form_is_drawn_as_the_widget_templates_draw_it(client, language):
    client.cookies["django_language"] = language
    pages = [("get", "/new/", None), ("get", "/import/", None)]
    pages += [("get", f"/new/{variant}/", None) for variant in [*VARIANTS, "tambouille"]]
    pages.append(("post", "/new/tamalou/", {"name_0": "Léa", "joker_value": "x"}))
    for variant in VARIANTS:
        game = Game.objects.create(
            variant=variant, players=PLAYERS, settings={"card_values": {"KH": -1}}
        )
        sheet = f"/g/{game.edit_key}/"
        pages.append(("get", sheet, None))
        # a round refused (its errors beside the fields), then one saved and its edit page
        pages.append(("post", sheet, {"number": "1", "save": "1", "total_0": "<b>", "caller": "?"}))
        client.post(sheet, {"number": "1", "save": "1", **counts(), "caller": "Léa"})
        entry = game.rounds.get()
        pages.append(("get", f"{sheet}rounds/{entry.pk}/edit/", None))
        pages.append(("get", f"{sheet}rounds/{entry.pk}/delete/", None))
        # the picker without JavaScript: a card picked into a hand shows its chip
        pages.append(("post", sheet, {"number": "2", "pick": "0:KH", "penalty-TOTAL_FORMS": "0"}))
    match = Game.objects.create(variant="tambouille", players=PLAYERS[:4])
    pages.append(("get", f"/g/{match.edit_key}/", None))
    for method, url, data in pages:
        ours, django = both(client, method, url, data)
        assert "<input" in ours, url
        assert ours == django, url


def counts() -> dict:
    return {f"total_{seat}": str(seat) for seat in range(len(PLAYERS))}


CONTEXTS = [
    {"type": "text", "name": "a", "value": None, "attrs": {}},
    {"type": "number", "name": "n<", "value": 0, "attrs": {"id": "id_n", "required": True}},
    {
        "type": "text",
        "name": "t",
        "value": 'O"Brien & <b>',
        "attrs": {"class": "x", "disabled": False, "data-x": mark_safe("<i>"), "min": -3},
    },
    {
        "type": "hidden",
        "name": "h",
        "value": mark_safe("<kept>"),
        "attrs": {"title": gettext_lazy("Player")},
    },
    {"type": "text", "name": "e", "value": "", "attrs": {"placeholder": "“quoted” ’"}},
]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("name", ["input", "text", "number", "hidden"])
def test_an_input_is_drawn_as_its_template_draws_it(name, context):
    template = f"django/forms/widgets/{name}.html"
    widget = {"widget": context}
    assert FormRenderer().render(template, widget) == TemplatesSetting().render(template, widget)


@pytest.mark.parametrize("wrap_label", [True, False])
@pytest.mark.parametrize("name", ["input_option", "radio_option", "checkbox_option"])
def test_an_option_is_drawn_as_its_template_draws_it(name, wrap_label):
    template = f"django/forms/widgets/{name}.html"
    for attrs in ({"id": "id_c_0", "checked": True}, {}):
        option = {"type": "radio", "name": "c", "value": "L<a", "label": "Léa & <b>"}
        widget = {"widget": option | {"attrs": attrs, "wrap_label": wrap_label}}
        assert FormRenderer().render(template, widget) == TemplatesSetting().render(
            template, widget
        )


def test_a_select_with_groups_is_drawn_as_its_template_draws_it():
    from django import forms

    field = forms.ChoiceField(
        choices=[("", "—"), ("Cartes", [("a", "As <1>"), ("r", "Roi")]), ("x", "X & Y")]
    )
    for value in ("", "r", "x"):
        drawn = []
        for renderer in (FormRenderer(), TemplatesSetting()):
            widget = forms.Select(attrs={"class": "s"})
            widget.choices = field.choices
            drawn.append(widget.render("who", value, renderer=renderer))
        assert "<optgroup" in drawn[0] and drawn[0] == drawn[1]


def test_labels_are_localized_as_the_templates_localize_them():
    """A number or a date as a label: ``0,5`` and ``1 mai 2024`` in French."""
    import datetime
    from fractions import Fraction

    from django import forms
    from django.utils import translation

    choices = [(1, 0.5), (2, datetime.date(2024, 5, 1)), (3, Fraction(1, 2)), (4, mark_safe("<b>"))]
    with translation.override("fr"):
        for widget in (forms.Select, forms.RadioSelect):
            drawn = []
            for renderer in (FormRenderer(), TemplatesSetting()):
                field = forms.ChoiceField(choices=choices, widget=widget)
                drawn.append(field.widget.render("x", 1, renderer=renderer))
                drawn.append(str(next(iter(field.widget.subwidgets("x", 1)))))
            assert "0,5" in drawn[0] and drawn[0] == drawn[2]


def test_a_widget_template_of_the_projects_own_is_drawn_by_its_template(tmp_path, settings):
    """Overriding ``input.html`` (which ``text.html`` includes) or ``attrs.html`` changes every
    widget, as with Django's own renderer."""
    from django import forms

    for name in ("input", "attrs"):
        folder = tmp_path / name / "django" / "forms" / "widgets"
        folder.mkdir(parents=True)
        (folder / f"{name}.html").write_text(f"<mine-{name}>")
        settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path / name]}]
        ours = forms.TextInput().render("a", "b", renderer=FormRenderer())
        theirs = forms.TextInput().render("a", "b", renderer=TemplatesSetting())
        assert f"<mine-{name}>" in ours and ours == theirs
