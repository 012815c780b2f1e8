"""The steps of a season's public log in words, for its recap (:mod:`arena.season.recap`):
for each outcome, who took it (the host, a player, the step's clock, a match's own result),
what came of it, its cause and the rulings it followed.

Who took a step is read from the public entries around it (G-10): an act's entries come
before the step's ``phase_resolved``, which names the act; a resolution's come after it, and a
``limit_passed`` before says the step's clock ran out (SE-7). The season's own "how" of each
choice says the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.errors import RuleError
from arena.season.flow import DRAWN, player_list, title

RULE_ID = re.compile(r"\b[A-Z]{1,4}-\d{1,3}\b")
CITED = re.compile(r"\s*\((?:[A-Z]{1,4}-\d{1,3})(?:,\s*[A-Z]{1,4}-\d{1,3})*\)")
"""Rule ids in brackets at the end of a cause ("... (SE-7)"): the recap lists them apart."""

HOST_ACTS = frozenset({"start_main", "record_main", "name_ec", "start_death", "record_death",
                       "decide"})


def and_list(names: Sequence[str]) -> str:
    """Names as a sentence joins them: "Ann", "Ann and Ben", "Ann, Ben and Cat"."""
    return player_list(names).replace(" or ", " and ") if names else "nobody"


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def rules_in(*texts: str) -> tuple[str, ...]:
    """Every rule id the texts cite, each once, in the order they come."""
    seen: dict[str, None] = {}
    for text in texts:
        for m in RULE_ID.finditer(text):
            seen.setdefault(m.group(0), None)
    return tuple(seen)


def uncited(text: str) -> str:
    """A cause without its bracketed rule ids (the recap shows them as links beside it)."""
    return " ".join(CITED.sub("", text).split()).rstrip(".;, ")



@dataclass(frozen=True)
class Step:
    """One thing that happened: when, who took it, what came of it, why, and the rulings."""

    t: float | None
    episode: int
    kind: str
    actor: str
    outcome: str
    cause: str = ""
    rules: tuple[str, ...] = ()


def closers(public: Sequence[Mapping[str, Any]]) -> dict[int, tuple[str | None, bool]]:
    """For each game entry (by index): what closed the step it belongs to, as (the act that
    closed it, or None; whether its clock ran out first, SE-7). An act's entries come before
    the step's ``phase_resolved`` (which names the act), a resolution's after it."""
    out: dict[int, tuple[str | None, bool]] = {}
    limit = False
    closed: tuple[str | None, bool] | None = None
    waiting: list[int] = []
    for i, e in enumerate(public):
        kind = e.get("kind")
        data = _data(e)
        if kind == "phase_started":
            for j in waiting:
                out[j] = (None, limit)
            waiting, limit, closed = [], False, None
        elif kind == "limit_passed":
            limit = True
        elif kind == "phase_resolved":
            by = data.get("by") if isinstance(data.get("by"), str) else None
            for j in waiting:
                out[j] = (by, limit)
            waiting, closed = [], (by, limit)
        elif closed is not None:
            out[i] = closed
        else:
            waiting.append(i)
    for j in waiting:
        out[j] = (None, limit)
    return out


def _data(e: Mapping[str, Any]) -> Mapping[str, Any]:
    data = e.get("data")
    return data if isinstance(data, dict) else {}


def _who_chose(how: str, chance: str = "The season's chance") -> str | None:
    if how.startswith("chosen by "):
        return how.removeprefix("chosen by ")
    if DRAWN in how or "a draw from the season's chance" in how:
        return chance
    if "by the host" in how or "the host decided" in how:
        return "The host"
    return None


def main_title() -> str:
    try:
        from arena.season.mainmatch import main_game
        return main_game().title
    except RuleError:
        return "the Main Match"


def bars_words(names: Sequence[str], bars: Mapping[str, Any]) -> str:
    return and_list([f"{n} ({plural(int(bars.get(n) or 0), 'gold bar')})" for n in names])


def _ballots(ballots: Mapping[str, Any]) -> str:
    return ", ".join(f"{v} for {t}" for v, t in ballots.items()) or "no votes were cast"


class Story:
    """The steps of a season's public log, in words (one per outcome)."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state = state
        self.episodes: dict[int, Mapping[str, Any]] = {
            int(ep["episode"]): ep for ep in state.get("episodes") or []}
        self.ledger: Sequence[Mapping[str, Any]] = state.get("ledger") or []
        self.steps: list[Step] = []
        self.decided: set[int] = set()
        self.used: set[tuple[int, str]] = set()
        """Notes of an episode told in one of its steps (the rest are listed apart)."""
        self.mm_title = main_title()

    def add(self, e: Mapping[str, Any], episode: int, actor: str, outcome: str,
            cause: str = "", rules: Sequence[str] = ()) -> None:
        self.steps.append(Step(float(e["t"]) if e.get("t") is not None else None, episode,
                               str(e.get("kind")), actor, outcome, uncited(cause),
                               tuple(dict.fromkeys((*rules, *rules_in(cause))))))

    def note(self, episode: int, start: str) -> str:
        """The episode's note that starts so (its record's words), told once in its step."""
        found = next((x for x in self.episodes.get(episode, {}).get("notes") or []
                      if str(x).startswith(start)), "")
        if found:
            self.used.add((episode, found))
        return str(found)

    def garnets(self, episode: int) -> str:
        got = [(e["player"], int(e["amount"])) for e in self.ledger
               if e.get("kind") == "garnets" and e.get("episode") == episode
               and str(e.get("cause", "")).startswith("escaped with")]
        return and_list([f"{n} +{a}" for n, a in got])

    def read(self, e: Mapping[str, Any], closer: tuple[str | None, bool], episode: int
             ) -> None:
        kind = e.get("kind")
        d = _data(e)
        by, ran_out = closer
        n = int(d.get("episode") or episode)
        ep = self.episodes.get(n, {})
        final = bool(ep.get("final"))
        if kind == "main_started":
            host = by in HOST_ACTS
            self.add(e, n, "The host" if host else "The clock",
                     f"The Main Match ({self.mm_title}) started with "
                     f"{and_list(d.get('players') or [])}.",
                     "" if host else "nobody started it before its step's deadline, so "
                     "those SE-1 names play (SE-7)", ("SE-1",))
        elif kind == "main_result":
            here = d.get("how") == "played here"
            escaped, trapped = d.get("escaped") or [], d.get("trapped") or []
            text = ("The Main Match ended. " if here else "Result of the Main Match: ") + (
                f"{bars_words(escaped, d.get('bars') or {})} escaped" if escaped
                else ("Nobody" if here else "nobody") + " escaped") + (f"; {and_list(trapped)} "
                                         f"{'is' if len(trapped) == 1 else 'are'} trapped."
                                         if trapped else "; nobody is trapped.")
            if d.get("winners"):
                text += f" {and_list(d['winners'])} won"
                text += f"; the opal went to {d['opal']}." if d.get("opal") else "."
            elif d.get("opal"):
                text += f" The opal went to {d['opal']}."
            gained = self.garnets(n)
            if gained != "nobody":
                text += f" Garnets: {gained}, one per two gold bars of an escaped player."
            # Why: the host's reason for a hand record (SE-2), or how the match ended early.
            why = self.note(n, "Main Match recorded by the host") if not here else \
                self.note(n, "the Main Match ended early")
            if not here and why:
                why = "recorded by hand: " + why.split(": ", 1)[-1]
            self.add(e, n, "The Main Match" if here else "The host", text, why,
                     ("LO-8", "SE-3") if here else ("SE-2", "LO-8", "SE-3"))
        elif kind == "vote_counted":
            ballots = d.get("ballots") or {}
            counts = ", ".join(f"{k} {v}" for k, v in (d.get("counts") or {}).items())
            text = f"The trapped voted for the Elimination Candidate: {_ballots(ballots)}."
            if counts:
                text += f" Count: {counts}."
            if d.get("tied"):
                text += f" Tied: {and_list(d['tied'])}."
            cause = "a vote not cast does not count" if ran_out else ""
            self.add(e, n, and_list(list(ballots)) if ballots else "Nobody", text, cause,
                     ("LO-9", "SE-6"))
        elif kind == "tie_counted":
            ballots = d.get("ballots") or {}
            self.add(e, n, and_list(list(ballots)) if ballots else "Nobody",
                     f"The escaped chose among the tied: {_ballots(ballots)}.", "", ("LO-9",))
        elif kind == "ec_chosen":
            how = str(d.get("how") or "")
            actor = _who_chose(how) or ("The vote" if "vot" in how or "majority" in how
                                        else "The rules")
            self.add(e, n, actor, f"{d.get('ec')} is the Elimination Candidate.", how,
                     ("LO-9",))
        elif kind == "gift_given":
            how = str(d.get("how") or "")
            winners = ((ep.get("main") or {}).get("result") or {}).get("winners") or []
            giver = winners[0] if len(winners) == 1 else "the solo winner"
            if d.get("to") is None:  # nobody else escaped (SE-3)
                self.add(e, n, "Nobody", f"{giver}, the solo winner, had nobody to give a "
                                         "Token of Life to: it was discarded.", "", ("SE-3",))
            else:
                actor = _who_chose(how) or giver
                text = (f"{giver}, the solo winner, gave a Token of Life to {d['to']}."
                        if actor == giver else
                        f"The Token of Life of {giver}, the solo winner, went to {d['to']}.")
                self.add(e, n, actor, text, "" if how.startswith("chosen by") else how,
                         ("SE-3",))
        elif kind == "nominated":
            how = str(d.get("how") or "")
            actor = _who_chose(how) or str(d.get("ec"))
            self.add(e, n, actor, f"{d.get('ec')} nominated {d.get('dmo')} as the Death Match "
                                  "Opponent." if actor == d.get("ec") else
                     f"{d.get('dmo')} is {d.get('ec')}'s Death Match Opponent.",
                     "" if how.startswith("chosen by") else how, ("SE-3",))
        elif kind == "death_started":
            seats = list(d.get("seats") or [])
            host = by in HOST_ACTS
            what = "final Death Match" if d.get("final") else "Death Match"
            pair = (f"{seats[0]} (seat 1) against {seats[1]} (seat 2)" if len(seats) == 2
                    else and_list(seats))
            self.add(e, n, "The host" if host else "The clock",
                     f"The {what} started: {title(str(d.get('game') or ''))}, {pair}.",
                     "" if host else "the host did not start it before its step's "
                     "deadline, so its game was drawn from the season's chance (SE-7)",
                     ("SE-4",))
        elif kind == "death_undecided":
            self.add(e, n, "The Death Match", "The Death Match had no winner; the host decides "
                     "who leaves.", str(d.get("why") or ""), ("SE-4",))
        elif kind == "death_result":
            how = str(d.get("how") or "")
            here = how == "played here"
            actor = "The Death Match" if here else _who_chose(how) or "The host"
            winner, loser, game = d.get("winner"), d.get("loser"), str(d.get("game") or "")
            at = f" ({game})" if game and "played elsewhere" not in game else \
                ", played elsewhere,"
            if final:
                text = f"{winner} won the final{at} against {loser}, and the season."
            else:
                text = f"{winner} won the Death Match{at} against {loser}. {loser} is " \
                       "eliminated."
            if ", recorded by the host: " in how:  # SE-4: the host's reason, as written
                how = "recorded by hand: " + how.split(", recorded by the host: ", 1)[1]
            self.decided.add(n)
            self.add(e, n, actor, text, "" if here else how,
                     ("SE-4", "SE-1") if final else ("SE-4",))
        elif kind == "eliminated" and n not in self.decided:
            self.add(e, n, "The season", f"{d.get('player')} is eliminated.", "", ("SE-4",))
        elif kind == "season_won" and n not in self.decided:
            self.add(e, n, "The season", f"{d.get('winner')} won the season.", "", ("SE-1",))
        elif kind == "adjusted":
            what = {"tol": "Tokens of Life", "garnets": "garnets", "opal": "opals"}.get(
                str(d.get("what")), str(d.get("what")))
            amount = int(d.get("amount") or 0)
            self.add(e, n, "The host", f"{d.get('player')}'s {what} changed by "
                                       f"{'+' if amount > 0 else ''}{amount}.",
                     str(d.get("reason") or ""), ("SE-5",))
        elif kind == "mm_rounds":
            rounds = int(d.get("max_rounds") or 0)
            self.add(e, n, "The host", "The Main Matches still to start have "
                     + (f"a limit of {plural(rounds, 'round')}." if rounds
                        else "no round limit."), "", ("SE-6",))
        elif kind == "end":  # the host's input, public: the season ends as it stands
            why = str(d.get("reason") or "").removeprefix("ended by the host").lstrip(": ")
            self.add(e, n, "The host", "The host ended the season; nobody won it.", why,
                     ("SE-1",))
        elif kind == "imported":
            self.add(e, n, "The server", "The season was brought over from the old season "
                                         "engine, as it stood.", "", ("SE-5",))


def untimed(ep: Mapping[str, Any]) -> list[Step]:
    """An episode whose log holds no steps (a season the old engine stored and the server
    brought over): its steps as its record keeps them, without times."""
    n = int(ep["episode"])
    out = []
    if ep.get("ec"):
        how = str(ep.get("ec_how") or "")
        out.append(Step(None, n, "ec_chosen", _who_chose(how) or "The vote",
                        f"{ep['ec']} is the Elimination Candidate.", uncited(how),
                        rules_in(how) or ("LO-9",)))
    if ep.get("gift"):
        how = str(ep.get("gift_how") or "")
        out.append(Step(None, n, "gift_given", _who_chose(how) or "The solo winner",
                        f"The Token of Life went to {ep['gift']}.", uncited(how),
                        ("SE-3",)))
    if ep.get("dmo"):
        how = str(ep.get("dmo_how") or "")
        out.append(Step(None, n, "nominated", _who_chose(how) or str(ep.get("ec")),
                        f"{ep.get('ec')} nominated {ep['dmo']}.", uncited(how), ("SE-3",)))
    dm = ep.get("death_match") or {}
    if dm.get("winner"):
        out.append(Step(None, n, "death_result", "The Death Match",
                        f"{dm['winner']} won the Death Match.", "", ("SE-4",)))
    return out
