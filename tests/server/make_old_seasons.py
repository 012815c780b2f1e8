"""Writes ``old_seasons.json``: seasons as the old season engine stored them (tables
``seasons``, ``season_entries``, ``season_tokens``, and the Locked Out! match it started),
for ``test_season_import.py``.

The old engine is gone from this tree, so this script runs against a checkout of the commit
that still had it (4292872), not against this one::

    git archive 4292872 src tests/server/inprocess.py | tar -x -C /tmp/oldarena
    PYTHONPATH=/tmp/oldarena/src:/tmp/oldarena python tests/server/make_old_seasons.py

Each season is driven through the old server's own routes, so every stored row (the head,
each input, the ``record`` snapshot of ``LiveSeason.to_json()``, the links) is exactly what
the old engine wrote; the rows are then dumped as they are in the database.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
OUT = HERE / "old_seasons.json"


def _drive(client: Any) -> dict[str, str]:
    """Make the seasons; returns name -> season id."""
    made: dict[str, str] = {}

    def create(name: str, cast: list[Any], **extra: Any) -> tuple[str, dict[str, Any]]:
        r = client.post("/api/seasons", json={"cast": cast, "seed": 1000 + len(made), **extra})
        assert r.status_code == 201, r.text
        body = r.json()
        made[name] = body["id"]
        return body["id"], body["tokens"]

    def host(sid: str, tokens: dict[str, Any], action: str, body: dict[str, Any]) -> Any:
        r = client.post(f"/api/seasons/{sid}/host/{action}?token={tokens['host']}", json=body)
        assert r.status_code == 200, (action, r.text)
        return r.json()

    def player(sid: str, tokens: dict[str, Any], who: str, path: str, body: dict[str, Any]
               ) -> None:
        r = client.post(f"/api/seasons/{sid}/{path}?token={tokens['players'][who]}", json=body)
        assert r.status_code == 200, (path, r.text)

    # A gift on its clock: a solo winner (Ann, most bars) and another escaped player; a
    # private talk between the host and Ben, a ledger adjustment and a round limit first.
    sid, tok = create("gift", ["Ann", "Ben", "Cat", "Dan"])
    host(sid, tok, "mm_rounds", {"max_rounds": 7})
    player_line = {"text": "Ben, a word about the vault?", "player": "Ben"}
    r = client.post(f"/api/seasons/{sid}/private?token={tok['host']}", json=player_line)
    assert r.status_code == 200, r.text
    player(sid, tok, "Ben", "private", {"text": "Sure, what is it?"})
    host(sid, tok, "adjust", {"player": "Dan", "what": "garnets", "amount": 2,
                              "reason": "brought the snacks"})
    host(sid, tok, "record_main", {"result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
        "bars": {"Ann": 7, "Ben": 3, "Cat": 2, "Dan": 0}, "ec": "Cat"},
        "reason": "played at the club"})

    # A nomination whose clock the host extended, then paused.
    sid, tok = create("nominate_paused", ["Ann", "Ben", "Cat", "Dan", "Eve"])
    host(sid, tok, "record_main", {"result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan", "Eve"],
        "bars": {"Ann": 4, "Ben": 4, "Cat": 1}, "ec": "Cat"}, "reason": "played by post"})
    host(sid, tok, "extend", {"seconds": 3600})
    host(sid, tok, "pause", {})

    # Starting the Death Match, with no clock (the host set none).
    sid, tok = create("dm_pick", ["Ann", "Ben", "Cat", "Dan"])
    host(sid, tok, "record_main", {"result": {
        "escaped": ["Ann", "Ben", "Cat"], "trapped": ["Dan"],
        "bars": {"Ann": 2, "Ben": 2, "Cat": 6}}, "reason": "played at the club"})
    player(sid, tok, "Cat", "gift", {"to": "Ann"})
    player(sid, tok, "Dan", "nominate", {"dmo": "Ben"})

    # Starting the Death Match on a clock the host set.
    sid, tok = create("dm_pick_clock", ["Ann", "Ben", "Cat"])
    host(sid, tok, "record_main", {"result": {
        "escaped": ["Ann"], "trapped": ["Ben", "Cat"], "bars": {"Ann": 3}, "ec": "Ben"},
        "reason": "played at the club"})
    player(sid, tok, "Ben", "nominate", {"dmo": "Cat"})
    state = client.get(f"/api/seasons/{sid}?token={tok['host']}").json()
    host(sid, tok, "deadline", {"at": state["now"] + 5 * 3600})

    # A Main Match in play here (a Locked Out! match of the old engine).
    sid, tok = create("mm_play", ["Ann", "Ben", "Cat"])
    host(sid, tok, "start_main", {})

    # A finished season, down to its winner.
    sid, tok = create("finished", ["Ann", "Ben", "Cat"])
    host(sid, tok, "record_main", {"result": {
        "escaped": ["Ann"], "trapped": ["Ben", "Cat"], "bars": {"Ann": 5, "Ben": 1},
        "ec": "Ben"}, "reason": "played at the club"})
    player(sid, tok, "Ben", "nominate", {"dmo": "Cat"})
    host(sid, tok, "record_death", {"winner": "Ben", "game": "chess",
                                    "reason": "played on a board"})
    host(sid, tok, "record_death", {"loser": "Ben", "game": "boxes",
                                    "reason": "played on paper"})
    return made


def _rows(db: Path, made: dict[str, str]) -> dict[str, Any]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row

    def all_of(sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in con.execute(sql, args)]

    out: dict[str, Any] = {"seasons": {}, "matches": []}
    for name, sid in made.items():
        season = all_of("SELECT * FROM seasons WHERE id = ?", sid)[0]
        out["seasons"][name] = {
            "row": season,
            "entries": all_of("SELECT season_id, version, data, t FROM season_entries "
                              "WHERE season_id = ? ORDER BY version", sid),
            "tokens": all_of("SELECT * FROM season_tokens WHERE season_id = ?", sid),
        }
        record = json.loads(season["record"])
        for ep in record["episodes"]:
            for block in (ep.get("main"), ep.get("death_match")):
                if block and block.get("match"):
                    mid = block["match"]
                    out["matches"].append({
                        "row": all_of("SELECT * FROM matches WHERE id = ?", mid)[0],
                        "tokens": all_of("SELECT * FROM tokens WHERE match_id = ?", mid),
                        "events": all_of("SELECT match_id, version, kind, data, \"to\", t "
                                         "FROM events WHERE match_id = ? ORDER BY version",
                                         mid)})
    con.close()
    return out


def main() -> None:
    import pytest
    from tests.server.inprocess import in_process_server  # the old tree's

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        patch = pytest.MonkeyPatch()
        with in_process_server(folder, patch) as client:
            made = _drive(client)
        data = _rows(folder / "arena.db", made)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data['seasons'])} seasons)", file=sys.stderr)


if __name__ == "__main__":
    main()
