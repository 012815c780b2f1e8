"""Paint Factory (seeds/002, rulings PF-1 to PF-8): shove paint containers into a 5 x 5 grid
from sets the opponent designed, and score the product of the chains' lengths."""

from arena.games.paint.match import GAME, PaintConfig, PaintGame, PaintState

__all__ = ["GAME", "PaintConfig", "PaintGame", "PaintState"]
