"""Which process owns a live match on a shared PostgreSQL database: leases, and the fence a write
checks so that a process that lost a match's lease changes nothing of it."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session

from arena.store import rows as col
from arena.store.database import Database
from arena.store.records import Lease
from arena.store.rows import Reading

NOW = "extract(epoch from clock_timestamp())::float8"
"""Leases are timed by the database's clock, so processes on machines whose clocks differ
agree on when a lease lapsed."""


class LeaseLost(Exception):
    """An append fenced by a lease that another process has taken over since: nothing was
    written, and the process no longer owns the match."""


def check_fence(s: Session, match_id: str, fence: tuple[str, int] | None) -> None:
    """With a fence ``(owner, token)``, read (and share-lock) the match's lease row in the
    write's own transaction: if another process took the match over, nothing is written. A
    takeover waits for a running write, and a write after a takeover sees the new token."""
    if fence is None:
        return
    held = s.execute(text("SELECT owner, token FROM match_leases WHERE match_id = :m FOR SHARE"),
                     {"m": match_id}).first()
    if held is None or (held[0], int(held[1])) != fence:
        raise LeaseLost(f"match {match_id}: the lease is held by another process")


class LeaseRows(Database):
    """The ``match_leases`` table."""

    def lease_acquire(self, match_id: str, owner: str, url: str | None, ttl: float,
                      *, steal_from_url: bool = False) -> int | None:
        """Take a match's lease if it is free, lapsed, already ours, or (``steal_from_url``)
        held under our own address by an earlier process that has died (we listen on its
        address now). Returns the new fencing token, or None if another live process holds
        it. Taking a lease from another process raises the token, which fences the old
        holder; taking back our own keeps it (nobody wrote in between, or the token moved)."""
        steal = " OR match_leases.url = EXCLUDED.url" if steal_from_url and url else ""
        with self.session() as s, s.begin():
            row = s.execute(text(
                f"INSERT INTO match_leases (match_id, owner, url, token, expires_at) "
                f"VALUES (:m, :o, :u, 1, {NOW} + :ttl) "
                f"ON CONFLICT (match_id) DO UPDATE SET owner = EXCLUDED.owner, "
                f"url = EXCLUDED.url, expires_at = EXCLUDED.expires_at, "
                f"token = CASE WHEN match_leases.owner = EXCLUDED.owner "
                f"THEN match_leases.token ELSE match_leases.token + 1 END "
                f"WHERE match_leases.expires_at < {NOW} OR match_leases.owner = EXCLUDED.owner"
                f"{steal} RETURNING token"),
                {"m": match_id, "o": owner, "u": url, "ttl": ttl}).first()
            return None if row is None else int(row[0])

    def lease_renew(self, owner: str, ttl: float) -> dict[str, int]:
        """Extend every lease ``owner`` still holds; returns them with their tokens (a match
        missing here was taken over, its owner must stop)."""
        with self.session() as s, s.begin():
            rows = s.execute(text(f"UPDATE match_leases SET expires_at = {NOW} + :ttl "
                                  f"WHERE owner = :o RETURNING match_id, token"),
                             {"o": owner, "ttl": ttl})
            return {r[0]: int(r[1]) for r in rows}

    def lease_release(self, owner: str, match_ids: Sequence[str] | None = None) -> None:
        """Let leases lapse at once (a clean shutdown, or a finished match), so another
        process may take them without waiting."""
        with self.session() as s, s.begin():
            if match_ids is None:
                s.execute(text("UPDATE match_leases SET expires_at = 0 WHERE owner = :o"),
                          {"o": owner})
            else:
                for m in match_ids:
                    s.execute(text("UPDATE match_leases SET expires_at = 0 "
                                   "WHERE owner = :o AND match_id = :m"), {"o": owner, "m": m})

    def lease(self, match_id: str) -> Lease | None:
        with self.session() as s:
            row = s.execute(text(f"SELECT owner, url, token, expires_at < {NOW} "
                                 f"FROM match_leases WHERE match_id = :m"),
                            {"m": match_id}).first()
            if row is None:
                return None
            r = Reading("match_leases", match_id)
            return Lease(match_id, r(col.LEASE_OWNER, row[0]), r(col.LEASE_URL, row[1]),
                         r(col.LEASE_TOKEN, row[2]), bool(row[3]))

    def lapsed_running(self, limit: int = 100) -> list[str]:
        """Running matches nobody holds: no lease, or a lapsed one (their owner died)."""
        with self.session() as s:
            rows = s.execute(text(
                f"SELECT m.id FROM matches m LEFT JOIN match_leases l ON l.match_id = m.id "
                f"WHERE m.status = 'running' AND (l.match_id IS NULL OR l.expires_at < {NOW}) "
                f"ORDER BY m.created LIMIT :n"), {"n": limit})
            return [r[0] for r in rows]
