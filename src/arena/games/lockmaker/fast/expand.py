"""Whole-frontier expansion, generated as straight-line Python for one compiled lock.

Why code generation: the per-state work is a handful of shifts, masks and dict lookups, and in
CPython the cost is dominated by interpreter overhead (tuple unpacking, attribute and global
lookups, loop setup). Emitting one function whose shifts and masks are literals and whose
tables are closure cells removes most of it; neighbours go into a set through ``map`` with the
state's bound ``__add__``, i.e. in C. The generated code only ever reads the tables built by
:class:`~arena.games.lockmaker.fast.tables.Compiled`, so it cannot disagree with them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arena.games.lockmaker.fast.tables import Compiled

Expander = Callable[[Iterable[int], set[int]], None]


def make_expander(c: Compiled) -> Expander:
    """``expand(states, out)`` adds every neighbour (LM-5..LM-9) of every state to ``out``."""
    args: list[str] = []
    env: list[object] = []
    kterms = [str(c.key_base)]
    for k, (sh, m, tab) in enumerate(c.key_groups):
        args.append(f"K{k}")
        env.append(tab)
        kterms.append(f"K{k}[{'s' if sh == 0 else f'(s >> {sh})'} & {m}]")
    body = [
        "def expand(frontier, out):",
        "    upd = out.update",
        "    for s in frontier:",
        f"        k = {' | '.join(kterms)}",
        "        a = s.__add__",
    ]
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
        env.append(c.free_moves)
        body.append("        upd(free(s, both))")
    src = "\n".join([f"def factory({', '.join(args)}):", *("    " + line for line in body),
                     "    return expand"])
    namespace: dict[str, object] = {}
    exec(compile(src, "<lockmaker-fast-expand>", "exec"), namespace)
    factory = namespace["factory"]
    return factory(*env)  # type: ignore[operator, no-any-return]
