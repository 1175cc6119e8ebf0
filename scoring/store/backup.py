"""Every game in one file, and back into a database: Django's own JSON serialization.

A backup is a fixture as ``manage.py dumpdata`` writes it (and ``loaddata`` reads it) of the
app's stored models (``MODELS``): a JSON list of ``{"model", "pk", "fields"}`` objects,
gzip-compressed when its name ends in ``.gz``. It holds what the tables entered and the app
keeps, never what is computed from it: a game's players' rows (``PlayerResult``) are written
again on restore by the game's own write (``Game._store``), and the rate limits' buckets are
not kept.

Primary keys are kept as they are, so that references between rows need nothing else and a
file moves between SQLite and PostgreSQL as it is; a restore therefore goes into a database
that holds no games, tables or rule sets (or replaces those it holds), in one transaction.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import secrets
import zlib
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from django.utils import translation

from scoring.referee import engine
from scoring.referee.engine import GameError
from scoring.store.models import MAX_TABLE_PLAYERS, Game, Round, RuleSet, Table, TurnClock

# What a backup holds, in an order where each model's references come before it, so that
# ``loaddata`` on a database without deferred constraints reads it too.
MODELS: tuple[type[models.Model], ...] = (RuleSet, Table, Game, Round, TurnClock)
LABELS = {model._meta.label_lower: model for model in MODELS}
NAMES = {Game: "game", Round: "round", Table: "table", RuleSet: "rule set", TurnClock: "turn clock"}
ZIP_MAGIC = b"PK\x03\x04"
GZIP_MAGIC = b"\x1f\x8b"


class BackupError(Exception):
    """A backup that cannot be written, or a file refused: what is wrong, in one sentence
    (a database's or Django's message gets its full stop)."""

    def __init__(self, message: str) -> None:
        super().__init__(message if message.endswith((".", "!", "?")) else f"{message}.")


def one_line(text: str) -> str:
    """A message for a terminal: one line, anything unprintable (line breaks, escape codes,
    lone surrogates) written as a Python escape."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def counted(counts: Counter) -> str:
    """``counts`` (by model) as a person reads it: "3 game(s), 12 round(s), ..."."""
    parts = [f"{counts[model]} {name}(s)" for model, name in NAMES.items()]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --- writing -----------------------------------------------------------------------------


class Encoder(DjangoJSONEncoder):
    """Django's encoder, but dates and times to the microsecond: Django's stops at the
    millisecond (ECMA-262's format), and a restored game would not be the game backed up."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def write_backup(target: str | os.PathLike) -> Counter:
    """Write every row of ``MODELS`` to the file ``target`` (gzip when it ends in ``.gz``);
    how many of each. The file appears whole or not at all: it is written beside the target
    and renamed into place, so a failed backup keeps any older file at that path."""
    target = Path(target)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        # Created as open() would (the umask decides), never over an existing file.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise _cannot_write(target, error) from None
    try:
        with os.fdopen(descriptor, "wb") as raw:
            if target.name.endswith(".gz"):
                # The name in the gzip header is the target's, not the temporary file's.
                with gzip.GzipFile(filename=target.name, mode="wb", fileobj=raw) as packed:
                    counts = _write_objects(packed)
            else:
                counts = _write_objects(raw)
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _cannot_write(target, error) from None
        if isinstance(error, DatabaseError):
            raise BackupError(f"cannot read the database: {_squeezed(error)}") from None
        raise
    _sync_directory(target.parent)
    return counts


def _write_objects(binary) -> Counter:
    counts: Counter = Counter()

    def rows() -> Iterator[models.Model]:
        for model in MODELS:
            for row in model.objects.order_by("pk").iterator(chunk_size=500):
                counts[model] += 1
                yield row

    # Text that UTF-8 cannot write (a lone surrogate, which SQLite keeps in a JSON column) is
    # written as its JSON escape: the backup never fails on it, and reads it back as it was.
    text = io.TextIOWrapper(binary, encoding="utf-8", errors="backslashreplace", newline="\n")
    outermost = not connection.in_atomic_block
    # One transaction, so that the file is one moment of the database: no round written
    # without its game when phones save during the backup. (On SQLite it takes the write
    # lock, as the app's transactions do: a save waits for the backup, as for another save.)
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            # PostgreSQL reads each query afresh by default: one snapshot for them all.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        serializers.serialize("json", rows(), stream=text, indent=1, cls=Encoder)
    text.flush()
    text.detach()  # the caller closes the file
    return counts


def _cannot_write(target: Path, error: OSError) -> BackupError:
    return BackupError(f"cannot write {target}: {error.strerror or error}.")


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable, where the system allows it."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# --- restoring ---------------------------------------------------------------------------


def restore_backup(source: str | os.PathLike, *, replace: bool = False) -> Counter:
    """Store every row of the backup ``source``; how many of each. The database must hold no
    game, table or rule set, unless ``replace``: those it holds are then deleted first. All
    in one transaction: a file refused, a row the database refuses or a game the referee
    refuses is a BackupError, and the database is left as it was."""
    items = read_rows(source)
    try:
        with transaction.atomic():
            _make_room(replace)
            counts = _insert(items)
            connection.check_constraints(table_names=[model._meta.db_table for model in MODELS])
            _reset_sequences()
            _check_links()
            _check_rules()
            _store_games()
    except DatabaseError as error:
        raise BackupError(f"the database refused the backup: {_squeezed(error)}") from None
    return counts


def read_rows(source: str | os.PathLike) -> list[dict]:
    """The rows of a backup file, each ``{"model", "pk", "fields"}`` of a model of
    ``MODELS``; a BackupError for anything else (a damaged file, another app's fixture, a
    game file, an archive of the format before this one)."""
    try:
        with open(source, "rb") as file:
            compressed = file.read(2) == GZIP_MAGIC
            file.seek(0)
            data = _gunzip(source, file) if compressed else file.read()
    except OSError as error:
        raise BackupError(f"cannot read {source}: {error.strerror or error}.") from None
    if data.startswith(ZIP_MAGIC):
        raise BackupError(
            f"{source} is a zip archive, the backup of versions before backups were Django's "
            "JSON: restore it with the restore_games of the version that wrote it, then "
            "upgrade (migrate keeps the games) and back up again."
        )
    try:
        rows = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BackupError(
            f"{source} is not a backup_games file: byte {error.start} is not UTF-8 text."
        ) from None
    except RecursionError:
        raise BackupError(f"{source} is not a backup_games file: it nests too deeply.") from None
    except ValueError as error:
        raise BackupError(
            f"{source} is not valid JSON ({error}): it is damaged, or not a backup_games file."
        ) from None
    if isinstance(rows, dict) and isinstance(rows.get("format"), str):
        raise BackupError(
            f"{source} is a {_shown(rows['format'])} file, not a backup: a game file is "
            "stored with import_game."
        )
    if not isinstance(rows, list):
        raise BackupError(
            f"{source} is not a backup_games file: it holds {_kind(rows)}, not a list of rows."
        )
    for number, row in enumerate(rows, 1):
        if not (
            isinstance(row, dict)
            and set(row) == {"model", "pk", "fields"}
            and isinstance(row["fields"], dict)
        ):
            raise BackupError(
                f"{source} is not a backup_games file: object {number} is not a row as Django "
                'writes them ({"model", "pk", "fields"}).'
            )
        if row["model"] not in LABELS:
            raise BackupError(
                f"{source} is not a backup of this app's games: object {number} is a row of "
                f"{_shown(row['model'])}, which backup_games never writes."
            )
    return rows


def _gunzip(source: str | os.PathLike, file) -> bytes:
    try:
        return gzip.GzipFile(fileobj=file).read()
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        raise BackupError(
            f"{source} is damaged: its gzip compression is broken ({error})."
        ) from None


def _make_room(replace: bool) -> None:
    """Refuse a database that holds games, tables or rule sets; with ``replace``, delete
    them (their rounds, clocks and players' rows go with the games)."""
    held = Counter({model: model.objects.count() for model in (Game, Table, RuleSet)})
    if not any(held.values()):
        return
    if not replace:
        kinds = [f"{held[model]} {NAMES[model]}(s)" for model in (Game, Table, RuleSet)]
        raise BackupError(
            f"this database already holds {', '.join(kinds[:2])} and {kinds[2]}: restore into "
            "an empty database, or add --replace to delete them and restore the backup in "
            "their place."
        )
    for model in (Game, Table, RuleSet):
        model.objects.all().delete()


def _insert(rows: list[dict]) -> Counter:
    """Store the rows as they are, keys included (their references are checked after)."""
    counts: Counter = Counter()
    number = 0
    # Django's messages in English, as the rest of the line (the site's language is French).
    with translation.override("en"):
        try:
            for number, restored in enumerate(serializers.deserialize("python", rows), 1):
                row = restored.object
                where = _where(number, rows[number - 1])
                relations = [field.name for field in row._meta.fields if field.is_relation]
                try:
                    # What the database may not check itself (SQLite ignores a length).
                    row.clean_fields(exclude=relations)
                except ValidationError as error:
                    field, messages = next(iter(error.message_dict.items()))
                    raise BackupError(f"{where}: {field}: {' '.join(messages)}") from None
                try:
                    restored.save(force_insert=True)  # a key twice is refused, not merged
                except DatabaseError as error:
                    raise BackupError(
                        f"{where}: the database refused it: {_squeezed(error)}"
                    ) from None
                counts[type(row)] += 1
        except (DeserializationError, FieldDoesNotExist) as error:
            # The row after the last one read; Django's own message says which field.
            cause = error.__context__ if isinstance(error, DeserializationError) else error
            if isinstance(cause, ValidationError):
                problem = " ".join(cause.messages)
            else:
                problem = _shortened(str(cause or error))
            raise BackupError(f"{_where(number + 1, rows[number])}: {problem}") from None
    return counts


def _where(number: int, row: dict) -> str:
    return f"object {number} ({row['model']} {_shown(row['pk'])})"


def _reset_sequences() -> None:
    """The next row made by the app gets a key after the restored ones (PostgreSQL's
    sequences do not follow keys given; SQLite's do)."""
    statements = connection.ops.sequence_reset_sql(no_style(), MODELS)
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def _check_links() -> None:
    """A share link only shows a game and a read link only shows a table: neither may be an
    edit link too (each key column is unique on its own, not against the other)."""
    for model, column, kind in ((Game, "share_key", "game"), (Table, "read_key", "table")):
        both = model.objects.filter(**{f"{column}__in": model.objects.values("edit_key")})
        key = both.values_list(column, flat=True).first()
        if key is not None:
            raise BackupError(
                f"the {column} {key} of a {kind} is also the edit key of a {kind}: its link "
                "would change what it should only show."
            )


def _check_rules() -> None:
    """A table's players and house rules, and a rule set's, as the referee checks them when
    a game starts from them."""
    for table in Table.objects.order_by("pk"):
        where = f"table {table.edit_key} (id {table.pk})"
        if not isinstance(table.players, list) or not isinstance(table.settings, dict):
            raise BackupError(
                f"{where}: its players must be a list of names and its settings an object."
            )
        try:
            engine.check_players(table.players, 0, MAX_TABLE_PLAYERS)
            if table.variant:
                engine.check_settings(table.variant, table.settings)
            elif table.settings:
                raise BackupError(f"{where}: it has house settings but no variant.")
        except GameError as error:
            raise BackupError(f"{where} is refused by the referee: {error}") from None
    for rules in RuleSet.objects.order_by("pk"):
        where = f"rule set {rules.key} (id {rules.pk})"
        if not isinstance(rules.settings, dict):
            raise BackupError(f"{where}: its settings must be an object.")
        try:
            engine.check_settings(rules.variant, rules.settings)
        except GameError as error:
            raise BackupError(f"{where} is refused by the referee: {error}") from None


def _store_games(chunk: int = 200) -> None:
    """Check every restored game with the referee, and store it as every write of the app
    stores a game it scored (``Game._store``): its file's size checked, its summary and its
    players' rows written again from the referee's sheet (never trusted from the file), and
    a new version, so that no phone keeps a page of the game as it was before. The game's
    ``updated_at`` stays the backup's."""
    keys = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(keys), chunk):
        for game in Game.objects.filter(pk__in=keys[start : start + chunk]).order_by("pk"):
            where = f"game {game.edit_key} (id {game.pk})"
            # The referee reads a game through its players and settings: shapes a hand-edited
            # file could change, which no column type checks.
            if not isinstance(game.players, list) or not isinstance(game.settings, dict):
                raise BackupError(
                    f"{where}: its players must be a list of names and its settings an object."
                )
            if game.first_dealer >= len(game.players):
                raise BackupError(
                    f"{where}: its first dealer ({game.first_dealer}) is not one of its "
                    f"{len(game.players)} players."
                )
            try:
                game._store(game.as_entry(), updated_at=game.updated_at)
            except GameError as error:
                raise BackupError(f"{where} is refused by the referee: {error}") from None


def _squeezed(error: Exception) -> str:
    """A database's message on one line, short."""
    return _shortened(" ".join(str(error).split()) or type(error).__name__)


def _shortened(text: str, most: int = 300) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _shown(value: object) -> str:
    """A value read from a file, quoted short and safe to print."""
    return _shortened(json.dumps(value, ensure_ascii=True), 60)


def _kind(value: object) -> str:
    return {dict: "a JSON object", str: "a string"}.get(type(value), f"the value {_shown(value)}")
