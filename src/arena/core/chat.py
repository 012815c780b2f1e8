"""Talk at the table (G-13, LO-12). Chat lines are inputs of the match log, so a restart or a
replay has every message at its moment, and they are tagged with who may read them exactly like
game events: the seats' public channel is public (spectators read it), the spectators' channel
is hidden from seats while the match runs, and a game's private channel (a bargain, LO-12)
reaches only its seats and the host. The host may also open a private channel with any one seat
(G-13 as extended): only the two of them read it, and nobody else ever learns it exists, not
even when a finished match reveals its log (G-9 does not open it).

The rules are the engine's; a game only says which private channels are open now and whether a
seat may speak in a channel (an escaped seat may not talk to seats still inside, LO-12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.core.errors import RuleError

TABLE = "table"
SPECTATORS = "spectators"
MAX_CHARS = 500
PRIVATE_PREFIX = "host-private-"
"""The id of the host's private channel with seat ``s`` is this prefix and ``s`` (from 0)."""


@dataclass(frozen=True)
class ChatChannel:
    """A private channel a game's rules open: its id, its name on the page, its seats."""

    id: str
    title: str
    seats: frozenset[int]


def clean_text(raw: object) -> str:
    """The message as it will be stored: text only, trimmed, never empty, at most
    ``MAX_CHARS`` characters. Markup is kept as typed and shown as text by every page."""
    if not isinstance(raw, str):
        raise RuleError("G-13", "a chat message is text")
    # Control characters out first, then trim: cleaning a cleaned line changes nothing, so a
    # replay stores exactly the same text (G-7).
    text = "".join(c for c in raw.replace("\r\n", "\n")
                   if c in "\n\t" or (c >= " " and not "\x7f" <= c <= "\x9f")).strip()
    if not text:
        raise RuleError("G-13", "the message is empty")
    if len(text) > MAX_CHARS:
        raise RuleError("G-13", f"a chat message may be at most {MAX_CHARS} characters "
                                f"(this one has {len(text)})")
    return text


def check_channel_id(raw: object) -> str:
    if not isinstance(raw, str) or not raw or len(raw) > 40:
        raise RuleError("G-13", "name the channel to post in")
    return raw


def private_channel(seat: int) -> str:
    """The id of the host's private channel with ``seat`` (G-13)."""
    return f"{PRIVATE_PREFIX}{seat}"


def private_seat(channel: object) -> int | None:
    """The seat of a host's private channel id, or None for any other channel (G-13)."""
    if not isinstance(channel, str) or not channel.startswith(PRIVATE_PREFIX):
        return None
    tail = channel[len(PRIVATE_PREFIX):]
    return int(tail) if tail.isdigit() and len(tail) <= 4 else None


def channels_for(channels: list[dict[str, Any]], viewer: object) -> list[dict[str, Any]]:
    """A channel list drawn for the host (a replay after a revealing end is drawn so) as
    ``viewer`` may read it: the host's private channels with other seats left out, its own
    titled as the seat sees it (G-13)."""
    if viewer == "host":
        return channels
    out = []
    for c in channels:
        seat = private_seat(c.get("id"))
        if seat is None:
            out.append(c)
        elif seat == viewer:
            out.append({**c, "title": "Host (private)"})
    return out
