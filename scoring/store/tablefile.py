"""A table as one file (``tamalou-ref.table/1``): its name, players in seat order, the house
rules of its last game, and its games, each a game object exactly as a game's export writes
it. Read as strictly as a game file, and within the same limits (the whole file at most
``gamefile.MAX_FILE_BYTES``, what an upload holds): each game is checked as its own import
would be (its shape, its text, then scored by the referee); one wrong game refuses the file
whole (GameError, saying which game)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Prefetch

from scoring.referee import engine, gamefile
from scoring.referee.engine import GameError
from scoring.referee.notes import Note, gettext_noop, note
from scoring.store.models import MAX_TABLE_PLAYERS, Game, Round, Table

TABLE_FORMAT = "tamalou-ref.table/1"
TABLE_KEYS = {"format", "name", "players", "rules", "games"}
OPTIONAL_TABLE_KEYS = {"rules", "started"}
RULES_KEYS = {"variant", "settings", "rules_name"}
# The most games a table file brings: each is checked, scored and stored in the import's one
# transaction, which holds the database's writes meanwhile: a cap keeps that wait short, and
# 500 is some two years of evenings.
MAX_TABLE_GAMES = 500


@dataclass(frozen=True)
class TableEntry:
    name: str
    players: tuple[str, ...]
    variant: str  # "": no rules yet
    settings: dict
    rules_name: str
    games: tuple[engine.GameEntry, ...]
    started: tuple[datetime | None, ...]  # when each game began, if the file says


def table_file(table: Table) -> dict:
    """The table's file: its games oldest first, each its game file (``Game.game_file``)."""
    rules = None
    if table.variant:
        rules = {
            "variant": table.variant,
            "settings": table.settings,
            "rules_name": table.rules_name,
        }
    # Each game's rounds read with the others' (one query, not one a game).
    live = Prefetch("rounds", Round.objects.live().order_by("position"), to_attr="_live_rounds")
    games = list(table.games.order_by("created_at", "pk").prefetch_related(live))
    return {
        "format": TABLE_FORMAT,
        "name": table.name,
        "players": list(table.players),
        "rules": rules,
        "started": [game.created_at.isoformat() for game in games],
        "games": [game.game_file() for game in games],
    }


def dumps(data: dict) -> str:
    """Compact (a table's games fill the file), one game a line."""
    rest = {key: value for key, value in data.items() if key != "games"}
    head = json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
    games = ",\n".join(
        json.dumps(game, ensure_ascii=False, separators=(",", ":")) for game in data["games"]
    )
    return f'{head[:-1]},"games":[\n{games}\n]}}\n'


def is_table_file(data: object) -> bool:
    """Whether parsed JSON says it is a table file (and so is read as one)."""
    return isinstance(data, dict) and data.get("format") == TABLE_FORMAT


def table_name(value: object) -> str:
    name = engine.clean_name(value)
    if not isinstance(value, str) or not name or len(name) > engine.MAX_NAME_LENGTH:
        raise GameError(
            gettext_noop("the name of the table must be 1 to {most} characters."),
            most=engine.MAX_NAME_LENGTH,
            field="name",
        )
    if engine.invisible_character(name):
        raise GameError(
            gettext_noop("the name of the table has an invisible control character."),
            field="name",
        )
    return name


def read_table(raw: object) -> TableEntry:
    """A parsed table file (``gamefile.parse_json``: its size, depth and keys checked) as a
    TableEntry, every game scored by the referee."""
    gamefile.check_text(raw, "")
    if not isinstance(raw, dict):
        raise GameError(gettext_noop("a table file must be a JSON object."))
    unknown = sorted(set(raw) - TABLE_KEYS - OPTIONAL_TABLE_KEYS)
    missing = sorted(TABLE_KEYS - set(raw) - OPTIONAL_TABLE_KEYS)
    if unknown or missing:
        raise GameError(
            gettext_noop("a table file has the keys {keys}, not {given}."),
            keys=", ".join(sorted(TABLE_KEYS | OPTIONAL_TABLE_KEYS)),
            given=", ".join(sorted(raw)),
        )
    name = table_name(raw["name"])
    if not isinstance(raw["players"], list):
        raise GameError(gettext_noop("the table's players must be a list of names."))
    players = engine.check_players(raw["players"], 0, MAX_TABLE_PLAYERS)
    variant, settings, rules_name = read_rules(raw.get("rules"))
    if not isinstance(raw["games"], list):
        raise GameError(gettext_noop("the table's games must be a list of game objects."))
    if len(raw["games"]) > MAX_TABLE_GAMES:
        raise GameError(
            gettext_noop(
                "a table file holds at most {most} games, not {count}: a larger table moves "
                "between servers with the backups."
            ),
            most=MAX_TABLE_GAMES,
            count=len(raw["games"]),
        )
    games = []
    for number, data in enumerate(raw["games"], 1):
        try:
            parsed = gamefile.game_from_json(data)
            engine.score_game(parsed)
        except GameError as error:
            raise GameError(
                gettext_noop("game {number} of the table: {problem}"),
                number=number,
                problem=(located(error),),
            ) from None
        games.append(parsed)
    started = read_started(raw.get("started"), len(games))
    return TableEntry(name, players, variant, settings, rules_name, tuple(games), started)


def located(error: GameError) -> Note:
    """A game's refusal with its round and player, as a note (translated where shown)."""
    if error.round and error.player:
        where = gettext_noop("Round {round}, {player}: {detail}")
    elif error.round:
        where = gettext_noop("Round {round}: {detail}")
    elif error.player:
        where = gettext_noop("{player}: {detail}")
    else:
        return error.note
    return note(where, round=error.round, player=error.player, detail=(error.note,))


def read_started(started: object, count: int) -> tuple[datetime | None, ...]:
    """When each game began: ISO 8601 with its offset, one for each game; none given: not
    known (the games are dated by their import)."""
    if started is None:
        return (None,) * count
    wanted = GameError(
        gettext_noop(
            "'started' must list when each of the {count} games began (ISO 8601 with its offset)."
        ),
        count=count,
    )
    if not isinstance(started, list) or len(started) != count:
        raise wanted
    moments = []
    for value in started:
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.utcoffset() is None or not 1 < moment.year < 9999:
            raise wanted
        moments.append(moment)
    return tuple(moments)


def read_rules(rules: object) -> tuple[str, dict, str]:
    if rules is None:
        return "", {}, ""
    if not isinstance(rules, dict) or set(rules) - RULES_KEYS or "variant" not in rules:
        raise GameError(
            gettext_noop("the table's rules must be null or an object of {keys}."),
            keys=", ".join(sorted(RULES_KEYS)),
        )
    variant, settings = rules["variant"], rules.get("settings", {})
    if not isinstance(variant, str) or variant not in engine.GAMES:
        raise GameError(
            gettext_noop("the table's rules: unknown variant '{variant}'."), variant=variant
        )
    if not isinstance(settings, dict):
        raise GameError(gettext_noop("the table's rules: the settings must be an object."))
    engine.check_settings(variant, settings)
    name = rules.get("rules_name") or ""
    return variant, settings, engine.check_rules_name(name) if name else ""


def store_table(entry: TableEntry) -> tuple[Table, list[Game]]:
    """A new table and its games (each a new game, imported), or nothing (a GameError)."""
    with transaction.atomic():
        table = Table.objects.create(
            name=entry.name,
            players=list(entry.players),
            variant=entry.variant,
            settings=entry.settings,
            rules_name=entry.rules_name,
        )
        games = [
            Game.objects.store(
                parsed, imported=True, table=table, **({"created_at": when} if when else {})
            )
            for parsed, when in zip(entry.games, entry.started, strict=True)
        ]
    return table, games
