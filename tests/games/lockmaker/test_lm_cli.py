"""``arena lockmaker solve|check|render|validate`` with ``--json`` (the issue's formats)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.games.lockmaker.construct import sample_lock
from arena.games.lockmaker.lockfile import write_lock

FOG51 = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."
LOCK = ".bb.\n.cc.\n..a.\nKKa@\n....\n....\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_rush_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["lockmaker", "solve", "--rush", FOG51, "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and set(data) == {"solvable", "moves", "solution", "states"}
    assert data["solvable"] is True and data["moves"] == 51 and len(data["solution"]) == 51
    assert data["solution"][-1].startswith("K R")


def test_solve_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "lock.txt"
    f.write_text(LOCK)
    code, out, _ = run(["lockmaker", "solve", str(f), "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"solvable": True, "moves": 2, "solution": ["C34 D2", "K R1"],
                               "states": json.loads(out)["states"]}
    monkeypatch.setattr(sys, "stdin", io.StringIO("K.\nK.\n.@\n"))
    code, out, _ = run(["lockmaker", "solve", "-", "--json"], capsys)
    data = json.loads(out)
    assert data == {"solvable": False, "moves": None, "solution": [], "states": 2}


def test_check_valid_and_illegal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "lock.txt"
    f.write_text(LOCK)
    code, out, _ = run(["lockmaker", "check", str(f), "--moves", "BC1 L1, C34 D2, K R1", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"valid": True, "solved": True, "moves": 3, "error": None}
    sol = tmp_path / "sol.txt"
    sol.write_text("C34 D2\nK R2\n")
    code, out, _ = run(["lockmaker", "check", str(f), str(sol), "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and data["moves"] == 1
    assert "move 2 (K R2)" in data["error"] and "LM-5" in data["error"]
    code, out, _ = run(["lockmaker", "check", "--rush", FOG51, "--moves", "K R1", "--json"], capsys)
    assert json.loads(out)["valid"] is False


def test_render_svg_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "lock.txt"
    f.write_text(LOCK)
    svg = tmp_path / "lock.svg"
    assert run(["lockmaker", "render", str(f), "-o", str(svg)], capsys)[0] == 0
    text = svg.read_text()
    assert ">A</text>" in text and ">6</text>" in text  # labels on the label edges
    png = tmp_path / "lock.png"
    assert run(["lockmaker", "render", "--rush", FOG51, "-o", str(png)], capsys)[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_validate_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "lock.txt"
    f.write_text(LOCK)
    code, out, _ = run(["lockmaker", "validate", str(f), "--pieces", "H2,H2,V2", "--json"],
                       capsys)
    assert code == 0 and json.loads(out) == {"valid": True, "problems": []}
    bad = tmp_path / "bad.txt"
    bad.write_text(".bb.+\n.cc..\n..a..\nKKa.@\n")
    code, out, _ = run(["lockmaker", "validate", str(bad), "--pieces", "H2,V3", "--json"],
                       capsys)
    data = json.loads(out)
    assert code == 1 and not data["valid"]
    joined = " ".join(data["problems"])
    assert "LM-8" in joined and "LM-15" in joined and len(data["problems"]) >= 3


def test_bad_lock_file_is_one_line_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "lock.txt"
    f.write_text("KK.@\n.a.a\n")
    code, _, err = run(["lockmaker", "solve", str(f)], capsys)
    assert code == 2 and "line 2, column 2" in err and "LM-10" in err
    assert "Traceback" not in err


@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_solver_solution_replays_through_check(seed: int, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    pos = sample_lock(seed)
    f = tmp_path / f"lock{seed}.txt"
    f.write_text(write_lock(pos))
    code, out, _ = run(["lockmaker", "solve", str(f), "--json"], capsys)
    solved = json.loads(out)
    assert code == 0
    if not solved["solvable"]:
        return
    code, out, _ = run(["lockmaker", "check", str(f), "--moves", ", ".join(solved["solution"]), "--json"],
                       capsys)
    assert code == 0
    checked = json.loads(out)
    assert checked == {"valid": True, "solved": True, "moves": solved["moves"], "error": None}
