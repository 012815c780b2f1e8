"""The generator under a placement budget (what the bot uses), its score cache, the loose-set
fallback, and the bot's construction through it."""

from __future__ import annotations

import dataclasses
import random

from arena.core.driver import simulate
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.convert import from_position, state_position
from arena.games.lockmaker.fast.generator import (
    CLUSTER_CAP,
    build_hard_lock,
    generate,
    one_slide,
    random_placement,
    score,
    swap,
)
from arena.games.lockmaker.fast.search import TOO_BIG, cluster_walk
from arena.games.lockmaker.fast.sets import SetRegistry
from arena.games.lockmaker.fast.tables import Compiled
from arena.games.lockmaker.match import LockmakerGame
from arena.games.lockmaker.pieces import Bar, kind_of, parse_piece_list
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rush import read_rush
from arena.games.lockmaker.solver import solve as ref_solve
from arena.games.lockmaker.validate import construction_problems

FOG51 = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."


def test_lm15_fog51_hand_generator_lock_is_legal_solvable_and_counted_right() -> None:
    """fog51's whole hand (key + 12 vehicles): the lock uses exactly that hand (LM-15) and the
    reported count is the reference solver's optimum (LM-9)."""
    pos = read_rush(FOG51)
    hand = [kind_of(b) for b in pos.bars]
    res = generate(pos.board, hand, seconds=None, placements=60, rng=random.Random(4),
                   keyhole=pos.keyhole)
    assert construction_problems(res.lock, hand) == []
    ref = ref_solve(res.lock)
    assert ref.solvable and ref.moves == res.moves == fast_solve(res.lock).moves
    assert res.moves >= 5  # a dense hand's cluster walk finds far more than a trivial lock
    assert 1 <= res.searched <= 60


def test_placement_budget_makes_the_generator_a_function_of_its_seed() -> None:
    board = Board(6, 6, frozenset({0, 35}))
    hand = parse_piece_list("H2,H3,V2,V3,V2,X")
    a = generate(board, hand, seconds=None, placements=25, rng=random.Random(9))
    b = generate(board, hand, seconds=None, placements=25, rng=random.Random(9))
    assert (a.moves, a.lock, a.searched) == (b.moves, b.lock, b.searched)
    assert construction_problems(a.lock, hand) == []
    assert ref_solve(a.lock).moves == a.moves


def test_score_cache_gives_the_uncached_answer() -> None:
    pos = read_rush(FOG51)
    hand = [kind_of(b) for b in pos.bars]
    rng = random.Random(3)
    cache: dict[Position, tuple[int, Position]] = {}
    for _ in range(5):
        p = random_placement(pos.board, hand, rng, pos.keyhole)
        assert p is not None
        first = score(p, cache)
        assert score(p, cache) == first == score(p)
    assert score(pos, cache) == (51, score(pos)[1])


def test_loose_sets_are_scored_by_their_own_optimum() -> None:
    """Few bars on a big board: the reachable set is larger than the cap, so the candidate is
    scored by its own optimum, which must still be the true count."""
    board = Board(9, 9)
    hand = parse_piece_list("H2,V2,H3,V3,V2")
    rng = random.Random(1)
    loose = 0
    for _ in range(20):
        p = random_placement(board, hand, rng)
        assert p is not None
        walk = cluster_walk(Compiled(from_position(p)), buildable=True, cap=CLUSTER_CAP)
        if walk != TOO_BIG:
            continue
        loose += 1
        moves, lock = score(p)
        assert lock == p
        ref = ref_solve(p)
        assert moves == (ref.moves if ref.solvable else -1)
    assert loose >= 5
    lock = build_hard_lock(board, hand, None, random.Random(2), placements=15)
    assert construction_problems(lock, hand) == []
    assert fast_solve(lock).solvable


def test_bot_builds_with_the_generator_and_replays_exactly() -> None:
    """Same seed, same match (the bot's budget is placements, not seconds); and the bot's
    generator locks are no easier than its old random ones on the same match."""
    game = LockmakerGame()
    cfg = dataclasses.replace(game.default_config(), rounds=2, bot_placements=20)
    one = simulate(game, 5, cfg)
    two = simulate(game, 5, cfg)
    assert [e.kind for e in one.log] == [e.kind for e in two.log]
    assert one.state == two.state
    old = simulate(game, 5, dataclasses.replace(cfg, bot_placements=0))
    assert old.finished and one.finished


def test_one_slide_is_recognised_only_for_a_clear_path() -> None:
    """LM-5: a slide moves along the piece's own line through empty cells; a jump over
    another piece is a different lock (a different set), so it must be walked."""
    pos = read_rush("oooooo" "oooooo" "AAoooo" "oooooo" "ooCooo" "ooCoBB")
    bb = next(b for b in pos.bars if b.horizontal)
    left1 = pos.with_pieces(pos.key, (*[b for b in pos.bars if b != bb], Bar(bb.cell - 1, 2, True)))
    assert left1.problems() == [] and one_slide(pos, left1)
    far = pos.with_pieces(pos.key, (*[b for b in pos.bars if b != bb], Bar(bb.cell - 4, 2, True)))
    assert far.problems() == [] and not one_slide(pos, far)
    up = pos.with_pieces(pos.key, (*[b for b in pos.bars if b != bb],
                                   Bar(bb.cell - pos.board.width, 2, True)))
    assert not one_slide(pos, up)


def test_swaps_keep_the_hand() -> None:
    pos = read_rush(FOG51)
    hand = [kind_of(b) for b in pos.bars]
    rng = random.Random(11)
    done = 0
    for _ in range(200):
        nxt = swap(pos, rng)
        if nxt is not None:
            assert construction_problems(nxt, hand) == []
            done += 1
    assert done > 0


def test_walked_sets_are_recognised_from_other_members_only() -> None:
    """The generator's registry: a set walked once is found again from a different member
    (compiled afresh, so packed states differ), and another set is not mistaken for it."""
    pos = read_rush(FOG51)
    c = Compiled(from_position(pos))
    res = cluster_walk(c, members=True)
    assert len(res.members) == res.states == 4780
    reg: SetRegistry[str] = SetRegistry()
    reg.add(c, res.members, "fog51's set")
    far = state_position(c, pos, sorted(res.members)[len(res.members) // 2])  # another member
    assert far != pos
    assert reg.lookup(Compiled(from_position(far))) == "fog51's set"
    other = read_rush("BB.C...D.CEE.DAAFGH.IIFGH.JKK.LLJ...")  # fog15: another set
    assert reg.lookup(Compiled(from_position(other))) is None
    assert reg.hits == 1
