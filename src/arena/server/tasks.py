"""Stopping the server's background tasks (a match's scheduler, the season watcher, the loop
monitor) the one way that is safe: cancel, then wait until the task has really finished, so
nothing it was doing runs on after its owner has stopped."""

from __future__ import annotations

import asyncio
import contextlib


async def stop_task(task: asyncio.Task[None] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
