"""Whole-frontier expansion, generated as straight-line Python for one compiled lock.

Why code generation: the per-state work is a handful of shifts, masks and dict lookups, and in
CPython the cost is dominated by interpreter overhead (tuple unpacking, attribute and global
lookups, loop setup). Emitting one function whose shifts and masks are literals and whose
tables are closure cells removes most of it; neighbours go into a set through ``map`` with the
state's bound ``__add__``, i.e. in C. The generated code only ever reads the tables built by
:class:`~arena.games.lockmaker.fast.tables.Compiled`, so it cannot disagree with them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import CodeType
from typing import TYPE_CHECKING

from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled, KeyBound

if TYPE_CHECKING:  # pattern builds on this module's expanders
    from arena.games.lockmaker.fast.pattern import PatternBound

Expander = Callable[[Iterable[int], set[int]], None]


BoundedExpander = Callable[[Iterable[int], set[int], int, int], bool]


@dataclass(frozen=True)
class Bounded:
    """A bounded expander and how to drive it: ``first`` is the start's lower bound on the
    moves left (the first budget worth trying) and ``limit(budget, d)`` the ``lim`` to pass
    when expanding depth ``d`` under ``budget``."""

    expand: BoundedExpander
    first: int
    limit: Callable[[int, int], int]
    blockers: tuple[int, list[int], int] | None = None
    """(key's line index, span mask per key placement, cover) for the blocker bound."""
    key: KeyBound | None = None
    """The bound of a key that can turn."""
    pattern: PatternBound | None = None
    """A relaxed lock's distances (checked against ``budget - d``, passed as ``plim``)."""


def make_bounded_expander(c: Compiled, pattern: PatternBound | None = None
                          ) -> Bounded | None:
    """``expand(states, out, lim, plim)`` like :func:`make_expander`, but skips states whose
    lower bound exceeds what the budget leaves and returns whether it skipped any. Two
    admissible bounds: a key that never turns uses the blocker count
    (:meth:`Compiled.blocker_bound`), a key that can turn
    :class:`~arena.games.lockmaker.fast.tables.KeyBound`; a ``pattern`` (relaxed-lock
    distances, :mod:`~arena.games.lockmaker.fast.pattern`) is checked as well. None when no
    bound applies."""
    start = c.start
    ksh, km = c.key_shift, c.key_mask
    bound = c.blocker_bound()
    made: Bounded | None = None
    if bound is not None:
        slot, lmask, spans, cover = bound
        blockers = ((c.key_int(start) >> slot) & lmask & spans[(start >> ksh) & km]).bit_count()
        line = [sl for sl, _m in c.key_slots].index(slot)
        # expand s at depth d only if d + 1 + ceil(blockers / cover) <= budget
        made = Bounded(_generate(c, (slot, lmask, spans), pattern),  # type: ignore[arg-type]
                       1 + (blockers + cover - 1) // cover,
                       lambda budget, d: (budget - d - 1) * cover,
                       blockers=(line, spans, cover), pattern=pattern)
    else:
        kb = c.key_bound()
        if kb is not None:
            # expand s at depth d only if d + bound <= budget
            made = Bounded(_generate(c, kb, pattern),  # type: ignore[arg-type]
                           max(1, kb.value(c, start)), lambda budget, d: budget - d, key=kb,
                           pattern=pattern)
        elif pattern is not None:
            made = Bounded(_generate(c, None, pattern),  # type: ignore[arg-type]
                           1, lambda budget, d: 0, pattern=pattern)
    if made is None or pattern is None:
        return made
    out: Bounded = dataclasses.replace(made, first=max(made.first, pattern.value(start)))
    return out


def make_expander(c: Compiled) -> Expander:
    """``expand(states, out)`` adds every neighbour (LM-5..LM-9) of every state to ``out``."""
    return _generate(c, None)  # type: ignore[return-value]


@functools.lru_cache(maxsize=512)
def _compiled(src: str) -> CodeType:
    """Compiling the generated source costs more than a small search; locks that differ only
    in tables share it (the generator scores thousands of similar locks)."""
    return compile(src, "<lockmaker-fast-expand>", "exec")


def _generate(c: Compiled, bound: tuple[int, int, list[int]] | KeyBound | None,
              pattern: PatternBound | None = None) -> object:
    """Emit and compile the expansion function: bounded by blockers when ``bound`` is a
    (slot, mask, spans) triple, by :class:`KeyBound` for a key that turns, unbounded when
    None."""
    args: list[str] = []
    env: list[object] = []
    kterms = [str(c.key_base)]
    for k, (sh, m, tab) in enumerate(c.key_groups):
        args.append(f"K{k}")
        env.append(tab)
        kterms.append(f"K{k}[{'s' if sh == 0 else f'(s >> {sh})'} & {m}]")
    body = [
        "def expand(frontier, out, lim=0, plim=0):",
        "    upd = out.update",
        "    skipped = False",
        "    for s in frontier:",
        f"        k = {' | '.join(kterms)}",
    ]
    if isinstance(bound, KeyBound):
        args.append("KD")
        env.append(bound.distance)
        ksh, km = c.key_shift, c.key_mask
        body += [  # a key that cannot reach a goal even alone is dead for any budget
            f"        kd = KD[(s >> {ksh}) & {km}]",
            f"        if kd >= {KEY_UNREACHABLE}:",
            "            continue",
        ]
        terms = ["kd"]
        for n, (sh, m, table) in enumerate(bound.covers):
            args.append(f"CV{n}")
            env.append(table)
            terms.append(f"CV{n}[(s >> {sh}) & {m}]")
        body.append(f"        h = {' + '.join(terms)}")
        if bound.key_attach is not None:
            args.append("KA")
            env.append(bound.key_attach)
            partners = ["0"]
            for n, (sh, m, attach) in enumerate(bound.others):
                args.append(f"AT{n}")
                env.append(attach)
                partners.append(f"AT{n}[(s >> {sh}) & {m}]")
            body += [
                f"        ka = KA[(s >> {ksh}) & {km}]",
                f"        if ka and not ka & {bound.goal_axes} and not "
                f"({' | '.join(partners)}) & ka:",
                "            h += 1",
            ]
        body += [
            "        if h > lim:",
            "            skipped = True",
            "            continue",
        ]
    elif bound is not None:
        slot, lmask, spans = bound
        args.append("SP")
        env.append(spans)
        body += [
            f"        if ((k >> {slot}) & {lmask} & SP[(s >> {c.key_shift}) & {c.key_mask}])"
            ".bit_count() > lim:",
            "            skipped = True",
            "            continue",
        ]
    for t, table_of in enumerate(pattern.tables() if pattern is not None else []):
        terms = []
        for n, (sh, m, table) in enumerate(table_of.fields):
            args.append(f"PF{t}_{n}")
            env.append(table)
            terms.append(f"PF{t}_{n}[(s >> {sh}) & {m}]")
        args.append(f"PD{t}")
        env.append(table_of.dist.get)
        body += [
            f"        pd = PD{t}({' + '.join(terms)}, {KEY_UNREACHABLE})",
            "        if pd > plim:",
            f"            if pd < {KEY_UNREACHABLE}:",
            "                skipped = True",
            "            continue",
        ]
    body.append("        a = s.__add__")
    if c.free_specs:
        terms = [str(c.base)]
        for g, (sh, m, tab) in enumerate(c.groups):
            args.append(f"G{g}")
            env.append(tab)
            terms.append(f"G{g}[{'s' if sh == 0 else f'(s >> {sh})'} & {m}]")
        body.append(f"        both = {' | '.join(terms)}")
    for i, (slot, mask) in enumerate(c.key_slots):
        args.append(f"L{i}")
        env.append(c.line_tables[i][5])
        key = "k" if slot == 0 else f"(k >> {slot})"
        body.append(f"        upd(map(a, L{i}[{key} & {mask}]))")
    if c.free_specs:
        args.append("free")
        env.append(c.free_table)
        body.append(f"        upd(map(a, free[((s >> {c.free_shift}) << {c.ncells}) | "
                    f"(both & {c.free_relevant})]))")
    body.append("    return skipped")
    src = "\n".join([f"def factory({', '.join(args)}):", *("    " + line for line in body),
                     "    return expand"])
    namespace: dict[str, object] = {}
    exec(_compiled(src), namespace)
    factory = namespace["factory"]
    return factory(*env)  # type: ignore[operator]
