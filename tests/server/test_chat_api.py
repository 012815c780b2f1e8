"""G-13 over the API: who reads which channel (per token, over /events and the socket's
view), the per-link rate limit, the host's mute, bad input naming the rule, and a restart (a
SIGKILL) that loses no message because chat lines are inputs of the stored log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.serverproc import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(f"sqlite:///{tmp_path / 'chat.db'}", tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def texts(server: ServerProcess, base: str, token: str) -> list[str]:
    events = server.http.get(base + "/events", params={"token": token}).json()["events"]
    return [e["data"]["text"] for e in events if e["kind"] == "chat"]


def post(server: ServerProcess, base: str, token: str, body: Any) -> Any:
    return server.http.post(base + "/chat", params={"token": token}, json=body)


def test_channels_rate_limit_mute_and_restart(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}],
                      settings={"time_scale": 50.0})
    base = f"{server.url}/api/matches/{m['id']}"
    s0, s1 = m["tokens"]["seats"]
    spec, host = m["tokens"]["spectator"], m["tokens"]["host"]

    assert post(server, base, s0, {"channel": "table", "text": "hi all"}).status_code == 200
    assert post(server, base, spec, {"channel": "spectators", "text": "B looks nervous"}
                ).status_code == 200
    r = post(server, base, spec, {"channel": "table", "text": "psst"})
    assert r.status_code in (400, 403, 409, 422) and "G-13" in r.json()["error"]
    r = post(server, base, s1, {"channel": "table", "text": "x" * 501})
    assert "G-13" in r.json()["error"] and "500" in r.json()["error"]
    r = post(server, base, s1, {"text": ["not", "text"]})
    assert r.status_code < 500 and "G-13" in r.json()["error"]

    assert texts(server, base, s1) == ["hi all"]
    assert texts(server, base, spec) == ["hi all", "B looks nervous"]
    assert texts(server, base, host) == ["hi all", "B looks nervous"]

    # The host mutes the table; a seat is refused, the host still speaks.
    r = server.http.post(base + "/host/mute", params={"token": host},
                         json={"channel": "table", "muted": True})
    assert r.status_code == 200, r.text
    assert "muted" in post(server, base, s0, {"channel": "table", "text": "?"}).json()["error"]
    r = server.http.post(base + "/host/mute", params={"token": s0},
                         json={"channel": "table", "muted": False})
    assert r.status_code == 403
    assert post(server, base, host, {"channel": "table", "text": "quiet"}).status_code == 200
    server.http.post(base + "/host/mute", params={"token": host},
                     json={"channel": "table", "muted": False})

    # A burst past the limit is refused with 429 and the wait named; nothing else is lost.
    answers = [post(server, base, s1, {"channel": "table", "text": f"spam {i}"}).status_code
               for i in range(12)]
    assert 429 in answers and answers[0] == 200

    before = {t: texts(server, base, t) for t in (s0, s1, spec, host)}
    server.kill()
    server.start()
    after = {t: texts(server, base, t) for t in (s0, s1, spec, host)}
    assert after == before
    view = server.http.get(base + "/view", params={"token": spec}).json()
    assert [c["id"] for c in view["chat"]] == ["table", "spectators"]
