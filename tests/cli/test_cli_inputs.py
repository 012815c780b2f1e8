"""Bad file arguments, database paths and seeds on the command line ("Command line"):
each is one line on stderr naming the problem and exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.serve import database_url
from arena.core.errors import RuleError

LOCK = ".bb.\n.cc.\n..a.\nKKa@\n....\n....\n"
FOG51 = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."

# Every command that reads a file, with ``{f}`` where the file goes.
FILE_COMMANDS = [
    ["lockmaker", "solve", "{f}"],
    ["lockmaker", "solve", "--rush-file", "{f}", "--json"],
    ["lockmaker", "check", "{f}", "--moves", "K R1"],
    ["lockmaker", "render", "{f}", "-o", "{out}"],
    ["lockmaker", "validate", "{f}", "--pieces", "H2"],
    ["lockmaker", "hardest", "{f}"],
    ["lockmaker", "generate", "--board", "{f}", "--pieces", "H2"],
    ["paint", "score", "{f}"],
    ["boxes", "odds", "--board", "{f}", "--cards", "1", "--condition", "6"],
    ["boxes", "deck", "{f}"],
    ["feather", "run", "example", "--actions", "{f}"],
    ["lockedout", "deduce", "{f}"],
]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def fill(cmd: list[str], f: Path, tmp: Path) -> list[str]:
    return [a.replace("{f}", str(f)).replace("{out}", str(tmp / "o.svg")) for a in cmd]


@pytest.mark.parametrize("cmd", FILE_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_file_that_is_not_utf8_is_one_line_exit_2(
    cmd: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9 K.\n".encode("latin-1"))
    code, out, err = run(fill(cmd, bad, tmp_path), capsys)
    assert code == 2 and out == ""
    assert err.strip() == f"arena: {bad}: not UTF-8 text (byte 4 cannot be decoded)"


@pytest.mark.parametrize("cmd", FILE_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_directory_given_as_a_file_is_one_line_exit_2(
    cmd: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(fill(cmd, tmp_path, tmp_path), capsys)
    assert code == 2
    assert err.strip() == f"arena: {tmp_path}: is a directory, not a file"


# An empty puzzle list or action script is nothing to do (exit 0); the others need content.
@pytest.mark.parametrize("cmd", [c for c in FILE_COMMANDS
                                 if "--rush-file" not in c and "--actions" not in c],
                         ids=lambda c: " ".join(c[:2]))
def test_an_empty_file_is_one_line_exit_2(
    cmd: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, _out, err = run(fill(cmd, empty, tmp_path), capsys)
    assert code == 2
    assert err.startswith("arena: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_file_is_one_line_exit_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(["paint", "score", str(tmp_path / "nosuch.txt")], capsys)
    assert code == 2 and err.strip() == f"arena: {tmp_path / 'nosuch.txt'}: no such file"


def test_a_scenario_toml_that_is_not_utf8_is_one_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "s.toml"
    bad.write_bytes(b"name = '\xff'\n")
    code, _out, err = run(["feather", "run", str(bad)], capsys)
    assert code == 2 and err.count("\n") == 1 and "not UTF-8" in err


# ------------------------------------------------------------ lockmaker check (LM-11)
def test_lm11_check_a_missing_solution_file_is_named_not_read_as_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "lock.txt"
    lock.write_text(LOCK)
    code, _out, err = run(["lockmaker", "check", str(lock), "nosuch"], capsys)
    assert code == 2 and err.strip() == "arena: LM-11: solution file 'nosuch' not found"
    code, _out, err = run(["lockmaker", "check", str(tmp_path / "no.txt"), "--moves", "K R1"],
                          capsys)
    assert code == 2 and "lock file" in err and "no.txt' not found" in err


def test_lm11_check_moves_are_given_with_moves(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    lock = tmp_path / "lock.txt"
    lock.write_text(LOCK)
    code, _out, _err = run(["lockmaker", "check", str(lock), "--moves", "BC1 L1, C34 D2, K R1"],
                           capsys)
    assert code == 0
    # a solution file and --moves together, or neither, is refused with what to give
    code, _out, err = run(["lockmaker", "check", str(lock), str(lock), "--moves", "K R1"], capsys)
    assert code == 2 and "LM-11" in err and "got 2 file argument(s)" in err
    code, _out, err = run(["lockmaker", "check", str(lock)], capsys)
    assert code == 2 and "a solution file (or --moves" in err
    code, _out, err = run(["lockmaker", "check", "--rush", FOG51, "--moves", "A R1"], capsys)
    assert code == 1


# ------------------------------------------------------------ serve --database
def test_serve_database_plain_path_is_an_sqlite_file(tmp_path: Path) -> None:
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert database_url("postgresql://u@h/db") == "postgresql://u@h/db"
    # in memory, every match would be lost at exit: refused (tests/cli/test_database_arg.py)
    with pytest.raises(RuleError, match="in-memory"):
        database_url("sqlite:///:memory:")


def test_serve_database_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="does not exist"):
        database_url(f"sqlite:///{tmp_path}/nonexistent/dir/x.db")
    with pytest.raises(RuleError, match="does not exist"):
        database_url(str(tmp_path / "nonexistent" / "x.db"))
    assert not (tmp_path / "nonexistent").exists()


def test_serve_with_a_missing_database_folder_exits_2_before_listening(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arena", "serve", "--port", "0", "--database",
         f"sqlite:///{tmp_path}/nonexistent/dir/x.db"],
        capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("arena: serve: --database: the folder")
    assert not (tmp_path / "nonexistent").exists()


# ------------------------------------------------------------ seeds (G-7, G-12)
@pytest.mark.parametrize("cmd", [["simulate", "paint"], ["boxes", "board"]])
@pytest.mark.parametrize("seed", ["-1", "2.5", str(2**64)])
def test_g7_seeds_are_whole_numbers_in_range(cmd: list[str], seed: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*cmd, "--seed", seed])
    assert exc.value.code == 2
    assert "G-7" in capsys.readouterr().err


# ------------------------------------------------------------ start-up imports
PROBE = """
import contextlib, io, sys
from arena.cli import main
try:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(sys.argv[1:])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


def imported(*argv: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          timeout=120, check=True)
    return set(proc.stdout.split())


def heavy(mods: set[str]) -> set[str]:
    return {m for m in mods if m.split(".")[0] in {"numpy", "sqlalchemy", "starlette", "uvicorn"}
            or m.startswith(("arena.games.", "arena.server", "arena.store"))}


def test_help_imports_no_game_and_no_numpy() -> None:
    assert heavy(imported("--help")) == set()
    # a command's own help loads that command's module only: no other game
    lm = heavy(imported("lockmaker", "--help"))
    assert {m for m in lm if m.startswith("arena.games.") and
            not m.startswith("arena.games.lockmaker")} == set()


def test_games_imports_no_numpy_server_or_store() -> None:
    mods = heavy(imported("games"))
    assert not {m for m in mods if not m.startswith("arena.games.")}


def test_a_game_tool_imports_only_its_own_game(tmp_path: Path) -> None:
    f = tmp_path / "p.txt"
    f.write_text(f"fog51 {FOG51}\n")
    everything = imported("lockmaker", "solve", "--rush-file", str(f), "--json", "--jobs", "1")
    quick = {"arena.games.lockmaker", "arena.games.lockmaker.quick"}
    assert quick <= everything  # the probe really ran the game's quick start
    mods = heavy(everything)
    # One small puzzle is solved before argparse or any game module loads
    # but the game's quick start (its package's light __init__ and the quick module)
    assert "argparse" not in everything and mods == quick
    others = {m for m in mods if m.startswith("arena.games.")
              and not m.startswith("arena.games.lockmaker")}
    assert others == set() and not {m for m in mods if m.startswith(("arena.server",
                                                                     "arena.store"))}


@pytest.mark.parametrize("flag", ["--jobs", "--max-states"])
@pytest.mark.parametrize("value", ["0", "-2", "x"])
def test_counts_are_whole_numbers_of_at_least_one(flag: str, value: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["lockmaker", "solve", "--rush", FOG51, flag, value])
    assert exc.value.code == 2
    assert "at least 1" in capsys.readouterr().err
