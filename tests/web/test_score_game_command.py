"""``manage.py score_game`` as a command: the sheet on stdout, one-line refusals on stderr."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from django.core.management import call_command, execute_from_command_line

from scoring.store import models
from scoring.store.models import Game
from tests.helpers import EXAMPLES, ROOT, exported_as


def score_game(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``python manage.py score_game ARGS`` in a process of its own, as other tools run it."""
    return subprocess.run(
        [sys.executable, "manage.py", "score_game", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def score_game_here(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """The same command line through manage.py's own entry point, in this process (a Python
    start-up less per case): its exit status, and its standard output and error as bytes."""
    streams = [io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")] + [
        io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2)
    ]
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        execute_from_command_line(["manage.py", "score_game", *args])
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    out, err = (stream.buffer.getvalue() for stream in streams[1:])
    return subprocess.CompletedProcess(args, code, out, err)


def test_prints_the_score_sheet_and_exits_0():
    done = score_game(str(EXAMPLES / "tamoul.game.json"))
    assert done.returncode == 0 and done.stderr == b""
    sheet = json.loads(done.stdout)
    assert sheet["format"] == "tamalou-ref.scoresheet/1"
    assert sheet["totals"] == {"Léa": -15.5, "Marc": -1, "Nina": 25}
    assert sheet["rounds"][1]["notes"] == [
        "Léa called Tamoul with 1.5 and was strictly lowest: -20.",
        "The others score their hand totals.",
    ]


def test_reads_standard_input_with_a_dash():
    done = score_game_here("-", stdin=(EXAMPLES / "dutch.game.json").read_bytes())
    assert done.returncode == 0
    assert json.loads(done.stdout)["eliminated"] == ["Léa"]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"not json", "score_game: the file is not valid JSON (line 1, column 1)."),
        (
            json.dumps(
                {
                    "format": "tamalou-ref.game/1",
                    "variant": "koubo",
                    "players": ["Léa", "Marc"],
                    "rounds": [{"hands": {"Léa": ["7S"], "Marc": ["5S"]}}],
                }
            ).encode(),
            "score_game: Round 1, Marc: there is no 5♠ in",
        ),
        (b'{"format": ' + b"1" * 4301 + b"}", "score_game: the file holds a number longer than"),
        (b'{"a\\nb": 1, "a\\nb": 2}', "score_game: the key 'a\\nb' is given twice"),
        (b'{"a": 1.' + b"0" * 5000 + b"}", "score_game: the file holds a number longer than"),
        (
            ("{" + ",".join(f'"k{i}":0' for i in range(150_000)) + "}").encode(),
            "score_game: an object of the file has more than 64 keys.",
        ),
    ],
)
def test_bad_input_one_line_on_stderr_nothing_on_stdout_non_zero_exit(stdin, message):
    done = score_game_here("-", stdin=stdin)
    assert done.returncode == 1
    assert done.stdout == b""
    error = done.stderr.decode()
    assert error.startswith(message) and error.count("\n") == 1
    assert "Traceback" not in error


def test_missing_file_is_refused_without_traceback():
    done = score_game_here("/nonexistent/game.json")
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == (
        "score_game: cannot read /nonexistent/game.json: No such file or directory.\n"
    )


def test_no_argument_is_a_usage_error():
    done = score_game()
    assert done.returncode != 0 and done.stdout == b""
    assert b"the following arguments are required: path" in done.stderr


def test_same_output_through_call_command(capsys):
    call_command("score_game", str(EXAMPLES / "gabo.game.json"))
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["totals"] == {"Léa": 0, "Marc": 8}


def test_touches_no_database(capsys):
    # pytest-django refuses database access in a test not marked for it: this would fail.
    call_command("score_game", str(EXAMPLES / "koubo.game.json"))
    assert json.loads(capsys.readouterr().out)["finished"] is True


@pytest.mark.parametrize("name", ["tambouille", "tambouille_blocked"])
def test_a_tambouille_match_file_scores_as_its_worked_sheet(name):
    done = score_game_here(str(EXAMPLES / f"{name}.game.json"))
    assert done.returncode == 0 and done.stderr == b""
    sheet = json.loads(done.stdout)
    for result in sheet["rounds"]:
        assert result.pop("notes")
    assert sheet == json.loads((EXAMPLES / f"{name}.scoresheet.json").read_text())


def test_a_turn_round_after_the_end_of_a_match_is_refused_on_stderr():
    match = json.loads((EXAMPLES / "tambouille.game.json").read_text())
    match["rounds"].append({"hands": {"Léa": 1, "Marc": 0, "Nina": 2}})
    done = score_game_here("-", stdin=json.dumps(match).encode())
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().strip() == (
        "score_game: Round 5: the match ended after turn round 4; no more can be added."
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["tambouille", "tambouille_blocked"])
def test_import_game_then_export_game_give_back_the_match_file(name):
    from io import StringIO

    out = StringIO()
    call_command("import_game", str(EXAMPLES / f"{name}.game.json"), stdout=out)
    exported = StringIO()
    call_command("export_game", out.getvalue().strip(), stdout=exported)
    assert exported_as(exported.getvalue(), Game.objects.get()) == json.loads(
        (EXAMPLES / f"{name}.game.json").read_text()
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"format": ' + b"1" * 4301 + b"}", "a number longer than 30 digits"),
        (("{" + ",".join(f'"k{i}":0' for i in range(150_000)) + "}").encode(), "more than 64"),
    ],
)
def test_import_game_refuses_a_hostile_file_in_one_line_and_stores_nothing(
    tmp_path, capsys, data, message
):
    from scoring.store.models import Game

    path = tmp_path / "hostile.game.json"
    path.write_bytes(data)
    with pytest.raises(SystemExit) as exit:
        call_command("import_game", str(path))
    out, err = capsys.readouterr()
    assert exit.value.code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("import_game: ") and message in err and err.count("\n") == 1
    assert not Game.objects.exists()


def test_a_new_key_never_reads_as_a_command_option(monkeypatch):
    """``export_game KEY`` takes a key starting with "-" for an option: keys never do."""
    drawn = iter(["-starts-like-an-option", "Xplain-key"])
    monkeypatch.setattr(models.secrets, "token_urlsafe", lambda n: next(drawn))
    assert models.new_key() == "Xplain-key"
