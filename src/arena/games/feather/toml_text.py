"""Scenario data back to TOML text (LF-7): the editor edits a scenario as plain data and shows,
copies and stores it as the same TOML a host would write by hand.

The standard library reads TOML but does not write it. The scenario format needs little: a
table of strings, numbers, booleans and lists, and arrays of tables (``[[sessions]]``,
``[[sessions.basins]]``, ``[[sessions.objectives]]``); small tables inside a line are written
inline (``reward = { points = 2, modify = 1 }``). ``tomllib.loads(dump(data)) == data`` for
every such value (tested).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _value(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string, but for the characters TOML wants escaped
        # and JSON leaves alone (DEL).
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"TOML cannot hold {type(value).__name__}")


def _is_table_array(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, Mapping) for v in value))


def _table(table: Mapping[str, Any], path: tuple[str, ...], out: list[str]) -> None:
    arrays = []
    for key, value in table.items():
        if _is_table_array(value):
            arrays.append((key, value))
        else:
            out.append(f"{_key(key)} = {_value(value)}")
    for key, items in arrays:
        sub = (*path, _key(key))
        for item in items:
            out.append("")
            out.append(f"[[{'.'.join(sub)}]]")
            _table(item, sub, out)


def dump(data: Mapping[str, Any]) -> str:
    """The TOML text of ``data`` (a scenario as ``tomllib`` reads it)."""
    out: list[str] = []
    _table(data, (), out)
    return "\n".join(out).lstrip("\n") + "\n"
