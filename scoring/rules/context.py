"""The rules page of a variant: what each card is worth and does, the rules, a worked example.

Everything shown comes from the variant modules the referee scores with: the values
table and the card lookup read the variant's card values and powers (with a game's house
settings when the sheet links here with them), and the worked example is scored by the
referee when the page is drawn."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from scoring.referee import engine, gamefile
from scoring.referee.cards import SUIT_SYMBOLS, UnknownCard, parse_card
from scoring.referee.house import SettingError, SettingErrors
from scoring.referee.notes import RANK_SYMBOLS
from scoring.referee.tambouille import Tambouille
from scoring.referee.variants import Variant
from scoring.referee.variants.base import GENERAL_DECISIONS, Power
from scoring.store.models import KEY_PATTERN, Game
from scoring.web.device import device_games
from scoring.web.display import card_key_name, house_value, points, rank_name

# The sheet a rules page was opened from, by its read-only link: a rules page's address (which
# a player may pass on) never carries an edit key.
SHEET_PATH = re.compile(rf"/s/({KEY_PATTERN})/")


def power_label(power: Power) -> str:
    """The ranks a power is for, as players read them in their language (V, D, R in French)."""
    ranks = ", ".join(gettext(RANK_SYMBOLS[r]) if r in RANK_SYMBOLS else r for r in power.ranks)
    if power.colour == "red":
        return f"{ranks} {SUIT_SYMBOLS['H']}{SUIT_SYMBOLS['D']}"
    if power.colour == "black":
        return f"{ranks} {SUIT_SYMBOLS['S']}{SUIT_SYMBOLS['C']}"
    return ranks


def values_table(variant: Variant) -> list[dict]:
    """One row per rank of the game's deck (then the joker): its value, or its red and
    black values where they differ, or each card's where one card has its own value."""
    rows = []
    for row in variant.card_value_rows():
        cards = [{"card": item["card"], "value": item["value"]} for item in row["cards"]]
        red = {item["value"] for item in cards if item["card"].is_red}
        black = {item["value"] for item in cards if not item["card"].is_red}
        rows.append(
            {
                "rank": row["key"],
                "name": rank_name(row["key"]),
                "red": min(red or black),
                "black": min(black),
                "cards": cards if len(red) > 1 or len(black) > 1 else None,
            }
        )
    return rows


def worked_example(variant: Variant, settings: dict | None = None) -> dict:
    """The variant's example round scored with the game's house settings (with the
    variant's own when the example's cards are not in the chosen deck), the cards they give
    another value in it (``with_changed_cards``)."""
    players = variant.example["players"]
    entry = gamefile.round_from_json(variant.example["round"], 1)
    if settings:
        entry = with_changed_cards(variant, entry, players)
    try:
        game = engine.GameEntry(variant.key, tuple(players), (entry,), settings or {})
        sheet = engine.score_game(game)
    except engine.GameError:
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


def with_changed_cards(
    variant: Variant, entry: engine.RoundEntry, players: list
) -> engine.RoundEntry:
    """The example round with the cards the house rules value otherwise than the variant
    (a joker, K♥…) that it does not hold yet, one in place of the last card of each hand in
    turn: the sample round shows what the rules change."""
    own = type(variant)()
    held = {card for hand in entry.hands.values() for card in hand}
    changed = [
        card
        for card in dict.fromkeys(variant.deck())
        if card not in held and (card not in own.deck() or variant.value(card) != own.value(card))
    ]
    hands = dict(entry.hands)
    for player, card in zip(players, changed, strict=False):
        hands[player] = (*hands[player][:-1], card)
    return dataclasses.replace(entry, hands=hands)


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
    """A game's house settings given in the query (``?joker_value=20&card_values=KH:-1``),
    as its sheet links to them (``HouseSetting.text``); what is not a valid setting of the
    variant is left out, and so is a card value the chosen deck does not hold."""
    settings = {}
    for setting in variant.house_settings:
        text = query.get(setting.name)
        if text is None:
            continue
        try:
            settings[setting.name] = setting.from_text(text, halves=variant.half_points)
        except SettingError:
            continue
    try:
        variant(**settings)
    except SettingErrors as refused:
        for error in refused.errors:
            settings.pop(error.setting, None)
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


def differences(variant: str, settings: dict) -> list[str]:
    """Each setting that differs from the variant's, in the table's words and numbers:
    ``joker −5, R♥ −1, annonce ratée +10``."""
    said = []
    for setting in engine.GAMES[variant].house_settings:
        name = setting.name
        if name not in settings or settings[name] == setting.default:
            continue
        value = settings[name]
        label = str(SHORT.get(name) or gettext(setting.label))
        if setting.kind == "card_values":
            said += [f"{card_key_name(key)} {points(worth)}" for key, worth in value.items()]
        elif setting.kind == "reset":
            shown = house_value(setting, value)
            said.append(f"{label} {shown}" if value is not None else gettext("no reset"))
        elif setting.kind == "flag":
            said.append(label if value else gettext("no %(setting)s") % {"setting": label})
        elif setting.kind == "choice":
            said.append(house_value(setting, value))
        elif value is None:
            said.append(gettext("no agreed number of rounds") if name == "rounds" else label)
        else:
            said.append(f"{label} {signed(value) if name in SIGNED else points(value)}")
    return said


def sheet_back(request: HttpRequest) -> tuple[str, str]:
    """The score (or match) sheet the rules page was opened from, if its query names one by
    its read-only link: (that link, for the page's own links; the way back: the sheet's edit
    link on a phone that keeps the game, else the read-only one)."""
    back = request.GET.get("back", "")
    found = SHEET_PATH.fullmatch(back)
    if found is None:
        return "", ""
    mine = Game.objects.filter(share_key=found[1], edit_key__in=device_games(request))
    edit_key = mine.values_list("edit_key", flat=True).first()
    return back, reverse("edit", args=[edit_key]) if edit_key else back


def tambouille_context(request: HttpRequest) -> dict:
    """What Tambouille's rules page shows: its rules, and what the match sheet decided."""
    back = sheet_back(request)[1]
    return {"back": back, "decisions": Tambouille.decisions, "rules": Tambouille}


def rules_context(
    variant: type[Variant], request: HttpRequest, settings: dict | None = None
) -> dict:
    """What the rules page of ``variant`` shows, with the house settings in the request's
    query or ``settings`` (a saved set's) and a way back to the score sheet it was opened
    from."""
    query = request.GET
    if settings is None:
        settings = house_settings(variant, query)
    rules = variant(**settings)
    sheet, back = sheet_back(request)
    kept = [*settings_query(variant.key, settings), *([("back", sheet)] if sheet else [])]
    return {
        "back": back,
        "house": [
            {
                "setting": setting,
                "value": rules.settings[setting.name],
                "shown": house_value(setting, rules.settings[setting.name]),
            }
            for setting in rules.house_settings
            if setting.name in settings
        ],
        "query": urlencode(kept),
        "variant": rules,
        "sections": rules.rule_texts(),
        "powers": [(power_label(power), power.text) for power in rules.powers],
        "power_rules": rules.power_rules,
        "values": values_table(rules),
        "cards": rules.deck(),
        "example": worked_example(rules, settings),
        "settled": rules.settled,
        "decisions": [*GENERAL_DECISIONS, *rules.decisions],
        "lookup": card_lookup(rules, query.get("card")),
    }
