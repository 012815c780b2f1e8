"""Allows ``python -m arena`` as well as the ``arena`` console script.

The guard matters: the generator's parallel jobs start fresh interpreters that import the
main module again, and must not run the command line a second time."""

from arena.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
