"""Lockmaker at full strength: a fast optimal solver, Fogleman's cluster walk, a generator.

Modules: ``model`` (the solver's plain input: cells, key first), ``tables`` (packed states,
lazy move tables, static pruning), ``expand`` (generated per-lock expansion code), ``vector``
(NumPy whole-level expansion), ``search`` (level-synchronous BFS, blocker-bounded deepening,
the cluster walk), ``convert`` (to and from the game's ``Position``), ``api`` (``fast_solve``,
``hardest``), ``generator`` (``generate``, ``build_hard_lock`` for bots).

Everything is pure Python plus NumPy; answers are checked against the game's reference solver.
"""
