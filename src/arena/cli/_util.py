"""Small helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.core.errors import RuleError


def read_text_arg(path: str) -> str:
    """A file's text, or standard input for ``-``.

    Every way a file argument can be wrong (missing, a directory, not UTF-8 text) is one
    line naming the file, never a traceback (issue 18); the caller's parser then says what
    is wrong with the text itself (an empty file included)."""
    try:
        if path == "-":
            return sys.stdin.read()
        target = Path(path)
        if target.is_dir():
            raise RuleError("", f"{path}: is a directory, not a file")
        return target.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        raise RuleError("", f"{where}: not UTF-8 text (byte {exc.start + 1} cannot be "
                            "decoded)") from None
    except FileNotFoundError:
        raise RuleError("", f"{path}: no such file") from None


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
