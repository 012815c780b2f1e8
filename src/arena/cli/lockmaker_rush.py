"""A quick start for ``arena lockmaker solve --rush-file FILE [--json] [--jobs N]`` on a few
puzzles (issue 29 point 5).

One small puzzle costs a few milliseconds to solve, far less than loading argparse, the
game's modules and the fast solver's tables. So :func:`quick` runs before the parser is
built: it takes the command line only when it is exactly that command, reads the file itself,
and solves each Rush Hour puzzle (LM-12) with a tight breadth-first search over piece offsets
(the move metric of LM-9: one slide of any distance is one move). Anything else -- another
command, an option it does not know, a line it cannot read plainly, many puzzles, or a search
that grows large -- returns None before anything is printed, and the ordinary path (with its
error messages naming the rule) handles the input. ``states`` counts the positions this
search stored, so it may differ from the fast solver's count; moves are the same optimum.
"""

from __future__ import annotations

import sys

MYPY = False
if MYPY:  # types only (typing loads re, which a quick start does not need)
    from collections.abc import Sequence

MAX_PUZZLES = 3
"""More puzzles than this: the ordinary path, which solves them on every core."""
MAX_STATES = 60_000
"""A search storing more positions than this gives up: the fast solver does better there."""
LETTERS = "ABCDEF"


def _parse(rush: str) -> tuple[int, list[tuple[bool, int, int, int]]] | None:
    """Walls mask and pieces ``(horizontal, line, length, offset)`` (the red car first), or
    None when the string is not a plain, well-formed puzzle."""
    if len(rush) != 36:
        return None
    walls = 0
    cells: dict[str, list[int]] = {}
    for i, ch in enumerate(rush):
        if ch in "o.":
            continue
        if ch in "xX":
            walls |= 1 << i
        elif "A" <= ch <= "Z":
            cells.setdefault(ch, []).append(i)
        else:
            return None
    if "A" not in cells:
        return None
    pieces = []
    for letter in sorted(cells):
        cs = cells[letter]
        r, c = divmod(cs[0], 6)
        n = len(cs)
        if n >= 2 and cs == list(range(cs[0], cs[0] + n)) and c + n <= 6:
            pieces.append((True, r, n, c))
        elif n >= 2 and cs == list(range(cs[0], cs[0] + 6 * n, 6)):
            pieces.append((False, c, n, r))
        else:
            return None
    if not pieces[0][0] or pieces[0][2] != 2:
        return None
    return walls, pieces


def _name(horizontal: bool, line: int, length: int, offset: int, key: bool) -> str:
    """G-1 name of a vehicle at ``offset`` (``BC1``, ``C34``; ``K`` for the red car)."""
    if key:
        return "K"
    if horizontal:
        return LETTERS[offset:offset + length] + str(line + 1)
    return LETTERS[line] + "".join(str(r + 1) for r in range(offset, offset + length))


def _solve(walls: int, pieces: list[tuple[bool, int, int, int]]
           ) -> tuple[int | None, list[str], int] | None:
    """(moves or None when impossible, the solution's move texts, states stored), or None
    when the search grew past :data:`MAX_STATES`."""
    masks: list[list[int]] = []
    for horizontal, line, length, _ in pieces:
        span = 6 - length + 1
        if horizontal:
            unit = (1 << length) - 1
            masks.append([unit << (line * 6 + p) for p in range(span)])
        else:
            unit = sum(1 << (6 * k) for k in range(length))
            masks.append([unit << (p * 6 + line) for p in range(span)])
    start = tuple(p[3] for p in pieces)
    goal = 4  # the red car on E-F touches the keyhole beside F (LM-3, LM-12)
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int, int] | None] = {start: None}
    found = start if start[0] == goal else None
    frontier = [start]
    count = range(len(pieces))
    while frontier and found is None:
        nxt_frontier = []
        for state in frontier:
            occ = walls
            for i in count:
                occ |= masks[i][state[i]]
            for i in count:
                m = masks[i]
                p = state[i]
                own = occ & ~m[p]
                q = p - 1
                while q >= 0 and not own & m[q]:
                    s = (*state[:i], q, *state[i + 1:])
                    if s not in parent:
                        parent[s] = (state, i, q - p)
                        if i == 0 and q == goal:
                            found = s
                            break
                        nxt_frontier.append(s)
                    q -= 1
                q = p + 1
                last = len(m) - 1
                while found is None and q <= last and not own & m[q]:
                    s = (*state[:i], q, *state[i + 1:])
                    if s not in parent:
                        parent[s] = (state, i, q - p)
                        if i == 0 and q == goal:
                            found = s
                            break
                        nxt_frontier.append(s)
                    q += 1
                if found is not None:
                    break
            if found is not None:
                break
        if len(parent) > MAX_STATES:
            return None
        frontier = nxt_frontier
    if found is None:
        return None, [], len(parent)
    texts: list[str] = []
    at = found
    while (link := parent[at]) is not None:
        prev, i, delta = link
        horizontal, line, length, _ = pieces[i]
        way = ("R" if delta > 0 else "L") if horizontal else ("D" if delta > 0 else "U")
        texts.append(f"{_name(horizontal, line, length, prev[i], i == 0)} {way}{abs(delta)}")
        at = prev
    texts.reverse()
    return len(texts), texts, len(parent)


def _options(argv: Sequence[str]) -> tuple[str, bool] | None:
    """(file, json) when ``argv`` is exactly ``lockmaker solve --rush-file FILE`` with
    ``--json`` and ``--jobs N`` (N >= 1) at most, in any order; else None."""
    if len(argv) < 4 or list(argv[:3]) != ["lockmaker", "solve", "--rush-file"]:
        return None
    path, rest = argv[3], list(argv[4:])
    if path.startswith("-"):
        return None
    as_json = False
    while rest:
        arg = rest.pop(0)
        if arg == "--json" and not as_json:
            as_json = True
        elif arg == "--jobs" and rest and rest[0].isdigit() and int(rest[0]) >= 1:
            rest.pop(0)
        else:
            return None
    return path, as_json


_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+")


def _json(data: dict[str, object]) -> str:
    """``json.dumps(data)`` for these few plain fields, without importing json (and re):
    move texts are plain ASCII; an unusual name goes through json itself."""
    name = str(data["name"])
    if not set(name) <= _PLAIN:
        import json

        return json.dumps(data)
    moves = "null" if data["moves"] is None else str(data["moves"])
    sol = ", ".join(f'"{t}"' for t in data["solution"])  # type: ignore[attr-defined]
    return (f'{{"name": "{name}", "solvable": {"true" if data["solvable"] else "false"}, '
            f'"moves": {moves}, "solution": [{sol}], "states": {data["states"]}}}')


def quick(argv: Sequence[str]) -> int | None:
    """Run the command if it is a small ``--rush-file`` batch; None: nothing was printed and
    the ordinary command line takes over."""
    got = _options(argv)
    if got is None:
        return None
    path, as_json = got
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    puzzles: list[tuple[str, tuple[int, list[tuple[bool, int, int, int]]]]] = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith(("#", ";")):
            continue
        if len(fields) < 2 or len(puzzles) >= MAX_PUZZLES:
            return None
        parsed = _parse(fields[1])
        if parsed is None:
            return None
        puzzles.append((fields[0], parsed))
    if not puzzles:
        return None
    out = []
    for name, (walls, pieces) in puzzles:
        res = _solve(walls, pieces)
        if res is None:
            return None
        moves, texts, states = res
        out.append({"name": name, "solvable": moves is not None, "moves": moves,
                    "solution": texts, "states": states})
    lines = []
    for data in out:
        if as_json:
            lines.append(_json(data))
        else:
            verdict = f"{data['moves']} moves" if data["solvable"] else "impossible"
            lines.append(f"{data['name']}: {verdict} ({data['states']} states)")
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    return 0
