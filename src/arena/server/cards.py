"""Link previews: ``GET /m/{id}/card.png?token=T`` and the tags of the match page's head.

A link pasted in a chat unfurls into a picture and a line of text. Both say only what a
spectator may read at that moment (G-9): the game, the seats' names, the phase or the result,
and the spectator's picture of the board; never a clock, never who has acted in a sealed
phase (G-10), whatever link was pasted (a seat's, the host's). A broadcast link (G-15) shows
the same public card of the match as it stood one delay ago (:func:`cut`), so a card
never holds anything newer than the broadcast itself; before the broadcast's first moment it
is a neutral "starts soon" card. A season, which has no board, shows its standings, read
from its public view.

A card is drawn (in a worker thread: cairosvg is CPU work) once per public version of the
match and kept in a small cache keyed by that version, so many readers of one moment cost
one drawing. The key is the spectator's version, never the log's: a sealed submission adds
a log entry a spectator does not see, and a key that moved with it would make the next card
slower to answer, which is a way of learning that someone acted (G-10).
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from arena.core.match import SPECTATOR, Match, phase_label
from arena.core.wording import counted
from arena.season.game import SEASON
from arena.server.access import Access, resolve, token_of
from arena.server.api import _owner, check_spectating, link_key, matches_of, store_of
from arena.server.broadcast_views import cut
from arena.server.envsetting import env_number
from arena.server.errors import ApiError
from arena.server.limits import RateLimit, limited
from arena.server.news import season_name
from arena.server.owner import MatchOwner
from arena.store import DamagedRow, MatchRecord, StoreUnavailable
from arena.web.card import Card, Standing, card_png, describe, listed
from arena.web.unfurl import unfurl_head

log = logging.getLogger("arena.server")

CARD_LIMIT = RateLimit.from_env("ARENA_CARD_LIMIT", 30, 2.0, "card images from this link")
"""A preview service fetches a card once or twice per link posted; a page never does. A
drawing costs tens of milliseconds, so one link may ask a burst and then two a second."""

CACHE_SIZE = env_number("ARENA_CARD_CACHE", 32, int, 1, 4096, takes="a whole number of cards, "
                        "1 to 4096")
"""Cards kept drawn (``ARENA_CARD_CACHE``), at most 200 KB each: the moments being shared
now, whatever the number of matches."""

SEASON_COLUMNS = ("Tokens of Life", "Garnets", "Opals")
"""The standings' counts, as the season's view names them (``tols``, ``garnets``,
``opals``)."""

Key = tuple[Any, ...]


class CardCache:
    """The last :data:`CACHE_SIZE` cards drawn, least recently used out first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._cards: collections.OrderedDict[Key, bytes] = collections.OrderedDict()

    def get(self, key: Key) -> bytes | None:
        png = self._cards.get(key)
        if png is not None:
            self._cards.move_to_end(key)
        return png

    def put(self, key: Key, png: bytes) -> None:
        self._cards[key] = png
        self._cards.move_to_end(key)
        while len(self._cards) > self.size:
            self._cards.popitem(last=False)

    def clear(self) -> None:
        self._cards.clear()

    def __len__(self) -> int:
        return len(self._cards)


CARDS = CardCache(CACHE_SIZE)


# ---------------------------------------------------------------------- the facts of a card
def _result_words(result: dict[str, Any], names: tuple[str, ...]) -> str:
    winner = result.get("winner")
    losers = [n for n in result.get("losers") or [] if isinstance(n, int)]
    if isinstance(winner, int) and 0 <= winner < len(names):
        return f"{names[winner]} wins"
    if len(losers) > 1:
        return f"{listed([names[s] for s in losers if s < len(names)])} lose"
    return "No single winner"


def _match_card(record: MatchRecord, match: Match, *, svg: bool) -> Card:
    """A match's card from the spectator's view of it (G-9): exactly what a spectator's page
    shows, with the seats' names as every page names them."""
    view = match.view(SPECTATOR, svg=svg)
    names = tuple(record.seat_names)
    phase = view.get("phase")
    result = view.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        return Card(title=match.game.title, seats=names, status="Finished",
                    picture=view.get("svg"), result=_result_words(result, names),
                    detail=str(result.get("reason") or ""),
                    winners=frozenset([winner] if isinstance(winner, int) else []))
    status = ""
    if isinstance(phase, dict):
        label = phase_label(int(phase["no"]), str(phase["name"]))
        status = label[:1].upper() + label[1:]
    summary = match.game.summary
    return Card(title=match.game.title, seats=names, status=status, picture=view.get("svg"),
                detail=summary[:1].upper() + summary[1:])


def _season_card(record: MatchRecord, match: Match) -> Card:
    """A season's card: its standings and what its current step waits for, read from the
    view a spectator is sent (a season's record is public, G-9)."""
    state = match.view(SPECTATOR, svg=False).get("state")
    state = state if isinstance(state, dict) else {}
    rows = []
    for row in state.get("standings") or []:
        if not isinstance(row, dict):
            continue
        out = row.get("eliminated_in")
        rows.append(Standing(
            name=str(row.get("name", "")),
            counts=tuple(int(row.get(k) or 0) for k in ("tols", "garnets", "opals")),
            out=f"out in ep. {out}" if isinstance(out, int) else ("out" if row.get("in") is
                                                                  False else ""),
            won=bool(row.get("won"))))
    over = match.finished
    episode = state.get("episode")
    status = "Season over" if over else (f"Episode {episode}" if isinstance(episode, int)
                                         else "")
    winner = state.get("winner")
    detail = f"{winner} wins the season." if over and winner else str(state.get("waiting") or "")
    return Card(title=season_name(record.settings, record.id),
                eyebrow=f"Arena · {match.game.title}", status=status,
                columns=SEASON_COLUMNS, standings=tuple(rows), detail=detail,
                note="The season has no standings yet")


def _soon_card(title: str, delay: float) -> Card:
    return Card(title=title, eyebrow="Arena · delayed broadcast", status="Starts soon",
                note=f"The broadcast runs {delay_words(delay)} behind the match and starts "
                     "one delay after the match began")


def delay_words(seconds: float) -> str:
    """A broadcast's delay for people: "1 min", "1 min 30 s", "2 h"."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else "",
             f"{secs} s" if secs else ""]
    return " ".join(p for p in parts if p) or "0 s"


def _public(record: MatchRecord, match: Match, *, svg: bool = True
            ) -> tuple[Key, Callable[[], Card]]:
    """The key of the public card of ``match``, and how to gather its facts (only on a
    miss). The key holds all a card is drawn from: the spectator's version (the public
    state), the names, the season's name."""
    if record.game == SEASON.name:
        key: Key = ("season", record.id, match.version_for(SPECTATOR), match.finished,
                    season_name(record.settings, record.id))
        return key, lambda: _season_card(record, match)
    key = ("match", record.id, match.version_for(SPECTATOR), match.finished,
           tuple(record.seat_names))
    return key, lambda: _match_card(record, match, svg=svg)


def shown(owner: MatchOwner, access: Access, *, svg: bool = True
          ) -> tuple[Key, Callable[[], Card], Match | None]:
    """(Under the match's lock, as is the call of the facts it returns.) What a card for
    this link shows: the live match's public card, or for a broadcast link the cut's (G-15),
    or the "starts soon" card before the cut has a moment to show. Also the match it is
    drawn from (None for "starts soon")."""
    live = owner.match
    if access.role == "broadcast":
        _, match = cut(owner, access)
        if match is None:
            delay = access.delay or 0.0
            title = live.game.title
            return ("soon", owner.record.id, delay), lambda: _soon_card(title, delay), None
        key, facts = _public(owner.record, match, svg=svg)
        return key, facts, match
    key, facts = _public(owner.record, live, svg=svg)
    return key, facts, live


# ---------------------------------------------------------------------- the endpoint
@limited(lambda r: CARD_LIMIT, link_key, methods=("GET", "HEAD"))
async def match_card(request: Request) -> Response:
    """``GET /m/{id}/card.png?token=T``: the link's card as a PNG. Any link of the match
    may ask (each gets the public card; a broadcast link the cut's); a bad link is refused
    like every other read. The answer is not cached by anyone else: it was asked for with a
    token (arena.server.headers)."""
    owner, access = await _owner(request)

    def look(m: Match) -> tuple[Key, Card | None]:
        key, facts, _ = shown(owner, access)
        return key, (None if CARDS.get(key) is not None else facts())

    key, card = await owner.read(look)
    png = CARDS.get(key)
    if png is None:
        assert card is not None
        png = await asyncio.to_thread(card_png, card)
        CARDS.put(key, png)
    return Response(png, media_type="image/png")


# ---------------------------------------------------------------------- the page's tags
def _title(card: Card, access: Access) -> str:
    players = listed(card.seats)
    title = card.title + (f": {players}" if players and not card.standings else "")
    if access.role == "broadcast":
        title += f" (delayed broadcast, {delay_words(access.delay or 0.0)} behind)"
    return title


def _description(card: Card, match: Match | None) -> str:
    if match is None:
        return f"{card.title}: the broadcast starts soon."
    if card.standings:
        still = sum(1 for s in card.standings if not s.out)
        parts = [card.title, card.status, counted(still, "player") + " still in",
                 card.detail]
        return ". ".join(p.rstrip(".") for p in parts if p) + "."
    return describe(card)


def _facts(found: tuple[Key, Callable[[], Card], Match | None]
           ) -> tuple[Key, Card, Match | None]:
    key, facts, match = found
    return key, facts(), match


async def page_head(request: Request, match_id: str) -> str:
    """The unfurl tags of the match (or season) page this request asks for, or "" when the
    link is not one of the match's (the page itself tells the reader so). The page is served
    whatever happens here: a tag is worth no error page."""
    token = token_of(request)
    if not token:
        return ""
    try:
        access = await resolve(store_of(request), match_id, token)
        owner = await matches_of(request).get(match_id)
        if owner is None:
            return ""
        check_spectating(owner, access)
        _, card, match = await owner.read(lambda m: _facts(shown(owner, access, svg=False)))
    except DamagedRow:
        raise  # contained and answered 503 like every other read of it
    except (ApiError, StoreUnavailable):
        return ""
    except Exception:
        log.exception("the preview tags of match %s could not be made", match_id)
        return ""
    base = str(request.base_url).rstrip("/")
    image = f"{base}/m/{quote(match_id, safe='')}/card.png?token={quote(token, safe='')}"
    return unfurl_head(_title(card, access), _description(card, match), image,
                       str(request.url))
