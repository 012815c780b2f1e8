"""The page of Light as a Feather's scenario editor (issue 28 point 2): a shell that loads
``/static/feather_editor.js`` (Preact + htm, like the match pages), which reads the scenario
API like any client (``/api/scenarios``, ``/api/scenarios/check``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

from arena.web.pages import IMPORT_MAP, _page


async def feather_editor(request: Request) -> HTMLResponse:
    body = ('<main class="fe-page" id="feather-editor" data-testid="feather-editor">'
            '<noscript><p class="card">The scenario editor needs JavaScript. A scenario can '
            'also be written as TOML and given to a match as <code>scenario_text</code>.</p>'
            '</noscript></main>')
    head = (f'<script type="importmap">{IMPORT_MAP}</script>'
            '<script type="module" src="/static/feather_editor.js"></script>')
    return _page("Feather scenario editor", body, head=head)
