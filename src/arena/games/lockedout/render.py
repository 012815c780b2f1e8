"""The vault as SVG from one seat's point of view: sixteen safes (closed, bargaining, closed
for good with their combination), the viewer's own lights on each safe, and the players.

Pure string building with keyword-free inputs (python-chess's ``svg.board`` habit); a spectator
(viewer None) sees no lights at all (LO-4).
"""

from __future__ import annotations

import html

from arena.core.wording import counted
from arena.games.lockedout.knowledge import deduction_for
from arena.games.lockedout.safes import SAFE_NAMES
from arena.games.lockedout.state import LockedOutState


def escape(text: str) -> str:
    """Text for SVG content (html, unlike xml.sax, does not pull in urllib at import)."""
    return html.escape(text, quote=False)

FILL = {
    "black": "#111", "red": "#e53935", "green": "#43a047", "blue": "#1e88e5",
    "magenta": "#d81b60", "yellow": "#fdd835", "cyan": "#00acc1", "white": "#fafafa",
}
CELL, GAP, TOP = 120, 12, 40


def render_vault(state: LockedOutState, viewer: int | None) -> str:
    width = 4 * CELL + 5 * GAP + 310
    height = TOP + 4 * CELL + 5 * GAP
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#263238"/>',
        f'<text x="{GAP}" y="26" fill="#eceff1" font-size="18">Locked Out! round {state.round}'
        f'{"" if viewer is None else " - " + escape(state.names[viewer])}</text>',
    ]
    lights = state.seats[viewer].lights if viewer is not None else ()
    ded = deduction_for(state, (viewer,)) if viewer is not None else None
    for i in range(16):
        x = GAP + (i % 4) * (CELL + GAP)
        y = TOP + GAP + (i // 4) * (CELL + GAP)
        bargaining = any(b.safe == i for b in state.bargains)
        fill = "#546e7a" if not state.opened[i] else ("#ffb300" if bargaining else "#2e7d32")
        parts.append(f'<g data-safe="{SAFE_NAMES[i]}"><rect x="{x}" y="{y}" width="{CELL}" '
                     f'height="{CELL}" rx="10" fill="{fill}" stroke="#cfd8dc"/>')
        parts.append(f'<text x="{x + 8}" y="{y + 24}" fill="#fff" font-size="20" '
                     f'font-weight="bold">{SAFE_NAMES[i]}</text>')
        combo = state.announced[i]
        if combo is not None:
            parts.append(f'<text x="{x + CELL - 8}" y="{y + 24}" fill="#fff" font-size="16" '
                         f'text-anchor="end">{combo[0]}-{combo[1]}</text>')
        elif bargaining:
            parts.append(f'<text x="{x + CELL - 8}" y="{y + 24}" fill="#fff" font-size="12" '
                         'text-anchor="end">bargain</text>')
        if ded is not None and not state.opened[i]:
            left = len(ded.possible(i))
            parts.append(f'<text x="{x + CELL - 8}" y="{y + CELL - 10}" fill="#cfd8dc" '
                         f'font-size="11" text-anchor="end">{left} possible</text>')
        mine = [x_ for x_ in lights if x_.safe == i]
        for k, seen in enumerate(mine[-8:]):
            cx = x + 14 + (k % 4) * 28
            cy = y + 52 + (k // 4) * 34
            guess = f"{seen.left or '?'}{seen.right or '?'}"
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="9" fill="{FILL[seen.colour]}" '
                         f'stroke="#fff"><title>{escape(seen.colour)}</title></circle>')
            parts.append(f'<text x="{cx}" y="{cy + 22}" fill="#fff" font-size="11" '
                         f'text-anchor="middle">{guess}</text>')
        parts.append("</g>")
    px = 4 * CELL + 5 * GAP + 10
    for i, seat in enumerate(state.seats):
        y = TOP + GAP + 20 + i * 60
        status = "inside" if seat.inside else f"escaped in round {seat.escaped}"
        weight = "bold" if i == viewer else "normal"
        parts.append(f'<text x="{px}" y="{y}" fill="#eceff1" font-size="15" '
                     f'font-weight="{weight}">{escape(state.names[i])}</text>')
        parts.append(f'<text x="{px}" y="{y + 20}" fill="#b0bec5" font-size="12">'
                     f'{counted(seat.keys, "key")}, {counted(seat.bars, "bar")}, '
                     f'{counted(seat.card_count, "card")}, {status}'
                     '</text>')
    parts.append("</svg>")
    return "".join(parts)
