"""What a game adds to the server besides its matches, declared by the game
(:meth:`arena.core.facts.GameFacts.extras`) and mounted by the server, which names no game.

- :class:`ExtraPage`: a page of the game's own (an editor), served as a shell that loads
  the game's script, and linked from the game's card in the lobby;
- :class:`Endpoint`: a JSON endpoint, its body a strict pydantic model (the OpenAPI document
  shows it), its writes rate-limited by a :class:`WriteLimit`;
- :class:`Shelf`: texts hosts save for the game under unique names (a library of puzzles),
  kept by the server's database and handed to the game's code;
- :attr:`Extras.prepare`: a step at match creation that may complete the game's config (a
  puzzle named from the shelf copied into the match's own record).

The game's code here sees plain values only (a :class:`Call`, a :class:`Shelf`), so it never
imports the server, the store or the web layer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel

JSON = Any


@dataclass(frozen=True)
class ShelfItem:
    """One text a host saved for a game: its unique name, the text, the author's note."""

    name: str
    text: str
    note: str = ""
    created: float = 0.0


class Shelf(Protocol):
    """A game's saved texts, kept by the server (its database)."""

    async def get(self, name: str) -> ShelfItem | None:
        """The item called ``name``, or None."""

    async def items(self, limit: int | None = None) -> Sequence[ShelfItem]:
        """The items in the server's order (by name), at most ``limit``."""

    async def count(self) -> int:
        """How many items the shelf holds."""

    async def add(self, item: ShelfItem) -> bool:
        """Save ``item``; False (and nothing saved) when its name is taken."""


class Refusal(Exception):
    """An endpoint's answer that is not a success: the HTTP status, the rule and the
    message (the answer's ``error`` is ``"<rule>: <message>"``), and any more fields of the
    answer (``rule``, a list of ``problems``)."""

    def __init__(self, status: int, rule: str, message: str,
                 extra: Mapping[str, JSON] | None = None) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.status = status
        self.rule = rule
        self.message = message
        self.extra = dict(extra or {})


@dataclass(frozen=True)
class Call:
    """One request to a game's endpoint, as plain values: the body as the endpoint's model
    (None without one), the query's and the path's parameters, and the game's shelf."""

    body: Any
    query: Mapping[str, str]
    path: Mapping[str, str]
    shelf: Shelf


@dataclass(frozen=True)
class WriteLimit:
    """The rate limit of a write endpoint: ``burst`` at once, then ``per_second``, per
    client address; ``env`` (``burst,per_second``) may change it, as for the server's own
    limits. ``name`` is how the server's table of the game's limits calls it."""

    name: str
    env: str
    burst: int
    per_second: float
    what: str


@dataclass(frozen=True)
class Endpoint:
    """A JSON endpoint of the game's. ``handler`` answers the JSON of a success (status 201
    when ``created``) or raises :class:`Refusal`, or ``RuleError`` for a 422 naming the
    rule. ``body`` is the strict model the request body must satisfy (None: it reads
    none); ``query`` documents the query's parameters (name, JSON type, words);
    ``conflict`` says the endpoint may answer 409."""

    path: str
    method: Literal["get", "post"]
    summary: str
    handler: Callable[[Call], Awaitable[JSON]]
    body: type[BaseModel] | None = None
    limit: WriteLimit | None = None
    query: tuple[tuple[str, str, str], ...] = ()
    created: bool = False
    conflict: bool = False


@dataclass(frozen=True)
class ExtraPage:
    """A page of the game's own: the shell ``body`` (markup of the game's, with a
    ``<noscript>`` for readers without scripts) loading ``script`` (and ``sheet``), linked
    from the game's lobby card as ``link`` with the test id ``testid``. ``private``: its
    answers are never cached (what it shows may come from a host's work)."""

    path: str
    title: str
    script: str
    body: str
    link: str
    testid: str
    sheet: str | None = None
    private: bool = True


@dataclass(frozen=True)
class Extras:
    """Everything a game adds to the server. ``lobby_note`` is an HTML fragment for the
    game's lobby card from the first items of its shelf (and whether there are more);
    ``prepare`` completes a create request's config (its JSON values) with the match's
    seed and the shelf, raising ``RuleError`` naming the rule when it cannot."""

    pages: tuple[ExtraPage, ...] = ()
    endpoints: tuple[Endpoint, ...] = ()
    prepare: Callable[[dict[str, Any], int, Shelf], Awaitable[dict[str, Any]]] | None = None
    lobby_note: Callable[[Sequence[ShelfItem], bool], str] | None = None
    lobby_items: int = 12

    def write_limits(self) -> tuple[WriteLimit, ...]:
        """Every limit the endpoints spend, each once."""
        return tuple({e.limit.name: e.limit for e in self.endpoints
                      if e.limit is not None}.values())
