"""The command line's rough edges found by trying it as a new user: each bad
input is one line on stderr and exit 2, never a traceback; the help costs no game imports.
(``--database`` and ``check``'s two forms are in test_cli_inputs.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main

LOCK = "......\naa....\n.KK..@\n"


def one_line_error(code: int, err: str) -> None:
    assert code == 2
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("argv", [
    ["lockmaker", "solve", "{bad}"],
    ["lockmaker", "check", "{bad}", "--moves", "K R1"],
    ["lockmaker", "solve", "--rush-file", "{bad}"],
    ["lockmaker", "render", "{bad}", "-o", "{out}"],
    ["paint", "score", "{bad}"],
    ["lockedout", "deduce", "{bad}"],
    ["feather", "run", "{bad_toml}"],
])
def test_a_file_that_is_not_utf8_is_one_line(argv: list[str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9 K\n".encode("latin-1"))
    bad_toml = tmp_path / "latin1.toml"
    bad_toml.write_bytes(b"title = '\xe9'\n")
    args = [a.format(bad=bad, bad_toml=bad_toml, out=tmp_path / "x.svg") for a in argv]
    code = main(args)
    err = capsys.readouterr().err
    one_line_error(code, err)
    assert "not UTF-8" in err


@pytest.mark.parametrize("seed", ["-1", "1.5", "x", str(2**64)])
def test_simulate_seeds_are_non_negative_whole_numbers(seed: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "paint", "--seed", seed])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "G-7" in err and len(err.strip().splitlines()) == 1


def test_help_and_one_tool_import_no_game_they_do_not_need() -> None:
    """Start-up is paid by every command: ``arena --help`` imports no game and no NumPy, and
    ``arena lockedout light`` none of the other games (batch solve speed)."""
    probe = ("import sys, contextlib, io\n"
             "from arena.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    try:\n        main(ARGS)\n    except SystemExit:\n        pass\n"
             "print(','.join(sorted(m for m in sys.modules if m == 'numpy' or "
             "m.startswith('arena.games.'))))")
    def loaded(args: list[str]) -> set[str]:
        out = subprocess.run([sys.executable, "-c", probe.replace("ARGS", repr(args))],
                             capture_output=True, text=True, check=True).stdout.strip()
        return set(filter(None, out.split(",")))
    assert loaded(["--help"]) == set()
    light = loaded(["lockedout", "light", "--lock", "1,2", "--guess", "2,1"])
    assert light and all(m.startswith("arena.games.lockedout") for m in light)
    assert "numpy" not in light
