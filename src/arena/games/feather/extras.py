"""What Light as a Feather adds to the server (LF-12), declared as
:class:`arena.core.extras.Extras` and mounted by the server, which names no game:

- ``/feather/editor``: the scenario editor, a shell that loads
  ``/static/games/feather_editor.js`` (Preact + htm, like the match pages), which reads the
  scenario API like any client;
- ``GET /api/scenarios``: the shipped scenarios and the library's, by name;
- ``GET /api/scenarios/{name}``: one of them with its TOML text;
- ``POST /api/scenarios``: save a host's scenario under a new name with an author's note,
  refused (422, nothing stored) when the name reads as a path or the text has a problem;
- ``POST /api/scenarios/check``: every problem of a scenario being edited, its TOML, each
  objective in plain words and a preview of the board as a player first sees it.

The library is the game's shelf (:class:`arena.core.extras.Shelf`), kept by the server's
database. A match chooses a library scenario by name (``config.scenario``); :func:`prepare`
copies its text into the match's config at creation (``scenario_text``), so the match's own
record holds its puzzle and a replay never reads the library again; a generated puzzle is
written in the same way.
"""

from __future__ import annotations

import html
import tomllib
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from arena.core import rng as rngmod
from arena.core.errors import ParseError, RuleError
from arena.core.extras import (
    Call,
    Endpoint,
    ExtraPage,
    Extras,
    Refusal,
    Shelf,
    ShelfItem,
    WriteLimit,
)
from arena.games.feather import generate as gen
from arena.games.feather.check import MAX_NAME, RESERVED_NAMES, Problem, name_problems, problems
from arena.games.feather.match import GAME, GENERATED, MAX_SCENARIO_TEXT
from arena.games.feather.render import render_svg
from arena.games.feather.scenario import (
    SCENARIO_DIR,
    SessionSpec,
    load_scenario,
    parse_session,
    shipped,
)
from arena.games.feather.tick import new_board
from arena.games.feather.toml_text import dump

MAX_LIBRARY = 1000
"""Scenarios the library holds: saving is open to anyone who may create a match, so the
table is bounded like everything else a client can fill."""
MAX_SCENARIO_NOTE = 500
"""Characters of a scenario author's note (LF-12)."""
MAX_SESSION = 1000
"""The editor's preview session index: far past any scenario's sessions (LF-12)."""

SAVE_LIMIT = WriteLimit("SAVE_LIMIT", "ARENA_SCENARIO_SAVE_LIMIT", 20, 0.2,
                        "scenarios saved from this address")
CHECK_LIMIT = WriteLimit("CHECK_LIMIT", "ARENA_SCENARIO_CHECK_LIMIT", 60, 10.0,
                         "scenario checks from this address")
"""The editor checks as the host types (debounced); a check parses and draws one board."""


# --------------------------------------------------------------------------- request bodies
class _Body(BaseModel):
    """A request body, strict like every other (server/requests.py): JSON types exactly,
    nothing unknown, no NaN or Infinity, immutable; a malformed one is a 400."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)

    shape_rule: ClassVar[str | None] = "request"


class SaveScenario(_Body):
    """``POST /api/scenarios``: a host's scenario saved in the library (LF-12)."""

    name: Annotated[str, Field(description="LF-12: letters, digits, spaces, - and _, never a "
                                           "path", max_length=MAX_NAME)]
    note: Annotated[str, Field(description="LF-12: the author's note",
                               max_length=MAX_SCENARIO_NOTE)] = ""
    text: Annotated[str, Field(description="LF-7: the scenario's TOML",
                               max_length=MAX_SCENARIO_TEXT)]


class CheckScenario(_Body):
    """``POST /api/scenarios/check``: the editor's checker; stores nothing."""

    text: Annotated[str, Field(description="LF-7: the scenario's TOML",
                               max_length=MAX_SCENARIO_TEXT)] = ""
    data: Annotated[dict[str, Any], Field(
        default_factory=dict,
        description="LF-7: the scenario as plain data, instead of 'text'")]
    session: Annotated[int, Field(ge=0, le=MAX_SESSION,
                                  description="the session to preview, from 0")] = 0


# --------------------------------------------------------------------------- helpers
def _title(text: str) -> str:
    try:
        title = tomllib.loads(text).get("title", "")
    except tomllib.TOMLDecodeError:
        return ""
    return title if isinstance(title, str) else ""


def _shipped_text(name: str) -> str:
    return (SCENARIO_DIR / f"{name}.toml").read_text(encoding="utf-8")


def _refusal(found: list[Problem]) -> Refusal:
    """422 naming the first problem's rule, with every problem listed (``problems``)."""
    first = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return Refusal(422, first.rule, f"{first.where + ': ' if first.where else ''}"
                                    f"{first.message}{more}",
                   {"rule": first.rule, "problems": [p.to_json() for p in found]})


# --------------------------------------------------------------------------- reading
async def list_scenarios(call: Call) -> Any:
    """The shipped scenarios first, then the library's, each with its title and note."""
    out: list[dict[str, Any]] = [
        {"name": name, "title": load_scenario(name).title, "note": "comes with the game",
         "source": "shipped", "created": None} for name in shipped()]
    for rec in await call.shelf.items():
        out.append({"name": rec.name, "title": _title(rec.text), "note": rec.note,
                    "source": "library", "created": rec.created})
    return out


def _generated(call: Call) -> dict[str, Any]:
    """``GET /api/scenarios/generated?seed=N&difficulty=D&sessions=K&practice=0``: the puzzle a
    match with these settings and seed plays (LF-12), the same draw as ``arena feather generate``,
    so the editor can start from it and a host can keep it."""
    q = call.query
    try:
        seed = rngmod.parse_seed(q["seed"]) if q.get("seed") else rngmod.fresh_seed()
    except ValueError as exc:
        raise Refusal(422, "G-7", f"G-7: {exc}") from None
    difficulty = q.get("difficulty", "normal")
    if difficulty not in ("easy", "normal", "hard"):
        raise Refusal(422, "LF-12", "LF-12: difficulty is easy, normal or hard, not "
                                    f"{difficulty[:20]!r}")
    raw = q.get("sessions", "3")
    if not raw.isdigit() or not 1 <= int(raw) <= gen.MAX_SESSIONS:
        raise Refusal(422, "LF-12", f"LF-12: sessions is 1 to {gen.MAX_SESSIONS}, not "
                                    f"{raw[:20]!r}")
    practice = q.get("practice", "1") not in ("0", "false", "no")
    text = gen.for_match(rngmod.derive(seed, "setup"), difficulty, int(raw), practice)
    return {"name": "generated", "title": _title(text), "source": "generated",
            "note": f"generated from seed {seed} ({difficulty})", "seed": str(seed),
            "created": None, "text": text}


async def one_scenario(call: Call) -> Any:
    name = call.path["name"]
    if name == "generated":
        return _generated(call)
    if name in shipped():
        text = _shipped_text(name)
        return {"name": name, "title": _title(text), "note": "comes with the game",
                "source": "shipped", "created": None, "text": text}
    rec = await call.shelf.get(name) if len(name) <= MAX_NAME else None
    if rec is None:
        raise Refusal(404, "LF-12", f"no scenario is called {name[:MAX_NAME]!r}")
    return {"name": rec.name, "title": _title(rec.text), "note": rec.note,
            "source": "library", "created": rec.created, "text": rec.text}


# --------------------------------------------------------------------------- saving
async def save_scenario(call: Call) -> Any:
    body: SaveScenario = call.body  # types and lengths; the rules' checks follow
    name, note, text = body.name, body.note, body.text
    bad_name = name_problems(name)
    if bad_name:
        raise _refusal(bad_name)
    found = problems(text)
    if found:
        raise _refusal(found)
    if await call.shelf.count() >= MAX_LIBRARY:
        raise Refusal(422, "LF-12", f"the library holds at most {MAX_LIBRARY} scenarios")
    if not await call.shelf.add(ShelfItem(name, text, note)):
        raise Refusal(409, "LF-12", f"a scenario called {name!r} is already saved; choose "
                                    "another name")
    return {"ok": True, "name": name}


# --------------------------------------------------------------------------- checking
def _session_words(table: Any, index: int) -> tuple[dict[str, Any] | None, SessionSpec | None]:
    """A session as the editor shows it in words, or ``None`` if it does not read."""
    try:
        spec = parse_session(table, f"sessions[{index}]")
    except (ParseError, TypeError):
        return None, None
    return {
        "name": spec.name, "ticks": spec.ticks, "practice": spec.practice,
        "buckets": list(spec.capacities),
        "basins": [{"name": b.name, "schedule": b.describe()} for b in spec.basins],
        # The predicate's own words, whatever label the host wrote (it may be out of date).
        "objectives": [{"id": o.id, "text": o.predicate.describe(), "label": o.text,
                        "reward": o.reward.describe()}
                       for o in spec.objectives],
    }, spec


async def check_scenario(call: Call) -> Any:
    """The editor's checker: ``{"text": TOML}`` or ``{"data": {...}}`` (the scenario as
    plain data) and optionally ``{"session": i}``, the session to preview. Always 200 with
    the problems listed (a scenario being typed is expected to have some)."""
    body: CheckScenario = call.body
    index = body.session
    data: Any
    if "data" in body.model_fields_set:  # the scenario as plain data wins over its text
        data = body.data
        try:
            text = dump(data)
        except TypeError:
            raise Refusal(422, "LF-7", "the scenario holds a value TOML cannot (null?)"
                          ) from None
    else:
        text = body.text
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            data = None
    if len(text) > MAX_SCENARIO_TEXT:  # data written out as TOML may be longer than given
        raise Refusal(422, "LF-7", f"a scenario has at most {MAX_SCENARIO_TEXT:,} characters "
                                   "of TOML")
    found = problems(text)
    sessions: list[dict[str, Any] | None] = []
    specs: list[SessionSpec | None] = []
    raw = data.get("sessions") if isinstance(data, dict) else None
    for i, table in enumerate(raw if isinstance(raw, list) else []):
        words, spec = _session_words(table, i)
        sessions.append(words)
        specs.append(spec)
    preview = None
    chosen = specs[index] if index < len(specs) else None
    if chosen is not None:
        preview = render_svg(chosen, new_board(chosen, None, 1), None, stage="study")
    return {
        "ok": not found, "problems": [p.to_json() for p in found],
        "data": data, "toml": dump(data) if isinstance(data, dict) else text,
        "sessions": sessions, "preview": preview}


# --------------------------------------------------------------------------- matches
async def prepare(config: dict[str, Any], seed: int, shelf: Shelf) -> dict[str, Any]:
    """A new match's config with its scenario made whole (LF-12): a library name is replaced
    by the library's text, copied into ``scenario_text`` so the match's record holds it; a
    host's text (given or copied) with a problem is refused naming its rule, before anything
    is stored; a generated puzzle is written in too, so a replay or a restart never depends
    on the generator staying the same (its ``VERSION`` may change)."""
    text = config.get("scenario_text")
    name = config.get("scenario")
    if not text and isinstance(name, str) and name and name not in shipped() \
            and name not in RESERVED_NAMES and len(name) <= MAX_NAME:
        rec = await shelf.get(name)
        if rec is None:
            raise RuleError("LF-12", f"no scenario is called {name!r} (shipped: "
                                     f"{', '.join(shipped())}, or one saved in the library)")
        text = rec.text
        config = {**config, "scenario_text": text}
    if isinstance(text, str) and text:
        found = problems(text)
        if found:
            first = found[0]
            words = [f"{first.where}: {first.message}" if first.where else first.message]
            words += [str(p) for p in found[1:6]]
            raise RuleError(first.rule, "; ".join(words))
        return config
    made = GAME.make_config(config)
    if made.scenario != GENERATED:
        return config
    text = gen.for_match(rngmod.derive(seed, "setup"), made.difficulty, made.sessions,
                         made.practice)
    return {**config, "scenario": GENERATED, "scenario_text": text}


def lobby_note(saved: Sequence[ShelfItem], more: bool) -> str:
    """The library's scenarios (LF-12) in the game's lobby card, each opening the editor."""
    links = ", ".join(f'<a href="/feather/editor?from={quote(r.name)}">{html.escape(r.name)}</a>'
                      for r in saved)
    also = " and more in the editor" if more else ""
    return (f'<p class="small" data-testid="feather-library">Saved scenarios (choose one by '
            f'name as the scenario option): {links}{also}</p>')


EDITOR = ExtraPage(
    path="/feather/editor", title="Feather scenario editor",
    script="/static/games/feather_editor.js", sheet="/static/games/feather_editor.css",
    body=('<main class="fe-page" id="feather-editor" data-testid="feather-editor">'
          '<noscript><p class="card">The scenario editor needs JavaScript. A scenario can '
          'also be written as TOML and given to a match as <code>scenario_text</code>.</p>'
          '</noscript></main>'),
    link="Scenario editor", testid="feather-editor-link")

EXTRAS = Extras(
    pages=(EDITOR,),
    endpoints=(
        Endpoint("/api/scenarios", "get", "the game's scenarios by name: the shipped ones "
                 "and the library's (LF-12), each with its title, author note and source",
                 list_scenarios),
        Endpoint("/api/scenarios", "post", "save a host's scenario in the library under a "
                 "new name (LF-12: letters, digits, spaces, - and _, never a path); refused "
                 "422 naming the rule of every problem of the text (LF-1..LF-9), 409 if the "
                 "name is taken; nothing is stored when refused", save_scenario,
                 body=SaveScenario, limit=SAVE_LIMIT, created=True, conflict=True),
        Endpoint("/api/scenarios/check", "post", "the scenario editor's checker: every "
                 "problem of a scenario (given as TOML 'text' or as plain 'data') with its "
                 "rule id and place, the TOML, each objective in words, and an SVG preview of "
                 "session 'session' as a player first sees it; stores nothing", check_scenario,
                 body=CheckScenario, limit=CHECK_LIMIT),
        Endpoint("/api/scenarios/{name}", "get", "one scenario (shipped or from the library) "
                 "with its TOML text ('generated': the puzzle a match with these settings and "
                 "seed plays)", one_scenario,
                 query=(("seed", "string", "G-7: the seed (generated only)"),
                        ("difficulty", "string", "easy, normal or hard (generated only)"),
                        ("sessions", "integer", "how many sessions (generated only)"),
                        ("practice", "string", "0 for no practice session (generated)"))),
    ),
    prepare=prepare,
    lobby_note=lobby_note,
)
