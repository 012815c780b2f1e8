"""A season run live by a host (SE-1..SE-5): the same ledger and SE-3/SE-4 steps as the
simulation, driven by a list of inputs instead of bots. Each input is a small JSON object with
the moment it was made; replaying the inputs from the start rebuilds the whole season (stage,
episodes, clocks of the gift and nomination steps, ledger), the way a match is rebuilt from its
input events. Pure: the server starts the matches and feeds their results in as inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from arena.core import rng as rngmod
from arena.core.chat import clean_text
from arena.core.errors import RuleError
from arena.season.ledger import Entry, Ledger
from arena.season.simulate import DEATH_MATCHES
from arena.season.steps import (
    MainResult,
    check_nomination,
    gift_targets,
    give_tol,
    nominees,
    record_death_match,
    record_main,
)

MAX_CAST = 26
MAX_NAME = 40
MAX_REASON = 300
DEFAULT_MM_ROUNDS = 20
"""SE-6: a season's Main Match has a round limit unless the host changes it, so a trapped
player who passes every round cannot keep the season waiting (LO-8 alone has none)."""
MIN_MM_ROUNDS, MAX_MM_ROUNDS = 0, 400
"""0 is LO-8's own: no limit but the engine's bound on every match."""

# Stages of the season, in the order an episode goes through them.
MAIN = "main"            # the host starts the Main Match, or records one played elsewhere (SE-2)
MM = "mm"                # the Main Match is being played here
GIFT = "gift"            # the solo winner gives its Token of Life (SE-3), on its own clock
NAME_EC = "name_ec"      # nobody was trapped, so nobody was voted: the host names the EC
NOMINATE = "nominate"    # the EC nominates the DMO (SE-3), on its own clock
DM_PICK = "dm_pick"      # the host picks the Death Match game or records one (SE-4)
DM = "dm"                # the Death Match is being played here
DM_DECIDE = "dm_decide"  # a double loss or a draw: the host decides, with a reason (SE-4)
OVER = "over"

CLOCK_STAGES = ("gift", "nominate", "dm_pick")
"""SE-7: the steps that run on a clock the host may pause, extend or set. The gift and the
nomination have one from the start; starting the Death Match has one only once the host sets
it (it then starts a game drawn from the season's chance, with the season's settings)."""
MAX_CLOCK = 366 * 86400.0
"""The farthest a step's deadline may be set or extended (SE-7): a year from now."""


def clock_time(raw: Any) -> float:
    """A deadline given as a clock time (SE-7): epoch seconds, or ISO 8601 with its UTC
    offset ("2030-05-17T20:00+02:00"). A time without an offset is refused: the server cannot
    know which of the host's and players' zones it meant."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        value = float(raw)
    elif isinstance(raw, str) and raw.strip():
        text = raw.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            raise RuleError("SE-7", f"'at' must be epoch seconds or an ISO 8601 time with its "
                                    f"offset, like 2030-05-17T20:00+02:00, not {raw[:60]!r}"
                            ) from None
        if when.tzinfo is None or when.utcoffset() is None:
            raise RuleError("SE-7", "'at' needs its UTC offset (like +02:00 or Z), so every "
                                    "viewer reads the same moment")
        value = when.timestamp()
    else:
        raise RuleError("SE-7", "'at' must be epoch seconds or an ISO 8601 time with its offset")
    if value != value or value in (float("inf"), float("-inf")):
        raise RuleError("SE-7", "'at' must be a real moment")
    return value


AFTER_THE_END = ("adjust", "private", "webhook")
"""What a season still takes once it is over: the ledger's corrections (SE-5), the host's
private talk with a player (G-13) and where its news goes (G-14)."""
HIDDEN_INPUTS = ("private",)
"""Inputs only some readers may learn of (G-13): a reader's version counts only those of
them that reader may read, so nobody learns from a number that the host talked to another
player (G-10)."""


STAGE_WORDS = {
    MAIN: "Main Match next", MM: "Main Match in play", GIFT: "Token of Life gift",
    NAME_EC: "Host names the Elimination Candidate", NOMINATE: "Nomination",
    DM_PICK: "Death Match next", DM: "Death Match in play",
    DM_DECIDE: "Host decides the Death Match", OVER: "Season over",
}


@dataclass
class LiveEpisode:
    number: int
    final: bool = False
    players: tuple[str, ...] = ()
    mm_match: str | None = None
    mm_external: bool = False
    main: MainResult | None = None
    gift: str | None = None
    gift_how: str | None = None
    ec: str | None = None
    ec_how: str | None = None
    dmo: str | None = None
    dmo_how: str | None = None
    dm_game: str | None = None
    dm_match: str | None = None
    dm_external: bool = False
    dm_seats: tuple[str, str] | None = None
    dm_winner: str | None = None
    dm_handed: tuple[str, ...] = ()
    """The Death Match's players whose seat the host handed to a bot during the match."""
    eliminated: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        mm = self.main
        return {
            "episode": self.number, "final": self.final, "players": list(self.players),
            "main": None if mm is None and self.mm_match is None else {
                "match": self.mm_match, "external": self.mm_external,
                "result": None if mm is None else main_to_json(mm)},
            "gift": self.gift, "gift_how": self.gift_how,
            "ec": self.ec, "ec_how": self.ec_how, "dmo": self.dmo, "dmo_how": self.dmo_how,
            "death_match": None if self.dm_game is None and not self.dm_external else {
                "game": self.dm_game, "match": self.dm_match, "external": self.dm_external,
                "seats": list(self.dm_seats or ()), "winner": self.dm_winner,
                "handed_to_bot": list(self.dm_handed)},
            "eliminated": self.eliminated, "note": self.note,
        }


def main_to_json(mm: MainResult) -> dict[str, Any]:
    return {"escaped": list(mm.escaped), "trapped": list(mm.trapped), "bars": dict(mm.bars),
            "winners": list(mm.winners), "opal": mm.opal, "ec": mm.ec}


def main_from_json(data: Any, players: tuple[str, ...], *, voted: bool = True) -> MainResult:
    """A Main Match result, checked against who played it: recorded by hand (SE-2), or read
    from a match played here. ``voted`` is False for a match that ended before its vote (the
    host ended it or closed the vault, SE-6): it may name no Elimination Candidate, and the
    host then names one of the trapped players."""
    if not isinstance(data, dict):
        raise RuleError("SE-2", "a Main Match result needs 'escaped', 'trapped', 'bars', "
                                "'winners', 'opal' and 'ec'")

    def names(key: str) -> tuple[str, ...]:
        raw = data.get(key) or []
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            raise RuleError("SE-2", f"'{key}' must be a list of players")
        for n in raw:
            if n not in players:
                raise RuleError("SE-2", f"{n} did not play this Main Match")
        return tuple(raw)

    escaped, trapped = names("escaped"), names("trapped")
    if set(escaped) & set(trapped) or set(escaped) | set(trapped) != set(players) \
            or len(escaped) + len(trapped) != len(players):
        raise RuleError("SE-2", "every player of the Main Match either escaped or is trapped, "
                                "not both")
    bars_raw = data.get("bars") or {}
    if not isinstance(bars_raw, dict):
        raise RuleError("SE-2", "'bars' maps each player to a whole number of gold bars")
    bars: dict[str, int] = {}
    for n in players:
        b = bars_raw.get(n, 0)
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b <= 10**6:
            raise RuleError("SE-2", f"the gold bars of {n} must be a whole number")
        # The trapped keep their bars in the record, as the match's result shows them; only
        # the escaped turn bars into garnets (SE-3).
        bars[n] = b
    winners = names("winners") if data.get("winners") is not None else ()
    if not winners and escaped:
        best = max(bars[n] for n in escaped)
        winners = tuple(n for n in escaped if bars[n] == best)
    if any(w not in escaped for w in winners):
        raise RuleError("LO-8", "only an escaped player can win the Main Match")
    opal = data.get("opal")
    if opal is not None and opal not in players:
        raise RuleError("LO-8", f"{opal} did not play this Main Match")
    ec = data.get("ec")
    if ec is not None and ec not in trapped:
        raise RuleError("LO-9", "the Elimination Candidate is one of the trapped players")
    if ec is None and len(trapped) == 1:
        ec = trapped[0]  # LO-8: the only seat still inside is the EC; nobody votes
    if ec is None and trapped and voted:
        raise RuleError("LO-9", "name the Elimination Candidate the trapped players voted")
    return MainResult(escaped, trapped, bars, winners, opal, ec)


def check_cast(raw: Any) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The cast of a new season: named players (a bot flag each), names distinct the way
    Locked Out! tells them apart (LO-10)."""
    if not isinstance(raw, list) or not 3 <= len(raw) <= MAX_CAST:
        raise RuleError("SE-1", f"a season has a cast of 3 to {MAX_CAST} named players")
    names: list[str] = []
    bots: list[bool] = []
    for i, entry in enumerate(raw):
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            raise RuleError("SE-1", f"player {i + 1} must be a name or {{name, bot}}")
        name = " ".join(str(entry.get("name") or "").split())
        if not name:
            raise RuleError("SE-1", f"player {i + 1} has no name")
        if len(name) > MAX_NAME:
            raise RuleError("SE-1", f"the name of player {i + 1} is longer than {MAX_NAME} "
                                    "characters")
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            # A NUL cannot even be stored in PostgreSQL text (the name keys the player's link).
            raise RuleError("SE-1", f"the name of player {i + 1} holds a control character")
        names.append(name)
        bots.append(bool(entry.get("bot", False)))
    keys = {"".join(n.split()).lower() for n in names}
    if len(keys) != len(names):
        raise RuleError("LO-10", "the players' names must differ (ignoring case and spaces)")
    return tuple(names), tuple(bots)


def reason_of(data: dict[str, Any], rule: str, what: str) -> str:
    reason = " ".join(str(data.get("reason") or "").split())
    if not reason:
        raise RuleError(rule, f"{what} needs a written reason")
    return reason[:MAX_REASON]


@dataclass
class LiveSeason:
    """The state the inputs build up. ``apply`` checks an input and changes the state; it
    either raises (nothing changed) or succeeds."""

    seed: int
    ledger: Ledger
    bots: tuple[bool, ...]
    step_seconds: float
    created: float
    episodes: list[LiveEpisode] = field(default_factory=list)
    stage: str = MAIN
    deadline: float | None = None
    paused_left: float | None = None
    """SE-7: the seconds the step had left when the host paused its clock (None: running).
    A paused step has no deadline, so it cannot run out."""
    ended: str | None = None
    mm_rounds: int | None = None
    """The round limit the host set for the Main Matches still to start (None: the one the
    season was created with)."""
    private: list[dict[str, Any]] = field(default_factory=list)
    """G-13 in a season: the lines of the host's private channels, each with its player. Never
    in :meth:`to_json` (the season's public record): only the host and that player read them
    (:meth:`private_for`)."""
    webhook: str | None = None
    webhook_changed: bool = False
    """G-14: the webhook the host set after creating the season (``webhook_changed``: it
    replaces the one the season was created with, None for none). The URL is a secret: never
    in :meth:`to_json`. The server checks it against its allowlist before the input is made."""
    inputs: list[dict[str, Any]] = field(default_factory=list)

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, cast: tuple[str, ...], bots: tuple[bool, ...], seed: int,
            step_seconds: float, created: float) -> LiveSeason:
        season = cls(seed, Ledger(cast), bots, step_seconds, created)
        season._next_episode()
        return season

    @classmethod
    def replay(cls, head: dict[str, Any], inputs: list[dict[str, Any]]) -> LiveSeason:
        season = cls.new(tuple(head["cast"]), tuple(head["bots"]), int(head["seed"]),
                         float(head["step_seconds"]), float(head["created"]))
        for item in inputs:
            season.apply(item)
        return season

    @classmethod
    def replay_readable(cls, head: dict[str, Any], inputs: list[dict[str, Any]]
                        ) -> tuple[LiveSeason, str | None]:
        """The season as far as its stored inputs can be read, and what stopped the replay
        (None when every input applied). A season whose record is damaged is still shown up
        to the step that cannot be read, and that step is named (SE-6)."""
        season = cls.new(tuple(head["cast"]), tuple(head["bots"]), int(head["seed"]),
                         float(head["step_seconds"]), float(head["created"]))
        for i, item in enumerate(inputs):
            kind = item.get("kind") if isinstance(item, dict) else None
            try:
                season.apply(item)
            except Exception as exc:  # a stored input that no longer applies
                words = STAGE_WORDS.get(season.stage, season.stage).lower()
                return season, (f"the season's stored step {i + 1} ({kind!r}, at "
                                f"'{words}' of episode {season.episode.number}) cannot be "
                                f"read ({type(exc).__name__}: {exc})"[:400])
        return season, None

    @property
    def cast(self) -> tuple[str, ...]:
        return self.ledger.cast

    def is_bot(self, name: str) -> bool:
        return self.bots[self.cast.index(name)]

    @property
    def episode(self) -> LiveEpisode:
        return self.episodes[-1]

    def _next_episode(self) -> None:
        still = self.ledger.still_in()
        ep = LiveEpisode(len(self.episodes) + 1)
        self.episodes.append(ep)
        if len(still) <= 2:  # SE-1: the final Death Match between the last two
            ep.final = True
            ep.players = tuple(still)
            ep.dm_seats = (still[0], still[1])
            self.stage = DM_PICK
        else:
            self.stage = MAIN
        self.deadline = None

    # ------------------------------------------------------------------ who acts
    def actor(self) -> str | None:
        """The player whose step it is (the solo winner or the EC), if any."""
        ep = self.episode
        if self.stage == GIFT and ep.main is not None:
            return ep.main.solo_winner
        if self.stage == NOMINATE:
            return ep.ec
        return None

    def options(self) -> list[str]:
        ep = self.episode
        if self.stage == GIFT and ep.main is not None:
            return gift_targets(ep.main)
        if self.stage == NOMINATE and ep.main is not None and ep.ec is not None:
            return nominees(self.ledger, ep.main, ep.ec)
        return []

    def default_choice(self) -> str | None:
        """What a bot chooses, or what the clock chooses when a player lets it run out: a draw
        from the season's seed, so a replay or a restarted server draws the same."""
        options = self.options()
        if not options:
            return None
        return rngmod.derive(self.seed, "season", self.episode.number, self.stage).choice(options)

    def due(self, now: float) -> dict[str, Any] | None:
        """The input the clock makes when a step's deadline has passed (at that moment)."""
        if self.deadline is None or now < self.deadline or self.stage == DM_PICK:
            return None
        choice = self.default_choice()
        if choice is None:
            return None
        key = "to" if self.stage == GIFT else "dmo"
        return {"kind": self.stage, key: choice, "by": "clock", "t": self.deadline}

    def dm_due(self, now: float) -> str | None:
        """The Death Match game the clock starts when the host's deadline for starting it
        passed (SE-7): drawn from the season's chance, so a replay draws the same."""
        if self.stage != DM_PICK or self.deadline is None or now < self.deadline:
            return None
        return rngmod.derive(self.seed, "season", self.episode.number, DM_PICK).choice(
            sorted(DEATH_MATCHES))

    def bot_input(self, now: float) -> dict[str, Any] | None:
        actor = self.actor()
        if actor is None or not self.is_bot(actor):
            return None
        choice = self.default_choice()
        if choice is None:
            return None
        key = "to" if self.stage == GIFT else "dmo"
        return {"kind": self.stage, key: choice, "by": "bot", "t": now}

    # ------------------------------------------------------------------ inputs
    def apply(self, item: dict[str, Any]) -> None:
        kind = item.get("kind")
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            raise RuleError("SE-1", f"unknown season step {kind!r}")
        if self.stage == OVER and kind not in AFTER_THE_END:
            raise RuleError("SE-1", "the season is over")
        t = float(item.get("t", 0.0))
        at = (self.stage, len(self.episodes))
        handler(item, t)
        if (self.stage, len(self.episodes)) != at:
            self.paused_left = None  # SE-7: a pause holds one step's clock, never the next's
        self.inputs.append(item)

    def need(self, *stages: str) -> None:
        if self.stage not in stages:
            want = " or ".join(STAGE_WORDS[s].lower() for s in stages)
            raise RuleError("SE-1", f"the season is at '{STAGE_WORDS[self.stage].lower()}', "
                                    f"not {want}")

    def _on_mm_start(self, item: dict[str, Any], t: float) -> None:
        self.need(MAIN)
        players = tuple(item["players"])
        self._check_players(players)
        ep = self.episode
        ep.players, ep.mm_match, ep.mm_external = players, str(item["match"]), False
        self.stage = MM

    def mm_players(self, raw: Any) -> tuple[str, ...]:
        """Who plays the next Main Match: those still in (SE-1), or the host's pick of them."""
        still = tuple(self.ledger.still_in())
        if raw is None:
            if len(still) > 6:
                raise RuleError("SE-1", "more than six are still in: name the six who play "
                                        "this Main Match")
            return still
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            raise RuleError("SE-1", "'players' must be a list of names")
        players = tuple(raw)
        self._check_players(players)
        return players

    def _check_players(self, players: tuple[str, ...]) -> None:
        still = self.ledger.still_in()
        if not 3 <= len(players) <= 6 or len(set(players)) != len(players):
            raise RuleError("SE-1", "Locked Out! is played by 3 to 6 players")
        for n in players:
            if n not in still:
                raise RuleError("SE-1", f"{n} is not still in the season")
        if len(still) <= 6 and set(players) != set(still):
            raise RuleError("SE-1", "with six or fewer still in, all of them play the Main Match")

    def _on_mm_result(self, item: dict[str, Any], t: float) -> None:
        self.need(MAIN, MM)
        ep = self.episode
        external = bool(item.get("external"))
        if external:
            if self.stage == MAIN:
                ep.players = self.mm_players(item.get("players"))
            ep.mm_external = True
            ep.note = ("Main Match recorded by the host (SE-2): "
                       + reason_of(item, "SE-2", "a Main Match recorded by hand"))
        early = None if external else item.get("ended")
        if early is not None:
            # SE-6: the host ended the match (or closed the vault) before it ended by itself:
            # scored as it stood, under LO-8's host limit.
            ep.note = ("the Main Match ended early (" + str(early)[:200].rstrip(".")
                       + "), so it is scored as it stood (SE-6, LO-8)")
        mm = main_from_json(item.get("result"), ep.players, voted=early is None)
        ep.main = mm
        record_main(self.ledger, ep.number, mm)  # SE-3: garnets and the opal
        ep.ec = mm.ec
        if ep.ec is not None:
            ep.ec_how = ("the only player still trapped (LO-8)" if len(mm.trapped) == 1
                         else "voted by the trapped players (LO-9)")
        if mm.solo_winner is not None and gift_targets(mm):
            self._step(GIFT, t)
        else:
            if mm.solo_winner is not None:
                ep.gift_how = "nobody else escaped, so the token was discarded (SE-3)"
            self._after_gift(t)

    def _step(self, stage: str, t: float) -> None:
        self.stage = stage
        self.deadline = t + self.step_seconds

    def _after_gift(self, t: float) -> None:
        if self.episode.ec is None:
            self.stage, self.deadline = NAME_EC, None
        else:
            self._step(NOMINATE, t)

    def _on_gift(self, item: dict[str, Any], t: float) -> None:
        self.need(GIFT)
        ep = self.episode
        assert ep.main is not None
        to = item.get("to")
        if not isinstance(to, str) or to not in self.cast:
            raise RuleError("SE-3", f"choose one of {', '.join(self.options())}")
        give_tol(self.ledger, ep.number, ep.main, to)
        ep.gift = to
        ep.gift_how = {"clock": "the clock ran out; drawn from the season's chance",
                       "bot": "chosen by the bot"}.get(str(item.get("by")), "chosen by the winner")
        self._after_gift(t)

    def _on_name_ec(self, item: dict[str, Any], t: float) -> None:
        self.need(NAME_EC)
        ep = self.episode
        ec = item.get("ec")
        trapped = ep.main.trapped if ep.main is not None else ()
        if trapped and ec not in trapped:
            # The match closed before its vote (SE-6): the EC is still one of the trapped.
            raise RuleError("LO-9", "the Elimination Candidate is one of the trapped players: "
                                    + ", ".join(trapped))
        if not isinstance(ec, str) or ec not in ep.players:
            raise RuleError("SE-3", "the Elimination Candidate is one of the Main Match's players")
        ep.ec = ec
        ep.ec_how = "named by the host: " + reason_of(item, "SE-3", "naming the EC")
        self._step(NOMINATE, t)

    def _on_nominate(self, item: dict[str, Any], t: float) -> None:
        self.need(NOMINATE)
        ep = self.episode
        assert ep.main is not None and ep.ec is not None
        dmo = item.get("dmo")
        if not isinstance(dmo, str) or dmo not in self.cast:
            raise RuleError("SE-3", f"choose one of {', '.join(self.options())}")
        check_nomination(self.ledger, ep.main, ep.ec, dmo)
        ep.dmo = dmo
        ep.dmo_how = {"clock": "the clock ran out; drawn from the season's chance",
                      "bot": "chosen by the bot"}.get(str(item.get("by")), "chosen by the EC")
        ep.dm_seats = (ep.ec, dmo)  # SE-4: EC in seat 1, DMO in seat 2
        self.stage, self.deadline = DM_PICK, None

    def _on_dm_start(self, item: dict[str, Any], t: float) -> None:
        self.need(DM_PICK)
        game = item.get("game")
        if game not in DEATH_MATCHES:
            raise RuleError("SE-4", "the Death Match is one of " + ", ".join(DEATH_MATCHES))
        ep = self.episode
        ep.dm_game, ep.dm_match = str(game), str(item["match"])
        if item.get("by") == "clock":
            ep.note = "the host's deadline for starting the Death Match passed; the game " \
                      "was drawn from the season's chance (SE-7)"
        self.stage, self.deadline = DM, None

    def _on_dm_result(self, item: dict[str, Any], t: float) -> None:
        """A Death Match's end: played here (the winner's seat), a double loss or draw the
        host then decides, or one recorded by hand (SE-4)."""
        self.need(DM_PICK, DM, DM_DECIDE)
        ep = self.episode
        assert ep.dm_seats is not None
        external = bool(item.get("external"))
        if self.stage == DM_DECIDE:
            external = False
        elif external:
            game = item.get("game") or ep.dm_game or "external"
            ep.dm_game, ep.dm_external = str(game)[:40], True
        elif self.stage != DM:
            raise RuleError("SE-4", "start the Death Match here or record one played elsewhere")
        if item.get("draw") and self.stage == DM:
            handed = item.get("handed_to_bot") or []
            if isinstance(handed, list):
                ep.dm_handed = tuple(n for n in ep.dm_seats if n in handed)
            ep.note = str(item.get("why") or "the Death Match ended with no winner")[:MAX_REASON]
            self.stage = DM_DECIDE
            return
        loser = item.get("loser")
        winner = item.get("winner")
        if loser is None and isinstance(winner, str) and winner in ep.dm_seats:
            loser = ep.dm_seats[1] if winner == ep.dm_seats[0] else ep.dm_seats[0]
        if not isinstance(loser, str) or loser not in ep.dm_seats:
            raise RuleError("SE-4", f"the loser is {ep.dm_seats[0]} or {ep.dm_seats[1]}")
        winner = ep.dm_seats[1] if loser == ep.dm_seats[0] else ep.dm_seats[0]
        cause = ""
        game = ep.dm_game or "external"
        if self.stage == DM_DECIDE:
            cause = (f"no winner in the Death Match ({game}); the host decided: "
                     + reason_of(item, "SE-4", "deciding a double loss or draw (LM-21)"))
        elif external:
            cause = (f"lost the Death Match ({game}), recorded by the host: "
                     + reason_of(item, "SE-4", "a Death Match recorded by hand"))
        handed = item.get("handed_to_bot") or []
        if isinstance(handed, list):
            ep.dm_handed = tuple(n for n in ep.dm_seats if n in handed)
        ep.dm_winner, ep.eliminated = winner, loser
        record_death_match(self.ledger, ep.number, game, winner, loser, ep.final, cause)
        if ep.final:
            self.stage, self.deadline = OVER, None
            self.ended = f"{winner} won the season"
        else:
            self._next_episode()

    def _on_adjust(self, item: dict[str, Any], t: float) -> None:
        player, what, amount = item.get("player"), item.get("what"), item.get("amount")
        if player not in self.cast:
            raise RuleError("SE-5", "adjust a player of the cast")
        if what not in ("tol", "garnets", "opal"):
            raise RuleError("SE-5", "an adjustment changes ToLs, garnets or opals")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 \
                or abs(amount) > 1000:
            raise RuleError("SE-5", "an adjustment is a whole number other than 0")
        reason = reason_of(item, "SE-5", "a host adjustment")
        standing = self.ledger.standings()[str(player)]
        have = {"tol": standing.tols, "garnets": standing.garnets, "opal": standing.opals}[what]
        if have + amount < 0:
            raise RuleError("SE-5", f"{player} has {have}, so cannot lose {-amount}")
        self.ledger.add(Entry(self.episode.number, str(player), str(what), amount,
                              f"host adjustment: {reason} (SE-5)"))

    def _on_mm_rounds(self, item: dict[str, Any], t: float) -> None:
        """The host changes the round limit of the Main Matches still to start (SE-6)."""
        value = item.get("max_rounds")
        if isinstance(value, bool) or not isinstance(value, int) \
                or not MIN_MM_ROUNDS <= value <= MAX_MM_ROUNDS:
            raise RuleError("SE-6", f"a Main Match's round limit is {MIN_MM_ROUNDS} to "
                                    f"{MAX_MM_ROUNDS} rounds (0: LO-8's none)")
        self.mm_rounds = value

    def _on_clock(self, item: dict[str, Any], t: float) -> None:
        """The host pauses, resumes, extends or sets the current step's clock (SE-7)."""
        self.need(*CLOCK_STAGES)
        action = item.get("action")
        if action == "pause":
            if self.paused_left is not None:
                raise RuleError("SE-7", "this step's clock is already paused")
            if self.deadline is None:
                raise RuleError("SE-7", "this step has no deadline to pause")
            self.paused_left, self.deadline = max(0.0, self.deadline - t), None
        elif action == "resume":
            if self.paused_left is None:
                raise RuleError("SE-7", "this step's clock is not paused")
            self.deadline, self.paused_left = t + self.paused_left, None
        elif action == "extend":
            seconds = item.get("seconds")
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                    or not 1 <= seconds <= MAX_CLOCK:
                raise RuleError("SE-7", "'seconds' extends the step by 1 second to a year")
            if self.paused_left is not None:
                self.paused_left += float(seconds)
            elif self.deadline is None:
                raise RuleError("SE-7", "this step has no deadline yet: set one first")
            else:
                self.deadline = max(self.deadline, t) + float(seconds)
        elif action == "set":
            at = clock_time(item.get("at"))
            if not t < at <= t + MAX_CLOCK:
                raise RuleError("SE-7", "the deadline must be in the future, within a year")
            self.deadline, self.paused_left = at, None  # a clock time set runs (unpaused)
        else:
            raise RuleError("SE-7", "a step's clock is paused, resumed, extended or set")

    def _on_private(self, item: dict[str, Any], t: float) -> None:
        """A line in the host's private channel with one player (G-13, in a season): the host
        opens it by writing first; the player answers in it; nobody else reads it."""
        player = item.get("player")
        if not isinstance(player, str) or player not in self.cast:
            raise RuleError("G-13", "a private channel is with one player of the season's cast")
        sender = item.get("from")
        if sender not in ("host", "player"):
            raise RuleError("G-13", "a private line is from the host or from its player")
        if sender == "player" and not any(p["player"] == player for p in self.private):
            raise RuleError("G-13", "only the host opens a private channel; answer once the "
                                    "host has written to you")
        text = clean_text(item.get("text"))
        self.private.append({"player": player, "from": sender, "text": text, "t": t})

    def private_for(self, player: str | None) -> list[dict[str, Any]]:
        """The private lines ``player`` reads (None: the host, who reads every channel)."""
        return [dict(p) for p in self.private if player is None or p["player"] == player]

    def version_for(self, player: str | None, *, host: bool = False) -> int:
        """How many inputs this reader may know of (G-10): every public one, and the private
        lines of the reader's own channel (the host's: all of them)."""
        if host:
            return len(self.inputs)
        return sum(1 for item in self.inputs if item.get("kind") not in HIDDEN_INPUTS
                   or (player is not None and item.get("player") == player))

    def _on_webhook(self, item: dict[str, Any], t: float) -> None:
        """The host sets, changes or clears the season's webhook (G-14); checked by the
        server against its allowlist before it becomes an input."""
        url = item.get("url")
        if url is not None and not isinstance(url, str):
            raise RuleError("G-14", "the webhook is a URL, or null for none")
        self.webhook, self.webhook_changed = url, True

    def _on_end(self, item: dict[str, Any], t: float) -> None:
        self.ended = "ended by the host: " + reason_of(item, "SE-1", "ending the season")
        self.stage, self.deadline = OVER, None

    # ------------------------------------------------------------------ output
    def waiting(self) -> str:
        """What is happening now and who waits for whom, in words for every viewer."""
        ep, stage = self.episode, self.stage
        if stage == MAIN:
            return (f"Everyone waits for the host to start episode {ep.number}'s Main Match "
                    f"with {', '.join(self.ledger.still_in()[:6])} (or record one played "
                    "elsewhere).")
        if stage == MM:
            return (f"{', '.join(ep.players)} are playing the Main Match; the season goes on "
                    "when it ends.")
        if stage == GIFT:
            return (f"Everyone waits for {self.actor()}, the solo winner, to give the Token of "
                    f"Life to {' or '.join(self.options())}.")
        if stage == NAME_EC:
            return "Everyone waits for the host to name the Elimination Candidate."
        if stage == NOMINATE:
            return (f"Everyone waits for {ep.ec}, the Elimination Candidate, to nominate the "
                    f"Death Match Opponent among {', '.join(self.options())}.")
        seats = ep.dm_seats or ("?", "?")
        what = "the final Death Match" if ep.final else "the Death Match"
        if stage == DM_PICK:
            return (f"{seats[0]} and {seats[1]} wait for the host to pick the game and start "
                    f"{what}; the loser leaves the season.")
        if stage == DM:
            return (f"{seats[0]} and {seats[1]} are playing {what}; everyone waits for its "
                    "result.")
        if stage == DM_DECIDE:
            return (f"{what[:1].upper() + what[1:]} between {seats[0]} and {seats[1]} had no "
                    "winner: everyone waits for the host to decide who leaves.")
        return "The season is over."

    def to_json(self) -> dict[str, Any]:
        standings = self.ledger.standings()
        winner = next((n for n in self.cast if standings[n].won), None)
        return {
            "cast": list(self.cast), "bots": list(self.bots),
            "stage": self.stage, "stage_words": STAGE_WORDS[self.stage],
            "waiting": self.waiting(), "mm_rounds": self.mm_rounds,
            "deadline": self.deadline, "step_seconds": self.step_seconds,
            "paused": self.paused_left is not None, "paused_left": self.paused_left,
            "clock": self.stage in CLOCK_STAGES,
            "actor": self.actor(), "options": self.options(),
            "episode": self.episode.number, "winner": winner, "ended": self.ended,
            "episodes": [e.to_json() for e in self.episodes],
            "ledger": [e.to_json() for e in self.ledger.entries],
            "standings": [standings[n].to_json() for n in self.cast],
        }
