"""Small helpers shared by the command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from arena.core.errors import RuleError


def read_text_arg(path: str) -> str:
    """A file's text, or standard input for ``-``."""
    try:
        if path == "-":
            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        raise RuleError("", f"{where} is not UTF-8 text (byte {exc.start}): give a text "
                            "file") from None


def emit(data: Any, as_json: bool, human: str) -> None:
    """Print JSON (one document) or the human-readable text."""
    if as_json:
        print(json.dumps(data, sort_keys=False))
    else:
        print(human)
