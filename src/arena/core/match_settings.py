"""The settings of one match that are not its game's: G-4 early close, G-5 time scale, G-9
reveal at the end, G-11 bot pace.

Separate from the runner because they are chosen before a match exists: the lobby's form, the
request models and the CLI read and validate them without running anything. They are typed and
bounded like a game's config, by the helpers of :mod:`arena.core.settings`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from arena.core import settings as schema

MIN_TIME_SCALE = 0.001
MAX_TIME_SCALE = 1000.0

BOT_PACES = ("human", "instant")


@dataclass(frozen=True)
class MatchSettings:
    """Settings of one match that are not the game's: G-4 early close, G-5 time scale, G-9,
    G-11 bot pace. Typed and bounded like a game's config (:mod:`arena.core.settings`)."""

    __pydantic_config__: ClassVar[ConfigDict] = schema.STRICT

    # A time scale near zero turns a whole match into a burst of deadlines that the server
    # must resolve at once; the whole-match rule also holds every scaled phase to a floor.
    time_scale: Annotated[float, Field(
        ge=MIN_TIME_SCALE, le=MAX_TIME_SCALE,
        description="G-5: multiplies every duration: 2 doubles each one, 0.5 halves it, 1 "
                    "keeps the rule texts' durations (0.05 for fast practice)",
        title="Time scale")] = 1.0
    early_close: Annotated[bool, Field(
        description="G-4: a phase ends once every seat that must act has confirmed",
        title="Early close")] = True
    reveal_at_end: Annotated[bool, Field(
        description="G-9: everything private becomes public when the match ends",
        title="Reveal at the end")] = True
    # G-11: "human" bots wait a plausible, seeded time before acting (and are charged it);
    # "instant" bots act at once, for simulations and tests.
    bot_pace: Annotated[Literal["human", "instant"], Field(
        description="G-11: bots act at a human pace, or at once", title="Bot pace")] = "human"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchSettings:
        """Settings from JSON, strictly, as a game's config is read; keys that are not the
        engine's (the server's ``spectators``) are left to their owner."""
        known = {f.name for f in dataclasses.fields(cls)}
        ours = {k: v for k, v in data.items() if k in known} if isinstance(data, dict) else data
        settings: MatchSettings = schema.validate(cls, ours, what="match setting")
        return settings
