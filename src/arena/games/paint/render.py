"""SVG of a grid (after python-chess's ``svg.board``): pure, keyword options, no I/O.

Colour-blind players are served twice over: every container carries its letter (R, G, B) and a
pattern (red plain, green diagonal stripes, blue dots) besides its fill, and the fills are
taken from a palette that stays distinct under the common colour-vision deficiencies
(Okabe-Ito vermilion, bluish green, blue). With ``chains=True`` (the end of a game) each chain
is traced through its cells and labelled with its length at its first cell; looped
components are crossed out, since they score nothing (PF-6).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from arena.games.paint.grid import COLUMNS, EMPTY, SIZE, cell_name
from arena.games.paint.scoring import NEIGHBOURS, score_grid


def escape(text: str) -> str:
    """Text for SVG content (html, unlike xml.sax, does not pull in urllib at import)."""
    return html.escape(text, quote=False)

if TYPE_CHECKING:
    from arena.games.paint.match import PaintState

FILL = {"R": "#D55E00", "G": "#009E73", "B": "#0072B2"}
NAME = {"R": "red", "G": "green", "B": "blue"}
CELL = 56
MARGIN = 24


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="pf-stripes" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="8" height="8" fill="#009E73"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#ffffff" stroke-opacity="0.45" '
        'stroke-width="3"/></pattern>'
        '<pattern id="pf-dots" width="10" height="10" patternUnits="userSpaceOnUse">'
        '<rect width="10" height="10" fill="#0072B2"/>'
        '<circle cx="5" cy="5" r="2" fill="#ffffff" fill-opacity="0.5"/></pattern>'
        "</defs>"
    )


def _fill(colour: str) -> str:
    return {"R": FILL["R"], "G": "url(#pf-stripes)", "B": "url(#pf-dots)"}[colour]


def _centre(index: int) -> tuple[float, float]:
    r, c = divmod(index, SIZE)
    return MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2


def board(grid: str, *, chains: bool = False, title: str | None = None,
          highlight: tuple[int, ...] = ()) -> str:
    """An SVG document of ``grid`` (25 characters, ``.`` empty)."""
    width = MARGIN + SIZE * CELL + 8
    height = MARGIN + SIZE * CELL + 8 + (40 if chains else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="paint-board" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title or "Paint Factory grid")}">',
        _defs(),
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa"/>',
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for c in range(SIZE):
        x = MARGIN + c * CELL + CELL / 2
        parts.append(f'<text x="{x}" y="{MARGIN - 7}" text-anchor="middle" font-size="13" '
                     f'font-family="sans-serif" fill="#333">{COLUMNS[c]}</text>')
    for r in range(SIZE):
        y = MARGIN + r * CELL + CELL / 2 + 5
        parts.append(f'<text x="{MARGIN / 2}" y="{y}" text-anchor="middle" font-size="13" '
                     f'font-family="sans-serif" fill="#333">{r + 1}</text>')
    for i, colour in enumerate(grid):
        r, c = divmod(i, SIZE)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        name = cell_name(i)
        stroke = "#000" if i in highlight else "#999"
        sw = 3 if i in highlight else 1
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#e8e8e8" '
                     f'stroke="{stroke}" stroke-width="{sw}" data-cell="{name}"/>')
        if colour == EMPTY:
            continue
        parts.append(
            f'<rect x="{x + 5}" y="{y + 5}" width="{CELL - 10}" height="{CELL - 10}" rx="7" '
            f'fill="{_fill(colour)}" stroke="#222" stroke-width="1.5" data-cell="{name}" '
            f'data-colour="{colour}"><title>{name}: {NAME[colour]}</title></rect>')
        parts.append(
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 7}" text-anchor="middle" '
            f'class="letter" font-size="20" font-weight="bold" font-family="sans-serif" fill="#fff" '
            f'stroke="#000" stroke-width="0.8">{colour}</text>')
    if chains and grid.count(EMPTY) < len(grid):
        result = score_grid(grid)
        for comp in result.chains:
            members = set(comp.cells)
            for i in comp.cells:
                for j in NEIGHBOURS[i]:
                    if j > i and j in members:
                        (x1, y1), (x2, y2) = _centre(i), _centre(j)
                        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                                     'stroke="#111" stroke-width="4" stroke-linecap="round" '
                                     'stroke-opacity="0.55"/>')
            if comp.length > 1:
                x, y = _centre(comp.cells[0])
                parts.append(
                    f'<circle cx="{x - CELL / 2 + 11}" cy="{y - CELL / 2 + 11}" r="9" '
                    'fill="#fff" stroke="#111"/>'
                    f'<text x="{x - CELL / 2 + 11}" y="{y - CELL / 2 + 15}" '
                    'text-anchor="middle" font-size="12" font-weight="bold" '
                    f'font-family="sans-serif" fill="#111" class="chain-length">'
                    f"{comp.length}</text>")
        for comp in result.looped:
            for i in comp.cells:
                x, y = _centre(i)
                d = CELL / 2 - 6
                parts.append(f'<path d="M{x - d},{y - d} L{x + d},{y + d} M{x + d},{y - d} '
                             f'L{x - d},{y + d}" stroke="#000" stroke-width="2.5" '
                             'class="looped"/>')
        y = MARGIN + SIZE * CELL + 22
        parts.append(f'<text x="{MARGIN}" y="{y}" font-size="14" font-family="sans-serif" '
                     f'fill="#111" class="score-line">score {result.score} = {result.formula}'
                     f'</text><text x="{MARGIN}" y="{y + 17}" font-size="13" '
                     f'font-family="sans-serif" fill="#333">non-connected containers: '
                     f"{result.non_connected}</text>")
    parts.append("</svg>")
    return "".join(parts)


def render_state(state: PaintState, viewer: int | None, *, reveal: bool = False) -> str | None:
    """A seat's own grid; for a spectator (``None``) both grids as made public at the last
    showing (nothing before the second showing: the grids are private while a set is played,
    G-9); with ``reveal`` (the host, or everyone once the engine reveals a finished match)
    both grids as they are, chains marked once they are full."""
    from arena.games.paint.match import DESIGN, OVER

    if state.stage == DESIGN:
        return None
    over = state.stage == OVER
    if viewer in (0, 1):
        assert viewer is not None
        return board(state.boards[viewer].grid, chains=over, title=state.who(viewer))
    if reveal:
        one = board(state.boards[0].grid, chains=over, title=state.who(0))
        two = board(state.boards[1].grid, chains=over, title=state.who(1))
    elif all(b.public for b in state.boards):
        one, two = (board(b.public, title=f"{state.who(s)} after turn {b.public_turn}")
                    for s, b in enumerate(state.boards))
    else:
        return None
    w = MARGIN + SIZE * CELL + 8
    h = MARGIN + SIZE * CELL + 48
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 16}" height="{h}" '
            f'viewBox="0 0 {2 * w + 16} {h}" role="img" aria-label="both grids">'
            f'<g>{_inner(one)}</g><g transform="translate({w + 16},0)">{_inner(two)}</g></svg>')


def _inner(svg: str) -> str:
    """The body of a standalone ``board`` document, to nest it in another."""
    start = svg.index(">") + 1
    return svg[start:svg.rindex("</svg>")].replace("pf-stripes", "pf-s").replace("pf-dots",
                                                                                  "pf-d")
