"""A season's story in an outside chat (G-14), against a webhook receiver in the test (a tiny
HTTP server on 127.0.0.1, allowed by ``ARENA_WEBHOOK_HOSTS``).

A season played through (a Main Match recorded by hand with a markdown name in the cast, the
vote, the gifts, the nominations, a Death Match recorded by hand, one played by instant bots,
an adjustment, a changed deadline, the end) tells every outcome once, in posts that each name
the season, never show a deadline already past, never hold a token, a link or a sealed choice,
and show every name and reason as typed (escaped). At the "steps" level a Death Match posts at
most three messages and nothing of its own; at "phases" it posts its stages once each (a bout
of Box within a Box, never its rounds), and a running one follows the host's change of level.
The news of a season on the engine's clock is checked without a server: a deadline already
past is never told.
"""

from __future__ import annotations

import json
import re
import threading
import time
import warnings
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.season.game import SEASON
from arena.server import announce, news
from server.inprocess import in_process_server

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

FAST = {"time_scale": 0.01, "bot_pace": "instant"}
LONG = 100_000  # seconds of a step's clock: 1000 s at this time scale, so every deadline is ahead
MARKED = "[free nitro](https://evil.example/x)"
SHOWN = r"\[free nitro\]\(https\:\/\/evil.example\/x\)"
NAME = "Spring *Cup*"
HEAD = r"**Spring \*Cup\***"


class Receiver:
    """A webhook on 127.0.0.1 that keeps each post's text and when it arrived."""

    def __init__(self) -> None:
        self.posts: list[tuple[float, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                assert body["allowed_mentions"] == {"parse": []}
                outer.posts.append((time.time(), str(body["content"])))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/webhooks/7/s3cr3t-hook"

    def texts(self) -> list[str]:
        return [t for _, t in self.posts]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, receiver: Receiver) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("season-news")
    patch = pytest.MonkeyPatch()
    patch.setenv("ARENA_WEBHOOK_HOSTS", f"127.0.0.1:{receiver.server.server_port}")
    patch.setattr(announce, "BACKOFF", 0.05)
    with in_process_server(folder, patch) as c:
        yield c


def until(check: Any) -> None:
    """Polls ``check``; the suite's timeout guards a hang, never the wall clock."""
    while not check():
        time.sleep(0.05)


class Season:
    """A season over the API, with its host's and players' links."""

    def __init__(self, client: TestClient, cast: list[dict[str, Any]], **extra: Any) -> None:
        body = {"cast": cast, "seed": 3, "settings": FAST, "step_seconds": LONG,
                "mm_config": {"round_seconds": 60, "vote_seconds": LONG, "max_rounds": 4},
                **extra}
        r = client.post("/api/seasons", json=body)
        assert r.status_code == 201, r.text
        self.client = client
        self.created: dict[str, Any] = r.json()
        self.id: str = self.created["id"]
        self.host: str = self.created["tokens"]["host"]
        self.players: dict[str, str] = self.created["tokens"]["players"]

    def act(self, action: str, body: dict[str, Any]) -> Any:
        r = self.client.post(f"/api/seasons/{self.id}/host/{action}",
                             params={"token": self.host}, json=body)
        assert r.status_code == 200, r.text
        return r.json()

    def choose(self, who: str, verb: str, body: dict[str, Any]) -> None:
        r = self.client.post(f"/api/seasons/{self.id}/{verb}",
                             params={"token": self.players[who]}, json=body)
        assert r.status_code == 200, r.text

    def view(self, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/seasons/{self.id}", params={"token": token or self.host})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def step(self) -> str:
        return str(self.view()["state"]["step"])

    def secrets(self) -> list[str]:
        return [self.host, self.created["tokens"]["spectator"], *self.players.values(),
                "s3cr3t-hook"]


def quiet(receiver: Receiver, seconds: float = 0.3) -> list[str]:
    """The posts once nothing more arrives (on 127.0.0.1 a post takes milliseconds)."""
    seen = -1
    while seen != len(receiver.posts):
        seen = len(receiver.posts)
        time.sleep(seconds)
    return receiver.texts()


# --------------------------------------------------------------------------- the story
def test_a_season_tells_every_outcome_once(client: TestClient, receiver: Receiver) -> None:
    start = len(receiver.posts)
    cast = [{"name": "Ann"}, {"name": MARKED}, {"name": "Eve"},
            {"name": "Cat", "bot": True}, {"name": "Dan", "bot": True}]
    s = Season(client, cast, name=NAME, webhook=receiver.url)
    # Episode 1: the Main Match recorded by hand; the trapped vote (sealed until counted).
    s.act("record_main", {"reason": "played on the **stage**", "result": {
        "escaped": ["Cat", "Dan"], "trapped": ["Ann", MARKED, "Eve"],
        "bars": {"Cat": 5, "Dan": 3}}})
    assert s.step() == "vote"
    before = len(quiet(receiver))
    s.choose("Ann", "vote", {"ec": MARKED})
    s.choose("Eve", "vote", {"ec": MARKED})
    assert len(quiet(receiver)) == before  # G-10: a sealed vote is nobody's news
    s.choose(MARKED, "vote", {"ec": "Eve"})
    # Cat (a bot, the solo winner) gives its token at once; the EC nominates by hand.
    until(lambda: s.step() == "nominate")
    s.choose(MARKED, "nominate", {"dmo": "Eve"})
    s.act("record_death", {"loser": "Eve", "game": "Chess_960",
                           "reason": "lost at @everyone's #1 game"})
    # Episode 2: the EC named in the record; an adjustment leaves Cat one nominee; the Death
    # Match is played here by instant bots.
    s.act("record_main", {"reason": "stage two", "result": {
        "escaped": ["Ann", MARKED], "trapped": ["Cat", "Dan"], "bars": {"Ann": 4, MARKED: 2},
        "ec": "Cat"}})
    s.act("adjust", {"player": "Ann", "what": "tol", "amount": 1, "reason": "audience ~vote~"})
    s.choose("Ann", "gift", {"to": MARKED})
    until(lambda: s.step() == "dm_next")
    s.act("start_death", {"game": "boxes"})
    until(lambda: s.step() == "main_next")
    # Episode 3: a changed deadline, the next Main Matches' limit, the end.
    s.act("extend", {"seconds": 600})
    s.act("mm_rounds", {"max_rounds": 5})
    s.act("end", {"reason": "out of _time_"})
    until(lambda: any(" is over: " in t for t in receiver.texts()[start:]))
    quiet(receiver)
    posts = receiver.posts[start:]
    texts = [t for _, t in posts]
    story = "\n----\n".join(texts)

    loser = next(n for n in ("Cat", "Dan") if f"episode 2: {n} is eliminated." in story)
    winner = "Dan" if loser == "Cat" else "Cat"
    once = [
        f"{HEAD}: a season of 5 starts: Ann, {SHOWN}, Eve, Cat and Dan",
        r"episode 1: Main Match result (recorded by the host\: played on the \*\*stage\*\*)"
        ": escaped Cat (5 gold bars, +2 garnets), Dan (3 gold bars, +1 garnet)",
        f"episode 1: Elimination vote counted: Ann 0, {SHOWN} 2, Eve 1",
        f"episode 1: {SHOWN} is the Elimination Candidate",
        "episode 1: Cat gives the Token of Life to Dan",
        f"episode 1: {SHOWN} nominates Eve as the Death Match Opponent",
        f"episode 1: Death Match result: {SHOWN} beats Eve at Chess\\_960 (lost the Death "
        r"Match \(Chess\_960\), recorded by the host\: lost at \@everyone's \#1 game)",
        "episode 1: Eve is eliminated.",
        r"episode 2: Main Match result (recorded by the host\: stage two)",
        "episode 2: Cat is the Elimination Candidate",
        r"episode 2: ledger adjustment: Ann +1 Token of Life (audience \~vote\~)",
        f"episode 2: Ann gives the Token of Life to {SHOWN}",
        "episode 2: Cat nominates Dan as the Death Match Opponent",
        "episode 2: the Death Match: Cat against Dan at Box within a Box within a Box",
        f"episode 2: Death Match result: {winner} beats {loser} at Box within a Box",
        f"episode 2: {loser} is eliminated.",
        "episode 3: Main Match next has a new deadline: <t:",
        "the Main Matches still to start have at most 5 rounds",
        r"is over: ended by the host\: out of \_time\_",
        # each step as it starts, with who it waits for
        "episode 1: Main Match next; deadline <t:",
        f"episode 1: Elimination vote, waiting for Ann, {SHOWN} and Eve; deadline <t:",
        "episode 1: Token of Life gift, waiting for Cat; deadline <t:",
        f"episode 1: Nomination, waiting for {SHOWN}; deadline <t:",
        "episode 1: Death Match next; deadline <t:",
        "episode 2: Main Match next; deadline <t:",
        "episode 2: Token of Life gift, waiting for Ann; deadline <t:",
        "episode 2: Nomination, waiting for Cat; deadline <t:",
        "episode 2: Death Match next; deadline <t:",
        "episode 3: Main Match next; deadline <t:",
    ]
    for item in once:
        assert story.count(item) == 1, (item, story)
    # Standings after each elimination, and the final ones at the end.
    assert story.count("\nStandings:\n") == 2 and story.count("\nFinal standings:\n") == 1
    final = next(t for t in texts if "Final standings:" in t)
    tols = "1 ToL, 1 garnet" if loser == "Dan" else "0 ToLs, 2 garnets"  # Dan's gift
    assert f"- {loser}: out in episode 2; {tols}, 0 opals" in final
    assert "- Eve: out in episode 1; 0 ToLs, 0 garnets, 0 opals" in final
    assert f"- {SHOWN}: in; 1 ToL, 1 garnet, 0 opals" in final
    assert "- Ann: in; 1 ToL, 2 garnets, 0 opals" in final

    # The Death Match played here: at most three messages, and none of the match's own.
    first = next(i for i, t in enumerate(texts) if "episode 2: the Death Match:" in t)
    last = next(i for i, t in enumerate(texts) if f"episode 2: {loser} is eliminated." in t)
    assert last - first + 1 <= 3, texts[first:last + 1]
    assert not any("match " + s.id in t or "Death Match (" in t for t in texts), story
    assert announce.holder("match", f"{s.id}-e2-dm") not in announce.ANNOUNCER._held

    for arrived, text in posts:
        assert text.startswith(HEAD), text  # the season's name in each post
        # G-14: a deadline only while it is ahead
        for deadline in re.findall(r"<t:(\d+):f>", text):
            assert int(deadline) > arrived, text
        # What a person typed shows as typed: no link, no mention, no markdown of theirs.
        assert MARKED not in text and "https://" not in text and "**stage**" not in text
        assert re.search(r"(?<!\\)@", text) is None, text
        assert not any(secret in text for secret in s.secrets()), text
        assert "token" not in text and "http://" not in text


def test_the_season_view_names_the_season(client: TestClient, receiver: Receiver) -> None:
    cast = ["Ann", "Ben", "Cat"]
    s = Season(client, cast, name="  Autumn   league ", webhook=receiver.url)
    spectator = s.created["tokens"]["spectator"]
    public = s.view(spectator)
    assert public["name"] == "Autumn league" and "webhook" not in public and "news" not in public
    host = s.view()
    assert host["webhook"] is True and host["news"] == "steps"
    assert "s3cr3t-hook" not in json.dumps(host)
    unnamed = Season(client, cast)
    assert unnamed.view()["name"] == f"Season {unnamed.id[:6]}"
    for bad in ("x" * 61, "tab\there", 5):
        r = client.post("/api/seasons", json={"cast": cast, "name": bad})
        assert r.status_code in (400, 422), r.text
    r = client.post("/api/seasons", json={"cast": cast, "news": "rounds"})
    assert r.status_code in (400, 422), r.text


# --------------------------------------------------------------------------- the levels
def test_at_phases_a_death_match_tells_each_stage_once(client: TestClient,
                                                       receiver: Receiver) -> None:
    """The host sets the webhook and the "phases" level after creating the season (a
    player's link may not, a URL outside the allowlist is refused naming G-14); the Death
    Match then posts each bout once, never a round; clearing it stops the season's news."""
    start = len(receiver.posts)
    cast = [{"name": n, "bot": True} for n in ("Ann", "Ben", "Cat")]
    s = Season(client, cast)
    path = f"/api/seasons/{s.id}/host/webhook"
    r = client.post(path, params={"token": s.players["Ann"]}, json={"url": receiver.url})
    assert r.status_code == 403
    r = client.post(path, params={"token": s.host},
                    json={"url": "https://example.com/api/webhooks/1/x", "news": "phases"})
    assert r.status_code == 422 and r.json()["rule"] == "G-14", r.text
    assert s.view()["webhook"] is False and s.view()["news"] == "steps"
    r = client.post(path, params={"token": s.host}, json={"url": receiver.url,
                                                           "news": "phases"})
    assert r.json() == {"ok": True, "webhook": True, "news": "phases"}, r.text
    s.act("record_main", {"reason": "x", "result": {
        "escaped": ["Ann"], "trapped": ["Ben", "Cat"], "bars": {"Ann": 1}, "ec": "Ben"}})
    until(lambda: s.step() == "dm_next")
    s.act("start_death", {"game": "boxes"})
    until(lambda: s.step() == "dm_next")  # the final's, between the two left
    quiet(receiver)
    mine = receiver.texts()[start:]
    head = f"**Season {s.id[:6]}** · episode 1 Death Match (Box within a Box within a Box): "
    child = [t for t in mine if t.startswith(head)]
    bouts = get_game("boxes").make_config({}).bouts
    assert len(child) == 1 + bouts, child  # studying the boards, then each bout once
    assert sum("bout " in t for t in child) == bouts
    assert not any("round" in t or "bet" in t or " is over" in t for t in child), child
    assert any("Death Match result:" in t for t in mine)  # the season tells the result
    # Its last news sent, the match lets the webhook go (the season still holds it).
    assert announce.holder("match", f"{s.id}-e1-dm") not in announce.ANNOUNCER._held
    assert announce.ANNOUNCER._held[announce.holder("match", s.id)] == receiver.url
    # Cleared: the season's next steps go nowhere.
    r = client.post(path, params={"token": s.host}, json={"url": None})
    assert r.json()["webhook"] is False
    seen = len(quiet(receiver))
    s.act("adjust", {"player": "Ann", "what": "garnets", "amount": 2, "reason": "y"})
    assert len(quiet(receiver)) == seen


def test_the_running_match_follows_the_seasons_level(client: TestClient,
                                                    receiver: Receiver) -> None:
    """A Death Match between people runs on its clock; the host turns the season's level to
    "phases" and its next stage is posted, then back to "steps" and nothing more comes from
    it, and it no longer holds the webhook."""
    cast = ["Ann", "Ben", "Cat", "Dan"]
    s = Season(client, [{"name": n} for n in cast], name="Live", webhook=receiver.url)
    s.act("record_main", {"reason": "x", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 3, "Ben": 1},
        "ec": "Cat"}})
    s.choose("Ann", "gift", {"to": "Ben"})
    s.choose("Cat", "nominate", {"dmo": "Dan"})
    s.act("start_death", {"game": "boxes"})
    dm = announce.holder("match", f"{s.id}-e1-dm")
    head = "**Live** · episode 1 Death Match ("
    path = f"/api/seasons/{s.id}/host/webhook"
    r = client.post(path, params={"token": s.host}, json={"url": receiver.url,
                                                           "news": "phases"})
    assert r.status_code == 200, r.text
    until(lambda: any(t.startswith(head) and "bout " in t for t in receiver.texts()))
    r = client.post(path, params={"token": s.host}, json={"url": receiver.url,
                                                           "news": "steps"})
    assert r.status_code == 200, r.text
    told = sum(t.startswith(head) for t in quiet(receiver))
    until(lambda: dm not in announce.ANNOUNCER._held)  # its next entries: none told
    assert sum(t.startswith(head) for t in quiet(receiver)) == told
    s.act("record_death", {"loser": "Dan", "reason": "the room voted"})
    until(lambda: any("Live** · episode 1: Dan is eliminated." in t
                      for t in receiver.texts()))


def test_summaries_tell_each_stage_of_any_game_once() -> None:
    """A season's match at "phases" tells each stage the first time it starts (Box within a
    Box's bouts, Locked Out!'s rounds, Paint Factory's picks and shoves once), nothing of its
    start or end (the season tells those), and at "steps" nothing at all. Easy bots (G-8)
    play the same phases here as hard ones, without Paint's design search."""
    parent = {"id": "abcdef012345", "key": "e2-dm", "name": "Cup [1]"}
    for name in ("boxes", "paint", "feather"):
        game = get_game(name)
        m = simulate(game, 5, None, MatchSettings(time_scale=0.01), levels={0: "easy", 1: "easy"})
        names = ("Ann", "Ben")
        posts: list[str] = []
        batch = []
        for e in m.log:  # one batch per phase, as a server commits them
            batch.append(e)
            if e.kind == "phase_started":
                posts += news.match_news("c", m, names, batch,
                                         {"parent": parent, "news": "phases"}, now=0)
                batch = []
        posts += news.match_news("c", m, names, batch, {"parent": parent, "news": "phases"})
        stages = {news.group(str(e.data["name"])) for e in m.log if e.kind == "phase_started"}
        assert len(posts) == len(stages), (name, posts)
        assert all(p.startswith(r"**Cup \[1\]** · episode 2 Death Match (") for p in posts)
        assert news.match_news("c", m, names, m.log, {"parent": parent}) == []  # "steps"


# --------------------------------------------------------------------------- past deadlines
def test_a_deadline_already_past_is_never_told() -> None:
    """The same entries told while a step's deadline is ahead and after it passed (a batch
    stored late, a server that was down): the step is told, its deadline only while ahead."""
    clock = ManualClock(1_000_000.0)
    cast = ("Ann", MARKED, "Cat")
    m = Match(SEASON, SEASON.make_config({"cast": list(cast), "step_seconds": 600}), 9, clock,
              names=cast)
    deadline = m.deadline
    assert deadline is not None
    early = news.match_news("s1", m, cast, m.log, {}, now=clock.now())
    late = news.match_news("s1", m, cast, m.log, {}, now=deadline + 1)
    assert f"deadline <t:{int(deadline)}:f>" in early[0]
    assert "Main Match next" in late[0] and "<t:" not in late[0]
    assert SHOWN in late[0] and "**Season s1**" in late[0]
    # A step that started and ended in one batch (its clock ran out before it was stored) is
    # told by its outcome: the drawn start of the Main Match, never the step or its deadline.
    clock.advance(601)
    m.advance()
    posts = news.match_news("s1", m, cast, m.log, {}, now=clock.now())
    assert not any("Main Match next" in p or "<t:" in p for p in posts), posts
    assert any("episode 1: the Main Match (Locked Out!) starts with Ann" in p for p in posts)


def test_markdown_is_escaped_so_it_shows_as_typed() -> None:
    assert news.md("[x](https://e.example/y)") == r"\[x\]\(https\:\/\/e.example\/y\)"
    assert news.md("@everyone **bold** _i_ ~s~ `c` |sp| > q # h - l") == (
        r"\@everyone \*\*bold\*\* \_i\_ \~s\~ \`c\` \|sp\| \> q \# h \- l")
    assert news.md("a\\b") == "a\\\\b"
    assert news.md("two\nlines\n# heading") == r"two lines \# heading"
    assert news.md("<@123> <t:1:R> :smile:") == r"\<\@123\> \<t\:1\:R\> \:smile\:"
