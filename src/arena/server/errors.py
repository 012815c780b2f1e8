"""Errors the API turns into JSON answers (never a 500, issue 9 point 8)."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses, with the HTTP status and a message naming the rule."""

    def __init__(self, status: int, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.status = status
        self.rule = rule
        self.message = message
