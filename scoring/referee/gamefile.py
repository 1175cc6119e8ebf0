"""The game file (``tamalou-ref.game/1``) and the score sheet (``tamalou-ref.scoresheet/1``).

Reading is strict: anything that is not exactly the documented shape is refused
with a GameError saying where, so a file that imports is a file that scores.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from scoring.referee.cards import UnknownCard, json_number, parse_card
from scoring.referee.engine import (
    GameEntry,
    GameError,
    Penalty,
    RoundEntry,
    ScoreSheet,
    check_rules_name,
    clean_name,
    unstorable,
)
from scoring.referee.notes import Term, gettext_noop
from scoring.referee.tambouille import Tambouille

GAME_FORMAT = "tamalou-ref.game/1"
SHEET_FORMAT = "tamalou-ref.scoresheet/1"
MAX_FILE_BYTES = 2_000_000
# What one file may hold, each far above any real game and refused before any work is done:
MAX_KEYS = 64  # keys in one object (a round's hands: 8 players; the house settings)
MAX_ITEMS = 10_000  # items in one list (999 rounds, a hand's cards)
MAX_DEPTH = 8  # objects and lists inside each other (a game file needs 5)
MAX_DIGITS = 30  # digits in one number (a float JSON writes has 17)

GAME_KEYS = {
    "format",
    "id",
    "variant",
    "settings",
    "rules_name",
    "blocked",
    "first_dealer",
    "ended",
    "players",
    "rounds",
}
OPTIONAL_GAME_KEYS = {"id", "settings", "rules_name", "blocked", "first_dealer", "ended"}
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ROUND_KEYS = {"hands", "caller", "counter_caller", "emptied", "penalties", "penalty_cards"}
MATCH_ROUND_KEYS = {"hands"}  # a Tambouille turn round: the cards each player holds
PENALTY_KEYS = {"player", "points", "reason"}


# --- reading ---------------------------------------------------------------


def _refuse_constant(name: str) -> None:
    raise GameError(
        gettext_noop("the file is not valid JSON: {name} is not a number JSON allows."), name=name
    )


def _too_many_digits(text: str) -> bool:
    # Checked on the number's text, before Python converts it: an int of more than 4,300
    # digits raises ValueError, and converting long ones takes quadratic time.
    if len(text) <= MAX_DIGITS:  # every number of a real file, at once
        return False
    return len(text) > MAX_DIGITS + 8 or sum(char.isdigit() for char in text) > MAX_DIGITS


def _refuse_long_number() -> None:
    raise GameError(
        gettext_noop("the file holds a number longer than {most} digits."), most=MAX_DIGITS
    )


def parse_int(text: str) -> int:
    if _too_many_digits(text):
        _refuse_long_number()
    return int(text)


def parse_float(text: str) -> float:
    if _too_many_digits(text):
        _refuse_long_number()
    return float(text)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(pairs) > MAX_KEYS:
        raise GameError(
            gettext_noop("an object of the file has more than {most} keys."), most=MAX_KEYS
        )
    result = dict(pairs)
    if len(result) < len(pairs):  # some key came twice: find the first one, in linear time
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise GameError(
                    gettext_noop("the key '{key}' is given twice in one object."), key=key
                )
            seen.add(key)
    return result


def _check_size(value: object) -> None:
    """Lists of at most MAX_ITEMS items, nested at most MAX_DEPTH deep: one pass, no
    recursion (objects were checked as they were read)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise GameError(
                gettext_noop("the file is nested more than {most} levels deep."), most=MAX_DEPTH
            )
        if isinstance(item, list):
            if len(item) > MAX_ITEMS:
                raise GameError(
                    gettext_noop("a list of the file has more than {most} items."),
                    most=MAX_ITEMS,
                )
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())


def loads(text: str) -> object:
    """Strict JSON: no NaN or Infinity, no key twice, and each limit refused as soon as it is
    passed, so that reading takes time linear in the text's length."""
    try:
        data = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=parse_int,
            parse_float=parse_float,
            object_pairs_hook=_no_duplicate_keys,
        )
    except GameError:
        raise
    except RecursionError:
        raise GameError(
            gettext_noop("the file is not valid JSON: it is nested too deeply.")
        ) from None
    except json.JSONDecodeError as error:
        raise GameError(
            gettext_noop("the file is not valid JSON (line {line}, column {column})."),
            line=error.lineno,
            column=error.colno,
        ) from None
    _check_size(data)
    return data


def parse_json(data: bytes | str) -> object:
    if len(data) > MAX_FILE_BYTES:
        raise GameError(
            gettext_noop("the file is larger than {size} MB."), size=MAX_FILE_BYTES // 1_000_000
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise GameError(gettext_noop("the file is not UTF-8 text.")) from None
    return loads(data)


def read_game(data: bytes | str) -> GameEntry:
    """A game file's text as a GameEntry, its shape checked (the rules are checked when scored)."""
    data = parse_json(data)
    check_text(data, "")
    return game_from_json(data)


def check_text(value: object, where: str) -> None:
    """Every text of a file (keys too) must be storable: the one check of text coming in
    from a file, so that a stored game can always be shown, exported and backed up."""
    texts = [(where, value)] if isinstance(value, str) else []
    if isinstance(value, dict):
        for key, item in value.items():
            at = f"{where}.{key}" if where else str(key)
            texts.append((f"{at} (a key)", key))
            check_text(item, at)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_text(item, f"{where}[{index}]")
    for at, text in texts:
        bad = unstorable(text)
        if bad is not None:
            raise GameError(
                gettext_noop("{where} holds a control character or broken text (U+{code})."),
                where="".join(
                    char.encode("unicode_escape").decode() if unstorable(char) else char
                    for char in at
                ),
                code=f"{ord(bad):04X}",
            )


KIND_NAMES = {
    dict: gettext_noop("{what} must be an object."),
    list: gettext_noop("{what} must be a list."),
    str: gettext_noop("{what} must be text."),
}


def _expect(value: object, kind: type, what: str, **where: object) -> Any:
    if not isinstance(value, kind):
        raise GameError(KIND_NAMES[kind], what=Term(what), **where)
    return value


def _check_keys(data: Mapping, allowed: set[str], required: set[str], what: str, **where) -> None:
    for key in data:
        if key not in allowed:
            raise GameError(
                gettext_noop("{what} has an unknown key '{key}' (allowed: {allowed})."),
                what=Term(what),
                key=key,
                allowed=", ".join(sorted(allowed)),
                **where,
            )
    for key in sorted(required - set(data)):
        raise GameError(gettext_noop("{what} has no '{key}'."), what=Term(what), key=key, **where)


def game_from_json(data: object) -> GameEntry:
    _expect(data, dict, gettext_noop("a game file"))
    _check_keys(data, GAME_KEYS, GAME_KEYS - OPTIONAL_GAME_KEYS, gettext_noop("the game file"))
    if data["format"] != GAME_FORMAT:
        raise GameError(
            gettext_noop("the format must be '{wanted}', not '{given}'."),
            wanted=GAME_FORMAT,
            given=data["format"],
        )
    variant = _expect(data["variant"], str, gettext_noop("the variant"), field="variant")
    settings = _expect(
        data.get("settings", {}), dict, gettext_noop("the settings"), field="settings"
    )
    players = _expect(data["players"], list, gettext_noop("the players"), field="players")
    rounds = _expect(data["rounds"], list, gettext_noop("the rounds"), field="rounds")
    rules_name = data.get("rules_name")
    if rules_name is not None:
        rules_name = check_rules_name(rules_name)
    blocked = data.get("blocked", False)
    if not isinstance(blocked, bool):
        raise GameError(gettext_noop("blocked must be true or false."), field="blocked")
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise GameError(gettext_noop("ended must be true or false."), field="ended")
    game_id = data.get("id")
    if game_id is not None and not (isinstance(game_id, str) and GAME_ID.fullmatch(game_id)):
        raise GameError(
            gettext_noop("the id must be 1 to 64 letters, digits, '_' or '-'."), field="id"
        )
    first_dealer = data.get("first_dealer")
    if first_dealer is not None:
        first_dealer = _name(first_dealer, gettext_noop("the first dealer"), field="first_dealer")
        if first_dealer not in [clean_name(p) for p in players]:
            raise GameError(
                gettext_noop("the first dealer '{name}' is not one of the players."),
                name=first_dealer,
                field="first_dealer",
            )
    if variant == Tambouille.key:
        for number, entry in enumerate(rounds, 1):
            _expect(entry, dict, gettext_noop("a round"), round=number)
            _check_keys(entry, MATCH_ROUND_KEYS, set(), gettext_noop("the round"), round=number)
    return GameEntry(
        variant=variant,
        players=tuple(players),
        rounds=tuple(round_from_json(entry, number) for number, entry in enumerate(rounds, 1)),
        settings=settings,
        blocked_after=len(rounds) if blocked else None,
        rules_name=rules_name,
        ended=ended,
        first_dealer=first_dealer,
        game_id=game_id,
    )


def _name(value: object, what: str, **where: object) -> str:
    return clean_name(_expect(value, str, what, **where))


def _card(code: object, **where: object):
    if not isinstance(code, str):
        raise GameError(
            gettext_noop("a card must be a card code such as 10H, KS, AD or JOKER."), **where
        )
    try:
        return parse_card(code)
    except UnknownCard:
        raise GameError(
            gettext_noop("unknown card '{code}' (card codes look like 10H, KS, AD or JOKER)."),
            code=code,
            **where,
        ) from None


def round_from_json(data: object, number: int) -> RoundEntry:
    where = {"round": number}
    _expect(data, dict, gettext_noop("a round"), **where)
    _check_keys(data, ROUND_KEYS, {"hands"}, gettext_noop("the round"), **where)

    hands: dict[str, object] = {}
    for raw_name, hand in _expect(data["hands"], dict, "hands", field="hands", **where).items():
        player = clean_name(raw_name)
        at = {**where, "player": player, "field": "hands"}
        if player in hands:
            raise GameError(gettext_noop("this player has two hands."), **at)
        if isinstance(hand, list):
            hands[player] = tuple(_card(code, **at) for code in hand)
        elif isinstance(hand, int | float) and not isinstance(hand, bool):
            hands[player] = hand
        else:
            raise GameError(gettext_noop("a hand must be a list of card codes or a number."), **at)

    def optional_name(key: str) -> str | None:
        value = data.get(key)
        return None if value is None else _name(value, f"the {key}", field=key, **where)

    def names(key: str) -> tuple[str, ...]:
        values = _expect(data.get(key, []), list, key, field=key, **where)
        return tuple(_name(value, f"each of {key}", field=key, **where) for value in values)

    penalties = []
    for item in _expect(data.get("penalties", []), list, "penalties", field="penalties", **where):
        at = {**where, "field": "penalties"}
        _expect(item, dict, "a penalty", **at)
        _check_keys(item, PENALTY_KEYS, {"player", "points"}, "a penalty", **at)
        reason = _expect(item.get("reason", ""), str, "a penalty's reason", **at).strip()
        if len(reason) > 200:
            raise GameError(gettext_noop("a penalty's reason has at most 200 characters."), **at)
        player = _name(item["player"], "a penalty's player", **at)
        penalties.append(Penalty(player=player, points=item["points"], reason=reason))

    caller = optional_name("caller")
    cards = _expect(
        data.get("penalty_cards", []), list, "penalty_cards", field="penalty_cards", **where
    )
    return RoundEntry(
        hands=hands,
        caller=caller,
        counter_caller=optional_name("counter_caller"),
        emptied=names("emptied"),
        penalties=tuple(penalties),
        penalty_cards=tuple(
            _card(code, player=caller, field="penalty_cards", **where) for code in cards
        ),
    )


# --- writing -----------------------------------------------------------------


def _number_json(value: object) -> object:
    """Numbers as exact JSON numbers (23, not 23.0), inside objects too (card_values,
    reset); other values unchanged."""
    if isinstance(value, int | float | Fraction) and not isinstance(value, bool):
        return json_number(Fraction(value))
    if isinstance(value, Mapping):
        return {key: _number_json(item) for key, item in value.items()}
    return value


def _hand_json(hand: object) -> object:
    if isinstance(hand, tuple):
        return [card.code for card in hand]
    return _number_json(hand)


def game_to_json(game: GameEntry) -> dict[str, object]:
    """The canonical game file: what export writes and import reads back unchanged."""
    data: dict[str, object] = {"format": GAME_FORMAT}
    if game.game_id is not None:
        data["id"] = game.game_id
    data["variant"] = game.variant
    if game.settings:
        data["settings"] = _number_json(game.settings)
    if game.rules_name is not None:
        data["rules_name"] = game.rules_name
    if game.blocked_after is not None:
        data["blocked"] = True
    if game.ended:
        data["ended"] = True
    if game.first_dealer is not None:
        data["first_dealer"] = game.first_dealer
    data["players"] = list(game.players)
    data["rounds"] = [round_to_json(entry) for entry in game.rounds]
    return data


def round_to_json(entry: RoundEntry) -> dict[str, object]:
    data: dict[str, object] = {
        "hands": {player: _hand_json(hand) for player, hand in entry.hands.items()}
    }
    if entry.caller is not None:
        data["caller"] = entry.caller
    if entry.counter_caller is not None:
        data["counter_caller"] = entry.counter_caller
    if entry.emptied:
        data["emptied"] = list(entry.emptied)
    if entry.penalties:
        data["penalties"] = [
            {"player": p.player, "points": _number_json(p.points)}
            | ({"reason": p.reason} if p.reason else {})
            for p in entry.penalties
        ]
    if entry.penalty_cards:
        data["penalty_cards"] = [card.code for card in entry.penalty_cards]
    return data


def rename_in_round(data: dict, names: dict[str, str]) -> dict:
    """A stored round (as ``round_to_json`` writes it) with each player named in ``names``
    called by its value there, all at once (two players may swap names)."""

    def name(value: str) -> str:
        return names.get(value, value)

    renamed = dict(data)
    renamed["hands"] = {name(p): hand for p, hand in data["hands"].items()}
    for key in ("caller", "counter_caller"):
        if key in data:
            renamed[key] = name(data[key])
    if "emptied" in data:
        renamed["emptied"] = [name(p) for p in data["emptied"]]
    if "penalties" in data:
        renamed["penalties"] = [
            penalty | {"player": name(penalty["player"])} for penalty in data["penalties"]
        ]
    return renamed


def sheet_to_json(sheet: ScoreSheet) -> dict[str, object]:
    def numbers(values: Mapping) -> dict[str, object]:
        return {player: json_number(value) for player, value in values.items()}

    return {
        "format": SHEET_FORMAT,
        "variant": sheet.variant,
        "players": list(sheet.players),
        "rounds": [
            {
                "number": result.number,
                "hand_totals": numbers(result.hand_totals),
                "scores": numbers(result.scores),
                "totals": numbers(result.totals),
                "winners": list(result.winners),
                "caller_succeeded": result.caller_succeeded,
                "notes": [str(n) for n in result.notes],
            }
            for result in sheet.rounds
        ],
        "totals": numbers(sheet.totals),
        "finished": sheet.finished,
        "winners": list(sheet.winners),
        "losers": list(sheet.losers),
        "eliminated": list(sheet.eliminated),
    }


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def check_file_bytes(size: int) -> None:
    """Refuse a change that makes a game's file (``size`` bytes) larger than its import
    reads: what the app stores, its files carry back."""
    if size > MAX_FILE_BYTES:
        raise GameError(
            gettext_noop(
                "this would make the game's file larger than {size} MB, the most a game file "
                "may hold; nothing was saved (shorter penalty reasons take less room)."
            ),
            size=MAX_FILE_BYTES // 1_000_000,
        )
