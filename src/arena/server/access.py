"""Who is asking: a token resolves to one viewer of one match, and nothing else.

A seat token acts and sees only for its own seat; the spectator token sees public state; the
host token sees everything and may pause, resume, extend and end (G-9). A request without a
valid token for *this* match gets nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from arena.core.match import HOST, SPECTATOR, Viewer
from arena.server.errors import ApiError
from arena.store import TokenRecord
from arena.store.asyncstore import AsyncStore


@dataclass(frozen=True)
class Access:
    """A resolved token."""

    match_id: str
    role: str
    seat: int | None
    delay: float | None = None
    """A broadcast link's delay in seconds of match time (G-15)."""

    @property
    def viewer(self) -> Viewer:
        if self.role == "broadcast":
            # G-15: a broadcast reads the whole match one delay behind, through the few
            # endpoints that cut the log (arena.server.broadcast); anywhere else it would
            # read the live match, so every other endpoint refuses it here.
            raise ApiError(403, "access", "a broadcast link only reads the match's view, "
                                          "events and replay, one delay behind")
        if self.role == "seat" and self.seat is not None:
            return self.seat
        return HOST if self.role == "host" else SPECTATOR

    @property
    def is_host(self) -> bool:
        return self.role == "host"


def token_of(conn: HTTPConnection) -> str | None:
    """The token from ``?token=`` or an ``Authorization: Bearer`` header."""
    token = conn.query_params.get("token")
    if token:
        return token
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


async def resolve(store: AsyncStore, match_id: str, token: str | None) -> Access:
    if not token:
        raise ApiError(401, "access", "this link needs the token of a seat, a spectator or the host")
    if len(token) > 128:
        raise ApiError(401, "access", "unknown token")
    record: TokenRecord | None = await store.token(token)
    if record is not None and record.role == "broadcast" and record.match_id != match_id \
            and await _child_of(store, match_id, record.match_id):
        # G-15: a season's broadcast follows every match of the season, with the same delay.
        return Access(match_id, "broadcast", None, record.delay)
    if record is None or record.match_id != match_id:
        raise ApiError(403, "access", "this token does not belong to this match")
    return Access(record.match_id, record.role, record.seat, record.delay)


async def _child_of(store: AsyncStore, match_id: str, parent_id: str) -> bool:
    child = await store.get_match(match_id)
    parent = child.settings.get("parent") if child is not None else None
    return isinstance(parent, dict) and parent.get("id") == parent_id
