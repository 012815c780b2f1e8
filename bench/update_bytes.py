"""Bytes per socket per tick for a Feather spectator (issue 29 point 1), before and after.

A real server on a throwaway SQLite file runs one Feather match between two instant bots at
short ticks, with one spectator socket. Every update the socket receives is counted as sent
("after": the view as a difference from the one sent before), and beside it the size the same
update had when each carried the whole view ("before": the rebuilt view put back in the
message), so both figures come from the same run, tick for tick.

    .venv/bin/python bench/update_bytes.py [--ticks 120] [--tick 0.2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from arena.server import viewdiff  # noqa: E402
from server.serverproc import ServerProcess  # noqa: E402


def updates(url: str, count: int) -> list[tuple[int, int]]:
    """(bytes received, bytes of the same update carrying the whole view) per update."""
    out: list[tuple[int, int]] = []
    view: Any = None
    with connect(url, max_size=None) as ws:
        json.loads(ws.recv(timeout=30))  # hello
        while len(out) < count + 1:
            text = ws.recv(timeout=30)
            assert isinstance(text, str)
            message = json.loads(text)
            if message.get("type") != "update":
                continue
            view = (viewdiff.apply(view, message.pop("patch")) if "patch" in message
                    else message.pop("view"))
            message["view"] = view
            out.append((len(text.encode()), len(json.dumps(message).encode())))
    return out[1:]  # the first is the catch-up, whole in both


def measure(server: ServerProcess, ticks: int, tick: float, viewer: str) -> dict[str, Any]:
    """Before: a socket asking for the picture, each update counted with its whole view (what
    every socket got before). After: a socket as the page opens it (``svg=0``), as received."""
    m = server.create("feather", seats=[{"name": "Ann", "bot": True}, {"name": "Bob", "bot": True}],
                      config={"tick": tick, "study": 0, "practice": False,
                              "session_ticks": ticks + 40})
    token = m["tokens"]["spectator"] if viewer == "spectator" else m["tokens"]["seats"][0]
    url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token={token}&since=0"
    with ThreadPoolExecutor(2) as pool:
        old = pool.submit(updates, url, ticks)
        new = pool.submit(updates, url + "&svg=0", ticks)
        before, after = old.result(), new.result()
    return {"whole": [w for _, w in before], "sent": [s for s, _ in after]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=120)
    parser.add_argument("--tick", type=float, default=0.2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{folder}/bench.db", Path(folder) / "server.log")
        server.start()
        try:
            print(f"Feather, two instant bots, {args.tick} s ticks, {args.ticks} updates per socket")
            print(f"{'socket':10} {'before p50':>11} {'after p50':>10} "
                  f"{'before mean':>12} {'after mean':>11} {'ratio':>6}")
            for viewer in ("spectator", "seat"):
                f = measure(server, args.ticks, args.tick, viewer)
                b50, a50 = statistics.median(f["whole"]), statistics.median(f["sent"])
                bm, am = statistics.fmean(f["whole"]), statistics.fmean(f["sent"])
                print(f"{viewer:10} {b50:11.0f} {a50:10.0f} {bm:12.0f} "
                      f"{am:11.0f} {bm / am:5.1f}x")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
