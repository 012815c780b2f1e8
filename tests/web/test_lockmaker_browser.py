"""Lockmaker in a real browser, played on its board only: a human seat plays a whole
one-round match against the bot at phone size -- Ready, tapping pool pictures, placing the
drafted pieces, the key and the keyhole on the board (the live check names LM-2 for a lock
without a keyhole and LM-15 for one that is already open, and nothing is sent), opening the
bot's lock by tapping pieces and target cells, passing on the countersolve -- and the page's
result is the server's. A second run at desktop size uses the keyboard only. The notation drawer
stays closed throughout."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.moves import Rotate, Slide
from arena.games.lockmaker.notation import format_solution
from arena.games.lockmaker.pieces import bar_cells
from arena.games.lockmaker.solver import solve
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SETUP = "......\n......\n......\npieces: H2,V2\n"
SHOTS = Path("/tmp/lockmaker-shots")


def check_page(page: Any, where: str) -> None:
    assert_page_ok(page, where, with_axe=True)


def api_view(live_server: str, match: dict[str, Any], token: str) -> dict[str, Any]:
    r = httpx.get(f"{live_server}/api/matches/{match['id']}/view", params={"token": token})
    data: dict[str, Any] = r.json()
    return data


def board_attr(page: Any, name: str) -> str:
    return str(page.get_by_test_id("lm-board").get_attribute(name))


def wait_stage(page: Any, *stages: str, timeout: float = 60_000) -> str:
    page.wait_for_function(
        "(stages) => { const b = document.querySelector('[data-testid=lm-board]');"
        " return b && stages.includes(b.dataset.stage) || !!document.querySelector('[data-testid=result]'); }",
        arg=list(stages), timeout=timeout)
    return board_attr(page, "data-stage")


def lead_cell(board: Board, move: Slide) -> int:
    """The cell a tap names for a slide: the piece's leading cell after the move."""
    cells = bar_cells(board, move.bar)
    step = {"L": -1, "R": 1, "U": -board.width, "D": board.width}[move.direction]
    end = cells[0] if step < 0 else cells[-1]
    return end + step * move.distance


def draft_by_tapping(page: Any) -> None:
    while wait_stage(page, "draft", "build") == "draft":
        page.wait_for_function(
            "() => { const b = document.querySelector('[data-testid=lm-board]');"
            " return b.dataset.stage !== 'draft' || b.dataset.myTurn === 'yes'; }")
        if board_attr(page, "data-stage") != "draft":
            break
        page.get_by_test_id("lm-pool-0").click()
        take = page.get_by_test_id("lm-take")
        assert re.match(r"Take an? (horizontal|vertical|axis)", take.inner_text())
        assert "Your pick" in page.get_by_test_id("lm-turn").inner_text()
        check_page(page, "draft")
        page.screenshot(path=str(SHOTS / "draft-390.png"), full_page=True)
        take.click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=lm-board]').dataset.myTurn !== 'yes'")


def test_whole_match_on_the_board_at_phone_size(page: Any, live_server: str, new_match: Any) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 844})
    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0}, config={"rounds": 1, "setup": SETUP}, seed=5)
    token = parse_qs(urlparse(m["links"]["seats"][0]).query)["token"][0]
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("lm-board").wait_for()
    page.get_by_test_id("lm-pool").wait_for()
    check_page(page, "study")
    page.screenshot(path=str(SHOTS / "study-390.png"), full_page=True)
    page.get_by_test_id("lm-ready").click()  # the bot, as DMO, chooses the order

    draft_by_tapping(page)
    page.get_by_test_id("lm-editor").wait_for()
    hand = api_view(live_server, m, token)["state"]["hands"][0]
    assert hand, "the draft left us without pieces"

    # Nothing placed: the live check names LM-2 and sending is refused on the page.
    check = page.get_by_test_id("lm-check")
    assert "LM-2" in check.inner_text()
    page.get_by_test_id("lm-submit-lock").click()
    page.get_by_test_id("lm-note").filter(has_text="LM-2").wait_for()
    assert not api_view(live_server, m, token)["seats"][0]["acted"]

    # Keyhole on F2 (right column), the key first where it already touches it: LM-15, open.
    page.get_by_test_id("lm-tool-keyhole").click()
    page.get_by_test_id("lm-cell-F2").click()
    page.get_by_test_id("lm-tool-key").click()
    page.get_by_test_id("lm-cell-D2").click()
    spots = {"H2": "A1", "V2": "A2"}
    for i, kind in enumerate(hand):
        page.get_by_test_id(f"lm-tool-{i}").click()
        page.get_by_test_id(f"lm-cell-{spots[kind]}").click()
    check.filter(has_text="already open").wait_for()
    assert "LM-15" in check.inner_text()
    page.get_by_test_id("lm-submit-lock").click()
    page.get_by_test_id("lm-note").filter(has_text="already open").wait_for()
    assert not api_view(live_server, m, token)["seats"][0]["acted"]
    # Drag the key back two cells: now the lock is valid.
    page.get_by_test_id("lm-cell-D2").drag_to(page.get_by_test_id("lm-cell-B2"))
    check.filter(has_text="valid").wait_for()
    check_page(page, "build")
    page.screenshot(path=str(SHOTS / "build-390.png"), full_page=True)
    page.get_by_test_id("lm-submit-lock").click()

    # Solve the bot's lock by dragging each piece to the cell its leading end goes to.
    page.get_by_test_id("lm-mover").wait_for(timeout=90_000)
    theirs = read_lock(api_view(live_server, m, token)["state"]["locks"][1])
    res = solve(theirs)
    if res.solvable:
        texts = format_solution(theirs.board, res.solution)
        for n, move in enumerate(res.solution, start=1):
            if isinstance(move, Rotate):
                page.get_by_test_id(f"lm-sim-{theirs.board.name(move.axis)}").click()
                page.get_by_test_id(f"lm-turn-{move.turn}").click()
            else:
                page.get_by_test_id(f"lm-sim-{theirs.board.name(move.bar.cell)}").drag_to(
                    page.get_by_test_id(f"lm-sim-{theirs.board.name(lead_cell(theirs.board, move))}"))
            page.get_by_test_id("lm-move-count").filter(
                has_text=f"{n} move{'' if n == 1 else 's'}").wait_for()
        assert page.get_by_test_id("lm-move-count").inner_text().startswith(str(len(texts)))
        listed = page.get_by_test_id("lm-move-list").locator("li").all_inner_texts()
        assert [t.strip() for t in listed] == texts
        check_page(page, "solve")
        page.screenshot(path=str(SHOTS / "solve-390.png"), full_page=True)
        page.get_by_test_id("lm-submit-moves").click()
    else:
        page.get_by_test_id("lm-impossible").click()
        assert "5 points" in page.get_by_test_id("lm-impossible-box").inner_text()
        page.get_by_test_id("lm-impossible-confirm").click()

    # The bot opened our lock: we may countersolve; we pass.
    stage = wait_stage(page, "decide", "over", "counter", timeout=60_000)
    if stage == "decide" and page.get_by_test_id("lm-pass").count():
        check_page(page, "decide")
        page.get_by_test_id("lm-pass").click()
    result = page.get_by_test_id("result")
    result.wait_for(state="visible", timeout=60_000)
    page.get_by_test_id("lm-history").filter(has_text="Round 1").wait_for()
    server = api_view(live_server, m, token)["result"]
    names = ["Ada", "Robo"]
    winner = page.get_by_test_id("winner").inner_text()
    assert winner == ("You win" if server["winner"] == 0 else f"{names[server['winner']]} wins")
    check_page(page, "result")
    assert page.locator("[data-testid=notation][open]").count() == 0  # never opened
    page.screenshot(path=str(SHOTS / "result-390.png"), full_page=True)

    # A spectator sees both locks and the public move counts.
    page.goto(m["links"]["spectator"])
    page.get_by_test_id("lm-locks").wait_for()
    assert page.get_by_test_id("lm-lock-1").count() == 1 and page.get_by_test_id("lm-lock-2").count() == 1
    assert "Final solutions" in page.get_by_test_id("lm-final").inner_text()
    check_page(page, "spectator")
    page.screenshot(path=str(SHOTS / "spectator-390.png"), full_page=True)


# ---------------------------------------------------------------- keyboard only, desktop size
def tab_to(page: Any, testid: str, *, back: bool = False, limit: int = 80) -> None:
    """Press Tab (or Shift+Tab) until the control with ``testid`` has the focus; a testid
    ending in ``*`` matches its prefix (a board cell)."""
    js = ("(t) => { const a = document.activeElement; const id = a && a.dataset && a.dataset.testid;"
          " return !!id && (t.endsWith('*') ? id.startsWith(t.slice(0, -1)) : id === t); }")
    for _ in range(limit):
        if page.evaluate(js, testid):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {testid}")


def cursor_to(page: Any, board: Board, cell: int) -> None:
    """Move the board's cursor (the focused cell) with the arrow keys."""
    now = int(page.evaluate("() => document.activeElement.dataset.cell"))
    dc = board.col(cell) - board.col(now)
    dr = board.row(cell) - board.row(now)
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    assert int(page.evaluate("() => document.activeElement.dataset.cell")) == cell


def test_whole_match_by_keyboard_at_desktop_size(page: Any, live_server: str,
                                                 new_match: Any) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0}, config={"rounds": 1, "setup": SETUP}, seed=7)
    token = parse_qs(urlparse(m["links"]["seats"][0]).query)["token"][0]
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("lm-ready").wait_for()
    tab_to(page, "lm-ready")
    page.keyboard.press("Enter")

    while wait_stage(page, "draft", "build") == "draft":
        page.wait_for_function(
            "() => { const b = document.querySelector('[data-testid=lm-board]');"
            " return b.dataset.stage !== 'draft' || b.dataset.myTurn === 'yes'; }")
        if board_attr(page, "data-stage") != "draft":
            break
        tab_to(page, "lm-pool-0", back=True)
        page.keyboard.press("Enter")
        tab_to(page, "lm-take")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=lm-board]').dataset.myTurn !== 'yes'")

    page.get_by_test_id("lm-editor").wait_for()
    hand = api_view(live_server, m, token)["state"]["hands"][0]
    board = Board(6, 3)
    spots = {"keyhole": "F2", "key": "B2", **{str(i): {"H2": "A1", "V2": "A2"}[k]
                                              for i, k in enumerate(hand)}}
    for item, spot in spots.items():
        tab_to(page, f"lm-tool-{item}", back=True)
        page.keyboard.press("Enter")
        tab_to(page, "lm-cell-*")
        cursor_to(page, board, board.parse_cell(spot))
        page.keyboard.press("Enter")
    page.get_by_test_id("lm-check").filter(has_text="valid").wait_for()
    page.screenshot(path=str(SHOTS / "build-1280.png"), full_page=True)
    tab_to(page, "lm-submit-lock")
    page.keyboard.press("Enter")

    page.get_by_test_id("lm-mover").wait_for(timeout=90_000)
    theirs = read_lock(api_view(live_server, m, token)["state"]["locks"][1])
    res = solve(theirs)
    assert res.solvable  # the bot's lock for this seed
    assert not any(isinstance(mv, Rotate) for mv in res.solution)  # no axis in this pool
    tab_to(page, "lm-sim-*")
    for move in res.solution:
        assert isinstance(move, Slide)
        page.keyboard.press("Escape")  # let go of the last piece: arrows move the cursor again
        cursor_to(page, theirs.board, move.bar.cell)
        page.keyboard.press("Enter")  # select the piece
        key = {"L": "ArrowLeft", "R": "ArrowRight", "U": "ArrowUp", "D": "ArrowDown"}[move.direction]
        for _ in range(move.distance):  # one step per press, one move in all (LM-9)
            page.keyboard.press(key)
    texts = format_solution(theirs.board, res.solution)
    listed = page.get_by_test_id("lm-move-list").locator("li").all_inner_texts()
    assert [t.strip() for t in listed] == texts
    check_page(page, "solve at 1280")
    page.screenshot(path=str(SHOTS / "solve-1280.png"), full_page=True)
    tab_to(page, "lm-submit-moves")
    page.keyboard.press("Enter")

    stage = wait_stage(page, "decide", "over", "counter", timeout=60_000)
    if stage == "decide" and page.get_by_test_id("lm-pass").count():
        tab_to(page, "lm-pass")
        page.keyboard.press("Enter")
    page.get_by_test_id("result").wait_for(state="visible", timeout=60_000)
    server = api_view(live_server, m, token)["result"]
    winner = page.get_by_test_id("winner").inner_text()
    assert winner == ("You win" if server["winner"] == 0 else "Robo wins")
    check_page(page, "result at 1280")
    page.screenshot(path=str(SHOTS / "result-1280.png"), full_page=True)


# ---------------------------------------------------------------- the page's rules = the engine's
JS_MOVES = """(text) => {
  const L = window.ArenaLockmaker, m = L.parseLock(text), out = [];
  L.pieces(m).forEach((b, p) => { for (const dir of (b.hor ? ["L", "R"] : ["U", "D"])) {
    for (let d = 1; d <= 11; d++) { const r = L.slide(m, p, dir, d); if (r.pos) out.push([r.text, L.writeLock(r.pos), L.isSolved(r.pos)]); } } });
  m.axes.forEach((a) => ["CW", "CCW", "180"].forEach((t) => { const r = L.rotate(m, a, t); if (r.pos) out.push([r.text, L.writeLock(r.pos), L.isSolved(r.pos)]); }));
  return out;
}"""


def test_page_moves_and_lock_check_match_the_engine(page: Any, new_match: Any) -> None:
    """Every legal move the board offers (slides, turns, LM-5..LM-8) is the engine's, to the
    same position; the live check names the rule the engine names first (LM-15)."""
    import random

    from arena.games.lockmaker.construct import sample_lock
    from arena.games.lockmaker.lockfile import write_lock
    from arena.games.lockmaker.moves import successors
    from arena.games.lockmaker.notation import format_move
    from arena.games.lockmaker.pieces import parse_piece
    from arena.games.lockmaker.position import Position
    from arena.games.lockmaker.validate import construction_problems, used_pieces

    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  config={"rounds": 1, "setup": SETUP}, seed=1)
    page.goto(m["links"]["spectator"])
    page.wait_for_function("() => !!window.ArenaLockmaker")
    rng = random.Random(3)
    positions: list[Position] = []
    for seed in range(40):
        pos = sample_lock(seed)
        for _ in range(3):
            positions.append(pos)
            nxt = list(successors(pos))
            if not nxt:
                break
            pos = rng.choice(nxt)[1]
    turns = 0
    for pos in positions:
        want = {format_move(pos.board, mv): after for mv, after in successors(pos)}
        got = page.evaluate(JS_MOVES, write_lock(pos).replace("\n", "/").rstrip("/"))
        assert {t for t, _, _ in got} == set(want), write_lock(pos)
        for text, lock, solved in got:
            after = read_lock(lock.replace("/", "\n"))
            assert after == want[text], (write_lock(pos), text)
            assert solved == after.solved
        turns += sum(1 for t in want if t.endswith(("CW", "180")))
    assert turns > 0  # the sample had axes to turn

    checked = 0
    for pos in positions[::3]:
        hand = [str(k) for k, n in used_pieces(pos).items() for _ in range(n)]
        text = write_lock(pos).replace("\n", "/").rstrip("/")
        for variant in (hand, [*hand, "H2"], [h for h in hand if h != "X"] or hand):
            engine = construction_problems(pos, [parse_piece(h) for h in variant])
            page_says = page.evaluate("([t, h]) => window.ArenaLockmaker.problemsOf(t, h)", [text, variant])
            assert bool(engine) == bool(page_says), (text, variant, engine, page_says)
            if engine:
                assert page_says[0].split(":")[0] == engine[0].split(":")[0], (text, engine, page_says)
                checked += 1
        # the key moved onto a target: already open (LM-15), unless a piece is in the way
        for target in sorted(pos.targets):
            opened = pos.with_pieces(target, pos.bars)
            if opened.problems():
                continue
            engine = construction_problems(opened, [parse_piece(h) for h in hand])
            page_says = page.evaluate("([t, h]) => window.ArenaLockmaker.problemsOf(t, h)",
                                      [write_lock(opened).replace("\n", "/").rstrip("/"), hand])
            assert engine and page_says and "already open" in page_says[0], (engine, page_says)
            checked += 1
    assert checked > 10


def test_an_ended_match_leaves_no_pick_live(page: Any, live_server: str, new_match: Any) -> None:
    """Ended by the host before the draft is over: the page says so, and the pool's pieces no
    longer answer a tap as if a pick were still possible (seen at 390x844)."""
    page.set_viewport_size({"width": 390, "height": 844})
    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}])
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("lm-pool-0").wait_for()
    assert page.get_by_test_id("lm-pool-0").is_enabled()
    r = httpx.post(f"{live_server}/api/matches/{m['id']}/host/end",
                   params={"token": m["tokens"]["host"]}, json={})
    assert r.status_code == 200, r.text
    page.get_by_test_id("lm-turn").filter(has_text="The match ended").wait_for()
    assert page.get_by_test_id("lm-pool-0").is_disabled()
    assert "Your pick" not in page.get_by_test_id("lm-turn").inner_text()
    assert_page_ok(page, "Lockmaker ended by the host in the draft", with_axe=True)
    # At desktop size the private panel is open: no "not submitted" for a match that is over.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    page.get_by_test_id("my-reserve").wait_for()
    assert "have not submitted" not in page.get_by_test_id("private").inner_text()


def test_the_pick_panel_words_the_solutions(page: Any, live_server: str, new_match: Any) -> None:
    """LM-16: a seat that sent two solutions picks one on a panel made from the view's facts
    (number, move count, when sent, the moves): no notation on it; picking sends the number."""
    import random

    from arena.games.lockmaker.construct import random_lock
    from arena.games.lockmaker.lockfile import read_board, write_lock
    from arena.games.lockmaker.moves import apply_move, legal_moves
    from arena.games.lockmaker.pieces import parse_piece
    from games.lockmaker.lockmaker_notation import notation_in

    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 1.0}, config={"rounds": 1, "setup": SETUP}, seed=3)
    base = f"{live_server}/api/matches/{m['id']}"
    tokens = m["tokens"]["seats"]

    def state(s: int) -> dict[str, Any]:
        got: dict[str, Any] = httpx.get(f"{base}/view", params={"token": tokens[s]}).json()
        return dict(got["state"])

    def send(s: int, text: str, final: bool = True) -> None:
        r = httpx.post(f"{base}/submit", params={"token": tokens[s]},
                       json={"text": text, "final": final})
        assert r.status_code == 200, r.text

    send(0, "ready")
    send(1, "first")
    while (st := state(0))["stage"] == "draft":
        send(st["turn"]["seat"], st["pool"][0])
    assert st["stage"] == "build", st["stage"]
    rng = random.Random(3)
    for s in (0, 1):
        hand = [parse_piece(h) for h in state(s)["hands"][s]]
        while True:
            pos = random_lock(read_board(st["board"]), hand, rng, key_in_line=True)
            if pos is not None and solve(pos).solvable:
                break
        send(s, write_lock(pos))
    locks = state(0)["locks"]
    theirs = read_lock(locks[1])
    best = solve(theirs).solution
    detour = next(mv for mv in legal_moves(theirs) if not apply_move(theirs, mv).solved)
    longer = [detour, *solve(apply_move(theirs, detour)).solution]
    send(0, ", ".join(format_solution(theirs.board, best)), final=False)
    send(0, ", ".join(format_solution(theirs.board, longer)))
    mine = read_lock(locks[0])
    send(1, ", ".join(format_solution(mine.board, solve(mine).solution)))

    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("lm-pick-2").wait_for(timeout=30_000)
    first, second = page.get_by_test_id("lm-solution-1"), page.get_by_test_id("lm-solution-2")
    assert f"{len(best)} move" in first.inner_text()
    assert f"{len(longer)} moves" in second.inner_text()
    second.locator("summary").click()
    steps = second.locator("ol li").all_inner_texts()
    assert len(steps) == len(longer)
    for text in [first.inner_text(), *steps]:
        assert notation_in(text) is None, text
    check_page(page, "pick")
    page.get_by_test_id("lm-pick-1").click()
    page.wait_for_function("() => document.querySelector('[data-testid=lm-board]').dataset.stage !== 'pick'")
