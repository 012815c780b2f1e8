"""Keyboard-only play in the browser tests: where the focus is, waiting for the
page to move it, and Tab presses counted until a control is reached."""

from __future__ import annotations

from typing import Any


def active_testid(page: Any) -> str:
    return str(page.evaluate("() => (document.activeElement && document.activeElement.dataset"
                             " && document.activeElement.dataset.testid) || ''"))


def await_focus(page: Any, prefix: str) -> str:
    """Wait until the page has put the focus on a control whose test id starts with
    ``prefix`` (its focus keeper, after the view changed phase); return that id."""
    try:
        page.wait_for_function(
            "p => { const e = document.activeElement; return !!(e && e.dataset && e.dataset.testid"
            " && e.dataset.testid.startsWith(p)); }", arg=prefix, timeout=10_000)
    except Exception as e:
        where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
        raise AssertionError(f"the focus is not on {prefix}...: it is on {where}") from e
    return active_testid(page)


def tab_to(page: Any, testid: str, limit: int, key: str = "Tab") -> int:
    """Press Tab (or Shift+Tab) until ``testid`` has the focus, at most ``limit`` times (a
    sensible tab order: the board's controls are a few presses apart)."""
    seen = []
    for n in range(1, limit + 1):
        page.keyboard.press(key)
        if active_testid(page) == testid:
            return n
        seen.append(page.evaluate("() => document.activeElement.outerHTML.slice(0, 60)"))
    raise AssertionError(f"{testid} not reached in {limit} presses of {key}: {seen}")
