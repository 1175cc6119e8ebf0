"""The score sheet page: what it shows of a game.

``sheet_context`` gathers what the page shows (standings, the history of rounds, whose
deal it is, the round form), for the sheet's views (``scoring.game.views``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from scoring.game.chart import score_chart
from scoring.game.forms.rounds import RoundForm
from scoring.game.match import clock_of, match_context
from scoring.referee import engine, story
from scoring.rules.context import differences, settings_query
from scoring.store.models import Game, key_column
from scoring.web.display import points, qr_svg, say
from scoring.web.http import etag_of

# The newest rounds the history shows open: the one just saved, to check it; older ones are
# folded to their header line (their Edit button on it), so that a long game stays a short page.
OPEN_ROUNDS = 1
# The newest rounds the sheet lists at all (an evening's worth); older ones are one line that
# leads to the page of every round, so that a long game stays a short page.
LISTED_ROUNDS = 30


def page_template(game: Game) -> str:
    """A Tamalou game's score sheet, or a Tambouille match sheet: its round form's page."""
    return RoundForm.for_game(game).page


def new_round_form(game: Game, data=None) -> RoundForm | None:
    """The form for the next round (bound to posted ``data``), or None once the game is over."""
    summary = game.stored_summary()  # the sheet itself is not needed to take a round
    if summary.finished:
        return None
    return RoundForm.for_game(game)(data, game=game, number=summary.rounds + 1)


def history(
    game: Game,
    sheet: engine.ScoreSheet,
    fold: bool = True,
    opened: int | None = None,
) -> list[dict]:
    """Each round for the history, newest first. With ``fold``, only the
    newest ``LISTED_ROUNDS`` (see ``earlier_rounds``), and all but the newest ``OPEN_ROUNDS``
    of them ``folded``: the page carries only their header line, and a tap on it fetches the
    rest (from the sheet's ``rounds/`` page, every round whole), so that a long game's first
    load stays light. Round ``opened`` (one just corrected) is shown whole. Only the rounds
    listed are read."""
    rows = []
    count = len(sheet.rounds)
    first = earlier_rounds(sheet) if fold else 0
    deals = engine.deals(sheet, game.first_dealer)
    listed = zip(sheet.rounds[first:], deals[first:], strict=False)
    rounds = game.live_rounds()[first:count]
    for stored, (result, deal) in zip(rounds, listed, strict=False):
        shown = {
            "entry": stored,  # the stored ``Round`` (its id for the edit and delete links)
            "result": result,
            "dealer": deal[0],
            "folded": fold and result.number <= count - OPEN_ROUNDS and result.number != opened,
        }
        if not shown["folded"]:  # a folded round shows its header line alone
            played = stored.as_entry(result.number)
            shown["round"] = played
            shown["rows"] = [
                {
                    "name": p,
                    "cards": list(played.hands[p]) if isinstance(played.hands[p], tuple) else None,
                    "total": result.hand_totals[p],
                    "score": result.scores[p],
                    "after": result.totals[p],
                }
                for p in result.scores
            ]
        rows.append(shown)
    return rows[::-1]


def corrected_round_url(game: Game, number: int) -> str:
    """Where a correction of round ``number`` goes back to: that round on the sheet, shown
    whole so that its new scores are in view, or on the page of every round when the sheet
    no longer lists it."""
    if number <= game.stored_summary().rounds - LISTED_ROUNDS:
        return reverse("edit_rounds", args=[game.edit_key]) + f"#round-{number}"
    return reverse("edit", args=[game.edit_key]) + f"?open={number}#round-{number}"


def earlier_rounds(sheet: engine.ScoreSheet) -> int:
    """How many of the oldest rounds the sheet does not list (its ``rounds/`` page does)."""
    return max(len(sheet.rounds) - LISTED_ROUNDS, 0)


def round_summary(request: HttpRequest, game: Game, sheet: engine.ScoreSheet, number: int) -> str:
    """Stored round ``number`` drawn as the sheet's history draws it, without its buttons (to
    set beside a round entered offline for the same number)."""
    rounds = history(game, sheet, fold=False)
    found = next(h for h in rounds if h["result"].number == number)
    context = {"h": found, "game": game, "variant": game.rules(), "read_only": True}
    return render_to_string("game.html#round_entry", context, request)


def standings(game: Game, sheet: engine.ScoreSheet) -> list[dict]:
    """The players by place (``Progress.places``), with what to say of each."""
    low = min((sheet.totals[p] for p in sheet.in_game), default=None)
    last = sheet.rounds[-1] if sheet.rounds else None
    places = engine.progress_of(sheet).places()
    order = sorted(game.players, key=lambda p: (places[p], game.players.index(p)))
    return [
        {
            "rank": places[p],
            "name": p,
            "total": sheet.totals[p],
            "out": p in sheet.eliminated,
            "leader": bool(sheet.rounds)
            and not sheet.finished
            and p in sheet.in_game
            and sheet.totals[p] == low,
            "winner": p in sheet.winners,
            "loser": p in sheet.losers,
            "adjusted": last is not None and p in last.adjusted,
        }
        for p in order
    ]


def chart_summary(sheet: engine.ScoreSheet) -> str:
    """What the chart shows, said in words for a screen reader: each player's last total."""
    return ", ".join(f"{p} {points(sheet.totals[p])}" for p in sheet.players)


def description(game: Game, sheet: engine.ScoreSheet, rows: list[dict]) -> str:
    """What a link to the sheet says of the game in a chat app's preview and to search
    engines: the variant, the players, how far it went and who leads (or won)."""
    said = [gettext(game.rules().name), ", ".join(game.players)]
    n = len(sheet.rounds)
    if sheet.finished:
        names = ", ".join(sheet.winners)
        won = ngettext("Winner: %(names)s", "Winners: %(names)s", len(sheet.winners))
        said += [gettext("Match over") if game.is_match else gettext("Game over")]
        said += [won % {"names": names}]
    elif n:
        if game.is_match:
            played = ngettext("%(n)s turn round played", "%(n)s turn rounds played", n)
        else:
            played = ngettext("%(n)s round played", "%(n)s rounds played", n)
        leaders = [row for row in rows if row["leader"]]
        lead = ngettext(
            "Leader: %(names)s (%(total)s)", "Leaders: %(names)s (%(total)s)", len(leaders)
        )
        names = ", ".join(row["name"] for row in leaders)
        said += [played % {"n": n}, lead % {"names": names, "total": points(leaders[0]["total"])}]
    else:
        said += [gettext("No turn round yet") if game.is_match else gettext("No round yet")]
    return " · ".join(said)


def sheet_context(
    request: HttpRequest, game: Game, form: RoundForm | None = None, link: str = "edit"
) -> dict:
    """What the sheet shows, reached by its edit ``link`` or its (read-only) share link."""
    read_only = link == "share"
    sheet = game.score()
    variant = game.rules()
    undo = None if read_only else request.session.get("undo")
    key = game.share_key if read_only else game.edit_key
    share_url = request.build_absolute_uri(reverse("share", args=[game.share_key]))
    rows = standings(game, sheet)
    shown = {
        "read_only": read_only,
        "undo": undo if undo and undo.get("game") == game.edit_key else None,
        "game": game,
        "sheet": sheet,
        "variant": variant,
        "form": None if read_only else form,
        "etag": etag_of(game.version, link),
        "live_url": reverse(f"{link}_live", args=[key]),
        "export_url": reverse(f"{link}_export", args=[key]),
        "rules_url": rules_url(game),
        "share_url": share_url,
        "share_qr": None if read_only else qr_svg(share_url),
        "standings": rows,
        "description": description(game, sheet, rows),
        "house": differences(game.variant, game.settings),
        "next_game_url": next_game_url(game, link),
    }
    if game.is_match:
        return shown | match_context(request, game, form, link, clock_of(game))
    match = request.resolver_match
    whole = match is not None and match.url_name == f"{link}_rounds"
    asked = request.GET.get("open", "")
    opened = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 8 else None
    return shown | {
        "history": lambda: history(game, sheet, fold=not whole, opened=opened),
        "earlier": 0 if whole else earlier_rounds(sheet),
        "rounds_url": reverse(f"{link}_rounds", args=[key]),
        "next_deal": game.next_deal(),
        "rounds_to_play": (variant.rounds - len(sheet.rounds)) if variant.rounds else None,
        "open_ended": not sheet.finished and variant.rounds is None,
        # Worked out only when the page draws it.
        "chart": (lambda: score_chart(sheet, variant.landmarks(), say)) if sheet.rounds else None,
        "chart_summary": lambda: chart_summary(sheet),
        "moments": (lambda: story.moments(sheet, game.entries())) if sheet.finished else None,
        "csv_url": reverse(f"{link}_csv", args=[key]),
    }


def next_game_url(game: Game, link: str) -> str | None:
    """The rematch made from this game, by the same kind of link (a share key leads only to
    the rematch's read-only page), or None."""
    if game.next_game_id is None:
        return None
    following = game.next_game
    return reverse(link, args=[following.edit_key if link == "edit" else following.share_key])


def saved_context(request: HttpRequest, game: Game, cleared_undo: bool) -> dict:
    """What a round saved with htmx redraws: the next round's form, the standings, the
    history and the story, of the game as the save left it (``Game.add_round``)."""
    return sheet_context(request, game, new_round_form(game)) | {"cleared_undo": cleared_undo}


def conflict_context(request: HttpRequest, game: Game, posted) -> dict:
    """The sheet when another phone saved round ``posted["number"]`` first: this phone's
    ``posted`` hands kept in the form as the next round, and the round stored there."""
    game.read_with_rounds()
    sheet = game.score()
    number = posted.get("number", "")
    known = number.isascii() and number.isdigit() and 0 < int(number) <= len(sheet.rounds)
    data = posted.copy()
    data["number"] = str(len(sheet.rounds) + 1)
    form = new_round_form(game, data)
    if form is not None:
        form.quiet().conflict = {
            "number": number,
            "next": len(sheet.rounds) + 1,
            "scores": sheet.rounds[int(number) - 1].scores if known else {},
        }
    return sheet_context(request, game, form)


def misplaced_round(request: HttpRequest, game: Game, number: int) -> dict:
    """A round sent from offline for ``number``, which is not where the phone expected it:
    the round stored there, if any, and the number this phone's round would take as the
    next one."""
    game.read_with_rounds()
    rounds = game.live_rounds()
    sheet = game.score()
    answer = {
        "conflict": number,
        "next": None if sheet.finished else len(rounds) + 1,
        "theirs": None,
        "edits": None,
    }
    if number <= len(rounds):
        answer["theirs"] = round_summary(request, game, sheet, number)
        answer["edits"] = rounds[number - 1].edits
    return answer


def rules_url(game: Game) -> str:
    """The variant's rules page with this game's house settings (card values change), and a
    way back to the sheet: its read-only link, which the rules page turns into the edit link
    on a phone that keeps the game (its address never carries the edit key)."""
    back = reverse("share", args=[game.share_key])
    query = urlencode([*settings_query(game.variant, game.settings), ("back", back)])
    if game.is_match:
        return reverse("rules_tambouille") + f"?{query}"
    return reverse("rules_variant", args=[game.variant]) + f"?{query}"


def find_game(link: str, key: str) -> Game:
    """The game reached by an edit (``link="edit"``) or share key, read with its rounds."""
    game = get_object_or_404(Game, **{key_column(link): key})
    game.read_with_rounds()
    return game


def find_round(game: Game, round_id: int) -> tuple:
    """The stored round of that id in this game and its number, or a 404."""
    found = game.round_numbered(round_id)
    if found is None:
        raise Http404
    return found
