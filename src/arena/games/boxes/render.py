"""SVG of both boards: tile numbers and colours, the boxes, and the tiles landed on in the
last round (revealed at its end, BX-13). Everything drawn is public, so every viewer gets the
same picture."""

from __future__ import annotations

import html

from arena.games.boxes.board import SIZE, Board
from arena.games.boxes.state import BoxesState


def escape(text: str) -> str:
    """Text for SVG content (html, unlike xml.sax, does not pull in urllib at import)."""
    return html.escape(text, quote=False)

CELL = 44
MARGIN = 24
GAP = 40
LAND = "#e8a317"
BOX = "#d62728"


def board_svg(board: Board, box: int, landed: dict[int, int], *, x0: int, y0: int,
              title: str) -> list[str]:
    """The SVG elements of one board placed at (x0, y0)."""
    out = [f'<text x="{x0 + SIZE * CELL / 2}" y="{y0 - 8}" text-anchor="middle" '
           f'font-size="14" font-weight="bold">{escape(title)}</text>']
    for i, tile in enumerate(board):
        r, c = divmod(i, SIZE)
        x, y = x0 + c * CELL, y0 + r * CELL
        fill, ink = ("#111", "#fff") if tile.black else ("#fff", "#111")
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                   f'stroke="#888" stroke-width="1" data-cell="{chr(65 + c)}{r + 1}"/>')
        out.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 7}" text-anchor="middle" '
                   f'font-size="20" font-family="sans-serif" fill="{ink}">{tile.number}</text>')
        if i in landed:
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                       f'fill="none" stroke="{LAND}" stroke-width="4" class="landed"/>')
            if landed[i] > 1:
                out.append(f'<text x="{x + CELL - 8}" y="{y + 14}" font-size="10" '
                           f'fill="{LAND}" text-anchor="middle">x{landed[i]}</text>')
        if i == box:
            out.append(f'<rect x="{x + 8}" y="{y + 8}" width="{CELL - 16}" height="{CELL - 16}" '
                       f'fill="none" stroke="{BOX}" stroke-width="3" class="box"/>')
    for k in range(SIZE):
        out.append(f'<text x="{x0 + k * CELL + CELL / 2}" y="{y0 + SIZE * CELL + 16}" '
                   f'text-anchor="middle" font-size="12">{chr(65 + k)}</text>')
        out.append(f'<text x="{x0 - 10}" y="{y0 + k * CELL + CELL / 2 + 4}" '
                   f'text-anchor="middle" font-size="12">{k + 1}</text>')
    return out


def render_boards(state: BoxesState) -> str:
    """Both boards side by side: board A (seat 1, the EC) left, board B (the DMO) right."""
    width = 2 * SIZE * CELL + GAP + 2 * MARGIN
    height = SIZE * CELL + 2 * MARGIN + 24
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
             f'<rect width="{width}" height="{height}" fill="#f4f1e8"/>']
    for b in (0, 1):
        landed: dict[int, int] = {}
        for p in state.last_plays:
            if p.board == b:
                for c in p.landings:
                    landed[c] = landed.get(c, 0) + 1
        x0 = MARGIN + b * (SIZE * CELL + GAP)
        title = (f"Board {'AB'[b]} ({state.who(b)}): {float(state.points[b]):g} "
                 f"point{'' if state.points[b] == 1 else 's'}")
        parts.extend(board_svg(state.boards[b], state.boxes[b], landed, x0=x0, y0=MARGIN + 14,
                               title=title))
    parts.append("</svg>")
    return "\n".join(parts)
