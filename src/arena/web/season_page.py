"""The season page ``/s/{id}?token=T`` (SE-1..SE-7, G-13, G-14): a small HTML shell, and
``/static/season.js`` draws the page from ``GET /api/seasons/{id}`` for the reader's link with
Preact + htm, the model of the match pages (DESIGN.md). The shell holds nothing of the
season's view, so the page says exactly what the API says to that link and nothing more (a
private channel or a version the reader may not know of never reaches it, G-10, G-13), and
the page layer needs nothing from the server: it reads the season like any client."""

from __future__ import annotations

import html
import json

from starlette.responses import HTMLResponse

from arena.web.pages import IMPORT_MAP, _page


def render_season(season_id: str) -> HTMLResponse:
    """The shell of one season's page: its id for the script, and a word for readers without
    JavaScript (the JSON API serves them)."""
    boot = html.escape(json.dumps({"id": season_id}))
    body = (f'<main class="narrow season" id="season" data-boot="{boot}">'
            '<noscript><section class="card"><p>The season page needs JavaScript. The JSON API '
            '(<a href="/api/openapi.json">/api/openapi.json</a>) serves it without.</p>'
            '</section></noscript><p class="muted">Loading the season…</p></main>')
    head = (f'<script type="importmap">{IMPORT_MAP}</script>'
            '<script type="module" src="/static/season.js"></script>')
    return _page("Season", body, head=head)
