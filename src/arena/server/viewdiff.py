"""What changed between two views a socket was sent, as a short list of operations.

A real-time tick (LF-2) changes a clock, a few bucket levels and a score, yet the full view is
about 8 KB: sent to every socket on every tick it is most of the server's output. A socket
therefore gets its full view once and then only the difference from the
view it was last sent. RFC 6902 (JSON Patch) would do, but its libraries emit ``move``/``copy`` operations
that need a fuller client; this format has three operations, each a short JSON array, and the
page's applier (``static/patch.js``) is a dozen lines:

- ``["s", path, value]``: set the key or index at ``path`` (appending when the index is the
  list's length);
- ``["d", path]``: delete the key at ``path`` from its object;
- ``["t", path, n]``: cut the list at ``path`` to its first ``n`` items;
- ``["x", path, k]``: drop the first ``k`` items of the list at ``path`` (a forecast or a
  recent-history list that moves along by one each tick costs one operation, not one per item).

A path is a list of object keys and list indexes from the view's root. Lists of equal length
are compared item by item, so one changed bucket in a list of ten costs one operation.
"""

from __future__ import annotations

from typing import Any

Op = list[Any]
Path = list[str | int]


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both JSON values, never mutated)."""
    ops: list[Op] = []
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dict(old, new, [], ops)
    else:
        _diff(old, new, [], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # ``True == 1`` and ``1 == 1.0`` in Python but not in the page: types must agree too.
    return type(a) is type(b) and a == b


# A real-time tick's view compares about 250 values, nearly all unchanged.
# The walk below is written for that: ``path`` is one list, extended and cut back in
# place and copied only into an operation; an unchanged scalar (same type, equal value) or
# a subtree shared by both views (``is``: the games hand out cached parts, such as an
# objective's JSON) is passed over without a call. Exact as before: only same-typed equal
# scalars and identical objects are skipped.
_CONTAINERS = (dict, list)
_MISSING = object()


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: Path, ops: list[Op]) -> None:
    kept = 0  # keys of ``new`` that ``old`` has: all of ``old``'s when it has no others
    missing = _MISSING
    for key, value in new.items():
        was = old.get(key, missing)
        if was is missing:
            ops.append(["s", [*path, key], value])
            continue
        kept += 1
        if was is value:
            continue
        kind = type(value)
        if kind is type(was):
            if kind is dict:
                path.append(key)
                _diff_dict(was, value, path, ops)
                path.pop()
                continue
            if kind is list:
                path.append(key)
                _diff_list(was, value, path, ops)
                path.pop()
                continue
            if was == value:
                continue
        path.append(key)
        _diff(was, value, path, ops)
        path.pop()
    if kept != len(old):
        for key in old:
            if key not in new:
                ops.append(["d", [*path, key]])


def _diff_list(old: list[Any], new: list[Any], path: Path, ops: list[Op]) -> None:
    if not path:  # a root list: replaced whole (the views are objects)
        ops.append(["s", [], new])
        return
    shift = _shift(old, new)
    if shift:
        ops.append(["x", list(path), shift])
        old = old[shift:]
    common = min(len(old), len(new))
    for i in range(common):
        was, value = old[i], new[i]
        if was is value:
            continue
        kind = type(value)
        if kind is type(was) and kind not in _CONTAINERS and was == value:
            continue
        path.append(i)
        _diff(was, value, path, ops)
        path.pop()
    if len(new) < len(old):
        ops.append(["t", list(path), len(new)])
    for i in range(common, len(new)):
        ops.append(["s", [*path, i], new[i]])


def _diff(old: Any, new: Any, path: Path, ops: list[Op]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dict(old, new, path, ops)
        return
    if isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops)
        return
    if not _same(old, new):
        ops.append(["s", list(path), new])


def _shift(old: list[Any], new: list[Any]) -> int:
    """How many items fell off the front of ``old`` to give the start of ``new`` (0 if
    the lists do not read as such a move, or if they start alike)."""
    if not old or not new or _same(old[0], new[0]):
        return 0
    for k in range(1, min(4, len(old))):
        rest = old[k:]
        if len(rest) <= len(new) and all(_same(a, b) for a, b in zip(rest, new, strict=False)):
            return k
    return 0


def apply(base: Any, ops: list[Op]) -> Any:
    """``base`` with ``ops`` applied, copying only the containers on each changed path (the
    Python twin of ``static/patch.js``; the tests hold the two formats to one meaning)."""
    root: Any = {"": base}
    for op in ops:
        kind, path = op[0], ["", *op[1]]
        node = root
        for key in path[:-1]:
            child = node[key]
            child = dict(child) if isinstance(child, dict) else list(child)
            node[key] = child
            node = child
        last = path[-1]
        if kind == "s":
            if isinstance(node, list) and last == len(node):
                node.append(op[2])
            else:
                node[last] = op[2]
        elif kind == "d":
            del node[last]
        elif kind == "t":
            node[last] = list(node[last])[: op[2]]
        elif kind == "x":
            node[last] = list(node[last])[op[2]:]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return root[""]
