"""A real ``python -m arena serve`` in a subprocess, for the server and browser tests.

The toy game of ``tests/toygame/`` is registered through ``ARENA_EXTRA_GAMES`` so the server
can run it next to the real games.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """One server process on a database; :meth:`kill` is SIGKILL, :meth:`start` restarts."""

    def __init__(self, database: str, log_path: Path, port: int | None = None, *,
                 create_limit: str | None = "10000,1000",
                 env: dict[str, str] | None = None) -> None:
        """``create_limit`` lifts the per-address creation limit for suites that create many
        matches at once; None keeps the server's default (the flood test). ``env`` adds to
        the server's environment (``ARENA_WS_PER_ADDRESS`` and the like)."""
        self.create_limit = create_limit
        self.env = dict(env or {})
        self.database = database
        self.log_path = log_path
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.banner = ""
        self.http = httpx.Client(timeout=30)  # one client: a fresh one per call costs ~0.1 s

    def start(self, timeout: float = 60.0) -> ServerProcess:
        env = dict(os.environ)
        env["ARENA_EXTRA_GAMES"] = "toygame:TOY"
        if self.create_limit is not None:
            env["ARENA_CREATE_LIMIT"] = self.create_limit
            env["ARENA_ACT_LIMIT"] = self.create_limit
            env["ARENA_LIVE_PER_ADDRESS"] = "100000"
        env.update(self.env)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT / "tests"), str(ROOT / "src"), env.get("PYTHONPATH", "")])
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed when the process ends
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "arena", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--database", self.database],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=str(ROOT))
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            try:
                if self.http.get(self.url + "/api/games", timeout=2).status_code == 200:
                    self.banner = self.log()
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as in a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        self.http.close()
        self.http = httpx.Client(timeout=30)
        if self.proc is not None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None

    # ------------------------------------------------------------------ API helpers
    def create(self, game: str, *, seats: list[dict[str, Any]] | None = None,
               settings: dict[str, Any] | None = None, config: dict[str, Any] | None = None,
               seed: int | None = 1) -> dict[str, Any]:
        # Tests use instant bots unless they say otherwise (G-11; live matches default to human).
        settings = {"bot_pace": "instant", **(settings or {})}
        body: dict[str, Any] = {"game": game, "settings": settings, "config": config or {}}
        if seats is not None:
            body["seats"] = seats
        if seed is not None:
            body["seed"] = seed
        r = self.http.post(self.url + "/api/matches", json=body)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data
