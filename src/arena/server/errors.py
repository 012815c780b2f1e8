"""Errors the API turns into JSON answers (never a 500)."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses, with the HTTP status and a message naming the rule."""

    retry_after: int | None = None
    """Seconds for a ``Retry-After`` header (503s that say "try again")."""

    def __init__(self, status: int, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.status = status
        self.rule = rule
        self.message = message


class Moved(ApiError):
    """This process does not (or no longer) own the match: the command was not applied here,
    and is sent on to the match's owner."""

    def __init__(self, match_id: str) -> None:
        super().__init__(503, "moved", f"match {match_id} is run by another server process; "
                                        "try again")
        self.match_id = match_id


RETRY_AFTER = 2

NOT_SAVED = "the match could not be saved, so nothing was applied; try again"
"""What a command is answered while the database cannot be written."""

NOT_READ = "the database cannot be reached just now and this is not in the server's memory; " \
    "try again"


class StoreDown(ApiError):
    """The database cannot be used right now: a command was not applied (or a read needs
    what only the database has). 503 with ``Retry-After``; the page shows its banner."""

    retry_after = RETRY_AFTER

    def __init__(self, message: str = NOT_SAVED) -> None:
        super().__init__(503, "store", message)
