"""SVG of a Feather board: both seats' buckets (levels, capacities, locks), the basins, the
objectives, fill cooldowns and the ankh. Pure: board in, text out (after python-chess's svg)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from arena.core.game import seat_label
from arena.games.feather.actions import LETTERS
from arena.games.feather.objectives import POWERUPS
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import Board

WIDTH = 760
BUCKET_W = 44
BUCKET_MAX_H = 120
WATER = "#4a90d9"
SEAT_COLOURS = ("#b5442f", "#2f6fb5")


def _text(x: float, y: float, s: str, *, size: int = 13, anchor: str = "start",
          weight: str = "normal", fill: str = "#222", testid: str = "") -> str:
    tid = f' data-testid="{testid}"' if testid else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{tid}>{escape(s)}</text>')


def _seat(spec: SessionSpec, board: Board, seat: int, x0: float, y0: float, viewer: int | None,
          names: Sequence[str] = ()) -> list[str]:
    me = board.seats[seat]
    nxt = board.tick + 1
    top = max(max(me.caps), 1)
    label = seat_label(names, seat, start=True) + (" (you)" if viewer == seat else "")
    out = [_text(x0, y0, label, size=15, weight="bold", fill=SEAT_COLOURS[seat]),
           _text(x0 + 170, y0, f"{me.points} point{'' if me.points == 1 else 's'}", size=15, weight="bold",
                 testid=f"feather-points-{seat}")]
    if board.ankh == seat:
        out.append(_text(x0 + 300, y0, "☥ ankh", size=15, fill="#a07800", testid="feather-ankh"))
    base = y0 + 30 + BUCKET_MAX_H
    for i, (w, c) in enumerate(zip(me.waters, me.caps, strict=True)):
        x = x0 + i * (BUCKET_W + 24)
        h = BUCKET_MAX_H * c / top
        wh = h * w / c if c else 0
        locked = board.locked(seat, i, nxt)
        stroke = "#c00" if locked else "#333"
        out.append(f'<rect x="{x}" y="{base - h:.1f}" width="{BUCKET_W}" height="{h:.1f}" '
                   f'fill="#f4f4f4" stroke="{stroke}" stroke-width="{3 if locked else 1.5}"/>')
        if wh > 0:
            out.append(f'<rect x="{x + 1.5}" y="{base - wh:.1f}" width="{BUCKET_W - 3}" '
                       f'height="{wh:.1f}" fill="{WATER}"/>')
        out.append(_text(x + BUCKET_W / 2, base + 16, f"{LETTERS[i]} {w}/{c}", anchor="middle",
                         testid=f"feather-bucket-{seat}-{LETTERS[i]}"))
        if locked:
            out.append(_text(x + BUCKET_W / 2, base - h - 6, "🔒 locked", size=11,
                             anchor="middle", fill="#c00"))
    ready = me.fill_ready_at()
    cool = "fill ready" if nxt >= ready else f"fill blocked until tick {ready}"
    out.append(_text(x0, base + 38, cool, size=12, fill="#555" if nxt >= ready else "#b00"))
    held = ", ".join(f"{n} {p}" for p, n in zip(POWERUPS, me.powerups, strict=True) if n)
    out.append(_text(x0, base + 56, "powerups: " + (held or "none"), size=12, fill="#555"))
    return out


def render_svg(spec: SessionSpec, board: Board, viewer: int | None = None, *,
               stage: str = "tick", names: Sequence[str] = ()) -> str:
    """The whole board as an SVG document, each seat under its player's name (LO-10)."""
    objectives = [spec.objective(i) for i in board.available]
    height = 330 + 60 + 20 * (len(objectives) + 2)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">',
             f'<rect width="{WIDTH}" height="{height}" fill="white"/>']
    head = {"study": "study time", "over": "over"}.get(stage, f"tick {board.tick} of {spec.ticks}")
    parts.append(_text(12, 22, f"{spec.name}: {head}", size=16, weight="bold",
                       testid="feather-tick"))
    parts += _seat(spec, board, 0, 12, 52, viewer, names)
    parts += _seat(spec, board, 1, WIDTH / 2 + 12, 52, viewer, names)
    y = 300
    parts.append(_text(12, y, "Basins", size=14, weight="bold"))
    for k, (bs, b) in enumerate(zip(spec.basins, board.basins, strict=True)):
        x = 12 + k * 186
        parts.append(f'<rect x="{x}" y="{y + 8}" width="176" height="44" rx="8" '
                     f'fill="#dbeafb" stroke="#4a90d9"/>')
        parts.append(_text(x + 8, y + 26, f"{bs.name}: {b.amount}", size=14, weight="bold",
                           testid=f"feather-basin-{bs.name}"))
        parts.append(_text(x + 8, y + 44, bs.describe()[:30], size=10, fill="#345"))
    y += 80
    parts.append(_text(12, y, f"Objectives ({len(board.queue)} waiting)", size=14, weight="bold"))
    for obj in objectives:
        y += 20
        parts.append(_text(12, y, f"{obj.id}. {obj.describe()} — {obj.reward.describe()}",
                           size=12, testid=f"feather-objective-{obj.id}"))
    parts.append("</svg>")
    return "".join(parts)
