"""Words a host would not say, looked for in every text a player reads (the pages' checks and
the texts a match ends with)."""

from __future__ import annotations

import re

ONE_OF_MANY = re.compile(
    r"(?<![\w.,])(?<![Rr]ow )(?<![Ss]eat )(?<![Cc]ard )(?<![Bb]out )(?<![Rr]ound )"
    r"(?<![Cc]olumn )[+-]?1 (?:gold )?(rounds|points|bouts|ticks|moves|periods|keys|bars|"
    r"turns|sessions|garnets|opals|Tokens of Life|cards|safes|lights|combinations|pieces|"
    r"seconds|minutes|hours|days|messages|buckets|landings|uses|times|episodes|players|"
    r"seats)\b")
"""A count of one with its noun in the plural ("+1 garnets", "1 rounds"); not a name with a
number ("the container in row 1 moves down", "Seat 1 turns"), and not the rules' notation,
whose fields are capitalised ("Claim 1 Gold bars, 0 Keys", LO's bargain order)."""
