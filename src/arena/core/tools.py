"""Small helpers shared by the command-line tools: the ``arena`` command's own modules and
each game's ``tools`` module (:mod:`arena.cli`), which may use them since they are core."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from arena.core.errors import RuleError
from arena.core.readfile import FILE_LIMIT as FILE_LIMIT
from arena.core.readfile import PUZZLE_LIMIT as PUZZLE_LIMIT
from arena.core.readfile import Refused, read_text


def read_text_arg(path: str, what: str = "a file argument", limit: int = FILE_LIMIT) -> str:
    """A file argument's text, or standard input for ``-``: every command's one way in.

    It reads at most ``limit`` bytes and only from a regular file (a FIFO or a device is
    refused at once, see :mod:`arena.core.readfile`). Every way a file argument can be wrong
    (missing, a directory, a device, too large, not UTF-8 text) is one line naming the file,
    never a traceback or a hang; the caller's parser then says what is wrong with the text
    itself (an empty file included). ``what`` names the kind of file in the size message."""
    try:
        return read_text(path, limit, what)
    except Refused as exc:
        raise RuleError("", str(exc)) from None


def input_file(text: str) -> str:
    """The argparse ``type`` of every argument that names a file the command reads: the path
    unchanged, read later by the handler with :func:`read_text_arg` (where ``-`` and the LM-11
    messages are handled). It marks the argument, so that a test can find every file argument
    of every command in the parsers and check each is read through that one function; and it
    refuses an empty name, which some commands would otherwise take for "no file" (the
    default deck) and others for the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    return text


def output_file(text: str) -> str:
    """The argparse ``type`` of every argument that names a file the command writes: refused
    while the arguments are read, before any work, unless the file could be written there (its
    folder exists and may be written in, and it is not a directory). A simulation must not run
    for seconds and then fail to save its result."""
    import os
    import stat

    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    path = Path(text)
    try:
        mode: int | None = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text}: {exc.strerror or exc}") from None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise argparse.ArgumentTypeError(f"{text} is a directory, not a file")
        if not os.access(path, os.W_OK):
            raise argparse.ArgumentTypeError(f"{text} cannot be written (permission denied)")
        return text
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} cannot be "
                                         "written in (permission denied)")
    return text


def emit(data: Any, as_json: bool, human: str) -> None:
    """Print JSON (one document) or the human-readable text."""
    if as_json:
        print(json.dumps(data, sort_keys=False))
    else:
        print(human)


def seed_arg(text: str) -> int:
    """An argparse type for ``--seed``: a whole number 0..2^64-1 (G-7, G-12)."""
    from arena.core.rng import parse_seed

    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (G-7)") from None


def positive_int(text: str) -> int:
    """An argparse type for counts (``--jobs``, ``--max-states``): a whole number >= 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return int(text)


def command_help(doc: str | None) -> str:
    """A command's one-line help: the first line of its module's docstring, which is also
    what ``arena --help`` shows for a game's command without importing the game."""
    return (doc or "").strip().partition("\n")[0].rstrip(".")
