"""The server: a Starlette adapter over the match runner (DESIGN.md, "the server is an adapter").

Each live match has one owner that takes one command at a time, writes every new event to the
store before answering, drives deadlines and bots from a scheduler task, and pushes each
connected viewer exactly the events it may see.
"""

from arena.server.app import create_app

__all__ = ["create_app"]
