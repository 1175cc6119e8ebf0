"""The other changes to a stored game, each a tap: delete a round or put it back, end the
game or resume it, a rematch, and a game file imported."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from scoring.referee import gamefile
from scoring.referee.engine import GameError
from scoring.store import tablefile
from scoring.store.models import Game
from scoring.web.device import device_games
from scoring.web.display import say


class GameChangeForm(forms.Form):
    """A tap that changes a stored game: ``save()`` calls the game's method (``change``) and
    returns whether it was done; the referee's refusal becomes the form's ``error``, worded
    by ``refusal``. ``Conflict`` (another phone changed the game first) is the caller's."""

    def __init__(self, data=None, *, game, **kwargs) -> None:
        super().__init__(data, **kwargs)
        self.game = game

    def change(self) -> None:
        raise NotImplementedError

    def refusal(self, problem: GameError) -> str:
        return say(problem)

    def save(self) -> bool:
        if not self.is_valid():
            return False
        try:
            self.change()
        except GameError as problem:
            self.add_error(None, self.refusal(problem))
            return False
        return True

    @property
    def error(self) -> str | None:
        errors = self.non_field_errors()
        return errors[0] if errors else None


class DeleteRoundForm(GameChangeForm):
    """Set a stored round aside (undo puts it back)."""

    def __init__(self, data=None, *, game, stored, number: int, **kwargs) -> None:
        super().__init__(data, game=game, **kwargs)
        self.stored, self.number = stored, number

    def change(self) -> None:
        self.game.delete_round(self.stored.pk)

    def refusal(self, problem: GameError) -> str:
        return _("Round %(number)s cannot be deleted: %(error)s") % {
            "number": self.number,
            "error": say(problem),
        }


class RestoreRoundForm(GameChangeForm):
    """Put a deleted round back where it was."""

    def __init__(self, data=None, *, game, round_id: int, **kwargs) -> None:
        super().__init__(data, game=game, **kwargs)
        self.round_id = round_id

    def change(self) -> None:
        self.game.restore_round(self.round_id)

    def refusal(self, problem: GameError) -> str:
        return _("The round cannot be put back: %(error)s") % {"error": say(problem)}


class EndGameForm(GameChangeForm):
    """The table ends a game in progress now (the lowest total wins)."""

    def clean(self):
        sheet = self.game.score()
        if sheet.finished or not sheet.rounds:
            raise forms.ValidationError(
                _("Only a game in progress with at least one round can be ended.")
            )
        return super().clean()

    def change(self) -> None:
        self.game.end()


class ResumeGameForm(GameChangeForm):
    """The table ended the game (or declared the match blocked) by mistake: it goes on. A game
    its own rules ended is not reopened, nor one the table has left for its rematch."""

    def clean(self):
        if not self.game.ended:
            raise forms.ValidationError(
                _("This game ended by its own rules: it cannot be reopened.")
            )
        if self.game.next_game_id is not None:
            raise forms.ValidationError(
                _("A rematch was made from this game: it cannot be reopened.")
            )
        return super().clean()

    def change(self) -> None:
        self.game.resume()


class RematchForm(GameChangeForm):
    """The same players and settings again, the deal moved on by one seat (``created``)."""

    def change(self) -> None:
        self.created = self.game.rematch()


class ImportForm(forms.Form):
    """A game file sent from the phone (``file``), stored whole or refused whole (or a table
    file: a new table and its games, ``scoring.store.tablefile``). A game file
    that is a copy this phone imported (``mine``: its games' edit keys) as it stands opens
    that copy; once saved, ``earlier_copy_opened`` says so, and ``beside_an_earlier_copy``
    whether the game is a new copy of one it imported before with other rounds."""

    earlier_copy_opened = False
    beside_an_earlier_copy = False
    table = None  # a table file: the table made, and its games (``games``)
    games: list[Game] = []

    def __init__(self, *args, mine: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.mine = mine

    @classmethod
    def bind(cls, request) -> ImportForm:
        """The form of this request: the file it posted, if any, and this phone's games."""
        if request.method == "POST":
            return cls(request.POST, request.FILES, mine=device_games(request))
        return cls(mine=device_games(request))

    def clean(self):
        if self.files.get("file") is None:
            raise forms.ValidationError(_("Choose a game file to import."))
        return super().clean()

    def save(self) -> bool:
        if not self.is_valid():
            return False
        imported = Game.objects.filter(edit_key__in=self.mine or [], imported=True)
        before = list(imported.values_list("pk", "uid"))
        data = self.files["file"].read(gamefile.MAX_FILE_BYTES + 1)
        try:
            if tablefile.is_table_file(gamefile.parse_json(data)):  # a table and its games
                entry = tablefile.read_table(gamefile.parse_json(data))
                self.table, self.games = tablefile.store_table(entry)
                return True
            self.game = Game.objects.import_file(data, mine=self.mine)
        except GameError as problem:
            self.add_error(None, say(problem))
            return False
        # A new copy of a game this phone imported before with other rounds (the same id).
        made = self.game.pk not in {pk for pk, _ in before}
        self.earlier_copy_opened = not made
        self.beside_an_earlier_copy = made and self.game.uid in {uid for _, uid in before}
        return True

    @property
    def error(self) -> str | None:
        errors = self.non_field_errors() if self.is_bound else []
        return errors[0] if errors else None
