"""Locked Out!: six players, sixteen safes, lights, bargains and escapes (rulings LO-1..LO-11)."""

from arena.games.lockedout.match import GAME, LockedOutGame

__all__ = ["GAME", "LockedOutGame"]
