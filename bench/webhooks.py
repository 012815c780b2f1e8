"""What a webhook costs while its receiver says nothing (G-14): N distinct webhook URLs on one
silent receiver (it accepts each connection, reads the post and never answers), one post each,
and the process's resident memory before and once every post is waiting on its connection.

    .venv/bin/python bench/webhooks.py                       # this tree's announcer
    git show <commit>:src/arena/server/announce.py > /tmp/announce_old.py
    .venv/bin/python bench/webhooks.py --announce /tmp/announce_old.py   # another one

The posts are held open on purpose (a deadline of ten minutes), so the figure is the cost of
a webhook that is sending: its queue, its task and its connection, plus whatever client each
one builds. It prints the RSS before and after, the growth per webhook, and the tasks alive.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import os
import sys
from types import ModuleType


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load(path: str | None) -> ModuleType:
    import arena.server  # the whole server, as in a running one: the same baseline either way
    del arena.server
    if path is None:
        from arena.server import announce
        return announce
    spec = importlib.util.spec_from_file_location("announce_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def measure(announce: ModuleType, count: int) -> None:
    connected = 0
    everyone = asyncio.Event()
    held: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connected
        held.append(writer)
        connected += 1
        if connected >= count:
            everyone.set()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await reader.read()  # until the client gives up; never a byte back

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    os.environ["ARENA_WEBHOOK_HOSTS"] = f"127.0.0.1:{port}"
    vars(announce)["TIMEOUT"] = 600.0  # held open: the cost of webhooks that are sending
    announcer = announce.Announcer()
    urls = [f"http://127.0.0.1:{port}/api/webhooks/{i}/token-{i}" for i in range(count)]
    try:  # checked as the server checks them
        announce.check_url(urls[0])
    except announce.RuleError:  # an announcer from before the allowlist took ports
        os.environ["ARENA_WEBHOOK_HOSTS"] = "127.0.0.1"
    for url in urls:
        announce.check_url(url)
    gc.collect()
    before = rss_mb()
    for i, url in enumerate(urls):
        announcer.post(url, f"news {i}")
    try:
        await asyncio.wait_for(everyone.wait(), 60)
    except TimeoutError:
        print(f"only {connected} of {count} posts reached the receiver in 60 s")
    gc.collect()
    after = rss_mb()
    tasks = len(asyncio.all_tasks())
    print(f"{count} silent webhooks: RSS {before:.1f} MB -> {after:.1f} MB "
          f"(+{after - before:.1f} MB, {(after - before) * 1024 / count:.0f} KB per webhook); "
          f"{connected} connections open, {tasks} tasks alive")
    await announcer.close()
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--announce", help="an announce.py to measure instead of this tree's")
    args = parser.parse_args()
    asyncio.run(measure(load(args.announce), args.count))


if __name__ == "__main__":
    main()
