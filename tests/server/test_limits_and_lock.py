"""Socket limits and the SQLite file lock, against real servers.

Limits: live sockets per match and per client address (refused with close code 4429 and a
reason a page can show, counted out again when a socket ends however it ends), a socket that
floods messages, a request body that trickles, submissions per link. Each refusal says what
was refused and what to do.

One server per SQLite file: a second ``arena serve`` on the same file exits with 2 and one
line naming the file; the lock dies with the process, so a restart after SIGKILL works.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from arena.server.errors import ApiError
from arena.server.limits import RateLimit
from server.serverproc import ROOT, ServerProcess, free_port

pytestmark = pytest.mark.slow

PER_MATCH = 3
PER_ADDRESS = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("limits")
    proc = ServerProcess(f"sqlite:///{folder / 'limits.db'}", folder / "server.log", env={
        "ARENA_WS_PER_MATCH": str(PER_MATCH), "ARENA_WS_PER_ADDRESS": str(PER_ADDRESS),
        "ARENA_BODY_SECONDS": "1", "ARENA_ACT_LIMIT": "3,0.01"}).start()
    try:
        yield proc
    finally:
        proc.stop()


def ws_url(server: ServerProcess, match: dict[str, Any], token: str | None = None) -> str:
    token = token or str(match["tokens"]["spectator"])
    return server.url.replace("http", "ws", 1) + f"/ws/{match['id']}?token={token}"


def open_socket(url: str) -> tuple[ClientConnection | None, int | None, str]:
    """A live socket (after its hello), or None with the close code and reason."""
    ws = connect(url, open_timeout=10, legacy=True)
    try:
        first = json.loads(ws.recv(timeout=10))
    except ConnectionClosed as closed:
        ws.close()
        assert closed.rcvd is not None
        return None, closed.rcvd.code, closed.rcvd.reason
    assert first["type"] == "hello"
    return ws, None, ""


def open_when_free(url: str, timeout: float = 10.0) -> ClientConnection:
    """A socket closed by its client is counted out once the server has seen it go: try
    until it is (a close is not synchronous with the server's bookkeeping)."""
    deadline = time.monotonic() + timeout
    while True:
        ws, code, reason = open_socket(url)
        if ws is not None:
            return ws
        assert time.monotonic() < deadline, f"still refused: {code} {reason}"
        time.sleep(0.05)


def test_sockets_per_match_and_per_address_are_bounded_and_released(
        server: ServerProcess) -> None:
    a, b, c = (server.create("toy") for _ in range(3))
    live = [open_when_free(ws_url(server, a)) for _ in range(PER_MATCH)]
    # One more on the same match: accepted only to be closed with 4429 and the reason.
    ws, code, reason = open_socket(ws_url(server, a, a["tokens"]["seats"][0]))
    assert ws is None and code == 4429 and "this match" in reason and str(PER_MATCH) in reason
    # Other matches still take sockets, up to the address's total.
    live += [open_when_free(ws_url(server, b)) for _ in range(PER_ADDRESS - PER_MATCH)]
    ws, code, reason = open_socket(ws_url(server, c))
    assert ws is None and code == 4429
    assert reason == (f"too many live connections from this address (at most {PER_ADDRESS}); "
                      "close some tabs")
    # The HTTP side is not held back by a full socket table.
    assert server.http.get(server.url + "/api/games").status_code == 200

    # Closing sockets counts them out: the refused ones are accepted again.
    live.pop(0).close()
    live.append(open_when_free(ws_url(server, a)))
    live.pop().close()
    live.append(open_when_free(ws_url(server, c)))
    for ws in live:
        ws.close()
    # Every socket closed (and every refusal) released its place: the whole table is free.
    again = [open_when_free(ws_url(server, c)) for _ in range(PER_MATCH)]
    again += [open_when_free(ws_url(server, b)) for _ in range(PER_ADDRESS - PER_MATCH)]
    for ws in again:
        ws.close()


def test_sockets_ended_by_the_server_or_refused_at_the_door_are_counted_out(
        server: ServerProcess) -> None:
    m = server.create("toy")
    # Refused links (bad token, unknown match) and sockets the server closes (a binary frame)
    # far more often than the limits: none of them may keep a place.
    for _ in range(PER_ADDRESS + 2):
        try:  # refused at the handshake (403) or just after it (a 44xx close)
            ws, code, _ = open_socket(ws_url(server, m, "not-a-token"))
            assert ws is None and code is not None and code != 4429
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
        try:
            ws, code, _ = open_socket(ws_url(server, {"id": "no-such-match"}, "x"))
            assert ws is None and code is not None and code != 4429
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
        ws = open_when_free(ws_url(server, m))
        ws.send(b"\x00binary")
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=10)
    live = [open_when_free(ws_url(server, m)) for _ in range(PER_MATCH)]
    for ws in live:
        ws.close()


def test_a_socket_that_floods_messages_is_closed_with_a_reason(server: ServerProcess) -> None:
    m = server.create("toy")
    ws = open_when_free(ws_url(server, m))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            ws.send(json.dumps({"type": "ping"}))
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert "too many messages" in closed.value.rcvd.reason
    ws.close()


@pytest.mark.parametrize("size", [5 * 1024, 70 * 1024, 2 * 1024 * 1024])
def test_an_oversized_message_is_closed_with_1009(server: ServerProcess, size: int) -> None:
    """Over the message cap (4 KiB) the app closes with 1009; over the frame cap (64 KiB)
    uvicorn's protocol does the same, with a close frame rather than a reset."""
    m = server.create("toy")
    ws = open_when_free(ws_url(server, m))
    with pytest.raises(ConnectionClosed) as closed:
        if size <= 64 * 1024:
            ws.send("x" * size)
        else:
            # The frame's header says how long it is, and the server refuses it from that:
            # send the header and a little of the payload only. Sending all 2 MiB blocked
            # once the server stopped reading, and on a loaded machine its close timeout
            # then reset the connection before the client read the close frame.
            _send_frame_head(ws, size, b"x" * 1024)
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    ws.close()


def _send_frame_head(ws: ClientConnection, size: int, part: bytes) -> None:
    """A client's text frame (RFC 6455 5.2: FIN, opcode 1, masked, 64-bit length) that
    announces ``size`` bytes, with only ``part`` of its payload."""
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big") + mask
    ws.socket.sendall(head + bytes(b ^ mask[i % 4] for i, b in enumerate(part)))


def test_a_body_that_trickles_is_cut_off_with_408(server: ServerProcess) -> None:
    """A declared body that never finishes arriving is answered 408 after
    ``ARENA_BODY_SECONDS`` (1 s here), and the server keeps answering others meanwhile. The
    socket's 30 s timeout is a hang guard: the 408 itself says the server gave up."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
        raw.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nContent-Length: 500\r\n\r\n{\"game\": ")
        assert server.http.get(server.url + "/api/games").status_code == 200
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"did not arrive within 1 s" in answer


def test_submissions_per_link_are_bounded_with_the_wait_named(server: ServerProcess) -> None:
    m = server.create("toy")
    url = f"{server.url}/api/matches/{m['id']}/submit"
    seat0, seat1 = m["tokens"]["seats"]
    answers = [server.http.post(url, params={"token": seat0}, json={"text": "7"})
               for _ in range(5)]
    assert [r.status_code for r in answers[:3]] == [422, 422, 422]  # bad moves still count
    assert answers[3].status_code == 429
    assert answers[3].json()["error"].startswith("rate: too many submissions from this link; "
                                                 "try again in ")
    # Another link of the same match is not held back.
    assert server.http.post(url, params={"token": seat1}, json={"text": "7"}).status_code == 422


def test_chat_rate_is_per_link_and_names_the_wait(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "Ann", "bot": False}, {"name": "Bob", "bot": False}])
    url = f"{server.url}/api/matches/{m['id']}/chat"
    seat0, seat1 = m["tokens"]["seats"]
    answers = [server.http.post(url, params={"token": seat0},
                                json={"channel": "table", "text": f"hi {i}"}) for i in range(10)]
    refused = [r for r in answers if r.status_code == 429]
    assert answers[0].status_code == 200 and refused
    assert "too many chat messages from this link; try again in" in refused[0].json()["error"]
    assert server.http.post(url, params={"token": seat1},
                            json={"channel": "table", "text": "me too"}).status_code == 200


# ---------------------------------------------------------------- one server per SQLite file

def serve(database: Path, port: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "arena", "serve", "--port", str(port),
         "--database", str(database)],
        capture_output=True, text=True, timeout=60, env=env, cwd=str(ROOT), check=False)


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    first = ServerProcess(f"sqlite:///{db}", tmp_path / "first.log").start()
    try:
        m = first.create("toy")
        second = serve(db, free_port())
        assert second.returncode == 2, second
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert first.proc is not None
        assert lines[0] == (f"arena: serve: another Arena server (pid {first.proc.pid}) is "
                            f"using the database {db.resolve()}; stop it first, or give this "
                            "server its own --database")
        assert "Arena is running" not in second.stdout
        # The first server is untouched.
        assert first.http.get(f"{first.url}/api/matches/{m['id']}").status_code == 200

        # SIGKILL: no handler runs, yet the lock goes with the process; a restart works.
        first.kill()
        first.start()
        assert first.http.get(f"{first.url}/api/matches/{m['id']}").status_code == 200
        assert serve(db, free_port()).returncode == 2  # and is held again
        # Another file is another server's business.
        other = ServerProcess(f"sqlite:///{tmp_path / 'two.db'}", tmp_path / "two.log").start()
        other.stop()
    finally:
        first.stop()
    # A clean stop releases it too.
    again = ServerProcess(f"sqlite:///{db}", tmp_path / "again.log").start()
    again.stop()


@pytest.mark.parametrize("later", [0.0, 0.15, 0.3])
def test_the_named_wait_is_whole_seconds_rounded_up_never_zero(later: float) -> None:
    """With a fraction of a token left, the wait used to print as "0 s", and
    a player who retried at once was refused again."""
    rate = RateLimit(burst=2, per_second=3.0, what="chat messages from this link")
    rate.take("k", now=100.0)
    rate.take("k", now=100.0)
    with pytest.raises(ApiError) as refused:
        rate.take("k", now=100.0 + later)
    words = refused.value.message
    wait = int(words.rsplit("try again in ", 1)[1].split(" s")[0])
    assert wait >= 1 and wait >= (1.0 - later * 3.0) / 3.0, words
