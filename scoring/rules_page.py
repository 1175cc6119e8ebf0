"""The rules page of a variant: what each card is worth and does, the rules, a worked example.

Everything shown comes from the variant modules the referee scores with: the values
table and the card lookup read the variant's card values and powers (with a game's house
settings when the sheet links here with them), and the worked example is scored by the
referee when the page is drawn."""

from __future__ import annotations

import re
from fractions import Fraction
from urllib.parse import urlencode

from django.utils.translation import gettext, gettext_lazy

from scoring.display import points, rank_name
from scoring.forms import CARD_VALUES, RESET, reset_parts
from scoring.referee import engine, gamefile
from scoring.referee.cards import JOKER, RANKS, SUIT_SYMBOLS, UnknownCard, parse_card
from scoring.referee.notes import RANK_SYMBOLS, card_name
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import Variant
from scoring.referee.variants.base import GENERAL_DECISIONS, Power

SHEET_PATH = re.compile(r"/[gs]/[A-Za-z0-9_-]{1,32}/")  # a sheet, by its edit or share link


def power_label(power: Power) -> str:
    """The ranks a power is for, as players read them in their language (V, D, R in French)."""
    ranks = ", ".join(gettext(RANK_SYMBOLS[r]) if r in RANK_SYMBOLS else r for r in power.ranks)
    if power.colour == "red":
        return f"{ranks} {SUIT_SYMBOLS['H']}{SUIT_SYMBOLS['D']}"
    if power.colour == "black":
        return f"{ranks} {SUIT_SYMBOLS['S']}{SUIT_SYMBOLS['C']}"
    return ranks


def values_table(variant: Variant) -> list[dict]:
    """One row per rank: its value, its red and black values where they differ, or each
    card's where the table gave a single card its own (K♥ −1)."""
    rows = []
    for rank in variant.ranks:
        cards = [parse_card(rank + suit) for suit in "HDSC"]
        values = [variant.value(card) for card in cards]
        row = {"rank": rank, "name": rank_name(rank), "red": values[0], "black": values[2]}
        if values[0] != values[1] or values[2] != values[3]:
            row["cards"] = list(zip(cards, values, strict=True))
        rows.append(row)
    if variant.jokers:
        joker = variant.value(parse_card(JOKER))
        rows.append({"rank": JOKER, "name": rank_name(JOKER), "red": joker, "black": joker})
    return rows


def worked_example(variant: Variant) -> dict:
    players = variant.example["players"]
    entry = gamefile.round_from_json(variant.example["round"], 1)
    sheet = engine.score_game(engine.GameEntry(variant.key, tuple(players), (entry,)))
    result = sheet.rounds[0]
    return {
        "round": entry,
        "result": result,
        "rows": [
            {
                "name": p,
                "cards": list(entry.hands[p]),
                "total": result.hand_totals[p],
                "score": result.scores[p],
            }
            for p in players
        ],
    }


def card_lookup(variant: Variant, code: str | None) -> dict | None:
    if not code:
        return None
    try:
        card = parse_card(code)
    except UnknownCard:
        return {"unknown": code}
    if not variant.in_deck(card):
        return {"card": card, "missing": True}
    return {"card": card, "value": variant.value(card), "power": variant.power_of(card)}


def house_settings(variant: type[Variant], query) -> dict:
    """A game's house settings given in the query (``?joker_value=20``,
    ``card_values=JOKER:-5,KH:-1``: ``HouseSetting.text``), as its sheet links to them; what
    is not a valid setting of the variant, or does not go with the others, is left out."""
    settings = {}
    for setting in variant.house_settings:
        text = query.get(setting.name)
        if text is None:
            continue
        try:
            settings[setting.name] = setting.from_text(text, halves=variant.half_points)
        except ValueError:
            continue
    try:
        variant(**settings)
    except ValueError:
        return {}  # settings that do not go together (a link written by hand)
    return settings


def settings_query(variant: str, settings: dict) -> list[tuple[str, str]]:
    """A game's settings as a rules page's query (``house_settings`` reads them back)."""
    declared = {setting.name: setting for setting in engine.GAMES[variant].house_settings}
    return [(name, declared[name].text(value)) for name, value in sorted(settings.items())]


# How a difference is named in a line; a setting not listed here is named by its label.
SHORT = {
    "rounds": gettext_lazy("rounds"),
    "decks": gettext_lazy("decks"),
    "deck": gettext_lazy("deck"),
    "jokers": gettext_lazy("jokers"),
    "call_threshold": gettext_lazy("call at most"),
    "joker_value": gettext_lazy("joker"),
    "half_game": gettext_lazy("half game"),
    "call_bonus": gettext_lazy("successful call"),
    "call_penalty": gettext_lazy("failed call"),
    "limit": gettext_lazy("limit"),
    "reset": gettext_lazy("reset"),
}
SIGNED = {"call_bonus", "call_penalty"}


def signed(value) -> str:
    text = points(value)
    return text if text.startswith("−") or Fraction(value) == 0 else f"+{text}"


def card_label(key: str) -> str:
    if key == JOKER:
        return gettext("joker")
    if key in RANKS:
        return rank_name(key)
    return card_name(parse_card(key), gettext)


def differences(variant: str, settings: dict) -> list[str]:
    """Each setting that differs from the variant's, in the table's words and numbers."""
    rules = engine.GAMES[variant]
    said = []
    for setting in rules.house_settings:
        name = setting.name
        if name not in settings or settings[name] == setting.default:
            continue
        value = settings[name]
        label = str(SHORT.get(name) or gettext(setting.label))
        if name == CARD_VALUES:
            said += [f"{card_label(key)} {points(worth)}" for key, worth in value.items()]
        elif name == RESET:
            at, to = reset_parts(value)
            said.append(f"{label} {at} → {to}" if at is not None else gettext("no reset"))
        elif setting.kind == "flag":
            said.append(label if value else gettext("no %(setting)s") % {"setting": label})
        elif setting.kind == "choice":
            choice = dict(setting.choices).get(value)
            said.append(gettext(choice) if choice else f"{label} {value}")
        elif value is None:
            said.append(gettext("no agreed number of rounds") if name == "rounds" else label)
        else:
            said.append(f"{label} {signed(value) if name in SIGNED else points(value)}")
    return said


def sheet_back(query) -> str:
    """The score (or match) sheet the rules page was opened from, if the query names one."""
    back = query.get("back", "")
    return back if SHEET_PATH.fullmatch(back) else ""


def tambouille_context(query) -> dict:
    """What Tambouille's rules page shows: its rules, and what the match sheet decided."""
    return {"back": sheet_back(query), "decisions": Tambouille.decisions, "rules": Tambouille}


def rules_context(variant: type[Variant], query, settings: dict | None = None) -> dict:
    """What the rules page of ``variant`` shows, with the house settings in ``query`` or
    ``settings`` (a saved set's) and a way back to the score sheet it was opened from."""
    if settings is None:
        settings = house_settings(variant, query)
    rules = variant(**settings)
    back = sheet_back(query)
    kept = [*settings_query(variant.key, settings), *([("back", back)] if back else [])]
    return {
        "back": back,
        "house": differences(variant.key, settings),
        "query": urlencode(kept),
        "variant": rules,
        "sections": rules.rule_texts(),
        "powers": [(power_label(power), power.text) for power in rules.powers],
        "power_rules": rules.power_rules,
        "values": values_table(rules),
        "cards": rules.deck(),
        "example": worked_example(rules),
        "settled": rules.settled,
        "decisions": [*GENERAL_DECISIONS, *rules.decisions],
        "lookup": card_lookup(rules, query.get("card")),
    }
