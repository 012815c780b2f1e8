"""Box within a Box within a Box (rules: seeds/001; rulings BX-1 to BX-13).

Two 7x7 boards, a box on each; seats bet on the traits of the tiles their own box will land
on, then steer both boxes with a shared pool of Community Cards. The deck is data
(``deck.toml``), the match flow lives in :mod:`arena.games.boxes.match`.
"""

from arena.games.boxes.match import GAME, BoxesGame

__all__ = ["GAME", "BoxesGame"]
