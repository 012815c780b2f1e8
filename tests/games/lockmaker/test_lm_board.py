"""Board, pieces and moves: G-1 and LM-1..LM-9."""

from __future__ import annotations

import pytest

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.lockfile import read_lock as lock
from arena.games.lockmaker.moves import Rotate, Slide, apply_move, legal_moves, successors
from arena.games.lockmaker.notation import format_move, replay
from arena.games.lockmaker.pieces import Bar, bar_from_cells
from arena.games.lockmaker.position import Position, attached


def test_g1_cell_and_run_names() -> None:
    b = Board(11, 11)
    assert b.name(0) == "A1"
    assert b.name(b.cell(2, 3)) == "C4"
    assert b.parse_cell("c4") == b.cell(2, 3)
    assert b.run_name([b.cell(1, 0), b.cell(2, 0)]) == "BC1"
    assert b.run_name([b.cell(2, 2), b.cell(2, 3)]) == "C34"
    assert b.run_name([b.cell(2, r) for r in (8, 9, 10)]) == "C9-11"
    with pytest.raises(RuleError, match="G-1"):
        Board(3, 3).parse_cell("D1")
    with pytest.raises(ParseError, match="G-1"):
        b.parse_cell("11")


def test_lm1_board_size_limit_and_blocked_cells() -> None:
    Board(11, 11)
    with pytest.raises(RuleError, match="LM-1"):
        Board(12, 5)
    p = lock("KK#.@\n")
    assert "LM-1" not in " ".join(p.problems())
    assert not legal_moves(p)  # blocked C1 stops the key (LM-1, LM-5)
    bad = Position.make(Board(4, 1, frozenset({1})), 3, Bar(0, 2, True), [])
    assert any(x.startswith("LM-1") for x in bad.problems())


def test_lm1_label_edges_are_top_and_left() -> None:
    b = Board(5, 5)
    assert b.keyhole_sides(b.cell(4, 2)) == ["right"]
    assert b.keyhole_sides(b.cell(2, 4)) == ["bottom"]
    assert b.keyhole_sides(b.cell(0, 2)) == []  # left: a label edge
    assert b.keyhole_sides(b.cell(2, 0)) == []  # top: a label edge


def test_lm2_keyhole_must_be_on_an_unlabelled_edge() -> None:
    ok = lock(".....\nKK..@\n.....\n")
    assert ok.problems() == []
    inner = lock(".....\nKK.@.\n.....\n")
    assert any(p.startswith("LM-2") for p in inner.problems())
    left = lock(".....\n@.KK.\n.....\n")
    assert any(p.startswith("LM-2") for p in left.problems())


def test_lm2_keyhole_blocks_other_pieces() -> None:
    p = lock("....\n...@\n..a.\n..a.\nKK..\n")
    # bar a (C34) cannot move up past... the keyhole is at D2, not in its way; move C up:
    assert replay(p, "C34 U2").valid
    q = lock("....\n.aa@\nKK..\n....\n")
    assert "beyond" not in str(replay(q, "BC2 R1").error)
    assert replay(q, "BC2 R1").error is not None  # the keyhole stands on D2


def test_lm3_key_solved_only_end_on_beside_the_keyhole() -> None:
    assert lock("KK@\n").solved
    assert not lock("KK.@\n").solved
    assert lock("..\n..\nK.\nK.\n@.\n").solved  # bottom keyhole, vertical key above it
    side = lock("...\n.K.\n.K@\n")  # vertical key beside a right-side keyhole: not end-on
    assert not side.solved
    with pytest.raises(ParseError, match="LM-3"):
        lock("KKK@\n")


def test_lm4_bars_keep_their_axis() -> None:
    p = lock(".....\naa...\nKK..@\n")
    with pytest.raises(RuleError, match="LM-4"):
        apply_move(p, Slide(Bar(5, 2, True), "U", 1))
    with pytest.raises(RuleError, match="LM-4"):
        bar_from_cells(p.board, [0, 6])


def test_lm5_slides_any_distance_but_never_pass_a_piece() -> None:
    p = lock("K K . . . . @".replace(" ", "") + "\n")
    slides = [m for m in legal_moves(p) if isinstance(m, Slide)]
    assert sorted(m.distance for m in slides) == [1, 2, 3, 4]
    q = lock("KK.a.@\n...a..\n")
    r = replay(q, "K R2")
    assert not r.valid and "LM-5" in (r.error or "")
    assert replay(q, "K R1").valid


def test_lm5_slide_then_reverse_restores_position() -> None:
    p = lock("......\n.aa...\nKK...@\n")
    for move, after in successors(p):
        if isinstance(move, Slide):
            from arena.games.lockmaker.moves import reverse

            assert apply_move(after, reverse(move, p)) == p


def test_lm6_attachment_is_end_on_and_geometric() -> None:
    b = Board(6, 6)
    axis = b.cell(2, 2)
    assert attached(b, axis, Bar(b.cell(3, 2), 2, True))  # right of it, extending away
    assert attached(b, axis, Bar(b.cell(0, 2), 2, True))  # left
    assert attached(b, axis, Bar(b.cell(2, 3), 3, False))  # below
    assert attached(b, axis, Bar(b.cell(2, 0), 2, False))  # above
    assert not attached(b, axis, Bar(b.cell(3, 1), 3, False))  # beside, not end-on
    assert not attached(b, axis, Bar(b.cell(3, 3), 2, True))  # diagonal
    # Sliding an end next to the axis attaches it; then the first piece may leave (LM-8).
    p = lock("......\n..+aa.\n......\n..b...\n..b...\nKK...@\n")
    assert replay(p, "DE2 R1").error is not None
    after = replay(p, "C45 U1, DE2 R1")
    assert after.valid, after.error


def test_lm7_rotation_turns_all_attached_pieces_and_checks_only_destinations() -> None:
    # Axis C3; bar a (A3-B3) to its left; bar b (C4-C5) below. A piece on B2 lies "in the way"
    # of a CW turn (the sweep) but not on a destination, so the turn is legal.
    q = lock(".....\ncc...\naa+..\n..b..\n..b.@\nKK...\n")
    moved = replay(q, "C3 CW")
    assert moved.valid, moved.error
    after = moved.final
    b = after.board
    # a (left of the axis) went up to C1-C2, sweeping past c on A2-B2 (only destinations count)
    assert Bar(b.cell(2, 0), 2, False) in after.bars
    # b (below) went left: C4,C5 -> B3, A3
    assert Bar(b.cell(0, 2), 2, True) in after.bars
    blocked = lock("..cc.\n.....\naa+..\n.....\n....@\nKK...\n")
    r = replay(blocked, "C3 CW")
    assert not r.valid and "LM-7" in (r.error or "")
    assert replay(blocked, "C3 CCW").valid  # a goes down to C4, C5
    assert replay(blocked, "C3 180").valid  # a goes right to D3, E3


def test_lm7_turned_piece_changes_axis_and_key_can_turn() -> None:
    p = lock("....\n.+..\n.K..\n.K.@\n")
    r = replay(p, "B2 CCW")  # key below goes right: C2-D2
    assert r.valid, r.error
    key = r.final.key
    assert key.horizontal
    assert replay(r.final, "K L1").error is not None  # the axis blocks the way left
    off = replay(p, "B2 CW")  # key would go to A2 and off the board
    assert not off.valid and "LM-7" in (off.error or "")


def test_lm8_axis_never_left_alone() -> None:
    p = lock("......\n.+aa..\n......\nKK...@\n")
    r = replay(p, "CD2 R1")
    assert not r.valid and "LM-8" in (r.error or "")
    q = lock("b.....\nb+aa..\n......\nKK...@\n")
    assert replay(q, "CD2 R1").error is not None  # b touches the axis side-on: not attached
    unattached = lock("......\n.+....\n......\nKK...@\n")
    assert any(p.startswith("LM-8") for p in unattached.problems())


def test_lm8_second_piece_lets_the_first_leave() -> None:
    p = lock(".b....\n.b....\n.+aa..\n......\nKK...@\n")
    assert replay(p, "CD3 R1").valid


def test_lm9_each_slide_or_turn_counts_one() -> None:
    p = lock("KK....@\n")
    r = replay(p, "K R1, K R1, K R2")
    assert r.moves == 3 and r.final.solved
    r2 = replay(p, "K R4")
    assert r2.moves == 1 and r2.final.solved
    q = lock("....\n....\n.+..\n.K..\n.K.@\n")
    assert replay(q, "B3 180").moves == 1


def test_move_text_round_trip_for_every_legal_move() -> None:
    p = lock("..c..\n..c..\naa+..\n.....\n....@\nKK...\n")
    for move in legal_moves(p):
        text = format_move(p.board, move)
        r = replay(p, text)
        assert r.valid and r.played == (move,), text
    assert any(isinstance(m, Rotate) for m in legal_moves(p))
