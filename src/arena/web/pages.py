"""Server-rendered pages. Plain templates (``string.Template``) and plain JS, no build step.

The lobby lists the games and their rules pages, holds the create-match form and lists the
matches; ``/m/{id}?token=T`` is the match shell of docs/CONTRACT.md, which loads the script the
game declares for its board and controls (:attr:`arena.core.facts.GameFacts.board_script`).
Every fact about one game comes from the game: no page names one.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from string import Template
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.registry import all_games, get_game
from arena.season.state import DEFAULT_MM_ROUNDS
from arena.web.rules import Rulings, link_rule_ids, rules_html, rulings

HERE = Path(__file__).parent
_TEMPLATES: dict[str, Template] = {}

# The view library is vendored (scripts/vendor, pinned in package.json): no build step, and the
# games' modules import it by these names.
IMPORT_MAP = json.dumps({"imports": {
    "preact": "/static/vendor/preact.module.js",
    "preact/hooks": "/static/vendor/hooks.module.js",
    "htm": "/static/vendor/htm.module.js",
}})


def _template(name: str) -> Template:
    if name not in _TEMPLATES:
        _TEMPLATES[name] = Template((HERE / "templates" / name).read_text(encoding="utf-8"))
    return _TEMPLATES[name]


def all_rulings() -> Rulings:
    """The rulings of /rulings, from the games installed now (each game's own section)."""
    return rulings(all_games(include_extra=True).values())


YOURS = '<script type="module" src="/static/yours.js"></script>'
"""Every page with a link records it in this browser's list (yours.js); a page that needs no
script at all (a season's recap) leaves it out."""


def _page(title: str, body: str, *, head: str = "", body_class: str = "",
          status: int = 200, scripts: str = YOURS) -> HTMLResponse:
    # The ruling prefixes go to every page's scripts (ui.js links a ruling id to /rulings
    # and any other rule id to its game's rules page), read from the games.
    text = _template("base.html").substitute(
        title=html.escape(title), head=head, body=body, body_class=body_class,
        rulings=html.escape(" ".join(all_rulings().codes())), scripts=scripts)
    return HTMLResponse(text, status_code=status)


def scriptless_page(title: str, body: str, *, head: str = "") -> HTMLResponse:
    """A page that runs no script at all (a season's recap): what it shows is its HTML."""
    return _page(title, body, head=head, scripts="")


def error_page(status: int, message: str) -> HTMLResponse:
    body = (f'<main class="narrow"><section class="card link-error" data-testid="link-error" '
            f'role="alert"><h1>{"This page does not exist" if status == 404 else "That did not work"}</h1>'
            f'<p class="error-text">{html.escape(message[:1].upper() + message[1:])}.</p>'
            f'<p><a class="button" href="/" data-testid="to-lobby">Go to the lobby</a></p>'
            f'</section></main>')
    return _page("Error", body, status=status)


async def _game_extras(request: Request, game: Game[Any, Any]) -> tuple[str, str]:
    """What a game adds to its lobby card (:mod:`arena.core.extras`): a note drawn from its
    shelf (read like the rest of the page's data, and left out while the database is down)
    and a link to each page of its own."""
    extras = game.extras()
    if extras is None:
        return "", ""
    links = "".join(f'<a href="{html.escape(p.path)}" class="extra-link" '
                    f'data-testid="{html.escape(p.testid)}">{html.escape(p.link)}</a>'
                    for p in extras.pages)
    shelf_of = getattr(request.app.state, "shelf_of", None)
    if extras.lobby_note is None or shelf_of is None:
        return "", links
    try:
        saved = list(await shelf_of(game.name).items(limit=extras.lobby_items + 1))
    except Exception:  # the lobby is served even when the database is not
        return "", links
    if not saved:
        return "", links
    return extras.lobby_note(saved[:extras.lobby_items], len(saved) > extras.lobby_items), links


async def lobby(request: Request) -> HTMLResponse:
    cards = []
    for game in all_games(include_extra=True).values():
        if not game.listed:
            continue
        note, links = await _game_extras(request, game)
        cards.append(
            f'<article class="game-card" data-testid="game-{html.escape(game.name)}">'
            f'<h3>{html.escape(game.title)}</h3>'
            f'<p class="muted">{game.seats} seats'
            f'{" · chance" if game.chance else ""}'
            f'{" · hidden information" if game.hidden_information else ""}</p>'
            f'<p>{html.escape(game.summary)}</p>{note}'
            f'<div class="actions"><a href="/games/{html.escape(game.name)}">Rules</a>{links}'
            f'<button type="button" class="secondary" data-new="{html.escape(game.name)}">'
            f'New match</button></div></article>')
    body = _template("lobby.html").substitute(
        cards="\n".join(cards) or '<p class="muted">No games are registered.</p>',
        mm_rounds=DEFAULT_MM_ROUNDS,  # SE-6: the season form's default round limit
        main_match=html.escape(_main_match_title()))
    return _page("Lobby", body, head=f'<script type="importmap">{IMPORT_MAP}</script>'
                 '<script type="module" src="/static/lobby.js"></script>')


def _main_match_title() -> str:
    """The game a season's Main Match is, as players know it (SE-1)."""
    return next((g.title for g in all_games().values() if g.main_match() is not None), "")


async def extra_page(request: Request) -> HTMLResponse:
    """A page a game adds (:class:`arena.core.extras.ExtraPage`), found by its path."""
    path = request.url.path
    for game in all_games(include_extra=True).values():
        extras = game.extras()
        for page in extras.pages if extras is not None else ():
            if page.path == path:
                sheet = (f'<link rel="stylesheet" href="{html.escape(page.sheet)}">'
                         if page.sheet else "")
                head = (f'<script type="importmap">{IMPORT_MAP}</script>{sheet}'
                        f'<script type="module" src="{html.escape(page.script)}"></script>')
                return _page(page.title, page.body, head=head)
    return error_page(404, "this page does not exist")


async def rules_page(request: Request) -> HTMLResponse:
    name = request.path_params["name"]
    try:
        game = get_game(name)
    except RuleError:
        return error_page(404, f"there is no game called {name!r}")
    rules = rules_html(game)
    text = (link_rule_ids(rules, all_rulings().codes()) if rules is not None
            else f"<p>{html.escape(game.summary)}</p>")
    body = (f'<main class="narrow rules"><section class="card"><p class="eyebrow">Rules</p>'
            f'<h1>{html.escape(game.title)}</h1><p class="lead">{html.escape(game.summary)}</p>'
            f'{text}<p><a class="button" href="/?game={html.escape(game.name)}#new">'
            f'Start a match</a></p></section></main>')
    return _page(f"{game.title} rules", body)


async def match_page(request: Request) -> HTMLResponse:
    match_id = request.path_params["match_id"]
    # The store's record, or memory's while the database is down.
    record = await request.app.state.matches.record(match_id)
    if record is None:
        return error_page(404, "there is no such match")
    matches = getattr(request.app.state, "matches", None)
    refusal = matches.refusal(match_id) if matches is not None else None
    if refusal is not None:
        # A match the server could not rebuild says so plainly, on its own page.
        return error_page(503, refusal)
    try:
        game = get_game(record.game)
    except RuleError:
        return error_page(404, f"the game {record.game!r} is not installed on this server")
    boot = json.dumps({"id": match_id, "game": record.game, "title": game.title})
    body = _template("match.html").substitute(
        title=html.escape(game.title), game=html.escape(record.game), boot=html.escape(boot))
    # A game's looks are a file it declares, never a <style> its script writes: the pages'
    # Content-Security-Policy admits stylesheets from the server's files only.
    sheet = (f'<link rel="stylesheet" href="{html.escape(game.board_sheet)}">'
             if game.board_sheet else "")
    board = (f'<script type="module" src="{html.escape(game.board_script)}"></script>'
             if game.board_script else "")
    # The tags a link preview reads (web/unfurl.py), made by the server, which knows what the
    # link may show; a page served without them still works.
    unfurl = getattr(request.app.state, "unfurl", None)
    tags: str = await unfurl(request, match_id) if unfurl is not None else ""
    head = (f'{tags}<script type="importmap">{IMPORT_MAP}</script>{sheet}'
            f'<script type="module" src="/static/shell.js"></script>{board}')
    return _page(game.title, body, head=head, body_class="match-body")


async def rulings_page(request: Request) -> HTMLResponse:
    """Every ruling the project follows, in its own words, each id an anchor that errors, logs
    and rules pages link to."""
    found = all_rulings()
    sections, codes = found.sections, found.codes()
    toc = "".join(f'<a href="#{html.escape(sec.code)}">{html.escape(sec.title)}</a>'
                  for sec in sections)
    parts = []
    for sec in sections:
        game_link = (f' <a class="small" href="/games/{html.escape(sec.game)}">rules of the '
                     f'game</a>' if sec.game else "")
        items = "".join(
            f'<dt id="{html.escape(r.id)}"><a href="#{html.escape(r.id)}">{html.escape(r.id)}</a> '
            f'{html.escape(r.title)}</dt><dd>{link_rule_ids(html.escape(r.text), codes)}</dd>'
            for r in sec.rulings)
        parts.append(f'<section class="card" id="{html.escape(sec.code)}" '
                     f'data-testid="rulings-{html.escape(sec.code)}"><h2>{html.escape(sec.title)}'
                     f'</h2>{game_link}<dl>{items}</dl></section>')
    body = (f'<main class="narrow rulings-page"><section class="card"><p class="eyebrow">Rulings'
            f'</p><h1>How Arena reads the rules</h1><p class="lead">Where a game\'s rules leave '
            f'something open, Arena follows the rulings below. Error messages, logs and rules '
            f'pages link here by id.</p><nav class="toc" aria-label="sections">{toc}</nav>'
            f'</section>{"".join(parts)}</main>')
    return _page("Rulings", body)


async def favicon(request: Request) -> Response:
    return Response((HERE / "static" / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
