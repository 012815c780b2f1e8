"""Line charts the server draws as SVG: one panel per quantity, one line per player, the
players' names written at the ends of their lines.

Drawn here rather than by a charting script in the page: the project has no build step to
bundle one, the pages' Content-Security-Policy admits no inline script or style (presentation
attributes and classes from the server's stylesheets are all this needs), the picture is
there without any script at all (a shared link read in a chat's preview, a reader with
scripts off) and it prints as it shows. The figure scales with its container (``viewBox``
and ``width="100%"``), so one drawing serves a phone and a desk.

Lines that hold the same value would hide each other, so each player's line is drawn a
little above or below the value (never by more than a third of a grid step) and every point
keeps its marker shape; the names at the ends are moved apart where they would overlap and
joined to their line's end by a thin leader. Colours and shapes repeat only past ten and
four players; past ten the lines are dashed too. The exact numbers are the caller's table.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PALETTE = ("#1f5fb4", "#c2410c", "#15803d", "#7e22ce", "#be185d", "#0f766e", "#854d0e",
           "#475569", "#b91c1c", "#4d7c0f")
"""Ten colours told apart by hue and lightness, each at least 4.5:1 on white (names drawn
in them are text)."""
DASHES = ("", "7 3", "2 3")
WIDTH = 360.0
LEFT = 30.0
GAP = 14.0
"""The least distance between two names at the lines' ends."""
CHAR = 6.7
"""About how wide a character of the names is, at 12 units."""
MAX_NAME = 11


@dataclass(frozen=True)
class Panel:
    key: str
    title: str


@dataclass(frozen=True)
class Series:
    """One player's line: ``values[panel key]`` has one value per point; ``out_at`` is the
    point where the player left (drawn as a cross, the line fainter after it)."""

    name: str
    values: Mapping[str, Sequence[int]]
    out_at: int | None = None
    won: bool = False


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def short(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


def end_label(s: Series, labels: Sequence[str]) -> str:
    """A line's name at its end: a cross and the episode it left in ("Cat ✕ ep 2"), a star
    for the winner."""
    text = short(s.name)
    if s.out_at is not None:
        at = labels[s.out_at]
        text += f" ✕ {'ep ' + at if at.isdigit() else at.lower()}"
    if s.won:
        text += " ★"
    return text


def ticks(top: int) -> tuple[int, list[int]]:
    """The axis's top and its whole-number ticks: every number up to 5, else about four
    round steps."""
    if top <= 5:
        top = max(top, 1)
        return top, list(range(top + 1))
    raw = top / 4
    base = 10 ** math.floor(math.log10(raw))
    step = next(m * base for m in (1, 2, 5, 10) if m * base >= raw)
    step = int(step)
    high = step * math.ceil(top / step)
    return high, list(range(0, high + 1, step))


def spread(wanted: Sequence[float], low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` as they can be with ``GAP`` between neighbours, kept
    within ``low``..``high`` when there is room (the order of ``wanted`` is kept)."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    ys = [wanted[i] for i in order]
    for k in range(1, len(ys)):
        ys[k] = max(ys[k], ys[k - 1] + GAP)
    if ys and ys[-1] > high:
        ys[-1] = high
        for k in range(len(ys) - 2, -1, -1):
            ys[k] = min(ys[k], ys[k + 1] - GAP)
    if ys and ys[0] < low:
        ys[0] = low
        for k in range(1, len(ys)):
            ys[k] = max(ys[k], ys[k - 1] + GAP)
    out = [0.0] * len(ys)
    for k, i in enumerate(order):
        out[i] = ys[k]
    return out


def _marker(shape: int, x: float, y: float, colour: str) -> str:
    r = 3.2
    at = f'fill="{colour}" stroke="#fff" stroke-width="1"'
    if shape == 0:
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" {at}/>'
    if shape == 1:
        return (f'<rect x="{_num(x - r)}" y="{_num(y - r)}" width="{_num(2 * r)}" '
                f'height="{_num(2 * r)}" {at}/>')
    if shape == 2:
        pts = [(x, y - r - 0.8), (x + r + 0.6, y + r - 0.2), (x - r - 0.6, y + r - 0.2)]
    else:
        pts = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
    return f'<polygon points="{" ".join(f"{_num(a)},{_num(b)}" for a, b in pts)}" {at}/>'


def _cross(x: float, y: float, colour: str) -> str:
    r = 5.0
    d = (f"M{_num(x - r)},{_num(y - r)}L{_num(x + r)},{_num(y + r)}"
         f"M{_num(x - r)},{_num(y + r)}L{_num(x + r)},{_num(y - r)}")
    return (f'<path class="chart-out" d="{d}" stroke="#fff" stroke-width="5" fill="none"/>'
            f'<path class="chart-out" d="{d}" stroke="{colour}" stroke-width="2.4" '
            f'fill="none" stroke-linecap="round"/>')


def _star(x: float, y: float, colour: str) -> str:
    pts = []
    for k in range(10):
        r = 7.0 if k % 2 == 0 else 3.0
        a = math.pi / 2 + k * math.pi / 5
        pts.append(f"{_num(x + r * math.cos(a))},{_num(y - r * math.sin(a))}")
    return (f'<polygon class="chart-won" points="{" ".join(pts)}" fill="{colour}" '
            f'stroke="#fff" stroke-width="1"/>')


def _polyline(points: Sequence[tuple[float, float]], colour: str, dash: str, *,
              faint: bool = False) -> str:
    if len(points) < 2:
        return ""
    pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
    if faint:
        return (f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.5" '
                f'stroke-dasharray="1 4" stroke-opacity="0.55" stroke-linecap="round"/>')
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.2" '
            f'stroke-linejoin="round"{dashed}/>')


def line_chart(labels: Sequence[str], panels: Sequence[Panel], series: Sequence[Series], *,
               ident: str, title: str, desc: str, axis: str) -> str:
    """The chart: ``labels`` are the points along the bottom (the first one "Start"),
    ``axis`` says what they are. ``title`` and ``desc`` are what a screen reader says of the
    picture (it is one image to them; the numbers are the caller's table)."""
    n = len(series)
    last = max(len(labels) - 1, 1)
    right = 12 + CHAR * max((len(end_label(s, labels)) for s in series), default=4)
    right = min(right, 150.0)
    x0, x1 = LEFT + 10, WIDTH - right - 14
    label_x = x1 + 12

    def x(k: int) -> float:
        return x0 + k * (x1 - x0) / last

    plot = max(78.0, GAP * n + 4)
    nudge = min(2.2, 9 / max(n - 1, 1))
    parts: list[str] = []
    y_top = 4.0
    for panel in panels:
        top_value, marks = ticks(max((max(s.values[panel.key], default=0) for s in series),
                                     default=0))
        head = y_top + 14
        top, bottom = head + 10, head + 10 + plot
        # A line may stray from its value by a third of a grid step at most.
        step_h = plot * (marks[1] - marks[0]) / top_value if len(marks) > 1 else plot
        nudge_p = min(nudge, step_h / 3 / max((n - 1) / 2, 1))

        def y(v: float, _top: float = top, _bottom: float = bottom,
              _high: int = top_value) -> float:
            return _bottom - (v / _high) * (_bottom - _top)

        body = [f'<text class="chart-panel" x="{_num(LEFT - 24)}" y="{_num(head)}">'
                f'{_esc(panel.title)}</text>']
        for m in marks:
            body.append(f'<line class="chart-grid" x1="{_num(x0 - 4)}" x2="{_num(x1)}" '
                        f'y1="{_num(y(m))}" y2="{_num(y(m))}"/>'
                        f'<text class="chart-tick" x="{_num(x0 - 8)}" y="{_num(y(m) + 4)}" '
                        f'text-anchor="end">{m}</text>')
        for k, label in enumerate(labels):
            body.append(f'<text class="chart-tick" x="{_num(x(k))}" '
                        f'y="{_num(bottom + 19)}" text-anchor="middle">{_esc(label)}</text>')
        ends: list[float] = []
        drawn: list[str] = []
        for i, s in enumerate(series):
            colour, dash = PALETTE[i % len(PALETTE)], DASHES[(i // len(PALETTE)) % len(DASHES)]
            off = (i - (n - 1) / 2) * nudge_p
            values = list(s.values[panel.key])
            pts = [(x(k), y(v) + off) for k, v in enumerate(values)]
            stop = len(pts) - 1 if s.out_at is None else min(s.out_at, len(pts) - 1)
            g = [f'<g class="chart-series" data-player="{_esc(s.name)}" '
                 f'data-values="{" ".join(str(v) for v in values)}"'
                 + (f' data-out="{_esc(labels[s.out_at])}"' if s.out_at is not None else "")
                 + ">",
                 _polyline(pts[:stop + 1], colour, dash),
                 _polyline(pts[stop:], colour, dash, faint=True)]
            g += [_marker(i % 4, px, py, colour) for px, py in pts[:stop + (s.out_at is None)]]
            if s.out_at is not None and stop < len(pts):
                g.append(_cross(*pts[stop], colour))
            if s.won and pts:
                g.append(_star(*pts[-1], colour))
            g.append("</g>")
            drawn.append("".join(g))
            ends.append(pts[-1][1] if pts else bottom)
        placed = spread(ends, top - 6, bottom + 6)
        for i, s in enumerate(series):
            colour = PALETTE[i % len(PALETTE)]
            if abs(placed[i] - ends[i]) > 1.5:
                drawn.append(f'<line class="chart-leader" x1="{_num(x1 + 4)}" '
                             f'y1="{_num(ends[i])}" x2="{_num(label_x - 3)}" '
                             f'y2="{_num(placed[i])}" stroke="{colour}"/>')
            drawn.append(f'<text class="chart-label" x="{_num(label_x)}" '
                         f'y="{_num(placed[i] + 4)}" fill="{colour}">'
                         f'{_esc(end_label(s, labels))}</text>')
        parts.append(f'<g class="chart-panel-group" data-panel="{_esc(panel.key)}">'
                     + "".join(body) + "".join(drawn) + "</g>")
        y_top = bottom + 28 + 10
    height = y_top + 10
    parts.append(f'<text class="chart-axis" x="{_num((x0 + x1) / 2)}" y="{_num(height - 6)}" '
                 f'text-anchor="middle">{_esc(axis)}</text>')
    return (f'<svg class="recap-chart" id="{_esc(ident)}" viewBox="0 0 {_num(WIDTH)} '
            f'{_num(height + 6)}" width="100%" role="img" aria-label="{_esc(title)}" '
            f'aria-describedby="{_esc(ident)}-desc" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="{_esc(ident)}-title">{_esc(title)}</title>'
            f'<desc id="{_esc(ident)}-desc">{_esc(desc)}</desc>'
            + "".join(parts) + "</svg>")
