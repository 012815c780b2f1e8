"""Golden test: the rule text's worked example, state for state (LF-2, LF-10)."""

from __future__ import annotations

import json

import pytest

from arena.cli import main
from arena.games.feather.match import GAME
from arena.games.feather.scenario import SCENARIO_DIR
from arena.games.feather.script import parse_script, run_script

# (A water, A capacity, B water, B capacity, Y, Z) as the text prints ticks 0..8.
TEXT = [
    (0, 10, 0, 7, 1, 10),
    (10, 10, 0, 7, 2, 0),
    (3, 10, 7, 7, 3, 0),
    (0, 10, 7, 7, 4, 0),
    (0, 10, 0, 7, 12, 0),
    (0, 10, 0, 5, 13, 0),
    (10, 10, 0, 5, 4, 10),
    (5, 10, 5, 5, 5, 10),
    (0, 10, 0, 5, 6, 10),
]


def _rows(record: dict) -> list[tuple[int, ...]]:
    rows = []
    for tick in record["ticks"][:9]:
        a, b = tick["seats"][0]["buckets"]
        y, z = tick["basins"]
        rows.append((a["water"], a["capacity"], b["water"], b["capacity"], y["amount"], z["amount"]))
    return rows


def _example() -> dict:
    script = (SCENARIO_DIR / "example.actions").read_text()
    return run_script(GAME.make_config({"scenario": "example"}), parse_script(script))


def test_lf2_example_state_for_state() -> None:
    record = _example()
    assert [t["tick"] for t in record["ticks"][:9]] == list(range(9))
    assert _rows(record) == TEXT


def test_lf10_objective_one_pays_what_it_says() -> None:
    ticks = _example()["ticks"]
    # Complete A on objective 1 during tick 2, processed at tick 3: 1 point and 1 Modify.
    assert ticks[3]["seats"][0]["points"] == 1
    assert ticks[3]["seats"][0]["powerups"]["modify"] == 1
    assert ticks[5]["seats"][0]["powerups"]["modify"] == 0  # spent on B at tick 5
    assert ticks[8]["seats"][0]["points"] == 3  # 1 + objective 2's 2 points
    assert [o["id"] for o in ticks[3]["objectives"]] == [2]
    assert ticks[8]["objectives"] == []


def test_lf4_example_fill_cooldown_note() -> None:
    ticks = _example()["ticks"]
    # "Tick 6 was the first tick that the player would be able to use Fill" (last Fill: tick 1).
    assert [t["seats"][0]["fill_ready_at"] for t in ticks[1:6]] == [6] * 5


def test_cli_reproduces_the_example_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["feather", "run", "example", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert _rows(record) == TEXT
    assert record["result"]["scores"] == [3.0, 0.0]


def test_cli_text_output_and_explicit_actions(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "a.txt"
    script.write_text("0 1 fill Z A\n0 2 fill Z B\n")
    assert main(["feather", "run", "example", "--actions", str(script)]) == 0
    out = capsys.readouterr().out
    # Both fill from Z at tick 1; the DMO holds the ankh, so seat 2 goes first (LF-5).
    assert "seat 1: A 3/10" in out and "seat 2: A 0/10 B 7/7" in out
    assert "ankh seat 1" in out


def test_cli_bad_script_is_one_line_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "a.txt"
    script.write_text("zero 1 fill Z A\n")
    assert main(["feather", "run", "example", "--actions", str(script)]) == 2
    err = capsys.readouterr().err
    assert "LF-2" in err and "line 1" in err
    assert main(["feather", "run", "no-such-scenario"]) == 2
    assert "LF-7" in capsys.readouterr().err


def test_cli_records_rejected_actions(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "a.txt"
    script.write_text("0 1 fill Z A\n1 1 fill Y B\n1 1 transfer A B\n")
    assert main(["feather", "run", "example", "--actions", str(script), "--json"]) == 0
    tick2 = json.loads(capsys.readouterr().out)["ticks"][2]
    refused = [a["refused"] for a in tick2["actions"] if not a["done"]]
    assert refused and refused[0]["rule"] == "LF-4" and "next fill" in refused[0]["words"]
    assert tick2["seats"][0]["buckets"][1]["water"] == 7  # the later valid transfer stood
