"""The game-agnostic match engine.

Nothing here knows any particular game, and nothing here may import the server, the store,
the web assets or the CLI: games and core are pure so that replay, search and tests stay simple.
"""
