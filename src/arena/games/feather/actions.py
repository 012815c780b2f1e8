"""The actions a seat can take in one tick, and their notation (LF-2, LF-9).

Notation (case does not matter; ``->``, ``to``, ``into``, ``from`` and ``+`` are optional glue):

    fill Z A             fill bucket A from basin Z
    drain B [-> Y]       empty bucket B, optionally into basin Y
    transfer A -> B      pour A into B until A is empty or B is full
    complete A+B 2       complete objective 2 with buckets A and B
    exchange A B         swap the contents of A and B (powerup)
    modify B -2          change B's capacity by -2..+2 (powerup)
    sip [opp] B          remove 1 water from your (or the opponent's) bucket B (powerup)
    lock B               lock the opponent's bucket B (powerup)
    accelerate Y 5       advance basin Y's schedule by 1..10 ticks (powerup)
    pass                 withdraw your action for this tick

Buckets are letters (A, B, ...) in every session; basins have the names the scenario gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError

VERBS = ("fill", "drain", "transfer", "complete", "exchange", "modify", "sip", "lock",
         "accelerate", "pass")
POWER_VERBS = ("exchange", "modify", "sip", "lock", "accelerate")
GLUE = {"->", "to", "into", "from", "<->", "and", "on", "with", "objective", "obj", "=>", ">"}
LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class Action:
    """One seat's action for one boundary.

    ``buckets`` are bucket indices (0 is A) in the order the verb uses them; ``opponent`` says
    the bucket belongs to the other seat (Sip, Lock); ``number`` is the objective id
    (Complete), the capacity change (Modify) or the tick count (Accelerate).
    """

    verb: str
    buckets: tuple[int, ...] = ()
    basin: str | None = None
    number: int | None = None
    opponent: bool = False

    def __str__(self) -> str:
        # Written once per action object: a random seat's action is written when drawn,
        # validated and resolved, and the candidates are shared across ticks. A frozen
        # dataclass: the text goes into the instance's dict directly; it
        # is not a field, so equality, hashing and ``replace`` never see it.
        text: str | None = self.__dict__.get("_text")
        if text is None:
            text = self.__dict__["_text"] = self._written()
        return text

    def to_json(self) -> dict[str, object]:
        """An action as the log and the pages hold it: its facts (who acts on which bucket,
        basin or objective, by how much), never its notation; the page words them."""
        names = [LETTERS[i] for i in self.buckets]
        verb = self.verb
        if verb == "fill":
            return {"act": verb, "basin": self.basin, "bucket": names[0]}
        if verb == "drain":
            return {"act": verb, "bucket": names[0], "into": self.basin}
        if verb == "transfer":
            return {"act": verb, "from": names[0], "to": names[1]}
        if verb == "complete":
            return {"act": verb, "buckets": names, "objective": self.number}
        if verb == "exchange":
            return {"act": verb, "buckets": names}
        if verb == "modify":
            return {"act": verb, "bucket": names[0], "change": self.number}
        if verb == "sip":
            return {"act": verb, "bucket": names[0], "opponent": self.opponent}
        if verb == "lock":
            return {"act": verb, "bucket": names[0], "opponent": True}
        if verb == "accelerate":
            return {"act": verb, "basin": self.basin, "ticks": self.number}
        return {"act": "pass"}

    def __getstate__(self) -> dict[str, object]:
        """Pickled (a frozen state sent to a bot worker) without the cached text."""
        return {k: v for k, v in self.__dict__.items() if k != "_text"}

    def _written(self) -> str:
        names = [LETTERS[i] for i in self.buckets]
        if self.verb == "fill":
            return f"fill {self.basin} {names[0]}"
        if self.verb == "drain":
            return f"drain {names[0]}" + (f" -> {self.basin}" if self.basin else "")
        if self.verb == "transfer":
            return f"transfer {names[0]} -> {names[1]}"
        if self.verb == "complete":
            return f"complete {'+'.join(names)} {self.number}"
        if self.verb == "exchange":
            return f"exchange {names[0]} {names[1]}"
        if self.verb == "modify":
            assert self.number is not None
            return f"modify {names[0]} {self.number:+d}"
        if self.verb == "sip":
            return f"sip {'opp ' if self.opponent else ''}{names[0]}"
        if self.verb == "lock":
            return f"lock {names[0]}"
        if self.verb == "accelerate":
            return f"accelerate {self.basin} {self.number}"
        return "pass"

    @property
    def powerup(self) -> str | None:
        return self.verb if self.verb in POWER_VERBS else None

    def own_buckets(self) -> tuple[int, ...]:
        """The acting seat's own buckets this action uses."""
        return () if self.opponent or self.verb == "lock" else self.buckets


def _tokens(text: str) -> list[str]:
    spaced = re.sub(r"(->|<->|=>|[+,>])", r" \1 ", text.strip())
    return [t for t in spaced.split() if t.lower() not in GLUE and t not in {"+", ","}]


def _shown(token: str) -> str:
    """A token of the sent text, repeated in a refusal only when it reads as a word or a
    number; anything else is "that" (a refusal is words, G-6)."""
    return token if re.fullmatch(r"[A-Za-z0-9#+-]{1,12}", token) else "that"


def _range(count: int) -> str:
    return "A" if count == 1 else f"A to {LETTERS[count - 1]}"


def _bucket(token: str, count: int, verb: str) -> int:
    name = token.upper()
    if len(name) != 1 or name not in LETTERS:
        raise ParseError("LF-9", f"{_shown(token)} is not a bucket: buckets are the letters "
                                 f"{_range(count)}")
    index = LETTERS.index(name)
    if index >= count:
        raise RuleError("LF-1", f"there is no bucket {name} this session (buckets "
                                f"{_range(count)})")
    return index


def _basin(token: str, basins: tuple[str, ...], verb: str) -> str:
    name = token.upper()
    if name not in basins:
        raise RuleError("LF-8", f"there is no basin {_shown(token)} (the basins are "
                                f"{', '.join(basins)})")
    return name


def _number(token: str, verb: str, what: str) -> int:
    raw = token.lstrip("#")
    if not re.fullmatch(r"[+-]?\d{1,6}", raw):
        raise ParseError("LF-9", f"{verb} needs {what}, and {_shown(token)} is not one")
    return int(raw)


USAGE = {
    "pass": "pass takes nothing after it",
    "fill": "fill names a basin, then one of your buckets",
    "drain": "drain names one of your buckets, and optionally a basin to pour it into",
    "transfer": "transfer names the bucket to pour from, then the bucket to pour into",
    "exchange": "exchange names two of your buckets",
    "complete": "complete names your buckets, then the objective's number",
    "modify": "modify names one of your buckets, then a change from -2 to 2",
    "sip": "sip names one bucket (say opp before it for the opponent's)",
    "lock": "lock names one of the opponent's buckets",
    "accelerate": "accelerate names a basin, then a number of ticks from 1 to 10",
}
"""What each action names, in words, for a refusal of a text that names something else."""


def _arity(tokens: list[str], n: int, verb: str) -> None:
    if len(tokens) != n:
        raise ParseError("LF-9", USAGE[verb])


def parse_action(text: str, buckets: int, basins: tuple[str, ...]) -> Action:
    """Read one action for a session with ``buckets`` buckets and the named basins."""
    tokens = _tokens(text)
    if not tokens:
        raise ParseError("LF-9", "nothing was sent: name an action (fill, drain, transfer, "
                                 "complete, a powerup) or pass")
    verb = tokens[0].lower()
    args = tokens[1:]
    if verb not in VERBS:
        raise ParseError("LF-9", f"{_shown(tokens[0])} is not an action (the actions are "
                                 f"{', '.join(VERBS)})")
    if verb == "pass":
        _arity(args, 0, verb)
        return Action("pass")
    if verb == "fill":
        _arity(args, 2, verb)
        source = _basin(args[0], basins, verb)
        return Action(verb, (_bucket(args[1], buckets, verb),), basin=source)
    if verb == "drain":
        if len(args) not in (1, 2):
            raise ParseError("LF-9", USAGE[verb])
        basin = _basin(args[1], basins, verb) if len(args) == 2 else None
        return Action(verb, (_bucket(args[0], buckets, verb),), basin=basin)
    if verb in ("transfer", "exchange"):
        _arity(args, 2, verb)
        a, b = _bucket(args[0], buckets, verb), _bucket(args[1], buckets, verb)
        if a == b:
            raise RuleError("LF-9", f"{verb} names two different buckets")
        return Action(verb, (a, b))
    if verb == "complete":
        if len(args) < 2:
            raise ParseError("LF-6", USAGE[verb])
        chosen = tuple(_bucket(t, buckets, verb) for t in args[:-1])
        if len(set(chosen)) != len(chosen):
            raise RuleError("LF-6", "a bucket is named twice for one objective")
        return Action(verb, tuple(sorted(chosen)), number=_number(args[-1], verb, "an objective number"))
    if verb == "modify":
        _arity(args, 2, verb)
        delta = _number(args[1], verb, "a change from -2 to 2")
        if not -2 <= delta <= 2:
            raise RuleError("LF-9", f"a capacity changes by an amount from -2 to 2, not {delta}")
        return Action(verb, (_bucket(args[0], buckets, verb),), number=delta)
    if verb == "sip":
        opponent = False
        if args and args[0].lower() in ("opp", "opponent", "their", "theirs"):
            opponent, args = True, args[1:]
        elif args and args[0].lower() in ("my", "own", "mine"):
            args = args[1:]
        _arity(args, 1, verb)
        return Action(verb, (_bucket(args[0], buckets, verb),), opponent=opponent)
    if verb == "lock":
        if args and args[0].lower() in ("opp", "opponent", "their", "theirs"):
            args = args[1:]
        _arity(args, 1, verb)
        return Action(verb, (_bucket(args[0], buckets, verb),), opponent=True)
    # accelerate
    _arity(args, 2, verb)
    ticks = _number(args[1], verb, "a number of ticks from 1 to 10")
    if not 1 <= ticks <= 10:
        raise RuleError("LF-9", f"a basin is sped up by 1 to 10 ticks, not {ticks}")
    return Action(verb, basin=_basin(args[0], basins, verb), number=ticks)
