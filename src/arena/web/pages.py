"""Server-rendered pages. Plain templates (``string.Template``) and plain JS, no build step.

The lobby lists the games and their rules pages, holds the create-match form and lists the
matches; ``/m/{id}?token=T`` is the match shell of docs/CONTRACT.md, which loads the game's own
``/static/games/<name>.js`` for the board and controls.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from string import Template
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from arena.core.errors import RuleError
from arena.core.registry import all_games, get_game
from arena.season.state import DEFAULT_MM_ROUNDS
from arena.web.rules import RULES, RULINGS, link_rule_ids

HERE = Path(__file__).parent
_TEMPLATES: dict[str, Template] = {}

# The view library is vendored (scripts/vendor, pinned in package.json): no build step, and the
# games' modules import it by these names.
IMPORT_MAP = json.dumps({"imports": {
    "preact": "/static/vendor/preact.module.js",
    "preact/hooks": "/static/vendor/hooks.module.js",
    "htm": "/static/vendor/htm.module.js",
}})


GAME_SHEETS = frozenset(p.stem for p in (HERE / "static" / "games").glob("*.css"))
"""The games with a stylesheet of their own (a game added by a plugin may have none)."""


def _template(name: str) -> Template:
    if name not in _TEMPLATES:
        _TEMPLATES[name] = Template((HERE / "templates" / name).read_text(encoding="utf-8"))
    return _TEMPLATES[name]


def _page(title: str, body: str, *, head: str = "", body_class: str = "",
          status: int = 200) -> HTMLResponse:
    text = _template("base.html").substitute(
        title=html.escape(title), head=head, body=body, body_class=body_class)
    return HTMLResponse(text, status_code=status)


def error_page(status: int, message: str) -> HTMLResponse:
    body = (f'<main class="narrow"><section class="card link-error" data-testid="link-error" '
            f'role="alert"><h1>{"This page does not exist" if status == 404 else "That did not work"}</h1>'
            f'<p class="error-text">{html.escape(message[:1].upper() + message[1:])}.</p>'
            f'<p><a class="button" href="/" data-testid="to-lobby">Go to the lobby</a></p>'
            f'</section></main>')
    return _page("Error", body, status=status)


EDITOR_LINK = ('<a href="/feather/editor" data-testid="feather-editor-link">Scenario editor</a>')
"""Issue 28: Feather's scenario editor, beside the game's rules in the lobby."""


LIBRARY_SHOWN = 12


async def _feather_library(request: Request) -> str:
    """The library's scenarios (LF-12) in Feather's card, each opening the editor; read from
    the store like the rest of the page's data, and left out while the database is down."""
    store = getattr(request.app.state, "store", None)
    try:
        saved = [] if store is None else await store.list_scenarios(limit=LIBRARY_SHOWN + 1)
    except Exception:  # the lobby is served even when the database is not
        return ""
    if not saved:
        return ""
    links = ", ".join(f'<a href="/feather/editor?from={quote(r.name)}">{html.escape(r.name)}</a>'
                      for r in saved[:LIBRARY_SHOWN])
    more = " and more in the editor" if len(saved) > LIBRARY_SHOWN else ""
    return (f'<p class="small" data-testid="feather-library">Saved scenarios (choose one by '
            f'name as the scenario option): {links}{more}</p>')


async def lobby(request: Request) -> HTMLResponse:
    library = await _feather_library(request)
    cards = []
    for game in all_games(include_extra=True).values():
        if not game.listed:
            continue
        cards.append(
            f'<article class="game-card" data-testid="game-{html.escape(game.name)}">'
            f'<h3>{html.escape(game.title)}</h3>'
            f'<p class="muted">{game.seats} seats'
            f'{" · chance" if game.chance else ""}'
            f'{" · hidden information" if game.hidden_information else ""}</p>'
            f'<p>{html.escape(game.summary)}</p>'
            + (library if game.name == "feather" else "") +
            f'<div class="actions"><a href="/games/{html.escape(game.name)}">Rules</a>'
            + (EDITOR_LINK if game.name == "feather" else "") +
            f'<button type="button" class="secondary" data-new="{html.escape(game.name)}">'
            f'New match</button></div></article>')
    body = _template("lobby.html").substitute(
        cards="\n".join(cards) or '<p class="muted">No games are registered.</p>',
        mm_rounds=DEFAULT_MM_ROUNDS)  # SE-6: the season form's default round limit
    return _page("Lobby", body, head=f'<script type="importmap">{IMPORT_MAP}</script>'
                 '<script type="module" src="/static/lobby.js"></script>')


async def rules_page(request: Request) -> HTMLResponse:
    name = request.path_params["name"]
    try:
        game = get_game(name)
    except RuleError:
        return error_page(404, f"there is no game called {name!r}")
    rules = RULES.get(game.name)
    text = link_rule_ids(rules.html) if rules else f"<p>{html.escape(game.summary)}</p>"
    rulings = ""
    if rules and rules.rulings:
        items = "".join(f"<li><b>{html.escape(rid)}</b> {html.escape(desc)}</li>"
                        for rid, desc in rules.rulings)
        rulings = f'<section class="card"><h2>Rulings this game follows</h2><ul class="rulings">{items}</ul></section>'
    body = (f'<main class="narrow rules"><section class="card"><p class="eyebrow">Rules</p>'
            f'<h1>{html.escape(game.title)}</h1><p class="lead">{html.escape(game.summary)}</p>'
            f'{text}<p><a class="button" href="/?game={html.escape(game.name)}#new">'
            f'Start a match</a></p></section>{rulings}</main>')
    return _page(f"{game.title} rules", body)


async def match_page(request: Request) -> HTMLResponse:
    match_id = request.path_params["match_id"]
    # The store's record, or memory's while the database is down (issue 25 point 4).
    record = await request.app.state.matches.record(match_id)
    if record is None:
        return error_page(404, "there is no such match")
    matches = getattr(request.app.state, "matches", None)
    refusal = matches.refusal(match_id) if matches is not None else None
    if refusal is not None:
        # Issue 25: a match the server could not rebuild says so plainly, on its own page.
        return error_page(503, refusal)
    try:
        game = get_game(record.game)
    except RuleError:
        return error_page(404, f"the game {record.game!r} is not installed on this server")
    boot = json.dumps({"id": match_id, "game": record.game, "title": game.title})
    body = _template("match.html").substitute(
        title=html.escape(game.title), game=html.escape(record.game), boot=html.escape(boot))
    name = html.escape(record.game)
    # A game's looks are a file beside its module, never a <style> its script writes: the
    # pages' Content-Security-Policy admits stylesheets from the server's files only.
    sheet = (f'<link rel="stylesheet" href="/static/games/{name}.css">'
             if record.game in GAME_SHEETS else "")
    head = (f'<script type="importmap">{IMPORT_MAP}</script>{sheet}'
            '<script type="module" src="/static/shell.js"></script>'
            f'<script type="module" src="/static/games/{name}.js"></script>')
    return _page(game.title, body, head=head, body_class="match-body")


async def rulings_page(request: Request) -> HTMLResponse:
    """Every ruling the project follows, in its own words, each id an anchor that errors, logs
    and rules pages link to (issue 14, point 4)."""
    sections = RULINGS.sections
    toc = "".join(f'<a href="#{html.escape(sec.code)}">{html.escape(sec.title)}</a>'
                  for sec in sections)
    parts = []
    for sec in sections:
        game_link = (f' <a class="small" href="/games/{html.escape(sec.game)}">rules of the '
                     f'game</a>' if sec.game else "")
        items = "".join(
            f'<dt id="{html.escape(r.id)}"><a href="#{html.escape(r.id)}">{html.escape(r.id)}</a> '
            f'{html.escape(r.title)}</dt><dd>{link_rule_ids(html.escape(r.text))}</dd>'
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
