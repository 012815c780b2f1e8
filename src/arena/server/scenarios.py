"""Feather's scenario library and the editor's checker (issue 28 points 2 and 3, LF-12).

- ``GET /api/scenarios``: the shipped scenarios and the library's, by name;
- ``GET /api/scenarios/{name}``: one of them with its TOML text;
- ``POST /api/scenarios``: save a host's scenario under a new name with an author's note,
  refused (422, nothing stored) when the name reads as a path or the text has a problem;
- ``POST /api/scenarios/check``: every problem of a scenario being edited, its TOML, each
  objective in plain words and a preview of the board as a player first sees it.

A match chooses a library scenario by name (``config.scenario``); :func:`resolve_config`
copies its text into the match's config at creation (``scenario_text``), so the match's own
record holds its puzzle and a replay never reads the library again.
"""

from __future__ import annotations

import time
import tomllib
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from arena.core import rng as rngmod
from arena.core.errors import ParseError, RuleError
from arena.games.feather import generate as gen
from arena.games.feather.check import MAX_NAME, RESERVED_NAMES, Problem, name_problems, problems
from arena.games.feather.match import GAME as FEATHER
from arena.games.feather.match import GENERATED
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
from arena.server.errors import ApiError
from arena.server.limits import RateLimit, address_key, limited
from arena.server.refusals import parse, validate
from arena.server.requests import MAX_SCENARIO_TEXT, CheckScenario, CreateMatch, SaveScenario
from arena.store import ScenarioExists, ScenarioRecord
from arena.store.asyncstore import AsyncStore

GAME = "feather"
MAX_LIBRARY = 1000
"""Scenarios the library holds: saving is open to anyone who may create a match, so the
table is bounded like everything else a client can fill."""

SAVE_LIMIT = RateLimit.from_env("ARENA_SCENARIO_SAVE_LIMIT", 20, 0.2,
                                "scenarios saved from this address")
CHECK_LIMIT = RateLimit.from_env("ARENA_SCENARIO_CHECK_LIMIT", 60, 10.0,
                                 "scenario checks from this address")
"""The editor checks as the host types (debounced); a check parses and draws one board."""


def _store(request: Request) -> AsyncStore:
    s: AsyncStore = request.app.state.store
    return s


def _title(text: str) -> str:
    try:
        title = tomllib.loads(text).get("title", "")
    except tomllib.TOMLDecodeError:
        return ""
    return title if isinstance(title, str) else ""


def _shipped_text(name: str) -> str:
    return (SCENARIO_DIR / f"{name}.toml").read_text(encoding="utf-8")


def _refusal(found: list[Problem]) -> ApiError:
    first = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return ApiError(422, first.rule, f"{first.where + ': ' if first.where else ''}"
                                     f"{first.message}{more}")


def _problems_response(error: ApiError, found: list[Problem]) -> JSONResponse:
    return JSONResponse({"ok": False, "error": str(error), "rule": error.rule,
                         "problems": [p.to_json() for p in found]}, status_code=error.status)


# --------------------------------------------------------------------------- reading
async def list_scenarios(request: Request) -> JSONResponse:
    """The shipped scenarios first, then the library's, each with its title and note."""
    out: list[dict[str, Any]] = [
        {"name": name, "title": load_scenario(name).title, "note": "comes with the game",
         "source": "shipped", "created": None} for name in shipped()]
    for rec in await _store(request).list_scenarios():
        out.append({"name": rec.name, "title": _title(rec.text), "note": rec.note,
                    "source": "library", "created": rec.created})
    return JSONResponse(out)


def _generated(request: Request) -> dict[str, Any]:
    """``GET /api/scenarios/generated?seed=N&difficulty=D&sessions=K&practice=0``: the puzzle a
    match with these settings and seed plays (LF-12), the same draw as ``arena feather generate``,
    so the editor can start from it and a host can keep it."""
    q = request.query_params
    try:
        seed = rngmod.parse_seed(q["seed"]) if q.get("seed") else rngmod.fresh_seed()
    except ValueError as exc:
        raise ApiError(422, "G-7", f"G-7: {exc}") from None
    difficulty = q.get("difficulty", "normal")
    if difficulty not in ("easy", "normal", "hard"):
        raise ApiError(422, "LF-12", "LF-12: difficulty is easy, normal or hard, not "
                                     f"{difficulty[:20]!r}")
    raw = q.get("sessions", "3")
    if not raw.isdigit() or not 1 <= int(raw) <= gen.MAX_SESSIONS:
        raise ApiError(422, "LF-12", f"LF-12: sessions is 1 to {gen.MAX_SESSIONS}, not "
                                     f"{raw[:20]!r}")
    practice = q.get("practice", "1") not in ("0", "false", "no")
    text = gen.for_match(rngmod.derive(seed, "setup"), difficulty, int(raw), practice)
    return {"name": "generated", "title": _title(text), "source": "generated",
            "note": f"generated from seed {seed} ({difficulty})", "seed": str(seed),
            "created": None, "text": text}


async def one_scenario(request: Request) -> JSONResponse:
    name = request.path_params["name"]
    if name == "generated":
        return JSONResponse(_generated(request))
    if name in shipped():
        text = _shipped_text(name)
        return JSONResponse({"name": name, "title": _title(text), "note": "comes with the game",
                             "source": "shipped", "created": None, "text": text})
    rec = await _store(request).get_scenario(name) if len(name) <= MAX_NAME else None
    if rec is None:
        raise ApiError(404, "LF-12", f"no scenario is called {name[:MAX_NAME]!r}")
    return JSONResponse({"name": rec.name, "title": _title(rec.text), "note": rec.note,
                         "source": "library", "created": rec.created, "text": rec.text})


# --------------------------------------------------------------------------- saving
@limited(lambda r: SAVE_LIMIT, address_key)
async def save_scenario(request: Request) -> JSONResponse:
    body = await parse(SaveScenario, request)  # types and lengths; the rules' checks follow
    name, note, text = body.name, body.note, body.text
    bad_name = name_problems(name)
    if bad_name:
        return _problems_response(_refusal(bad_name), bad_name)
    found = problems(text)
    if found:
        return _problems_response(_refusal(found), found)
    store = _store(request)
    if await store.count_scenarios() >= MAX_LIBRARY:
        raise ApiError(422, "LF-12", f"the library holds at most {MAX_LIBRARY} scenarios")
    try:
        await store.save_scenario(ScenarioRecord(name, GAME, text, note, time.time()))
    except ScenarioExists:
        raise ApiError(409, "LF-12", f"a scenario called {name!r} is already saved; choose "
                                     "another name") from None
    return JSONResponse({"ok": True, "name": name}, status_code=201)


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


@limited(lambda r: CHECK_LIMIT, address_key)
async def check_scenario(request: Request) -> JSONResponse:
    """The editor's checker: ``{"text": TOML}`` or ``{"data": {...}}`` (the scenario as
    plain data) and optionally ``{"session": i}``, the session to preview. Always 200 with
    the problems listed (a scenario being typed is expected to have some)."""
    body = await parse(CheckScenario, request)
    index = body.session
    data: Any
    if "data" in body.model_fields_set:  # the scenario as plain data wins over its text
        data = body.data
        try:
            text = dump(data)
        except TypeError:
            raise ApiError(422, "LF-7", "the scenario holds a value TOML cannot (null?)"
                           ) from None
    else:
        text = body.text
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            data = None
    if len(text) > MAX_SCENARIO_TEXT:  # data written out as TOML may be longer than given
        raise ApiError(422, "LF-7", f"a scenario has at most {MAX_SCENARIO_TEXT:,} characters "
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
    return JSONResponse({
        "ok": not found, "problems": [p.to_json() for p in found],
        "data": data, "toml": dump(data) if isinstance(data, dict) else text,
        "sessions": sessions, "preview": preview})


# --------------------------------------------------------------------------- matches
def keep_generated(game: str, seed: int, config: dict[str, Any]) -> dict[str, Any]:
    """A generated Feather puzzle written into the match's config at creation (LF-12): the
    record then holds the puzzle itself, so a replay or a restart never depends on the
    generator staying the same (its ``VERSION`` may change), as a library scenario is copied
    in rather than named."""
    if game != GAME or config.get("scenario_text"):
        return config
    made = FEATHER.make_config(config)
    if made.scenario != GENERATED:
        return config
    text = gen.for_match(rngmod.derive(seed, "setup"), made.difficulty, made.sessions,
                         made.practice)
    return {**config, "scenario": GENERATED, "scenario_text": text}


async def resolve_config(store: AsyncStore, body: CreateMatch | Any) -> CreateMatch:
    """A create request (its model, or its JSON as a dict) for Feather with its scenario made
    whole (LF-12): a library name is replaced by the library's text, copied into
    ``scenario_text`` so the match's record holds it; a host's text (given or copied) with a
    problem is refused naming its rule, before anything is stored. Other games' requests pass
    through untouched (checked by the model like every create request)."""
    body = validate(CreateMatch, body)
    config = body.config
    if body.game != GAME or config is None:
        return body
    text = config.get("scenario_text")
    name = config.get("scenario")
    if not text and isinstance(name, str) and name and name not in shipped() \
            and name not in RESERVED_NAMES and len(name) <= MAX_NAME:
        rec = await store.get_scenario(name)
        if rec is None:
            raise RuleError("LF-12", f"no scenario is called {name!r} (shipped: "
                                     f"{', '.join(shipped())}, or one saved in the library)")
        text = rec.text
        body = body.model_copy(update={"config": {**config, "scenario_text": text}})
    if isinstance(text, str) and text:
        found = problems(text)
        if found:
            first = found[0]
            words = [f"{first.where}: {first.message}" if first.where else first.message]
            words += [str(p) for p in found[1:6]]
            raise RuleError(first.rule, "; ".join(words))
    return body
