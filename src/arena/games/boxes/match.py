"""Box within a Box within a Box as an Arena game: the whole match flow (BX-1 to BX-13).

Phases: 2 minutes to study the boards (``ready`` ends it early); then per bout the 8 cards are
drawn and shown for 120 s of study, 150 s of sealed betting, and 4 rounds of simultaneous card
picks of 60 s each (reserve allowed in betting and picks, BX-12). Round 1 and 3 picks move the
opponent's box, rounds 2 and 4 the seat's own (BX-6). Landings of a round are revealed when it
ends; bets and payouts when the bout ends (BX-13). From bout 2 each seat gets 3 points at the
start of the bout (BX-2). After 7 bouts: more points, then the larger single-bout gain, then
the DMO (BX-11).

Notation (what a seat types):

- study phases: ``ready``;
- betting: ``black and 2: 3; 6: 1; 7 or 9: 2`` (``condition: stake``, ``;``-separated; ``none``
  when a seat has nothing to bet), see :mod:`arena.games.boxes.bets`;
- picks: ``17 R2D1``, ``14 U L``, ``3 to D1``, ``17 path D4-E4-F4-F5`` or ``pass`` (BX-7),
  see :mod:`arena.games.boxes.picks`.

Readings the rulings leave open, taken here: when both seats name the same card number and
two copies of it remain, each seat plays its own copy (two leave the hand); with one copy
left it is played twice and leaves once (BX-6). A seat with no standing pick at the end of a
round (possible only without reserve) makes no move. The single-bout gain of BX-11 is the
bout's payouts minus its stakes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from arena.core.errors import ParseError, RuleError
from arena.core.game import (
    JSON,
    READY,
    BotLevel,
    Game,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
    Word,
)
from arena.core.judging import Judgement, Step
from arena.core.wording import counted
from arena.games.boxes.bets import (
    Bet,
    Bets,
    bet_example,
    fmt,
    parse_bets,
    required_count,
    settle,
)
from arena.games.boxes.board import (
    CENTRE,
    SIZE,
    Board,
    cell_name,
    draw_board,
    parse_board,
)
from arena.games.boxes.conditions import TRAITS, add_usage, make_condition
from arena.games.boxes.deck import Card, deck_from_text
from arena.games.boxes.movement import leg_facts
from arena.games.boxes.odds import after_move, many_condition_odds, roles_for_round
from arena.games.boxes.picks import PICK_HELP, Pick, moves_view, parse_pick, pick_help
from arena.games.boxes.render import render_boards
from arena.games.boxes.state import (
    BET,
    OVER,
    PICK,
    ROUNDS,
    STUDY_BOARDS,
    STUDY_CARDS,
    BoutRecord,
    BoxesConfig,
    BoxesState,
    Play,
)

BET_HELP = ("bet on three different conditions (fewer only when your points or the match's "
            "limits leave fewer), each with a whole stake of at least 1, all the stakes "
            "within your points (BX-4)")
"""What the betting phase asks, in words, for its prompt (BX-4)."""
BET_NOTATION = ("write each bet as its condition, a colon and its stake, the bets separated by "
                "semicolons (BX-4)")
"""The bet notation in words, for the help; it adds an example the seat may send."""
ODDS_LABEL = "Odds helper for the players (LO-12, the helpers ruling, covers Boxes too)"
"""The host's switch. The one ruling on the odds helper is LO-12, whose last lines say the
deduction helper's rule "holds for Boxes' odds helper" too; the label says so, so that a
Boxes host does not read a Locked Out! rule as a mistake."""
BOTH = frozenset({0, 1})
PASS = Word("pass")
"""A pick round's pass, when no card can move the box (BX-7)."""

BoxesMove = Word | Bets | Pick
"""Every move of a Boxes match: ``ready``, a bout's bets, a pick or ``pass``."""


class BoxesGame(Game[BoxesState, BoxesConfig, BoxesMove]):
    name = "boxes"
    title = "Box within a Box within a Box"
    summary = "bet on the tiles your box will land on, then steer both boxes with shared cards"
    seats = 2
    chance = True
    hidden_information = True
    rules_prefix = "BX"
    order = 20
    board_script = "/static/games/boxes.js"
    board_sheet = "/static/games/boxes.css"
    screenshot_moment = (("bx-ready*", "[data-testid=bx-bets]"),)
    config_type = BoxesConfig
    # SE-4: a Death Match; a season simulated with bots plays two bouts to stay short.
    death_match: ClassVar[dict[str, Any] | None] = {"bouts": 2}
    phase_fields = ("bouts",)

    # --- setup ---------------------------------------------------------------------------
    def initial_state(self, config: BoxesConfig, rng: random.Random) -> BoxesState:
        deck = deck_from_text(config.deck)
        if config.bouts < 1 or config.cards_per_bout < ROUNDS:
            raise RuleError("BX-6", f"a match needs at least 1 bout of at least {ROUNDS} cards")
        pile = list(deck.pile())
        if len(pile) < config.bouts * config.cards_per_bout:
            raise RuleError("BX-10", f"the deck holds {len(pile)} cards; {counted(config.bouts, 'bout')} "
                                     f"of {config.cards_per_bout} need "
                                     f"{config.bouts * config.cards_per_bout}")
        board = parse_board(config.board) if config.board.strip() else draw_board(rng)
        rng.shuffle(pile)
        start = Fraction(config.start_points)
        return BoxesState(config, deck, tuple(pile), board, (board, board), (CENTRE, CENTRE),
                          (start, start))

    def max_phases(self, config: BoxesConfig) -> int:
        return 1 + config.bouts * (2 + ROUNDS)

    # --- flow ----------------------------------------------------------------------------
    def phase(self, state: BoxesState) -> PhaseSpec | None:
        c = state.config
        if state.stage == STUDY_BOARDS:
            return PhaseSpec("study boards", c.study_boards, may=BOTH,
                             prompt="look over both boards before bout 1; the cards come next "
                                    "(BX-12)")
        if state.stage == STUDY_CARDS:
            return PhaseSpec(f"bout {state.bout}: study cards", c.study_cards, may=BOTH,
                             prompt="look over this bout's cards; betting comes next (BX-12)")
        if state.stage == BET:
            return PhaseSpec(f"bout {state.bout}: bet", c.bet, must=BOTH, reserve=True,
                             prompt=BET_HELP)
        if state.stage == PICK:
            whose = "your opponent's box" if state.round % 2 == 1 else "your own box"
            return PhaseSpec(f"bout {state.bout}: round {state.round}", c.pick, must=BOTH,
                             reserve=True, prompt=f"this round's card moves {whose}: {PICK_HELP}")
        return None

    def parse(self, state: BoxesState, seat: int, text: str) -> BoxesMove:
        """The bets and picks are read against the seat's points, usage, hand and box, as the
        notation names them (BX-4, BX-6..BX-8): reading one is checking it."""
        if state.stage in (STUDY_BOARDS, STUDY_CARDS):
            if text.strip().lower() != "ready":
                raise ParseError("BX-12", "this is study time: nothing is played now; send ready "
                                      "to end it early")
            return READY
        if state.stage == BET:
            return Bets(parse_bets(text, state.points[seat], state.usage[seat]))
        if state.stage == PICK:
            m = parse_pick(state, seat, text)
            return PASS if m is None else Pick(state.target_board(seat), m)
        raise RuleError("BX-11", "the match is over: nothing more can be played")

    def resolve(self, state: BoxesState, outcome: PhaseOutcome[BoxesMove],
                rng: random.Random) -> tuple[BoxesState, list[GameEvent]]:
        if state.stage in (STUDY_BOARDS, STUDY_CARDS):
            if state.stage == STUDY_BOARDS:
                return self._start_bout(state, 1)
            return replace(state, stage=BET), [GameEvent("betting_opened", {"bout": state.bout})]
        if state.stage == BET:
            return self._seal_bets(state, outcome)
        return self._play_round(state, outcome)

    def _start_bout(self, state: BoxesState, bout: int) -> tuple[BoxesState, list[GameEvent]]:
        c = state.config
        bonus = Fraction(c.bout_bonus if bout > 1 else 0)
        cards = state.order[(bout - 1) * c.cards_per_bout: bout * c.cards_per_bout]
        points = (state.points[0] + bonus, state.points[1] + bonus)
        new = replace(state, stage=STUDY_CARDS, bout=bout, round=0, cards=cards, hand=cards,
                      points=points, bets=((), ()), landed=((), ()), plays=())
        data = {"bout": bout, "cards": [state.card(n).facts() for n in cards],
                "bonus": int(bonus), "points": [points_json(p) for p in points]}
        return new, [GameEvent("bout_started", data)]

    def _seal_bets(self, state: BoxesState, outcome: PhaseOutcome[BoxesMove]
                   ) -> tuple[BoxesState, list[GameEvent]]:
        bets: list[tuple[Bet, ...]] = []
        usage = list(state.usage)
        events: list[GameEvent] = []
        for seat in (0, 1):
            sub = outcome.standing.get(seat)
            mine: tuple[Bet, ...] = ()
            if sub is not None and isinstance(sub.value, Bets):
                mine = sub.value.bets
            for b in mine:
                usage[seat] = add_usage(usage[seat], b.condition)
            bets.append(mine)
            events.append(GameEvent("your_bets", {"bout": state.bout, "seat": seat,
                                                  "bets": [b.to_json() for b in mine]},
                                    to=frozenset({seat})))
        events.append(GameEvent("bets_sealed", {"bout": state.bout}))
        new = replace(state, stage=PICK, round=1, bets=(bets[0], bets[1]),
                      usage=(usage[0], usage[1]))
        return new, events

    def _play_round(self, state: BoxesState, outcome: PhaseOutcome[BoxesMove]
                    ) -> tuple[BoxesState, list[GameEvent]]:
        boards = list(state.boards)
        boxes = list(state.boxes)
        landed = [list(state.landed[0]), list(state.landed[1])]
        hand = list(state.hand)
        plays: list[Play] = []
        picked: list[int] = []
        for seat in (0, 1):
            b = state.target_board(seat)
            sub = outcome.standing.get(seat)
            pick = sub.value if sub is not None else None
            if not isinstance(pick, Pick):  # a pass, or nothing standing
                plays.append(Play(seat, b, None, (), boxes[b], (), (), ()))
                continue
            m = pick.movement
            card = state.card(m.card)
            board = state.boards[b]
            tiles = tuple(board[c] for c in m.landings)  # traits read on landing (BX-9)
            landed[b].extend(tiles)
            boards[b] = after_move(board, card, m)  # specials act after the move (BX-8)
            boxes[b] = m.final
            plays.append(Play(seat, b, m.card, m.legs, m.start, m.path, m.landings, tiles,
                              m.counts))
            picked.append(m.card)
        for n in picked:  # a card both named leaves once unless a second copy remains
            if n in hand:
                hand.remove(n)
        new = replace(state, boards=(boards[0], boards[1]), boxes=(boxes[0], boxes[1]),
                      landed=(tuple(landed[0]), tuple(landed[1])), hand=tuple(hand),
                      last_plays=tuple(plays), plays=state.plays + tuple(plays))
        events = [GameEvent("round_played", {"bout": state.bout, "round": state.round,
                                             "plays": [play_json(p) for p in plays]})]
        if state.round < ROUNDS:
            return replace(new, round=state.round + 1), events
        new, more = self._settle(new)
        events.extend(more)
        if state.bout < state.config.bouts:
            new, more = self._start_bout(new, state.bout + 1)
            events.extend(more)
        else:
            new = replace(new, stage=OVER)
        return new, events

    def _settle(self, state: BoxesState) -> tuple[BoxesState, list[GameEvent]]:
        """End of bout: bets revealed and paid (BX-5, BX-13)."""
        settled = tuple(tuple(settle(b, state.landed[s]) for b in state.bets[s]) for s in (0, 1))
        gains = tuple(sum((x.net for x in settled[s]), Fraction(0)) for s in (0, 1))
        points = (state.points[0] + gains[0], state.points[1] + gains[1])
        record = BoutRecord(state.bout, state.cards, (settled[0], settled[1]), points)
        new = replace(state, points=points, bets=((), ()), records=(*state.records, record),
                      gains=(state.gains[0] + (gains[0],), state.gains[1] + (gains[1],)))
        return new, [GameEvent("bout_settled", record_json(record))]

    # --- results -------------------------------------------------------------------------
    def scores(self, state: BoxesState) -> tuple[float, ...]:
        return (float(state.points[0]), float(state.points[1]))

    def result(self, state: BoxesState) -> Result | None:
        if state.stage != OVER:
            return None
        return final_result(state)

    # --- information ---------------------------------------------------------------------
    def view(self, state: BoxesState, viewer: int | None) -> JSON:
        out = public_view(state)
        if viewer is not None:
            out["you"] = seat_view(state, viewer)
            # LO-12: a seat sees the odds helper in a live match only when the host allows it.
            out["odds_helper"] = state.config.odds_helper
            if state.config.odds_helper and state.stage == BET:
                out["odds"] = {"AB"[viewer]: board_odds(state, viewer)}
        return out

    def host_view(self, state: BoxesState) -> JSON:
        out = public_view(state)
        out["sealed"] = [sealed_json(state, s) for s in (0, 1)]
        out["seats"] = [seat_view(state, s) for s in (0, 1)]
        # LO-12: the host always has the odds helper (and everyone once the match is over,
        # when the host's view is what every viewer gets, G-9).
        out["odds_helper"] = True
        if state.stage == BET:
            out["odds"] = {"AB"[b]: board_odds(state, b) for b in (0, 1)}
        return out

    def notation_help(self, state: BoxesState, seat: int) -> str:
        """The phase's notation with examples this seat may submit now (its points, usage and
        hand decide which)."""
        if state.stage == BET:
            example = bet_example(state.points[seat], state.usage[seat])
            if example == "none":
                return "you have nothing to bet with this bout: send 'none' (BX-4)"
            return BET_NOTATION + (f", e.g. '{example}'" if example else "")
        if state.stage == PICK:
            whose = "your opponent's box" if state.round % 2 == 1 else "your own box"
            return f"this round's card moves {whose}: {pick_help(state, seat)}"
        return super().notation_help(state, seat)

    def with_seat_names(self, state: BoxesState, names: tuple[str, ...]) -> BoxesState:
        return replace(state, seat_names=names)

    def seat_name(self, state: BoxesState, seat: int) -> str:
        return state.who(seat)

    def private_facts(self, state: BoxesState, seat: int) -> list[str]:
        fact = sealed_fact(state, seat)
        return [fact] if fact else []

    def host_options(self, state: BoxesState) -> dict[str, tuple[bool, str]]:
        return {"odds_helper": (state.config.odds_helper, ODDS_LABEL)}

    def set_host_option(self, state: BoxesState, name: str, value: bool) -> BoxesState:
        if name != "odds_helper":
            return super().set_host_option(state, name, value)
        return replace(state, config=replace(state.config, odds_helper=value))

    def render_svg(self, state: BoxesState, viewer: int | None) -> str | None:
        return render_boards(state)

    # --- players -------------------------------------------------------------------------
    def bot(self, state: BoxesState, seat: int, rng: random.Random) -> str | None:
        from arena.games.boxes import bot as botmod  # NumPy and the solvers load on first use

        return botmod.decide(state, seat, rng)

    def level_bot(self, state: BoxesState, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        from arena.games.boxes import bot as botmod  # NumPy and the solvers load on first use

        if level == "hard":
            return botmod.decide(state, seat, rng)
        return botmod.decide_level(state, seat, rng, level)

    def review(self, steps: Sequence[Step[BoxesState]], final: BoxesState) -> list[Judgement]:
        """Each bet and pick in expected points against the expectimax's best
        (:mod:`arena.games.boxes.review`)."""
        from arena.games.boxes import review  # NumPy and the search load on first use

        return review.review(steps, final, [self.seat_name(final, s) for s in (0, 1)])

    def random_submission(self, state: BoxesState, seat: int, rng: random.Random) -> str | None:
        from arena.games.boxes import randomplay  # not the bot's module: no NumPy

        return randomplay.random_legal(state, seat, rng)


def final_result(state: BoxesState) -> Result:
    """BX-11: more points; then the larger single-bout gain; then the DMO (seat 2)."""
    a, b = state.points
    scores = (float(a), float(b))
    # The score column already holds the points; the detail adds only the tie-break, under a
    # header short enough for a phone ("Best bout").
    # Numbers, like the score, so the page groups their digits the same way.
    detail = {"best_bout": [float(max(g, default=Fraction(0))) for g in state.gains]}
    if a != b:
        return Result(0 if a > b else 1, scores, "more points (BX-11)", detail)
    ga, gb = (max(g, default=Fraction(0)) for g in state.gains)
    if ga != gb:
        return Result(0 if ga > gb else 1, scores,
                      "tied on points; larger single-bout gain (BX-11)", detail)
    return Result(1, scores, "tied on points and best bout; the DMO wins (BX-11)", detail)


def sealed_json(state: BoxesState, seat: int) -> dict[str, JSON] | None:
    """The seat's sealed bets as facts, for its own view and the host's until the bout ends
    (BX-13); None when nothing is sealed."""
    if not state.bets[seat]:
        return None
    return {"bout": state.bout, "seat": seat, "bets": [b.to_json() for b in state.bets[seat]]}


def sealed_fact(state: BoxesState, seat: int) -> str:
    """The seat's sealed bets exactly as its view carries them (JSON): the conformance suite
    checks they never reach the other seat's view or events."""
    facts = sealed_json(state, seat)
    return "" if facts is None else json.dumps(facts)


def points_json(x: Fraction) -> int | float | str:
    """Points as a number for the events and pages: whole, or a half of a payout at 1.5 x
    (BX-5: every payout is a multiple of a half, so a float is exact); a fraction that a
    float would round stays ``41/3`` (a host deck cannot make one, but a number must not
    lie)."""
    if x.denominator == 1:
        return x.numerator
    f = float(x)
    return f if Fraction(f) == x else fmt(x)


def play_json(p: Play) -> dict[str, JSON]:
    """One seat's play of a round as facts: the card (None for a pass), each leg's direction
    and length, the cells entered and the tiles landed on as they were read (BX-9)."""
    counts = p.counts or (1,) * len(p.legs)
    return {
        "seat": p.seat, "board": "AB"[p.board], "card": p.card,
        "legs": [leg_facts(t, n) for t, n in zip(p.legs, counts, strict=True)],
        "from": cell_name(p.start), "path": [cell_name(c) for c in p.path],
        "landed": [{"cell": cell_name(c), "tile": t.to_json()}
                   for c, t in zip(p.landings, p.tiles, strict=True)],
    }


def record_json(r: BoutRecord) -> dict[str, JSON]:
    return {
        "bout": r.bout,
        "bets": [[{**x.bet.to_json(), "hits": x.hits, "payout": points_json(x.payout)}
                  for x in side] for side in r.settled],
        "points": [points_json(p) for p in r.points],
    }


def public_view(state: BoxesState) -> dict[str, JSON]:
    """Everything public (G-9): boards, boxes, points, the bout's cards, landings so far, and
    the bets of finished bouts."""
    revealed = [[0] * 12, [0] * 12]
    for r in state.records:
        for s in (0, 1):
            for x in r.settled[s]:
                revealed[s] = list(add_usage(tuple(revealed[s]), x.bet.condition))
    return {
        "stage": state.stage,
        "bout": state.bout,
        "bouts": state.config.bouts,
        "round": state.round,
        "moves_box": None if state.stage != PICK else
        ["AB"[state.target_board(s)] for s in (0, 1)],
        # Rows of tiles, each a number and a colour letter ("2w"): data the page draws.
        "boards": [[[str(b[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)]
                   for b in state.boards],
        "boxes": [cell_name(x) for x in state.boxes],
        "points": [points_json(p) for p in state.points],
        "cards": [state.card(n).facts() for n in state.cards],
        "hand": list(state.hand),
        "landed_this_bout": [[t.to_json() for t in side] for side in state.landed],
        "plays_this_bout": [play_json(p) for p in state.plays],
        "last_round": [play_json(p) for p in state.last_plays],
        "bouts_done": [record_json(r) for r in state.records],
        "revealed_usage": [dict(zip(TRAITS, u, strict=True)) for u in revealed],
    }


def seat_view(state: BoxesState, seat: int) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "seat": seat,
        "board": "AB"[seat],
        "sealed": sealed_json(state, seat),
        "usage": dict(zip(TRAITS, state.usage[seat], strict=True)),
    }
    if state.stage == BET:
        out["bets_needed"] = required_count(state.points[seat], state.usage[seat])
    if state.stage == PICK:
        out["pick"] = moves_view(state, seat)
    return out


def board_odds(state: BoxesState, board: int) -> dict[str, JSON]:
    """The odds helper for the box on ``board`` over the bout's remaining rounds: for each
    single trait, the expected landings and the chance of at least one, with the opponent
    steering the box in rounds 1 and 3 against the trait and its owner in rounds 2 and 4 for
    it (BX-6; the model of :mod:`arena.games.boxes.odds`)."""
    cards = tuple(state.card(n) for n in state.hand)
    first = max(1, state.round)
    return _trait_odds(state.boards[board], state.boxes[board], cards, first)


@lru_cache(maxsize=64)
def _trait_odds(board: Board, box: int, cards: tuple[Card, ...], first_round: int
                ) -> dict[str, JSON]:
    roles = roles_for_round(first_round)
    conditions = [make_condition([trait]).matches for trait in TRAITS]
    out: dict[str, JSON] = {}
    for trait, odds in zip(TRAITS, many_condition_odds(board, box, cards, conditions, roles),
                           strict=True):
        out[trait] = {"expected": round(odds.expected, 3), "p_any": round(odds.p_any, 3)}
    return out


GAME = BoxesGame()
