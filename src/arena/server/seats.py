"""Who holds a seat: a person's seat given a new link, or a seat handed between a bot and a
person (G-8), each under the match's lock, logged as a host note, and the old link's open
pages told at once. Used by the host's routes (:mod:`arena.server.hosting`), a season's
player links, and a parent match's children following their parent's seats."""

from __future__ import annotations

import secrets
from typing import Any

from arena.core.errors import RuleError
from arena.core.game import BotLevel
from arena.server.limits import check_host_entries, count_host_entries
from arena.server.owner import MatchOwner
from arena.store.asyncstore import AsyncStore


def not_over(owner: MatchOwner, what: str) -> None:
    if owner.match.finished:
        raise RuleError("host", f"the match is over, so {what} changes nothing")


async def new_link(store: AsyncStore, owner: MatchOwner, seat: int) -> str:
    """Reissue ``seat``'s link: the new token; the old one's pages are told at once."""
    not_over(owner, "a new link")
    if owner.record.bots[seat]:
        raise RuleError("host", "a bot plays this seat; give it to a person first")
    token = secrets.token_urlsafe(18)
    async with owner.lock:
        # Again under the lock: requests that waited here were checked before the others ran.
        check_host_entries(count_host_entries(owner.match), "reissue")
        old = await owner.write(
            lambda fence: store.replace_seat_token(owner.record.id, seat, token, fence))
        owner.match.host_note({"what": "reissue", "seat": seat, "public": False})
        await owner._commit()
    owner.revoke(set(old), "the host gave this seat a new link")
    return token


async def change_seat(store: AsyncStore, owner: MatchOwner, seat: int, bot: bool,
                      level: BotLevel) -> str | None:
    """Give ``seat`` to a bot (at ``level``) or a person: the person's new token, if any."""
    not_over(owner, "replacing a seat")
    was_bot = owner.record.bots[seat]
    if was_bot == bot and (not bot or owner.record.level(seat) == level):
        raise RuleError("host", f"a {'bot' if bot else 'person'} already plays this seat")
    token = None if bot else secrets.token_urlsafe(18)
    bots = tuple(bot if i == seat else b for i, b in enumerate(owner.record.bots))
    levels = tuple((level if bot else "hard") if i == seat else owner.record.level(i)
                   for i in range(len(bots)))
    async with owner.lock:
        check_host_entries(count_host_entries(owner.match), "seat")
        if was_bot != bot:
            old = await owner.write(
                lambda fence: store.replace_seat_token(owner.record.id, seat, token, fence))
        else:
            old = []
        await owner.write(lambda fence: store.set_bots(owner.record.id, bots, fence, levels))
        owner.set_bots(bots, levels)
        note: dict[str, Any] = {"what": "seat", "seat": seat, "bot": bot, "public": True}
        if bot:
            note["level"] = level
        owner.match.host_note(note)
        await owner._commit()
    if old:
        owner.revoke(set(old), "the host handed this seat to " + ("a bot" if bot else
                                                                  "someone else"))
    return token
