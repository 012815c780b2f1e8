"""The replay views a match built last, kept for the next request of the same step."""

from __future__ import annotations

import collections
from typing import Any


class ReplayCache:
    """The last few replay views built, by (seen as, finished, bots, log version): a page
    stepping back and forth through a replay, or many spectators on one step, cost one
    rebuild."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._views: collections.OrderedDict[tuple[Any, ...], dict[str, Any]] = \
            collections.OrderedDict()

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        view = self._views.get(key)
        if view is not None:
            self._views.move_to_end(key)
        return view

    def put(self, key: tuple[Any, ...], view: dict[str, Any]) -> None:
        self._views[key] = view
        while len(self._views) > self.size:
            self._views.popitem(last=False)
