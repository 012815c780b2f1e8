"""The post-match review over the API: refused while the match runs (it would coach the
seats), judged once however many ask, cut per reader by G-9, never to a broadcast link
(G-15), and each decision's replay entry is the reader's own, where its phase began."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from arena.core import review
from arena.server import reviews
from server.inprocess import TestClient, in_process_server

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with in_process_server(tmp_path_factory.mktemp("review")) as c:
        yield c


def _create(client: TestClient, *, bots: bool, reveal: bool = True) -> dict[str, Any]:
    r = client.post("/api/matches", json={
        "game": "lockedout", "seed": 8,
        "settings": {"bot_pace": "instant", "reveal_at_end": reveal},
        "config": {"max_rounds": 3},
        "seats": [{"name": n, "bot": True, "level": "easy"} if bots else {"name": n}
                  for n in SIX]})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _finished(client: TestClient, m: dict[str, Any]) -> None:
    """Waits for the bots; the suite's timeout guards a hang, never the wall clock."""
    while client.get(f"/api/matches/{m['id']}").json()["status"] != "finished":
        time.sleep(0.05)


def _review(client: TestClient, m: dict[str, Any], token: str) -> Any:
    return client.get(f"/api/matches/{m['id']}/review", params={"token": token})


def test_no_review_while_the_match_runs(client: TestClient) -> None:
    m = _create(client, bots=False)
    for token in (m["tokens"]["host"], m["tokens"]["seats"][0], m["tokens"]["spectator"]):
        r = _review(client, m, token)
        assert r.status_code == 409 and "G-9" in r.text
    assert _review(client, m, "nonsense").status_code in (403, 404)


def test_each_reader_sees_what_g9_lets_it_see(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    judge = review.judge

    def counting(match: Any) -> Any:
        calls.append(match)
        return judge(match)

    monkeypatch.setattr(reviews.review, "judge", counting)
    m = _create(client, bots=True, reveal=False)
    _finished(client, m)
    host = _review(client, m, m["tokens"]["host"]).json()
    seat0 = _review(client, m, m["tokens"]["seats"][0]).json()
    spectator = _review(client, m, m["tokens"]["spectator"]).json()
    assert len(calls) == 1  # judged once for every reader
    assert [s["name"] for s in host["seats"]] == SIX
    assert all(s["decisions"] for s in host["seats"])  # every seat tried a safe
    # the secrets stay kept (the host's choice, G-9): a seat sees its own, nobody else's
    assert seat0["seats"][0]["decisions"] and not any(s["decisions"] for s in seat0["seats"][1:])
    assert not any(s["decisions"] for s in spectator["seats"])
    assert spectator["seats"][2]["hidden"] == len(host["seats"][2]["decisions"])
    assert seat0["seats"][0]["decisions"] == [
        {**d, "replay": seat0["seats"][0]["decisions"][i]["replay"]}
        for i, d in enumerate(host["seats"][0]["decisions"])]
    for reader, token in ((host, m["tokens"]["host"]), (seat0, m["tokens"]["seats"][0])):
        for seat in reader["seats"]:
            costs = [d["cost"] for d in seat["decisions"]]
            assert [costs[i] for i in seat["costliest"]] == sorted(
                (c for c in costs if c > 0), reverse=True)[:3]
            for d in seat["decisions"][:2]:
                # the reader's own entry: its view there is the phase the decision was in
                shown = client.get(f"/api/matches/{m['id']}/replay",
                                   params={"token": token, "version": d["replay"]})
                assert shown.status_code == 200, shown.text
                assert shown.json()["phase"]["name"] == d["phase"]


def test_revealed_matches_show_everyone_everything_but_never_to_a_broadcast(
        client: TestClient) -> None:
    m = _create(client, bots=True)
    _finished(client, m)
    host = _review(client, m, m["tokens"]["host"]).json()
    spectator = _review(client, m, m["tokens"]["spectator"]).json()
    assert [s["decisions"] for s in spectator["seats"]] == [
        s["decisions"] for s in host["seats"]]
    assert any(d["cost"] > 0 for s in host["seats"] for d in s["decisions"])
    opened = client.post(f"/api/matches/{m['id']}/host/broadcast",
                         params={"token": m["tokens"]["host"]}, json={"delay": 60})
    assert opened.status_code == 200, opened.text
    r = _review(client, m, opened.json()["token"])
    assert r.status_code == 403 and "broadcast" in r.text
