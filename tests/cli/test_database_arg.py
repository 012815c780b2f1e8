"""``arena serve --database`` values the server cannot use: each is one line on stderr naming
the problem and exit code 2, before anything starts (no port, no file, no connection). The
values that work (a plain path, ``sqlite:///path``, ``postgresql://``, ``postgres://``,
``postgresql+psycopg://``, with the parameters libpq knows) keep working.

The cases that need a database to answer (nothing listening, a refused user, a missing
database) are in tests/cli/test_cli_database.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.database_arg import database_url
from arena.core.errors import RuleError
from cli.unwritable import unwritable_folder

ROOT = Path(__file__).resolve().parents[2]

REFUSED = {
    # what cannot be read as a URL
    "postgresql://:@:/": "a ':' after the host is not followed by a port",
    "postgresql://postgres@[::1": "the host's [ is never closed",
    "postgresql://u@h:port/db": "the port 'port' is not a whole number",
    "postgresql://u@h:99999/db": "the port 99999 is not a whole number from 1 to 65535",
    "postgresql://u@h1:5432,h2:5433/db": "several hosts are given as ?host=",
    "sqlite:///%00": "cannot hold a NUL character",
    "postgresql://u:p%00w@h/db": "cannot hold a NUL character",
    "x\0.db": "cannot hold a NUL character",
    # nothing, or nothing that lasts
    "": "the value is empty",
    "   ": "the value is empty",
    "sqlite://": "an in-memory SQLite database would lose every match",
    "sqlite:///:memory:": "an in-memory SQLite database would lose every match",
    "sqlite:///file::memory:?cache=shared&uri=true": "an in-memory SQLite database",
    "sqlite:///file:x?mode=memory&uri=true": "an in-memory SQLite database",
    ":memory:": "an in-memory SQLite database would lose every match",
    # parameters that the LISTEN connection (or SQLite) would choke on later
    "postgresql://u@h/db?connect_timeout=x": "connect_timeout must be a whole number, not 'x'",
    "postgresql://u@h/db?keepalives_idle=1.5": "keepalives_idle must be a whole number",
    "postgresql://u@h/db?sslmode=maybe": "sslmode must be one of allow, disable, prefer, ",
    "postgresql+psycopg://u@h/db?target_session_attrs=x": "target_session_attrs must be one of",
    "postgresql://u@h/db?port=abc": "the URL cannot be used",
    "postgresql://u@h/db?no_such_option=1": 'invalid connection option "no_such_option"',
    "sqlite:///x.db?timeout=soon": "an SQLite parameter has the wrong type",
    "sqlite:///x.db?journal=off": "an SQLite URL takes only timeout, ",
    "sqlite:///file:x.db?uri=true": "SQLite URI filenames (file:..., uri=true) are not supported",
    "sqlite://user@host/x.db": "an SQLite URL has no user or host",
    # kinds of database the store has no driver for
    "mysql://x/y": "mysql:// databases are not supported",
    "sqlite+aiosqlite:///x.db": "sqlite+aiosqlite:// databases are not supported",
    # files that are not an SQLite file of this user's
    "/dev/null": "/dev/null is not a regular file",
    "/nonexistent/folder/x.db": "the folder /nonexistent/folder does not exist",
}


def _serve(value: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["serve", "--port", "0", "--database", value])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("arena: serve: --database: "), lines[0]
    return lines[0]


@pytest.mark.parametrize("value", list(REFUSED), ids=repr)
def test_an_unusable_database_is_one_line_and_exit_2(
        value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # relative SQLite paths land here, if anywhere
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    line = _serve(value, capsys)
    assert REFUSED[value] in line, line
    assert list(tmp_path.iterdir()) == []  # nothing created: no file, no lock, no default


def test_the_password_is_never_in_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("postgresql://u:s3cret@h:x/db", "postgresql://u:s3cret@h/db?sslmode=no",
                  "postgresql://u:s3cret@h/db?bogus=1"):
        assert "s3cret" not in _serve(value, capsys)


def test_a_directory_is_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"{tmp_path} is a directory, not a file" in _serve(str(tmp_path), capsys)


def test_a_folder_that_cannot_be_written_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = unwritable_folder(tmp_path, monkeypatch)
    try:
        line = _serve(str(folder / "x.db"), capsys)
    finally:
        folder.chmod(0o700)
    assert f"cannot write in the folder {folder} (permission denied)" in line


@pytest.mark.parametrize("value", ["sqlite://", "postgresql://:@:/", "sqlite:///%00", "",
                                   "postgresql://127.0.0.1:1/x?connect_timeout=x"])
def test_the_real_command_refuses_before_it_starts(value: str, tmp_path: Path) -> None:
    """The whole program as a user runs it: exit 2 with one line, and no server (a server
    would not exit at all; the timeout fails the test instead)."""
    done = subprocess.run([sys.executable, "-m", "arena", "serve", "--port", "0",
                           "--database", value], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
                          check=False)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ what keeps working
def test_a_plain_path_is_an_sqlite_file_and_keeps_its_odd_characters(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.engine import make_url

    monkeypatch.chdir(tmp_path)
    assert database_url("x.db") == f"sqlite:///{tmp_path / 'x.db'}"
    odd = database_url("a?b#c%d e.db")  # a ? or % in a name is not a URL's query or escape
    assert make_url(odd).database == str(tmp_path / "a?b#c%d e.db")
    assert not make_url(odd).query
    assert database_url("sqlite:///rel.db") == "sqlite:///rel.db"
    assert database_url(f"sqlite:///{tmp_path}/x.db?timeout=5") == \
        f"sqlite:///{tmp_path}/x.db?timeout=5"


@pytest.mark.parametrize("value", [
    "postgresql://u@h/db",
    "postgresql://u:pw@h:5432/db",
    "postgres://u@h/db",
    "postgresql+psycopg://u@h/db?sslmode=require&connect_timeout=5",
    "postgresql://u@/db?host=a&host=b",
    "postgresql:///db?host=/var/run/postgresql",
    "postgresql://u@[::1]:5432/db",
    "postgresql://u@h/db?application_name=arena&keepalives=1&target_session_attrs=read-write",
])
def test_postgresql_urls_are_kept_as_given(value: str) -> None:
    assert database_url(value) == value


def test_the_scheme_is_read_in_any_case() -> None:
    assert database_url("PostgreSQL://u@h/db") == "postgresql://u@h/db"


def test_the_validation_is_a_rule_error_naming_the_argument() -> None:
    with pytest.raises(RuleError, match=r"^serve: --database: the value is empty"):
        database_url("")
