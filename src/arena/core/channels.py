"""The match's chat channels (G-13, LO-12): which ones a viewer reads, who may post in each,
posting, the host's mute and the private channel between the host and one seat.

A chat line is an input of the log like a submission, so a replay or a restart has every
message at its moment; its audience follows the channel. The channel rules that need no match
(channel ids, cleaning a line) are :mod:`arena.core.chat`'s; this part applies them to a running
match: the game's own channels open and close with its state, muting and private channels are
the host's, and a refusal never tells a seat that a private channel exists. One part of
:class:`arena.core.match.Match`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.core import chat as chatmod
from arena.core.clock import Clock
from arena.core.errors import RuleError
from arena.core.eventlog import HOST, SPECTATOR, Event, Viewer
from arena.core.game import JSON, Game


class Channels:
    """Chat at the match: channels, posting, muting and the host's private lines."""

    game: Game[Any, Any]
    clock: Clock
    state: Any
    seats: int
    muted: set[str]
    # The seats the host has a private channel open with (G-13).
    private: set[int]

    if TYPE_CHECKING:  # the other parts of the match
        @property
        def finished(self) -> bool: ...
        def seat_name(self, seat: int) -> str: ...
        def _process(self, limit: float, *, inclusive: bool,
                     budget: int | None = None) -> bool: ...
        def _emit(self, kind: str, data: JSON, to: frozenset[int] | None,
                  t: float) -> Event: ...

    def _game_channels(self) -> dict[str, chatmod.ChatChannel]:
        if self.finished:
            return {}
        return {c.id: c for c in self.game.chat_channels(self.state)}

    def chat_channels(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The channels ``viewer`` reads and whether it may post in each now (a closed private
        channel's old messages stay in the viewer's log; only open ones are listed)."""
        out: list[dict[str, Any]] = []

        def add(cid: str, title: str) -> None:
            refusal = self._chat_refusal(viewer, cid)
            out.append({"id": cid, "title": title, "muted": cid in self.muted,
                        "can_post": refusal is None, "why_not": refusal})

        add(chatmod.TABLE, "Table")
        if viewer in (HOST, SPECTATOR) or self.finished:
            add(chatmod.SPECTATORS, "Spectators")
        for c in self._game_channels().values():
            if viewer == HOST or (isinstance(viewer, int) and viewer in c.seats):
                add(c.id, c.title)
        if not self.finished:
            for s in sorted(self.private):
                if viewer == HOST:
                    add(chatmod.private_channel(s), f"Private: {self.seat_name(s)}")
                elif viewer == s:
                    add(chatmod.private_channel(s), "Host (private)")
        return out

    def _chat_refusal(self, sender: Viewer, channel: str) -> str | None:
        """Why ``sender`` may not post in ``channel`` now (with the rule), or None."""
        if self.finished:
            return "G-13: the match is over, so its chat is closed"
        private = chatmod.private_seat(channel)
        if private is not None:
            # Anyone but the host and that seat gets the answer for a channel that does not
            # exist, so a refusal never tells that it does (G-13).
            if private not in self.private or sender not in (HOST, private):
                return f"G-13: there is no open channel called {channel!r}"
            if sender != HOST and channel in self.muted:
                return "G-13: the host has muted this channel"
            return None
        game_channels = self._game_channels()
        if channel not in (chatmod.TABLE, chatmod.SPECTATORS) and channel not in game_channels:
            return f"G-13: there is no open channel called {channel!r}"
        if sender == HOST:
            return None
        if channel in self.muted:
            return "G-13: the host has muted this channel"
        if channel == chatmod.SPECTATORS:
            return None if sender == SPECTATOR else \
                "G-13: the spectators' channel is for spectators while the match runs"
        if sender == SPECTATOR:
            return "G-13: spectators read the table but post in the spectators' channel"
        assert isinstance(sender, int)
        if channel in game_channels and sender not in game_channels[channel].seats:
            return "G-13: that channel is for other seats"
        return self.game.chat_refusal(self.state, sender, channel)

    def chat(self, sender: Viewer, channel: str, text: str) -> Event:
        """Post ``text`` in ``channel``: an input of the log, seen as the channel says."""
        channel = chatmod.check_channel_id(channel)
        text = chatmod.clean_text(text)
        t = self.clock.now()
        self._process(t, inclusive=False)
        refusal = self._chat_refusal(sender, channel)
        if refusal is not None:
            rule, _, words = refusal.partition(": ")
            raise RuleError(rule, words)
        to: frozenset[int] | None
        if channel == chatmod.TABLE:
            to = None
        elif channel == chatmod.SPECTATORS:
            to = frozenset()  # the host, and spectators by can_see (G-13)
        elif (private := chatmod.private_seat(channel)) is not None:
            to = frozenset({private})
        else:
            to = self._game_channels()[channel].seats
        return self._emit("chat", {"channel": channel, "from": sender, "text": text}, to, t)

    def mute(self, channel: str, muted: bool) -> None:
        """The host mutes or opens a channel (G-13); the host may still post in it."""
        channel = chatmod.check_channel_id(channel)
        self._process(self.clock.now(), inclusive=False)  # deadlines before it first
        if (channel in self.muted) == muted:
            raise RuleError("G-13", f"the channel is already {'muted' if muted else 'open'}")
        private = chatmod.private_seat(channel)
        if private is not None and private not in self.private:
            raise RuleError("G-13", f"there is no open channel called {channel!r}")
        if muted:
            self.muted.add(channel)
        else:
            self.muted.discard(channel)
        # Muting the host's private channel is news for that seat alone (G-13).
        to = None if private is None else frozenset({private})
        self._emit("mute", {"channel": channel, "muted": muted}, to, self.clock.now())

    def set_private(self, seat: object, open_: bool, by: Viewer = HOST) -> Event:
        """Open (or close) the private channel between the host and one seat (G-13): an input
        of the log, logged for the host and that seat alone, so replay and restart rebuild it
        and nobody else learns it exists. A closed channel's lines stay in the two readers'
        logs.

        G-13 lets either of the two open it, so ``by`` may be the seat itself; closing stays
        the host's, with the mute, since the ruling gives a seat the right to open only. The
        entry names a seat that opened it; the host's entries say nothing of ``by``, as they
        did before seats could open, so those logs replay unchanged."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise RuleError("G-13", f"name a seat from 0 to {self.seats - 1} to talk to "
                                    "privately")
        if by != HOST:
            if by != seat:
                raise RuleError("G-13", "a seat may open only its own private channel with "
                                        "the host")
            if not open_:
                raise RuleError("G-13", "a seat may open its private channel with the host; "
                                        "only the host closes it")
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.finished:
            raise RuleError("G-13", "the match is over, so its chat is closed")
        if (seat in self.private) == open_:
            whose = "with the host" if by == seat else f"with {self.seat_name(seat)}"
            raise RuleError("G-13", f"the private channel {whose} is already "
                                    f"{'open' if open_ else 'closed'}")
        if open_:
            self.private.add(seat)
        else:
            self.private.discard(seat)
        data: dict[str, Any] = {"seat": seat, "open": open_,
                                "channel": chatmod.private_channel(seat)}
        if by != HOST:
            data["by"] = by
        return self._emit("private", data, frozenset({seat}), t)
