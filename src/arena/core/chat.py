"""Talk at the table (G-13, LO-12). Chat lines are inputs of the match log, so a restart or a
replay has every message at its moment, and they are tagged with who may read them exactly like
game events: the seats' public channel is public (spectators read it), the spectators' channel
is hidden from seats while the match runs, and a game's private channel (Locked Out!'s bargain)
reaches only its seats and the host.

The rules are the engine's; a game only says which private channels are open now and whether a
seat may speak in a channel (an escaped Locked Out! seat may not talk to seats still inside)."""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import RuleError

TABLE = "table"
SPECTATORS = "spectators"
MAX_CHARS = 500


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
