"""``arena serve --database`` that cannot be used: an unknown kind of
database, nothing listening, a missing database, a refused user. Each prints one line naming
the problem (no traceback) and exits 2, without retrying (a hang guard checks that, not a
timing: the cases take milliseconds, a retry loop forever). The missing-database and
refused-user cases need a real server: the suite's throwaway PostgreSQL cluster."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _serve(url: str, capsys: pytest.CaptureFixture[str]) -> str:
    t0 = time.monotonic()
    code = main(["serve", "--port", "0", "--database", url])
    elapsed = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert elapsed < 60  # a hang guard
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert not out
    return lines[0]


@pytest.mark.parametrize("url", ["mysql://x/y", "oracle://u@h/db", "foo:bar://x"])
def test_an_unknown_kind_of_database_is_one_line(url: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    line = _serve(url, capsys)
    assert "not supported" in line and "postgresql://" in line


def test_nothing_listening_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _serve("postgresql://nobody@127.0.0.1:1/x", capsys)
    assert "nothing is listening at 127.0.0.1:1" in line


def test_an_unknown_host_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _serve("postgresql://u@no-such-host.invalid/x", capsys)
    assert "no-such-host.invalid" in line and "cannot be found" in line


@pytest.mark.slow
def test_a_missing_database_is_one_line(postgres_url: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    url = postgres_url.rsplit("/", 1)[0] + "/nosuchdb"
    line = _serve(url, capsys)
    assert "the database 'nosuchdb' does not exist" in line


@pytest.mark.slow
def test_a_refused_user_is_one_line(postgres_url: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    url = postgres_url.replace("postgres@", "nobody@", 1)
    line = _serve(url, capsys)
    assert "refused the user 'nobody'" in line


def test_the_real_command_exits_2_without_a_traceback() -> None:
    """The whole program, as a user runs it (the in-process cases above share its code)."""
    done = subprocess.run([sys.executable, "-m", "arena", "serve", "--port", "0",
                           "--database", "mysql://x/y"], capture_output=True, text=True,
                          timeout=30, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"),
                                                     "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_serve_without_database_names_the_file_in_the_user_data_dir(tmp_path: Path) -> None:
    """The README's promise: with no ``--database`` the matches go to
    ``arena/arena.db`` in the user's data directory (platformdirs: ``$XDG_DATA_HOME`` on
    Linux), the same file for every clone, and the start-up banner says so."""
    import os
    import signal

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=str(tmp_path))
    try:
        assert proc.stdout is not None
        banner = [proc.stdout.readline() for _ in range(2)]
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
    assert banner[0].startswith("Arena is running at http://127.0.0.1:"), banner
    assert banner[1].strip() == f"Database: {tmp_path / 'arena' / 'arena.db'}", banner
    assert (tmp_path / "arena" / "arena.db").exists()
