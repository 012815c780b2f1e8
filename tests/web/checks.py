"""Checks every page must pass: no sideways scroll, the clock in
view when scrolled to the bottom, no raw JSON or exponent number in the text, every rule id
inside a link, and no serious or critical axe-core violation.

Each check returns a list of problems (empty when the page is fine) so a test can say all of
them at once; ``assert_page_ok`` asserts them together."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from wording import ONE_OF_MANY

AXE = Path(__file__).parent / "vendor" / "axe.min.js"

# A rule id of RULINGS.md: G-3, LM-15, ... (not "H2" or "V3", which are Lockmaker pieces).
RULE_ID = re.compile(r"\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b")
EXPONENT = re.compile(r"\b\d(?:\.\d+)?e[+-]?\d+\b", re.IGNORECASE)
RAW_JSON = re.compile(r'[{\[]\s*"[A-Za-z_][^"]*"\s*:|\{\s*\}|"\s*:\s*[\[{]')


def sideways(page: Any) -> list[str]:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    view = page.evaluate("() => window.innerWidth")
    if width > view + 1:
        return [f"the page scrolls sideways: {width} px wide in a {view} px window"]
    return []


def clock_in_view_at_bottom(page: Any) -> list[str]:
    clock = page.locator("[data-testid=clock]")
    if clock.count() == 0:
        return []
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    box = page.evaluate(
        "() => { const r = document.querySelector('[data-testid=clock]').getBoundingClientRect();"
        " return [r.top, r.bottom, window.innerHeight]; }")
    page.evaluate("() => window.scrollTo(0, 0)")
    top, bottom, height = box
    if top < -1 or bottom > height + 1:
        return [f"the clock is out of view when scrolled to the bottom (top {top}, bottom {bottom})"]
    return []


def plain_text(page: Any) -> list[str]:
    text = page.evaluate("() => document.body.innerText")
    problems = []
    # A link shown in full (the host's seat links) holds a hex match id such as 8e5130561056:
    # digits in an address are not a number written for a reader.
    text = re.sub(r"https?://\S+", "<link>", text)
    for m in EXPONENT.finditer(text):
        problems.append(f"exponent number in the page: {text[max(0, m.start() - 30):m.end() + 30]!r}")
    for m in RAW_JSON.finditer(text):
        problems.append(f"raw JSON in the page: {text[max(0, m.start() - 30):m.end() + 40]!r}")
    return problems[:5]


def rule_ids_linked(page: Any) -> list[str]:
    """Every rule id in the visible text sits inside an <a> (outside the notation drawer's
    free text and form fields)."""
    bare = page.evaluate(
        r"""() => {
          const re = /\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b/g;
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          let n;
          while ((n = walker.nextNode())) {
            const el = n.parentElement;
            if (!el || el.closest("a, textarea, input, select, script, style, code, [hidden]")) continue;
            const m = n.textContent.match(re);
            if (m) out.push(n.textContent.trim().slice(0, 80));
          }
          return out;
        }""")
    return [f"rule id not linked: {t!r}" for t in bare[:5]]


def axe(page: Any, *, exclude: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical violations of the page as it stands."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated by the test's browser connection, which the page's Content-Security-Policy
        # does not govern; a <script> tag with the library's text would be refused by it.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate(
        """async (exclude) => {
          const ctx = exclude && exclude.length ? {exclude: exclude.map((s) => [s])} : document;
          const r = await window.axe.run(ctx, {resultTypes: ['violations']});
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' at '
                 + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
        }""", exclude or [])
    return list(result)


def counts_agree(page: Any) -> list[str]:
    """Every count on the page reads with its noun in the right number, wherever it was drawn
    (a game's board, its log, the result, the lobby, a season)."""
    found = ONE_OF_MANY.search(page.locator("body").inner_text())
    return [f"a count of one in the plural: {found.group(0)!r}"] if found else []


def page_problems(page: Any, *, with_axe: bool = False) -> list[str]:
    problems = sideways(page) + plain_text(page) + rule_ids_linked(page) + counts_agree(page)
    problems += clock_in_view_at_bottom(page)
    if with_axe:
        problems += axe(page)
    return problems


def assert_page_ok(page: Any, where: str, *, with_axe: bool = False) -> None:
    problems = page_problems(page, with_axe=with_axe)
    assert not problems, f"{where}: " + "; ".join(problems)
