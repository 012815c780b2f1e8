"""Lock images as a host posts them: SVG (and PNG via cairosvg) with algebraic labels.

Letters run along the top label edge and numbers down the left one (G-1, LM-1); open cells are
light grey, blocked cells dark grey (the seed's colours), the key red, bars in muted colours
with their G-1 name, axes as circles with a cross, the keyhole as a dark slot.
"""

from __future__ import annotations

from html import escape

from arena.games.lockmaker.board import LETTERS, Board
from arena.games.lockmaker.pieces import bar_cells
from arena.games.lockmaker.position import Position

PALETTE = ("#4e79a7", "#59a14f", "#edc948", "#b07aa1", "#76b7b2", "#f28e2b", "#9c755f",
           "#bab0ac", "#86bcb6", "#8cd17d", "#d4a6c8", "#a0cbe8")


def render_svg(lock: Position | Board, *, cell: int = 40, title: str | None = None) -> str:
    """The lock (or an empty draft board) as an SVG document."""
    board = lock.board if isinstance(lock, Position) else lock
    pos = lock if isinstance(lock, Position) else None
    margin = cell * 3 // 4
    top = margin + (cell // 2 if title else 0)
    w = margin + board.width * cell + 4
    h = top + board.height * cell + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif" data-game="lockmaker">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    if title:
        out.append(f'<text x="{w / 2}" y="{cell * 0.45:.0f}" text-anchor="middle" '
                   f'font-size="{cell * 0.4:.0f}">{escape(title)}</text>')

    def xy(c: int) -> tuple[int, int]:
        return margin + board.col(c) * cell, top + board.row(c) * cell

    fs = cell * 0.4
    for col in range(board.width):
        out.append(f'<text x="{margin + col * cell + cell / 2}" y="{top - cell * 0.2:.1f}" '
                   f'text-anchor="middle" font-size="{fs:.0f}">{LETTERS[col]}</text>')
    for row in range(board.height):
        out.append(f'<text x="{margin * 0.5:.1f}" y="{top + row * cell + cell * 0.65:.1f}" '
                   f'text-anchor="middle" font-size="{fs:.0f}">{row + 1}</text>')
    for c in board.cells():
        x, y = xy(c)
        fill = "#d9d9d9" if board.is_open(c) else "#555555"
        out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                   f'stroke="#ffffff" stroke-width="1" data-cell="{board.name(c)}"/>')
    if pos is not None:
        x, y = xy(pos.keyhole)
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{cell - 6}" height="{cell - 6}" '
                   f'fill="#222222" rx="4" data-piece="keyhole"/>')
        r = cell * 0.18
        out.append(f'<circle cx="{x + cell / 2}" cy="{y + cell * 0.42}" r="{r:.1f}" '
                   'fill="#d9d9d9"/>')
        out.append(f'<rect x="{x + cell / 2 - r / 2:.1f}" y="{y + cell * 0.42:.1f}" '
                   f'width="{r:.1f}" height="{cell * 0.3:.1f}" fill="#d9d9d9"/>')
        for i, bar in enumerate(pos.pieces):
            cells = bar_cells(board, bar)
            x, y = xy(cells[0])
            bw = cell * (bar.length if bar.horizontal else 1)
            bh = cell * (1 if bar.horizontal else bar.length)
            color = "#d62728" if i == 0 else PALETTE[(i - 1) % len(PALETTE)]
            name = "K" if i == 0 else board.run_name(cells)
            out.append(f'<rect x="{x + 4}" y="{y + 4}" width="{bw - 8}" height="{bh - 8}" '
                       f'rx="6" fill="{color}" stroke="#333333" stroke-width="1.5" '
                       f'data-piece="{name}"/>')
            label = "KEY" if i == 0 else name
            size = min(fs * 0.8, (bw - 10) / (0.62 * len(label)))
            out.append(f'<text x="{x + bw / 2}" y="{y + bh / 2 + size * 0.35:.1f}" '
                       f'text-anchor="middle" font-size="{size:.1f}" fill="white">'
                       f'{label}</text>')
        for a in pos.axes:
            x, y = xy(a)
            cx, cy, r = x + cell / 2, y + cell / 2, cell * 0.36
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="#ffffff" '
                       f'stroke="#333333" stroke-width="2" data-piece="axis {board.name(a)}"/>')
            out.append(f'<path d="M{cx - r * 0.6:.1f},{cy} H{cx + r * 0.6:.1f} '
                       f'M{cx},{cy - r * 0.6:.1f} V{cy + r * 0.6:.1f}" stroke="#333333" '
                       'stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


def render_png(lock: Position | Board, *, cell: int = 40, title: str | None = None) -> bytes:
    """The same image as PNG (cairosvg)."""
    import cairosvg

    data = cairosvg.svg2png(bytestring=render_svg(lock, cell=cell, title=title).encode())
    assert isinstance(data, bytes)
    return data
