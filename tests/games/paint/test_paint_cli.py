"""``arena paint score`` and ``arena paint check-sets``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from arena.cli import main


def test_score_file_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    board.write_text("RRRRR\nGGGGG\nRRRRR\nGGGGG\nBBBBB\n")
    assert main(["paint", "score", str(board), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 3125 and data["non_connected"] == 0 and data["looped"] == []
    assert data["chains"][4] == {"colour": "B", "cells": ["A5", "B5", "C5", "D5", "E5"],
                                 "length": 5}


def test_score_stdin_with_loop(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("RRGBG\nRRGBG\nGGBGB\nBBGBG\nGGBGB\n"))
    assert main(["paint", "score", "-", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["looped"] == [{"colour": "R", "cells": ["A1", "B1", "A2", "B2"]}]
    assert data["score"] == 64


def test_score_bad_board_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("RRXRR\n"))
    assert main(["paint", "score", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: PF-1") and "Traceback" not in err


def test_check_sets(capsys: pytest.CaptureFixture[str]) -> None:
    good = "RGBR,GBRG,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR"
    assert main(["paint", "check-sets", good, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "errors": []}
    bad = "RGBR,RGBR,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR"
    assert main(["paint", "check-sets", bad, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and "sets 1 and 2 are identical" in out["errors"][0]
    assert main(["paint", "check-sets", bad]) == 1
    assert "PF-4" in capsys.readouterr().out
