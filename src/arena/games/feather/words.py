"""The server's own words for Feather's facts: refusals (G-6) and the script runner's lines.

The match log and the pages word the same facts themselves (``feather.js``); these are the
texts the server writes, a refusal's message and a tick of ``arena feather script``, so that
they say an action and a void reason the way the page does, in words and never in notation.
"""

from __future__ import annotations

from collections.abc import Mapping

from arena.games.feather.scenario import SessionSpec


def _n(count: object, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _and(names: object) -> str:
    items = [str(x) for x in names] if isinstance(names, list | tuple) else [str(names)]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def void_words(void: Mapping[str, object], spec: SessionSpec | None = None) -> str:
    """Why an action cannot be processed (a :data:`arena.games.feather.tick.Void`), without
    its rule id (the RuleError puts it in front)."""
    why = void.get("why")
    if why == "no_powerup":
        return f"you hold no {void['powerup']} powerup"
    if why == "locked":
        whose = "the opponent's" if void.get("theirs") else "your"
        return f"{whose} bucket {void['bucket']} is locked"
    if why == "cooldown":
        ready = int(str(void["ready"]))
        return (f"you filled at tick {void['filled']}; your next fill can be processed at "
                f"tick {ready} (send it during tick {ready - 1})")
    if why == "unavailable":
        available = void.get("available") or []
        listed = _and(available) if available else "none"
        return f"objective {void['objective']} is not available (available: {listed})"
    if why == "unmet":
        text = ""
        if spec is not None:
            text = f" ({spec.objective(int(str(void['objective']))).describe()})"
        return (f"{_and(void['buckets'])} holding {_and(void['waters'])} does not meet "
                f"objective {void['objective']}{text}")
    if why == "below_water":
        return (f"bucket {void['bucket']} holds {void['water']}; its capacity cannot go "
                f"below that (to {void['capacity']})")
    return "the action cannot be processed"


def action_words(act: Mapping[str, object]) -> str:
    """An action's facts (``Action.to_json``) as an imperative: "fill bucket A from basin Z"."""
    verb = act.get("act")
    if verb == "fill":
        return f"fill bucket {act['bucket']} from basin {act['basin']}"
    if verb == "drain":
        into = act.get("into")
        return f"drain bucket {act['bucket']}" + (f" into basin {into}" if into else "")
    if verb == "transfer":
        return f"pour bucket {act['from']} into bucket {act['to']}"
    if verb == "complete":
        return f"complete objective {act['objective']} with {_and(act['buckets'])}"
    if verb == "exchange":
        return f"swap buckets {_and(act['buckets'])}"
    if verb == "modify":
        change = int(str(act["change"]))
        return f"{'raise' if change > 0 else 'lower'} bucket {act['bucket']}'s capacity by {abs(change)}"
    if verb == "sip":
        whose = "the opponent's" if act.get("opponent") else "your own"
        return f"sip 1 water from {whose} bucket {act['bucket']}"
    if verb == "lock":
        return f"lock the opponent's bucket {act['bucket']}"
    if verb == "accelerate":
        return f"speed basin {act['basin']} up by {_n(act['ticks'], 'tick')}"
    return "pass"


def outcome_words(outcome: Mapping[str, object]) -> str:
    """One seat's outcome at a boundary (``Outcome.to_json``) without the seat."""
    act = outcome["action"]
    assert isinstance(act, Mapping)
    what = action_words(act)
    void = outcome.get("void")
    if isinstance(void, Mapping):
        return f"{what}: nothing happened, {void_words(void)} ({void['rule']})"
    extra = ""
    if outcome.get("water") is not None:
        extra = f" ({outcome['water']} water)"
    reward = outcome.get("reward")
    if isinstance(reward, Mapping):
        won = [_n(reward.get("points", 0), "point")] if reward.get("points") else []
        won += [f"{n} {name}" for name, n in reward.items() if name != "points" and n]
        extra = " and won " + (_and(won) if won else "nothing")
    return f"{what}: done{extra}"
