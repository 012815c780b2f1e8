"""File arguments on the command line: read with a bound, never from a FIFO or a device, and
output files checked before any work. Each refusal is one line on stderr and exit code 2.

The cases are not listed by hand: every argument of every command is found in the parsers
(``arena.cli.build_parser``). An argument typed ``input_file`` is a file the command reads, one
typed ``output_file`` a file it writes, and every other argument that takes text must be named
in ``NOT_FILES`` below, so a new file argument cannot be added without being tested here.
"""

from __future__ import annotations

import argparse
import io
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import build_parser, main
from arena.core.readfile import FILE_LIMIT, PUZZLE_LIMIT, Refused, read_bytes
from arena.core.tools import input_file, output_file
from arena.games.lockmaker.quick import RUSH_FILE_LIMIT
from cli.unwritable import unwritable_folder

LOCK = ".bb.\n.cc.\n..a.\nKKa@\n....\n....\n"

NOT_FILES = {
    ("boxes odds", "box"): "a cell",
    ("boxes odds", "cards"): "card numbers",
    ("boxes odds", "condition"): "a condition",
    ("boxes odds", "roles"): "role names",
    ("boxes moves", "box"): "a cell",
    ("simulate", "game"): "a game's name",
    ("simulate", "set"): "NAME=VALUE settings",
    ("simulate", "level"): "bot levels",
    ("lockedout light", "lock"): "two cards",
    ("lockedout light", "guess"): "two cards",
    ("lockedout light", "mapping"): "colour letters",
    ("lockedout deduce", "guess"): "SAFE:L,R",
    ("lockmaker solve", "rush"): "a Rush Hour string",
    ("lockmaker check", "moves"): "the moves themselves",
    ("lockmaker check", "rush"): "a Rush Hour string",
    ("lockmaker render", "rush"): "a Rush Hour string",
    ("lockmaker render", "title"): "a title",
    ("lockmaker validate", "pieces"): "piece names",
    ("lockmaker hardest", "rush"): "a Rush Hour string",
    ("lockmaker generate", "pieces"): "piece names",
    ("paint check-sets", "sets"): "set designs",
    ("serve", "host"): "an interface",
    ("serve", "database"): "a database (tests/cli/test_database_arg.py)",
    ("serve", "url"): "this process's address",
}
"""Every argument that takes text and is not a file, by command and destination."""

SAMPLES = {"card": "1", "cards": "1", "condition": "6", "pieces": "H2", "scenario": "example"}
"""Values for the other required arguments of a command whose file argument is tested."""

EXTRA = {"lockmaker check": ["--moves", "K R1"]}
"""Arguments without which the command would refuse before reading its file."""


def _commands() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    def walk(parser: argparse.ArgumentParser, path: list[str]
             ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield " ".join(path), parser
        for sub in subs:
            for name, child in sub.choices.items():
                yield from walk(child, [*path, name])

    yield from walk(build_parser(None), [])


def _args_of(kind: object) -> list[tuple[str, argparse.ArgumentParser, argparse.Action]]:
    return [(name, parser, action) for name, parser in _commands()
            for action in parser._actions if action.type is kind]


def _id(case: tuple[str, argparse.ArgumentParser, argparse.Action]) -> str:
    return f"{case[0]} {case[2].option_strings[-1] if case[2].option_strings else case[2].dest}"


INPUTS = _args_of(input_file)
OUTPUTS = _args_of(output_file)


def _flag(action: argparse.Action) -> str:
    return next((s for s in action.option_strings if s.startswith("--")),
                action.option_strings[0])


def _argv(name: str, parser: argparse.ArgumentParser, target: argparse.Action, value: str,
          tmp: Path) -> list[str]:
    """``name``'s command line with ``value`` in the ``target`` argument, its option first (so
    ``lockmaker solve --rush-file`` takes its quick path), and every other required argument
    given something valid (a real lock file for a lock)."""
    lock = tmp / "sample.lock"
    lock.write_text(LOCK)

    def sample(action: argparse.Action) -> str:
        if action.type is output_file:
            return str(tmp / "out.svg")
        if action.dest == "lock":
            return str(lock)
        return SAMPLES[action.dest]

    argv = name.split()
    if target.option_strings:
        argv += [_flag(target), value]
    for action in parser._actions:
        if action is not target and action.option_strings and action.required:
            argv += [_flag(action), sample(action)]
    argv += EXTRA.get(name, [])
    for action in parser._actions:
        if action.option_strings:
            continue
        if action is target:
            argv.append(value)
        elif action.nargs not in ("?", "*"):
            argv.append(sample(action))
    return argv


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``arena ARGV`` in this process: its exit code (a usage error raises SystemExit) and
    output."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ------------------------------------------------------------------ the parsers themselves
def test_every_argument_that_takes_text_is_a_file_or_named_as_not_one() -> None:
    seen = set()
    for name, parser in _commands():
        for action in parser._actions:
            if action.nargs == 0 or action.choices is not None or action.type is not None:
                continue
            seen.add((name, action.dest))
            assert (name, action.dest) in NOT_FILES, (
                f"arena {name}: {action.dest} takes text: type it input_file or output_file "
                "if it names a file, else add it to NOT_FILES")
    assert set(NOT_FILES) <= seen, f"no longer arguments: {set(NOT_FILES) - seen}"


def test_the_file_arguments_found_include_every_command_that_reads_a_file() -> None:
    found = {name for name, _, _ in INPUTS}
    assert found >= {"season show", "lockmaker solve", "lockmaker check", "lockmaker render",
                     "lockmaker validate", "lockmaker hardest", "lockmaker generate",
                     "paint score", "boxes odds", "boxes moves", "boxes deck", "feather run",
                     "lockedout deduce"}
    assert {name for name, _, _ in OUTPUTS} >= {"season simulate", "lockmaker render"}


# ------------------------------------------------------------------ inputs
@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", INPUTS, ids=_id)
def test_a_device_is_refused_at_once(case: tuple[str, argparse.ArgumentParser, argparse.Action],
                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(_argv(*case, "/dev/zero", tmp_path), capsys)
    assert code == 2 and out == ""
    assert _one_line(err) == "arena: /dev/zero: is a character device, not a regular file"


@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", INPUTS, ids=_id)
def test_a_fifo_is_refused_at_once(case: tuple[str, argparse.ArgumentParser, argparse.Action],
                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody ever writes: reading it would wait for ever
    code, out, err = _run(_argv(*case, str(fifo), tmp_path), capsys)
    assert code == 2 and out == ""
    assert _one_line(err) == f"arena: {fifo}: is a FIFO, not a regular file"


@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", INPUTS, ids=_id)
def test_a_file_past_its_bound_is_refused_unread(
        case: tuple[str, argparse.ArgumentParser, argparse.Action], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:  # sparse: past every bound without filling the disk
        f.truncate(max(FILE_LIMIT, PUZZLE_LIMIT, RUSH_FILE_LIMIT) + 1)
    code, out, err = _run(_argv(*case, str(big), tmp_path), capsys)
    assert code == 2 and out == ""
    line = _one_line(err)
    assert line.startswith(f"arena: {big}: larger than ") and " MiB, the most " in line, line


@pytest.mark.parametrize("case", INPUTS, ids=_id)
def test_an_empty_file_name_is_refused(
        case: tuple[str, argparse.ArgumentParser, argparse.Action], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Not "no file" (the default deck) nor the current folder."""
    code, out, err = _run(_argv(*case, "", tmp_path), capsys)
    assert code == 2 and out == ""
    assert "the file name is empty" in _one_line(err)


@pytest.mark.timeout(20)
def test_standard_input_is_read_with_the_bound_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    with io.TextIOWrapper(io.FileIO("/dev/zero")) as zeros:  # stdin that never ends
        monkeypatch.setattr(sys, "stdin", zeros)
        code, out, err = _run(["paint", "score", "-"], capsys)
    assert code == 2 and out == ""
    assert _one_line(err) == "arena: standard input: larger than 1 MiB, the most a grid file may be"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv", [["season", "show", "/dev/zero"],
                                  ["lockmaker", "solve", "--rush-file", "/dev/zero", "--json"]],
                         ids=" ".join)
def test_the_real_command_refuses_a_device(argv: list[str]) -> None:
    """The whole program as a user runs it (the quick Rush Hour path included)."""
    done = subprocess.run([sys.executable, "-m", "arena", *argv], capture_output=True,
                          text=True, timeout=50, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "arena: /dev/zero: is a character device, not a regular file\n"


# ------------------------------------------------------------------ the reader itself
def test_a_file_of_exactly_the_bound_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    f = tmp_path / "f.txt"
    f.write_bytes(b"x" * 10)
    assert read_bytes(str(f), 10, "a test file") == b"x" * 10
    with pytest.raises(Refused, match="larger than 9 bytes, the most a test file may be"):
        read_bytes(str(f), 9, "a test file")


def test_a_file_that_grows_past_the_bound_after_stat_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size ``stat`` gave is a hint only: the read itself stops at the bound."""
    f = tmp_path / "f.txt"
    f.write_bytes(b"x" * 100)
    real = os.stat
    small = real(tmp_path / "f.txt")

    class Shrunk:
        st_mode = small.st_mode
        st_size = 5

    monkeypatch.setattr(os, "stat",
                        lambda p, *a, **k: Shrunk() if p == str(f) else real(p, *a, **k))
    with pytest.raises(Refused, match="larger than 10 bytes"):
        read_bytes(str(f), 10, "a test file")


@pytest.mark.timeout(20)
def test_a_fifo_swapped_in_after_stat_is_refused_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``stat`` saw a regular file; the open finds a FIFO with no writer. O_NONBLOCK lets the
    open return at once and ``fstat`` refuses it (a blocking open would wait here until the
    timeout fails the test)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    regular = tmp_path / "regular.txt"
    regular.write_text("x")
    real = os.stat
    monkeypatch.setattr(os, "stat",
                        lambda p, *a, **k: real(regular) if p == str(fifo) else real(p, *a, **k))
    with pytest.raises(Refused, match="is a FIFO, not a regular file"):
        read_bytes(str(fifo), 10, "a test file")
    assert stat.S_ISFIFO(real(fifo).st_mode)


# ------------------------------------------------------------------ outputs
@pytest.mark.parametrize("case", OUTPUTS, ids=_id)
def test_an_output_in_a_missing_folder_is_refused_before_any_work(
        case: tuple[str, argparse.ArgumentParser, argparse.Action], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Refused while the arguments are read (SystemExit from the parser), so no handler ran."""
    target = tmp_path / "nonexistent" / "x.svg"
    with pytest.raises(SystemExit) as exc:
        main(_argv(*case, str(target), tmp_path))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"the folder {target.parent} does not exist" in _one_line(err)
    assert not target.parent.exists()


@pytest.mark.parametrize("case", OUTPUTS, ids=_id)
@pytest.mark.parametrize("where", ["a directory", "under a file"])
def test_an_output_that_cannot_be_a_file_is_refused(
        case: tuple[str, argparse.ArgumentParser, argparse.Action], where: str,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plain.txt").write_text("")
    target = tmp_path if where == "a directory" else tmp_path / "plain.txt" / "x.svg"
    with pytest.raises(SystemExit) as exc:
        main(_argv(*case, str(target), tmp_path))
    assert exc.value.code == 2
    line = _one_line(capsys.readouterr().err)
    assert ("is a directory, not a file" if where == "a directory" else "is not a folder") in line


def test_an_output_in_a_folder_that_cannot_be_written_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = unwritable_folder(tmp_path, monkeypatch)
    try:
        with pytest.raises(SystemExit) as exc:
            main(["season", "simulate", "--out", str(folder / "x.json")])
    finally:
        folder.chmod(0o700)
    assert exc.value.code == 2
    assert "permission denied" in _one_line(capsys.readouterr().err)


def test_season_simulate_out_is_checked_before_the_season_is_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import arena.season.simulate as simulate

    played: list[tuple[int, int]] = []

    def record(players: int, seed: int) -> object:
        played.append((players, seed))
        raise AssertionError("the season was played")

    monkeypatch.setattr(simulate, "simulate_season", record)
    code, out, err = _run(["season", "simulate", "--out", "/nonexistent/x.json"], capsys)
    assert code == 2 and out == "" and played == []
    assert _one_line(err) == ("arena season simulate: argument --out: cannot write "
                              "/nonexistent/x.json: the folder /nonexistent does not exist "
                              "(see arena season simulate --help)")


def test_a_writable_output_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The check refuses nothing that can be written: a new file, and an existing one."""
    lock = tmp_path / "lock.txt"
    lock.write_text(LOCK)
    for _ in range(2):
        code, _out, err = _run(["lockmaker", "render", str(lock), "-o", str(tmp_path / "l.svg")],
                               capsys)
        assert code == 0, err
    assert (tmp_path / "l.svg").read_text().startswith("<")
