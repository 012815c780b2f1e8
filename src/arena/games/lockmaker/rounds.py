"""Round setup (LM-13): the board shape and the draft pool of each round.

The host may give its own rounds as text (the ``setup`` setting): blocks separated by a line
``---``, each a draft board in lock-file form (``.`` and ``#``, LM-10) followed by a line
``pieces: H2,H3,V2,X`` (LM-22). Without it the five default rounds below are used; their
boards go from 6 x 6 to 9 x 9 with blocked cells that keep the open area compact, and their
pools are small enough that every hand a seat can draft fits its board and every lock the bot
builds solves in well under a second.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.lockfile import read_board, write_board
from arena.games.lockmaker.pieces import PieceKind, format_piece_list, parse_piece_list


@dataclass(frozen=True)
class Round:
    board: Board
    pool: tuple[PieceKind, ...]

    def to_text(self) -> str:
        return write_board(self.board) + f"pieces: {format_piece_list(self.pool)}\n"


DEFAULT_SETUP = """\
; round 1: 6 x 6
......
......
......
#.....
......
.....#
pieces: H2,H2,H3,V2,V2,V3,X
---
; round 2: 7 x 7
##.....
#......
.......
.......
...#...
.......
.......
pieces: H2,H2,H3,V2,V3,V3,X,H2
---
; round 3: 8 x 8
###.....
###.....
........
........
........
....#...
........
#.......
pieces: H2,H3,H3,V2,V2,V3,X,V2
---
; round 4: 8 x 8
.....###
.....###
........
..#.....
........
........
###.....
###.....
pieces: H2,H2,H3,V2,V3,V3,X,X,H2
---
; round 5: 9 x 9
####.....
####.....
####.....
.........
.........
.........
....#....
.........
#........
pieces: H2,H3,H3,V2,V2,V3,V3,X,X
"""


def parse_setup(text: str) -> tuple[Round, ...]:
    """Rounds from setup text; ParseError naming the round and line on bad input."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for no, raw in enumerate(text.splitlines(), 1):
        if raw.strip() == "---":
            blocks.append([])
        else:
            blocks[-1].append((no, raw))
    rounds = []
    for i, block in enumerate(blocks, 1):
        rows = [line for _, line in block if line.strip() and not line.lstrip().startswith(";")]
        if not rows:
            continue
        piece_lines = [(no, ln) for no, ln in block if ln.strip().lower().startswith("pieces:")]
        if len(piece_lines) != 1:
            line = block[0][0] if block else None
            raise ParseError("LM-13", f"round {i}: give exactly one 'pieces: ...' line", line=line)
        no, pline = piece_lines[0]
        try:
            pool = parse_piece_list(pline.split(":", 1)[1])
        except RuleError as exc:
            raise ParseError("LM-22", f"round {i}: {exc.message}", line=no) from None
        board_text = "\n".join(r for r in rows if not r.strip().lower().startswith("pieces:"))
        try:
            board = read_board(board_text)
        except RuleError as exc:
            raise ParseError(exc.rule, f"round {i}: {exc.message}") from None
        if not pool:
            raise ParseError("LM-13", f"round {i}: the draft pool is empty", line=no)
        rounds.append(Round(board, pool))
    if not rounds:
        raise ParseError("LM-13", "the setup has no rounds")
    return tuple(rounds)


DEFAULT_ROUNDS = parse_setup(DEFAULT_SETUP)
