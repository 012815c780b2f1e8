"""A screenshot of every phase a browser test's page goes through (play whole
matches and look at every phase), switched on by ``ARENA_PLAY_SHOTS=<folder>`` and off
otherwise. ``scripts/play_shots.py`` runs the whole-match browser tests with it.

Each browser context gets an init script that watches the page's phase title (and the
result card) and, two animation frames after a change (the redraw done), asks Python for a
picture: ``<folder>/<game>/<width>-<role>-<NN>-<phase>.png``. The tests themselves are not
changed: they play as they always do, by taps at 390x844 and by the keyboard at 1280x800."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

WATCH = """(() => {
  let last = null;
  const label = () => {
    if (document.querySelector('[data-testid=result]')) return 'result';
    const h = document.querySelector('[data-testid=phase-name]');
    return h && h.textContent.trim() ? h.textContent.trim() : null;
  };
  const check = () => {
    const now = label();
    if (!now || now === last) return;
    last = now;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (window.__arenaShot) window.__arenaShot(now);
    }));
  };
  const start = () => new MutationObserver(check).observe(document.body,
    { childList: true, subtree: true, characterData: true });
  if (document.body) start(); else addEventListener('DOMContentLoaded', start);
})();"""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "page"


def record(context: Any, folder: Path) -> None:
    """Photograph every phase of every page this browser context opens."""
    counters: dict[str, Any] = {}

    def shoot(source: Any, phase: str) -> None:
        page = source["page"]
        try:
            who = page.evaluate("() => { const s = window.Arena && window.Arena.state;"
                                " return s && s.boot ? [s.boot.game, (s.view && s.view.role)"
                                " || 'page'] : ['page', 'page']; }")
            width = (page.viewport_size or {}).get("width", 0)
            key = f"{who[0]}/{width}-{who[1]}"
            n = next(counters.setdefault(key, itertools.count(1)))
            path = folder / who[0] / f"{width}-{who[1]}-{n:02d}-{slug(phase)}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
        except Exception:  # a page closing under the picture is no test failure
            pass

    context.expose_binding("__arenaShot", shoot)
    context.add_init_script(WATCH)
