"""Locked Out! as an engine game: one phase per 24-hour round (LO-11), a final bargaining
phase when the match ends with bargains open (LO-8), and the elimination vote (LO-9).

Every seat still inside *may* act in a round (nobody is waited for beyond the deadline: an
absent seat simply attempts nothing and claims nothing, LO-5). A submission is the seat's whole
set of commands for the round; the last valid one stands (G-2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from arena.core.chat import TABLE, ChatChannel
from arena.core.errors import RuleError
from arena.core.game import (
    JSON,
    BotLevel,
    Game,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
    SubmitContext,
)
from arena.core.judging import Judgement, Step
from arena.games.lockedout import commands as cmds
from arena.games.lockedout import review, vote
from arena.games.lockedout.bot import bot_text, claims_for, level_text, random_text, vote_target
from arena.games.lockedout.commands import Claim, Command, Dual, Plan, Solo, Vote
from arena.games.lockedout.deduce import suggest
from arena.games.lockedout.knowledge import deduction_for
from arena.games.lockedout.render import render_vault
from arena.games.lockedout.rounds import (
    can_still_open,
    resolve_attempts,
    resolve_bargains,
)
from arena.games.lockedout.safes import COMBOS, SAFE_NAMES, deal_combos, draw_mapping
from arena.games.lockedout.state import (
    BARGAIN,
    DEFAULT_NAMES,
    OVER,
    ROUND,
    ROUND_CAP,
    TIE,
    VOTE,
    LockedOutConfig,
    LockedOutState,
    Seat,
)
from arena.games.lockedout.words import ec_words, end_words, escape_words, names_words

if TYPE_CHECKING:
    from arena.season.mainmatch import MainMatchRules

ROUND_PROMPT = ("one command a line: Solo, Safe X, Left N Right N; Dual, Safe X, Left N with "
                "a player's name; Bargain, Safe X, Claim N Gold bars, N Keys; or pass")
BARGAIN_PROMPT = "Bargain, Safe X, Claim N Gold bars, N Keys for each safe you bargain over"
VOTE_PROMPT = "Vote and a player's name: who should be the Elimination Candidate"
"""The prompts give the forms; each seat's help (:meth:`LockedOutGame.notation_help`) adds
examples it may submit as they stand, with the players' own names (LO-10)."""


def check_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Three to six distinct display names (SE-1, LO-10); a comma-separated string
    (``--set names=A,B,...``, which the generic config reader splits into characters) is
    accepted too."""
    if names and all(len(str(n)) <= 1 for n in names) and "," in "".join(map(str, names)):
        names = tuple("".join(map(str, names)).split(","))
    clean = tuple(" ".join(str(n).split()) for n in names)
    if not 3 <= len(clean) <= 6 or any(not n for n in clean):
        raise RuleError("SE-1", f"Locked Out! is played by 3 to 6 named players, not "
                                f"{len(clean)}")
    keys = {"".join(n.split()).lower() for n in clean}
    if len(keys) != len(clean):
        raise RuleError("LO-10", "the players' names must differ (ignoring case and spaces), "
                                 "since commands name players")
    return clean


def check_orders(state: LockedOutState, seat: int, orders: tuple[Command, ...]) -> None:
    """Every rule a set of commands must keep (LO-2, LO-3, LO-5, LO-9), before it is accepted."""
    s = state.seats[seat]
    stage = state.stage
    solos = [c for c in orders if isinstance(c, Solo)]
    duals = [c for c in orders if isinstance(c, Dual)]
    claims = [c for c in orders if isinstance(c, Claim)]
    votes = [c for c in orders if isinstance(c, Vote)]
    if stage == VOTE:
        example = f"e.g. '{Vote(state.inside()[0]).text(state.names)}'"
        if solos or duals or claims:
            raise RuleError("LO-9", "the rounds are over; only a vote for a player still "
                            f"inside is taken now, {example}")
        if len(votes) != 1:
            raise RuleError("LO-9", "vote for exactly one player still inside the vault, "
                            + example)
        if not state.seats[votes[0].seat].inside:
            raise RuleError("LO-9", f"{state.names[votes[0].seat]} escaped and cannot be the "
                            "Elimination Candidate; vote for a player still inside")
        return
    if stage == TIE:
        tied = names_words([state.names[t] for t in state.tied])
        if solos or duals or claims or len(votes) != 1:
            raise RuleError("LO-9", f"name exactly one of the tied players ({tied}), e.g. "
                            f"'{Vote(state.tied[0]).text(state.names)}'")
        if votes[0].seat not in state.tied:
            raise RuleError("LO-9", f"the winners choose among the tied players only ({tied})")
        return
    if votes:
        raise RuleError("LO-9", "votes are taken only after the match has ended")
    if stage == BARGAIN and (solos or duals):
        raise RuleError("LO-8", "no safe can be opened any more; only bargain claims are taken")
    if not s.inside and (solos or duals):
        raise RuleError("LO-7", "you have escaped and take no further part in opening safes")
    if len(solos) > 1:
        raise RuleError("LO-3", "one Solo attempt per round")
    if len(duals) > 1:
        raise RuleError("LO-3", "one Dual attempt per round")
    if solos and duals and solos[0].safe == duals[0].safe:
        raise RuleError("LO-3", f"the Solo and the Dual of one round go on different safes "
                                f"(both name Safe {SAFE_NAMES[solos[0].safe]})")
    for safe in [c.safe for c in solos] + [d.safe for d in duals]:
        if state.opened[safe]:
            raise RuleError("LO-5", f"Safe {SAFE_NAMES[safe]} has been opened and cannot be "
                            "opened again")
    for d in duals:
        if d.partner == seat:
            raise RuleError("LO-3", "a Dual needs another player as partner")
        if not state.seats[d.partner].inside:
            raise RuleError("LO-7", f"{state.names[d.partner]} has escaped and cannot be a "
                            "partner")
    used = tuple(v for c in solos for v in (c.left, c.right)) + tuple(d.value for d in duals)
    if not s.holds(used):
        held = ", ".join(f"{n}x{v}" for v, n in zip(range(1, 5), s.cards, strict=True) if n)
        raise RuleError("LO-2", f"you hold {held or 'no cards'}; a card cannot go on two safes "
                        f"in one round (this needs {', '.join(map(str, sorted(used)))})")
    mine = {b.safe for b in state.bargains_of(seat)}
    seen: set[int] = set()
    for c in claims:
        if c.safe not in mine:
            raise RuleError("LO-5", f"you are not bargaining over Safe {SAFE_NAMES[c.safe]}")
        if c.safe in seen:
            raise RuleError("LO-5", f"one claim per safe (Safe {SAFE_NAMES[c.safe]} twice)")
        seen.add(c.safe)


def _votes(orders: dict[int, tuple[Command, ...]]) -> dict[int, int]:
    """Each seat's vote (LO-9): the seat its standing submission names."""
    return {s: c.seat for s, cs in orders.items() for c in cs if isinstance(c, Vote)}


class LockedOutGame(Game[LockedOutState, LockedOutConfig, Plan]):
    name = "lockedout"
    title = "Locked Out!"
    summary = "six players raid 16 safes by guessing combinations, bargain, and try to escape"
    seats = 6
    seat_range = (3, 6)
    chance = True
    hidden_information = True
    rules_prefix = "LO"
    order = 50
    board_script = "/static/games/lockedout.js"
    board_sheet = "/static/games/lockedout.css"
    screenshot_moment = (("lo-safe-A", "[data-testid=lo-notes]"),)
    config_type = LockedOutConfig
    phase_fields = ("max_rounds",)

    # --- setup -----------------------------------------------------------------------------
    def initial_state(self, config: LockedOutConfig, rng: random.Random) -> LockedOutState:
        names = check_names(tuple(config.names))
        if config.max_rounds < 0:
            raise RuleError("LO-8", "max_rounds is a number of rounds, or 0 for no limit")
        garnets = tuple(int(g) for g in config.garnets)
        if garnets and (len(garnets) != len(names) or min(garnets) < 0):
            raise RuleError("LO-9", "season garnets are one whole number per player")
        config = replace(config, names=names, garnets=garnets)
        combos = deal_combos(rng)
        mapping = draw_mapping(rng)
        return LockedOutState(config, combos, mapping, tuple(Seat() for _ in names))

    def seat_count(self, config: LockedOutConfig) -> int:
        return len(check_names(tuple(config.names)))

    def main_match(self) -> MainMatchRules:
        """SE-1: Locked Out! is a season's Main Match; the season holds its vote (SE-6)."""
        from arena.games.lockedout.season import MAIN

        return MAIN

    def seat_name(self, state: LockedOutState, seat: int) -> str:
        """The seat's player, as the config names every seat (LO-10)."""
        return state.names[seat]

    def config_for_seats(self, values: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """One name per seat everywhere (LO-10): the names the match was created with are
        the names its commands use."""
        return {**values, "names": list(names)}

    def default_seat_name(self, seat: int, bot: bool) -> str:
        return DEFAULT_NAMES[seat]

    def max_phases(self, config: LockedOutConfig) -> int:
        # Without a host's limit (LO-8) the engine's ROUND_CAP ends the match.
        return (config.max_rounds or ROUND_CAP) + 3

    # --- flow ------------------------------------------------------------------------------
    def phase(self, state: LockedOutState) -> PhaseSpec | None:
        cfg = state.config
        if state.stage == ROUND:
            return PhaseSpec(f"round {state.round}", cfg.round_seconds,
                             may=frozenset(state.inside()), prompt=ROUND_PROMPT)
        if state.stage == BARGAIN:
            seats = frozenset(s for b in state.bargains for s in b.seats)
            return PhaseSpec("final bargaining", cfg.round_seconds, may=seats,
                             prompt=BARGAIN_PROMPT)
        if state.stage == VOTE:
            return PhaseSpec("elimination vote", cfg.vote_seconds,
                             may=frozenset(state.inside()), prompt=VOTE_PROMPT)
        if state.stage == TIE:
            tied = ", ".join(state.names[t] for t in state.tied)
            return PhaseSpec("winners break the tie", cfg.vote_seconds,
                             may=frozenset(state.escaped()),
                             prompt=f"Vote and a name: the winners choose among {tied}")
        return None

    def notation_help(self, state: LockedOutState, seat: int) -> str:
        """The phase's commands with examples this seat may submit now: its own cards, safes
        still closed, a partner still inside, its bargains, by the players' names (LO-10)."""
        names = state.names
        if state.stage == VOTE:
            return (f"'{Vote(vote_target(state, seat)).text(names)}': who should be the "
                    "Elimination Candidate (LO-9)")
        if state.stage == TIE:
            tied = ", ".join(names[t] for t in state.tied)
            return (f"'{Vote(state.tied[0]).text(names)}': the winners choose among {tied} "
                    "(LO-9)")
        claims = [str(c) for c in claims_for(state, seat)]
        if state.stage == BARGAIN:
            return "one line for each safe you bargain over, e.g. " + ", ".join(
                f"'{c}'" for c in claims) + " (LO-5)"
        candidates: list[str] = []
        me = state.seats[seat]
        closed = [i for i, done in enumerate(state.opened) if not done]
        held = [v for v in range(1, 5) for _ in range(me.cards[v - 1])]
        others = [s for s in state.inside() if s != seat]
        if closed and len(held) >= 2:
            candidates.append(str(Solo(closed[0], held[0], held[-1])))
        if closed and held and others:
            candidates.append(Dual(closed[-1], "left", held[0], others[0]).text(names))
        candidates += claims
        shown = []
        for text in candidates:
            try:
                self.validate(state, seat, text, SubmitContext(at=0.0))
            except RuleError:
                continue
            shown.append(f"'{text}'")
        return "one command a line, e.g. " + ", ".join([*shown, "'pass'"]) + " (LO-3, LO-5)"

    def parse(self, state: LockedOutState, seat: int, text: str) -> Plan:
        return Plan(cmds.parse(text, state.names), state.names)

    def check(self, state: LockedOutState, seat: int, move: Plan,
              ctx: SubmitContext[Plan]) -> Plan:
        check_orders(state, seat, move.commands)
        return move

    def resolve(self, state: LockedOutState, outcome: PhaseOutcome[Plan], rng: random.Random
                ) -> tuple[LockedOutState, list[GameEvent]]:
        orders = {s: sub.value.commands for s, sub in outcome.standing.items()}
        events: list[GameEvent] = []
        if state.stage == VOTE:
            return self._vote(state, orders, rng, events), events
        if state.stage == TIE:
            return self._tie(state, orders, rng, events), events
        # LO-6: the closing round's bargains first, then this round's attempts.
        state = resolve_bargains(state, orders, events)
        if state.stage == ROUND:
            state = resolve_attempts(state, orders, events)
            events.append(GameEvent("round_over", {"round": state.round}))
            facts = self._end_facts(state)
            if facts is None:
                return replace(state, round=state.round + 1), events
            state = replace(state, end_reason=end_words(facts))
            events.append(GameEvent("vault_done", facts))
            if state.bargains:
                return replace(state, stage=BARGAIN), events
        return self._after_end(state, events), events

    def _end_facts(self, state: LockedOutState) -> dict[str, Any] | None:
        """Why the vault is done (LO-8) as facts (:func:`words.end_words` says them), or None
        while it goes on."""
        if all(state.opened):
            return {"reason": "all_opened"}
        if not state.inside():
            return {"reason": "all_escaped"}
        if not can_still_open(state):
            return {"reason": "stuck"}
        if state.config.max_rounds and state.round >= state.config.max_rounds:
            return {"reason": "limit", "rounds": state.config.max_rounds}
        if state.round >= ROUND_CAP:
            return {"reason": "cap", "rounds": ROUND_CAP}
        return None

    def _after_end(self, state: LockedOutState, events: list[GameEvent]) -> LockedOutState:
        if state.config.vote == "season":
            # SE-6: the season holds LO-9's vote as a step of its own (and with one seat
            # inside names it the EC itself), so the match ends here without an EC.
            return replace(state, stage=OVER)
        inside = state.inside()
        if len(inside) >= 2:
            return replace(state, stage=VOTE)
        ec = inside[0] if inside else None
        return replace(state, stage=OVER, ec=ec)

    def _vote(self, state: LockedOutState, orders: dict[int, tuple[Command, ...]],
              rng: random.Random, events: list[GameEvent]) -> LockedOutState:
        """LO-9: the seats inside vote; a tie is announced, then the winners choose among the
        tied seats in a phase of their own (or, with no winners, the fallbacks decide)."""
        inside = state.inside()
        count = vote.tally(_votes(orders), inside)
        tied = count.leaders
        state = replace(state, votes=count.votes)
        events.append(GameEvent("vote_counted", {
            "tally": [{"seat": s, "votes": n} for s, n in count.counts.items()],
            "tied": list(tied) if len(tied) > 1 else []}))
        if count.chosen is not None:
            return self._chose(state, count.chosen, vote.How("votes"), events)
        if state.escaped():  # LO-9's "winners" are the escaped seats
            return replace(state, stage=TIE, tied=tied)
        return self._break_tie(state, tied, {}, rng, events)

    def _tie(self, state: LockedOutState, orders: dict[int, tuple[Command, ...]],
             rng: random.Random, events: list[GameEvent]) -> LockedOutState:
        """LO-9: the winners' majority among the tied seats; else the fallbacks decide among
        all the seats that tied in the vote."""
        return self._break_tie(state, state.tied, _votes(orders), rng, events)

    def _break_tie(self, state: LockedOutState, tied: tuple[int, ...], votes: dict[int, int],
                   rng: random.Random, events: list[GameEvent]) -> LockedOutState:
        facts = tuple(vote.SeatFacts(s.keys, s.bars, s.card_count) for s in state.seats)
        chosen, how = vote.decide_tie(tied, state.escaped(), votes, facts,
                                      state.config.garnets, rng)
        return self._chose(state, chosen, how, events)

    def _chose(self, state: LockedOutState, ec: int, how: vote.How,
               events: list[GameEvent]) -> LockedOutState:
        events.append(GameEvent("ec_chosen", {"seat": ec, **how.facts()}))
        return replace(state, stage=OVER, ec=ec, tied=(), ec_how=f"{how.words()} (LO-9)")

    # --- results ---------------------------------------------------------------------------
    def scores(self, state: LockedOutState) -> tuple[float, ...]:
        """Escaped seats score their gold bars; seats still inside score -1 (they lose)."""
        return tuple(float(s.bars) if not s.inside else -1.0 for s in state.seats)

    def opal(self, state: LockedOutState) -> int | None:
        """LO-8: most safes opened; tie: more cards left; still tied: nobody."""
        best = max(s.opened for s in state.seats)
        if best == 0:
            return None
        tied = [i for i, s in enumerate(state.seats) if s.opened == best]
        most = max(state.seats[i].card_count for i in tied)
        tied = [i for i in tied if state.seats[i].card_count == most]
        return tied[0] if len(tied) == 1 else None

    def result(self, state: LockedOutState) -> Result | None:
        if state.stage != OVER:
            return None
        winners = state.winners()
        winner = winners[0] if len(winners) == 1 else None
        losers = list(state.inside())
        escaped = [i for i, s in enumerate(state.seats) if not s.inside]
        # Who escaped and who is the Elimination Candidate lead (LO-8, LO-9): the generic
        # result card lists a game's seat lists in this order.
        detail: dict[str, Any] = {
            "escaped": escaped,
            "winners": list(winners),
        }
        # The EC as a seat list (the card lists it by name: "Elimination candidate: Dave"),
        # empty when the match named none (a season holds the vote, SE-6).
        detail["elimination_candidate"] = [] if state.ec is None else [state.ec]
        detail.update({
            "losers": losers,
            "ec": state.ec,
            "garnets": [s.bars // 2 if not s.inside else 0 for s in state.seats],
            "opal": self.opal(state),
            # Who voted for whom (LO-9), voter's seat to candidate's seat: facts by seat, not a
            # list of seat pairs a results table would show as columns headed "0" and "1".
            "votes": {str(v): t for v, t in state.votes},
            # Each seat's end in a word, the column that explains the score (a seat still
            # inside scores -1: it loses, LO-8), and the round it escaped in.
            "standing": ["escaped" if not s.inside else "trapped" for s in state.seats],
            "escaped_round": [s.escaped or None for s in state.seats],
            "safes_opened": [s.opened for s in state.seats],
            "bars": [s.bars for s in state.seats],
            "keys": [s.keys for s in state.seats],
            "cards_left": [s.card_count for s in state.seats],
            "opened_safes": sum(state.opened),
        })
        lead = escape_words(state.names, escaped, winners)
        if state.ec is not None:
            lead += "; " + ec_words(state.names, state.ec,
                                    state.ec_how or "the only player still inside")
        score = ("; the score is the gold bars of a player who escaped and -1 for a player still "
                 "inside (LO-8)" if losers else "")
        if state.config.vote == "season" and len(losers) >= 2:
            score += "; the season holds the elimination vote (SE-6)"
        reason = f"{lead}; {state.end_reason}{score}" if state.end_reason else f"{lead}{score}"
        return Result(winner, self.scores(state), reason, detail)

    def ended_early(self, state: LockedOutState, reason: str) -> Result:
        """A season's Main Match (``vote="season"``) that the host ends, or whose vault the
        host closes, is scored as it stands under LO-8 (SE-6): the result and its detail are
        those of a match that ended now, bargains still open paying nothing, so the season
        reads it as it reads any other end. A match that holds its own vote keeps the
        engine's default: nobody wins, and the logs stored before this option replay
        unchanged."""
        if state.config.vote != "season":
            return super().ended_early(state, reason)
        stands = replace(state, stage=OVER, end_reason=f"{reason}: scored as it stands (LO-8, "
                                                        "SE-6)")
        result = self.result(stands)
        assert result is not None  # the stage is OVER
        return result

    # --- information -----------------------------------------------------------------------
    def _public(self, state: LockedOutState) -> dict[str, Any]:
        safes = []
        for i in range(16):
            combo = state.announced[i]
            bargain = next((b for b in state.bargains if b.safe == i), None)
            safes.append({
                "safe": SAFE_NAMES[i],
                "status": "closed" if not state.opened[i] else
                ("bargaining" if bargain is not None else "done"),
                "combination": None if combo is None else list(combo),
                "bargainers": [] if bargain is None else list(bargain.seats),
            })
        return {
            "round": state.round,
            "stage": state.stage,
            "names": list(state.names),
            "seats": [{"seat": i, "name": state.names[i], "inside": s.inside,
                       "escaped_round": s.escaped or None, "keys": s.keys, "bars": s.bars,
                       "cards": s.card_count, "safes_opened": s.opened}
                      for i, s in enumerate(state.seats)],
            "safes": safes,
            "news": list(state.news),
            "end_reason": state.end_reason or None,
            "ec": state.ec,
            "ec_how": state.ec_how or None,
            "tied": [state.names[t] for t in state.tied],
            "winners": list(state.winners()) if state.stage in (VOTE, TIE, OVER) else [],
        }

    def view(self, state: LockedOutState, viewer: int | None) -> JSON:
        out = self._public(state)
        if viewer is None:
            return out
        seat = state.seats[viewer]
        ded = deduction_for(state, (viewer,))
        out["you"] = {
            "seat": viewer,
            "name": state.names[viewer],
            "hand": {str(v): n for v, n in zip(range(1, 5), seat.cards, strict=True)},
            "lights": [{"round": x.round, "safe": SAFE_NAMES[x.safe], "left": x.left,
                        "right": x.right, "colour": x.colour,
                        "partner": x.partner, "note": x.note(state.names, viewer)}
                       for x in seat.lights],
            "bargains": [SAFE_NAMES[b.safe] for b in state.bargains_of(viewer)],
        }
        if state.config.helper:  # LO-12: a seat sees the helper only when the host allows it
            out["you"]["deduction"] = {**ded.to_json(), "suggestions": suggest(
                ded, [i for i in range(16) if not state.opened[i]],
                [c for c in COMBOS if seat.holds(c)])}
        return out

    def host_view(self, state: LockedOutState) -> JSON:
        out = self._public(state)
        out["combinations"] = {SAFE_NAMES[i]: list(c) for i, c in enumerate(state.combos)}
        out["mapping"] = state.mapping
        out["hands"] = [list(s.cards) for s in state.seats]
        out["lights"] = [[{"round": x.round, "safe": SAFE_NAMES[x.safe], "left": x.left,
                           "right": x.right, "colour": x.colour, "partner": x.partner}
                          for x in s.lights] for s in state.seats]
        # LO-12: the host always has the helper (and everyone does once the match is over,
        # when the host's view is what every viewer gets, G-9).
        out["deduction"] = [deduction_for(state, (i,)).to_json()
                            for i in range(len(state.seats))]
        return out

    def private_facts(self, state: LockedOutState, seat: int) -> list[str]:
        """A seat's lights are its own (LO-4)."""
        return [x.note(state.names, seat) for x in state.seats[seat].lights]

    def chat_channels(self, state: LockedOutState) -> list[ChatChannel]:
        """LO-12: the seats in a safe's bargain share a channel until it resolves; escaped
        seats, who may not talk to the seats inside, have one of their own."""
        out = [ChatChannel(f"bargain-{SAFE_NAMES[b.safe]}", f"Bargain over Safe {SAFE_NAMES[b.safe]}",
                           frozenset(b.seats)) for b in state.bargains]
        escaped = frozenset(state.escaped())
        if len(escaped) >= 2:
            out.append(ChatChannel("escaped", "Escaped seats", escaped))
        return out

    def chat_refusal(self, state: LockedOutState, seat: int, channel: str) -> str | None:
        if channel == TABLE and not state.seats[seat].inside and state.inside():
            return "LO-12: you have escaped, so you may not message the seats still inside"
        return None

    def review(self, steps: Sequence[Step[LockedOutState]], final: LockedOutState
               ) -> list[Judgement]:
        return review.review(steps)

    def host_options(self, state: LockedOutState) -> dict[str, tuple[bool, str]]:
        return {"helper": (state.config.helper, "The deduction helper for seats (LO-12)")}

    def set_host_option(self, state: LockedOutState, name: str, value: bool) -> LockedOutState:
        if name != "helper":
            return super().set_host_option(state, name, value)
        return replace(state, config=replace(state.config, helper=value))

    def render_svg(self, state: LockedOutState, viewer: int | None) -> str | None:
        return render_vault(state, viewer)

    # --- players ---------------------------------------------------------------------------
    def bot(self, state: LockedOutState, seat: int, rng: random.Random) -> str | None:
        return bot_text(state, seat, rng)

    def level_bot(self, state: LockedOutState, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        return bot_text(state, seat, rng) if level == "hard" else level_text(state, seat, rng,
                                                                             level)

    def random_submission(self, state: LockedOutState, seat: int, rng: random.Random
                          ) -> str | None:
        return random_text(state, seat, rng)


GAME = LockedOutGame()
