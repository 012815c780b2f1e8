"""Errors the API turns into JSON answers (never a 500, issue 9 point 8)."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses, with the HTTP status and a message naming the rule."""

    def __init__(self, status: int, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.status = status
        self.rule = rule
        self.message = message


class Moved(ApiError):
    """This process does not (or no longer) own the match: the command was not applied here,
    and is sent on to the match's owner (issue 20 point 1)."""

    def __init__(self, match_id: str) -> None:
        super().__init__(503, "moved", f"match {match_id} is run by another server process; "
                                        "try again")
        self.match_id = match_id
