"""The picture a shared link unfurls into: a 1200x630 PNG drawn from plain facts.

A chat or a social site that shows a link's preview fetches one image for it; this module
draws that image from a :class:`Card` the server fills with what a spectator may see at that
moment (G-9) and nothing else, so the picture cannot hold more than its facts: no clock, no
word of who has acted in a sealed phase (G-10). It is pure (no server, no store), and its
output depends on the facts alone: the same facts give the same bytes, which lets the server
cache a card by the public version it was drawn from and lets a test compare two cards
byte for byte.

The board is the game's own spectator picture, embedded whole as an image, so a game's
picture needs nothing card-specific; a season, which has no board, is drawn as its standings.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape

WIDTH, HEIGHT = 1200, 630
"""The size every link preview service asks for (a 1.91:1 "large image")."""

MAX_BYTES = 200 * 1024
"""What a card may weigh: previews are fetched by other sites' crawlers, which give up on
large images."""

# The palette of arena.css: the dark top bar, the page's grey, the cards' white and lines.
TOP, BG, CARD, INK, MUTED, LINE, ACCENT, MARK = (
    "#151a26", "#f4f5f7", "#ffffff", "#1d2330", "#566074", "#e2e5eb", "#3f5bd8", "#8ea2ff")
OK, ERR = "#17703d", "#c0392b"
FONT = "DejaVu Sans, sans-serif"

_RENDERING = threading.BoundedSemaphore(2)
"""Cards drawn at once in this process: drawing is CPU work in a worker thread, and a burst
of first views (a link posted in a busy channel) must not take every core."""


@dataclass(frozen=True)
class Standing:
    """One player of a standings table (a season's): counts in the order of
    :attr:`Card.columns`."""

    name: str
    counts: tuple[int, ...]
    out: str = ""
    """Why the player is no longer in ("out in episode 2"), or empty."""
    won: bool = False


@dataclass(frozen=True)
class Card:
    """Everything a card shows, each a public fact of the moment it was drawn from."""

    title: str
    seats: tuple[str, ...] = ()
    status: str = ""
    """The phase in words, or "Finished": what the top bar's right side says."""
    picture: str | None = None
    """The board as a spectator sees it (an SVG document), or None."""
    result: str = ""
    """The headline of the result ("Ann wins"), once the match is over."""
    detail: str = ""
    """One more public line: the result's reason, or what the step waits for."""
    winners: frozenset[int] = frozenset()
    eyebrow: str = "Arena"
    columns: tuple[str, ...] = ()
    standings: tuple[Standing, ...] = ()
    picture_scale: float = 1.0
    """How much of the board's panel the picture may fill (less when a card would be too
    heavy at full size)."""
    note: str = ""
    """Said where the board would be when there is none (a card before a broadcast starts,
    a phase whose board is not public)."""


def _width(text: str, size: float, bold: bool = False) -> float:
    """A generous guess of how wide ``text`` is set (no font metrics without drawing it):
    the sans face's capitals and figures are about 0.7 em, its small letters 0.58, bold a
    tenth wider."""
    em = sum(0.58 if c.islower() or c in " .,:;'!|()-" else 0.72 for c in text)
    return em * size * (1.12 if bold else 1.0)


def fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` at ``size``."""
    text = " ".join(text.split())
    if _width(text, size, bold) <= width:
        return text
    while text and _width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: float, width: float, lines: int, bold: bool = False) -> list[str]:
    """``text`` broken into at most ``lines`` lines of ``width``, the last cut if need be."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and _width(f"{line} {words[0]}", size, bold) <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words and out:
        out[-1] = fit(f"{out[-1]} {' '.join(words)}", size, width, bold)
    return [fit(line, size, width, bold) for line in out]


def _text(x: float, y: float, text: str, size: float, fill: str, *, weight: str = "normal",
          anchor: str = "start", spacing: float = 0) -> str:
    extra = f' letter-spacing="{spacing:g}"' if spacing else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" '
            f'font-weight="{weight}" text-anchor="{anchor}"{extra}>{escape(text)}</text>')


def _header(card: Card) -> list[str]:
    parts = [f'<rect width="{WIDTH}" height="112" fill="{TOP}"/>',
             f'<text x="48" y="42" font-size="19" fill="#c9cfdd" letter-spacing="1">'
             f'<tspan fill="{MARK}">◆</tspan> {escape(fit(card.eyebrow, 19, 620))}</text>']
    status = fit(card.status, 22, 330)
    room = 1100 - (_width(status, 22) + 60 if status else 0)
    # A long title is set smaller before it is cut: the game's name is the card's point.
    size = next((z for z in (40, 36, 32) if _width(card.title, z, True) <= room), 28)
    parts.append(_text(48, 88, fit(card.title, size, room, True), size, "#ffffff",
                       weight="bold"))
    if status:
        w = _width(status, 22) * 0.92 + 40
        parts.append(f'<rect x="{1152 - w:g}" y="52" width="{w:g}" height="40" rx="20" '
                     f'fill="#2a3350"/>')
        parts.append(_text(1152 - w / 2, 79, status, 22, "#dfe4ff", anchor="middle"))
    return parts


def _panel(x: float, y: float, w: float, h: float) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="14" fill="{CARD}" '
            f'stroke="{LINE}" stroke-width="2"/>')


def _board(card: Card, x: float, y: float, w: float, h: float) -> list[str]:
    parts = [_panel(x, y, w, h)]
    if card.picture:
        data = base64.b64encode(card.picture.encode("utf-8")).decode("ascii")
        pw, ph = (w - 32) * card.picture_scale, (h - 32) * card.picture_scale
        parts.append(f'<image x="{x + (w - pw) / 2:g}" y="{y + (h - ph) / 2:g}" '
                     f'width="{pw:g}" height="{ph:g}" preserveAspectRatio="xMidYMid meet" '
                     f'href="data:image/svg+xml;base64,{data}"/>')
    else:
        lines = wrap(card.note or "Nothing of the board is public yet", 28, w - 80, 3)
        top = y + h / 2 - (len(lines) - 1) * 20 + 10
        parts.extend(_text(x + w / 2, top + 40 * i, line, 28, MUTED, anchor="middle")
                     for i, line in enumerate(lines))
    return parts


def _standings(card: Card, x: float, y: float, w: float, h: float) -> list[str]:
    """The standings as a table across the card: one or two halves, so a cast of 26 fits."""
    parts = [_panel(x, y, w, h)]
    rows = list(card.standings)
    halves = 1 if len(rows) <= 9 else 2
    per = max(1, -(-len(rows) // halves))
    step = min(40.0, (h - 84) / per)
    size = min(22.0, step * 0.6)
    col_w = (w - 40) / halves
    count_w = 100.0
    for half in range(halves):
        left = x + 28 + half * col_w
        name_w = col_w - count_w * len(card.columns) - 30
        parts.append(_text(left, y + 44, "PLAYER", 13, MUTED, weight="bold", spacing=1))
        for i, col in enumerate(card.columns):
            label = wrap(col.upper(), 13, count_w - 6, 2, True)
            for k, line in enumerate(label):
                parts.append(_text(left + name_w + count_w * (i + 0.5),
                                   y + 44 - 16 * (len(label) - 1 - k), line, 13, MUTED,
                                   weight="bold", anchor="middle"))
        for j, row in enumerate(rows[half * per:(half + 1) * per]):
            base = y + 80 + j * step
            if j % 2 == 0:
                parts.append(f'<rect x="{left - 12:g}" y="{base - step * 0.68:g}" '
                             f'width="{col_w - 20:g}" height="{step:g}" rx="6" fill="#f4f5f9"/>')
            ink = MUTED if row.out else INK
            weight = "bold" if row.won else "normal"
            room = name_w - 10
            if row.out:
                tag = fit(row.out, 14, 110)
                parts.append(_text(left + name_w - 8, base, tag, 14, ERR, anchor="end"))
                room -= _width(tag, 14) + 12
            parts.append(_text(left, base, fit(("★ " if row.won else "") + row.name, size,
                                               room, row.won), size, ink, weight=weight))
            for i, count in enumerate(row.counts):
                parts.append(_text(left + name_w + count_w * (i + 0.5), base, str(count), size,
                                   ink, anchor="middle", weight=weight))
    return parts


def _side(card: Card, x: float, y: float, w: float) -> list[str]:
    """The seats, then the result or what is going on: the right-hand column."""
    parts: list[str] = []
    if card.seats:
        parts.append(_text(x, y, "PLAYERS", 15, MUTED, weight="bold", spacing=1.5))
        shown = card.seats[:8]
        step, size = (44, 24) if len(shown) <= 4 else (36, 21) if len(shown) <= 6 else (30, 18)
        for i, name in enumerate(shown):
            cy = y + 38 + i * step
            won = i in card.winners
            parts.append(f'<circle cx="{x + 7:g}" cy="{cy - size * 0.36:g}" r="6" '
                         f'fill="{OK if won else ACCENT}"/>')
            parts.append(_text(x + 24, cy, fit(("★ " if won else "") + name, size, w - 24, won),
                               size, INK, weight="bold" if won else "normal"))
        if len(card.seats) > len(shown):
            parts.append(_text(x + 24, y + 38 + len(shown) * step, f"and "
                               f"{len(card.seats) - len(shown)} more", 18, MUTED))
            y += step
        y += 38 + len(shown) * step
    if card.result:
        parts.append(_text(x, y + 14, "RESULT", 15, MUTED, weight="bold", spacing=1.5))
        lines = wrap(card.result, 26, w, 2, True)
        for i, line in enumerate(lines):
            parts.append(_text(x, y + 50 + 34 * i, line, 26, INK, weight="bold"))
        y += 50 + 34 * len(lines)
    if card.detail:
        room = max(0, int((590 - y) // 26))
        for i, line in enumerate(wrap(card.detail, 19, w, min(5, room))):
            parts.append(_text(x, y + 8 + 26 * i, line, 19, MUTED))
    return parts


def card_svg(card: Card) -> str:
    """The card as an SVG document of :data:`WIDTH` by :data:`HEIGHT`."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BG}"/>', *_header(card)]
    if card.standings:
        parts.extend(_standings(card, 48, 136, 1104, 420))
        if card.detail:
            parts.append(_text(48, 596, fit(card.detail, 20, 1104), 20, MUTED))
    elif card.seats or card.result or card.detail:
        parts.extend(_board(card, 48, 140, 700, 450))
        parts.extend(_side(card, 788, 178, 364))
    else:  # nothing beside the board (a broadcast not started yet): the board is the card
        parts.extend(_board(card, 48, 140, 1104, 450))
    parts.append("</svg>")
    return "".join(parts)


def card_png(card: Card) -> bytes:
    """The card as PNG bytes, at most :data:`MAX_BYTES`. Cairo writes no time or other
    varying chunk, so equal cards are equal bytes. A board too detailed to fit the weight is
    drawn smaller, then left out; one the converter cannot draw is left out too: the card
    is served either way, and which way depends on the facts alone."""
    import cairosvg  # drawing's only user: the server starts without loading it

    tries = [card]
    if card.picture is not None:
        tries += [replace(card, picture_scale=0.6),
                  replace(card, picture=None, note="The board is too detailed for a preview")]
    png = b""
    with _RENDERING:
        for attempt in tries:
            try:
                png = cairosvg.svg2png(bytestring=card_svg(attempt).encode("utf-8"))
            except Exception:
                if attempt.picture is None:
                    raise
                continue  # the game's picture: the next try draws less of it
            if len(png) <= MAX_BYTES:
                break
    return png


def describe(card: Card) -> str:
    """The card in one sentence, for a preview's description: the same facts as its image."""
    players = listed(card.seats)
    parts = [card.title + (f": {players}" if players else "")]
    if card.result:
        parts.append(card.result)
    elif card.status:
        parts.append(card.status)
    if card.detail:
        parts.append(card.detail)
    return ". ".join(p.rstrip(".") for p in parts if p) + "."


def listed(names: Sequence[str]) -> str:
    """Names in words: "Ann and Bob", "Ann, Bob and Cid"."""
    names = [n for n in names if n]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
