"""The notation checker finds every command the parser reads (the texts of random legal
plans, by ``str`` of their moves) and nothing in the plain sentences the match log says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockedout.commands import command_text, parse
from games.lockedout.lockedout_notation import notation_in
from playouts import random_playout

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

PLAIN = (
    "Safe L flashed green for your solo try of 3 on the left and 1 on the right (round 1, LO-4).",
    "Safe C flashed white for Alice's dual try of 4 on the left with Bob on the right (round 2, "
    "LO-4).",
    "Your dual try at Safe C with Bob did not happen: Bob named Safe E, not Safe C (LO-3).",
    "You sent a solo try at Safe C of 3 on the left and 1 on the right and a dual try at "
    "Safe D of 4 on the right with Bob on the left.",
    "You sent a claim of 1 gold bar and 1 key from Safe C.",
    "The bargain over Safe C was agreed: you claimed 2 gold bars and Bob claimed 1 key, and "
    "each gets their claim (LO-5).",
    "Safe C is closed for good; its combination was 3 on the left and 1 on the right.",
    "The votes are counted: Bob got 2 votes, you got 1 vote and Dave none.",
    "You voted for Bob.",
    "Erin chose Dave among the tied players.",
    "You sent a ballot naming Carol.",
    "The players still inside vote for the Elimination Candidate among themselves.",
    "Dave is the Elimination Candidate: the winners reached no majority; fewest keys (LO-9).",
    "Match over: Alice escaped with the most gold bars; Dave is the Elimination Candidate.",
    "Round 3 is over.",
    "Tie-break by the escaped players is over; nothing came from Erin.",
)


def test_plain_sentences_hold_no_notation() -> None:
    assert [(s, notation_in(s)) for s in PLAIN if notation_in(s)] == []


def test_the_rule_texts_own_formats_are_notation() -> None:
    for text, token in [("Solo, Safe C, Left 3 Right 1", "Solo, Safe C"),
                        ("sent Left 3 Right 1", "Left 3 Right 1"),
                        ("Dual, Safe C, Left 4 with Alice", "Dual, Safe C"),
                        ("your Right 2 with Bob", "Right 2 with B"),
                        ("Bargain, Safe C, Claim 1 Gold bars, 0 Keys", "Bargain, Safe C"),
                        ("I Claim 1 Gold bars", "Claim 1 Gold bars"),
                        ("Vote Alice", "Vote Alice"), ("vote for Bob", "vote for Bob"),
                        ("Vote seat 3", "Vote seat 3")]:
        assert notation_in(text) == token, text


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**20))
def test_every_command_of_a_random_match_is_found(seed: int) -> None:
    """What random players sent (every send of a random playout is legal, G-6), read by the
    parser and written back as its move's notation."""
    match, _ = random_playout("lockedout", seed, names=NAMES)
    seen = 0
    for e in match.log:
        if e.kind != "submit":
            continue
        for cmd in parse(e.data["text"], NAMES):
            text = command_text(cmd, NAMES)
            assert notation_in(text), text
            assert notation_in("You sent " + text + "."), text
            seen += 1
    assert seen, "a random match sends commands"
