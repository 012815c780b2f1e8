"""A season's recap page (``/s/{id}/recap``), in process.

- A season of five recorded by hand, two episodes in (Ann escapes with the most bars and the
  opal and gives her Token of Life to Ben; the trapped vote Eve the Elimination Candidate,
  she nominates Dan, who loses; Cat escapes alone next, Ann is named the EC, nominates Cat
  and beats her; the host takes a garnet of Ann's in episode 3): the page lists every
  episode and its steps with who took them, their causes and their rulings linked; the
  chart has one line per player in each of its three panels with the values after each
  episode, the eliminations crossed; its table says the same numbers; the matches played
  elsewhere have no watch link. The API names the recap's address.
- A season of three bots played here to its end: every match's result has its watch link
  (the match's spectator link), the final and the winner are told.
- Who may read it: anyone while the season has its public link and is open to spectators,
  any link of the season always, never a broadcast (G-15); an unknown id is a 404 page, a
  season that could not be rebuilt the 503 page, a recap that cannot be made a 503, never
  a 500. The page runs no script.
- Property: over random seasons (results recorded by hand, sealed choices made or not,
  private lines written), the recap never shows a private line or a sealed choice before
  its step closes, and is the same for the host's reading of the log as for a spectator's
  (it is made of public entries only).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from arena.core.chat import private_channel
from arena.core.clock import ManualClock
from arena.core.match import HOST, INPUT_KINDS, SPECTATOR, Match, MatchSettings
from arena.season import flow
from arena.season.game import SEASON
from arena.season.recap import gather
from arena.season.state import (
    DM_NEXT,
    DM_PLAY,
    GIFT,
    MAIN_NEXT,
    MM_PLAY,
    NAME_EC,
    NOMINATE,
    TIE,
    VOTE,
)
from arena.server import season_import, season_recap
from arena.web import recap as recap_web
from arena.web.pages import all_rulings
from server.inprocess import TestClient, in_process_server
from server.seasonkit import FAST, FIVE, Season, two_recorded_episodes

SVG = "{http://www.w3.org/2000/svg}"


# ---------------------------------------------------------------------- reading the page
@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return " ".join("".join(c if isinstance(c, str) else " " + c.text() + " "
                                for c in self.children).split())

    def all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        found = []
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and all(
                        c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                    found.append(c)
                found.extend(c.all(tag, **attrs))
        return found

    def one(self, tag: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, **attrs)
        assert len(found) == 1, (tag, attrs, len(found))
        return found[0]


VOID = {"br", "meta", "link", "img", "input", "hr", "source", "path", "line", "circle", "rect",
        "polygon", "polyline"}


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def tree(text: str) -> Node:
    parser = _Tree()
    parser.feed(text)
    return parser.root


def chart_of(text: str) -> ET.Element:
    found = re.search(r'<svg class="recap-chart".*?</svg>', text, re.S)
    assert found, "no chart"
    return ET.fromstring(found.group(0))


def series(svg: ET.Element) -> dict[str, dict[str, tuple[list[int], str | None]]]:
    """Per panel, per player: the values its line goes through and where it was crossed."""
    out: dict[str, dict[str, tuple[list[int], str | None]]] = {}
    for panel in svg.iter(SVG + "g"):
        if panel.get("class") != "chart-panel-group":
            continue
        lines = {}
        for g in panel.iter(SVG + "g"):
            if g.get("class") == "chart-series":
                lines[str(g.get("data-player"))] = (
                    [int(v) for v in str(g.get("data-values")).split()], g.get("data-out"))
        out[str(panel.get("data-panel"))] = lines
    return out


# ---------------------------------------------------------------------- the seasons
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with in_process_server(tmp_path_factory.mktemp("recap")) as c:
        yield c


def create(client: TestClient, cast: list[Any], **extra: Any) -> Season:
    return Season.create(client, {"cast": cast, "seed": 5, "settings": FAST, **extra})


@pytest.fixture(scope="module")
def recorded(client: TestClient) -> Season:
    s = create(client, FIVE, name="Summer of Locks")
    two_recorded_episodes(s)
    return s


EXPECTED = {  # after: the start, episode 1, 2 and 3 (so far)
    "tols": {"Ann": [0, 0, 0, 0], "Ben": [0, 1, 1, 1], "Cat": [0, 0, 0, 0],
             "Dan": [0, 0, 0, 0], "Eve": [0, 0, 1, 1]},
    "garnets": {"Ann": [0, 2, 2, 1], "Ben": [0, 1, 1, 1], "Cat": [0, 0, 2, 2],
                "Dan": [0, 0, 0, 0], "Eve": [0, 0, 1, 1]},
    "opals": {"Ann": [0, 1, 1, 1], "Ben": [0, 0, 0, 0], "Cat": [0, 0, 0, 0],
              "Dan": [0, 0, 0, 0], "Eve": [0, 0, 0, 0]},
}
OUT = {"Dan": "1", "Cat": "2"}


def recap(client: TestClient, s: Season, **params: str) -> Any:
    return client.get(f"/s/{s.id}/recap", params=params)


def steps(page: Node, episode: int) -> dict[str, Node]:
    article = page.one("article", data_testid=f"recap-episode-{episode}")
    return {li.attrs["data-kind"]: li for li in article.all("li", **{"class": "recap-step"})}


def rule_links(node: Node) -> list[str]:
    return [a.attrs["href"] for a in node.all("a", **{"class": "rule-link"})]


# ---------------------------------------------------------------------- the recorded season
def test_the_recap_tells_every_episode_step_by_step(client: TestClient,
                                                    recorded: Season) -> None:
    r = recap(client, recorded)
    assert r.status_code == 200, r.text[:300]
    assert "<script" not in r.text  # no script at all: read as served, printed as shown
    assert "script-src" in r.headers["content-security-policy"]
    page = tree(r.text)
    assert page.one("h1", data_testid="recap-title").text() == "Summer of Locks"
    lead = page.one(data_testid="recap-lead").text()
    assert "Episode 3 is under way" in lead and "3 of 5 players are still in" in lead, lead
    assert "5 players: Ann, Ben, Cat, Dan, Eve" in page.one(data_testid="recap-date").text()
    for n in (1, 2, 3):
        page.one("article", data_testid=f"recap-episode-{n}")
    one, two, three = steps(page, 1), steps(page, 2), steps(page, 3)
    assert set(one) == {"main_result", "vote_counted", "ec_chosen", "gift_given", "nominated",
                        "death_result"}, set(one)
    assert set(two) == {"main_result", "ec_chosen", "gift_given", "nominated",
                        "death_result"}, set(two)
    assert set(three) == {"adjusted"}, set(three)
    actor = {k: li.one(**{"class": "recap-actor"}).text() for k, li in one.items()}
    assert actor == {"main_result": "The host", "vote_counted": "Cat, Dan and Eve",
                     "ec_chosen": "The vote", "gift_given": "Ann", "nominated": "Eve",
                     "death_result": "The host"}, actor
    assert "Cat for Eve, Dan for Eve, Eve for Cat" in one["vote_counted"].text()
    assert "Eve is the Elimination Candidate" in one["ec_chosen"].text()
    assert "Ann, the solo winner, gave a Token of Life to Ben" in one["gift_given"].text()
    assert "Eve nominated Dan" in one["nominated"].text()
    assert "Dan is eliminated" in one["death_result"].text()
    assert "played at the club" in one["death_result"].text()  # the cause, as the host wrote
    assert two["ec_chosen"].one(**{"class": "recap-actor"}).text() == "The host"
    assert "spent on a hint" in three["adjusted"].text()
    # Every step cites its rulings, each a link to /rulings like the rest of the site.
    cited = {"vote_counted": "LO-9", "gift_given": "SE-3", "nominated": "SE-3",
             "death_result": "SE-4", "main_result": "SE-2"}
    for kind, rule in cited.items():
        assert f"/rulings#{rule}" in rule_links(one[kind]), (kind, rule_links(one[kind]))
    assert "/rulings#SE-5" in rule_links(three["adjusted"])
    for li in [*one.values(), *two.values(), *three.values()]:
        assert rule_links(li), li.text()
        assert li.one("time").attrs["datetime"].endswith("+00:00")
    # The matches, played elsewhere: their results and no watch link.
    ep1 = page.one("article", data_testid="recap-episode-1")
    main = ep1.one("li", data_testid="recap-match-e1-mm")
    assert "Escaped: Ann (5 gold bars) and Ben (3 gold bars)" in main.text()
    dm = ep1.one("li", data_testid="recap-match-e1-dm")
    assert "Chess" in dm.text() and "Eve beat Dan" in dm.text()
    assert not ep1.all("a", **{"class": "recap-watch"})
    assert "Dan eliminated" in ep1.one("h3").text()


def test_the_chart_draws_each_player_after_each_episode(client: TestClient,
                                                        recorded: Season) -> None:
    r = recap(client, recorded)
    svg = chart_of(r.text)
    assert svg.get("role") == "img" and svg.get("aria-label")
    assert svg.get("viewBox") and svg.get("width") == "100%"
    assert svg.find(SVG + "title") is not None
    desc = svg.find(SVG + "desc")
    assert desc is not None and "Eliminated in episode 1" in str(desc.text)
    drawn = series(svg)
    assert list(drawn) == ["tols", "garnets", "opals"]
    for panel, lines in drawn.items():
        assert list(lines) == FIVE, panel  # one line per player, in the cast's order
        for name, (values, out) in lines.items():
            assert values == EXPECTED[panel][name], (panel, name, values)
            assert out == OUT.get(name), (panel, name, out)
        # The names are written at the lines' ends, the eliminated ones with their episode.
        labels = [t.text for t in svg.iter(SVG + "text") if t.get("class") == "chart-label"]
        assert "Dan ✕ ep 1" in labels and "Cat ✕ ep 2" in labels and "Ann" in labels
    crosses = [p for p in svg.iter(SVG + "path") if p.get("class") == "chart-out"]
    assert len(crosses) == 2 * 2 * 3  # two eliminations, each a cross on a halo, 3 panels
    # The same numbers in the table (for screen readers, and whoever wants the figures).
    page = tree(r.text)
    numbers = page.one("details", data_testid="recap-numbers")
    for panel in EXPECTED:
        table = numbers.one("table", data_testid=f"recap-table-{panel}")
        for row in table.all("tr"):
            player = row.attrs.get("data-player")
            if player is None:
                continue
            cells = [int(td.text().split()[0]) for td in row.all("td")]
            assert cells == EXPECTED[panel][player][1:], (panel, player, cells)
            crossed = [td.text() for td in row.all("td") if "(out)" in td.text()]
            assert len(crossed) == (1 if player in OUT else 0)
    now = numbers.one("table", data_testid="recap-table-now").text()
    assert "Out in episode 1" in now and "Out in episode 2" in now


def test_the_season_api_names_the_recap_and_its_page_links_it(client: TestClient,
                                                              recorded: Season) -> None:
    view = recorded.get()
    assert view["recap"] == f"http://testserver/s/{recorded.id}/recap"
    assert recorded.get(recorded.host)["recap"] == view["recap"]
    assert client.get(view["recap"]).status_code == 200


def test_any_link_of_the_season_reads_the_same_recap(client: TestClient,
                                                     recorded: Season) -> None:
    public = recap(client, recorded).text
    for token in (recorded.host, recorded.spectator, recorded.players["Ann"]):
        assert recap(client, recorded, token=token).text == public


# ---------------------------------------------------------------------- a season played here
@pytest.fixture(scope="module")
def played(client: TestClient) -> Season:
    s = create(client, [{"name": n, "bot": True} for n in ("Ann", "Ben", "Cat")],
               mm_config={"round_seconds": 60, "vote_seconds": 60, "max_rounds": 4})
    s.ok("start_main")
    for _ in range(2):
        view = s.wait_step("main_next", "mm_play", "vote", "tie", "gift", "name_ec",
                           "nominate")
        assert view["state"]["step"] == "dm_next", view["state"]["step"]
        s.ok("start_death", {"game": "boxes", "config": {"bouts": 2}})
        view = s.wait_step("dm_play")
        if view["state"]["step"] == "dm_decide":  # no winner: the host decides (SE-4)
            seats = view["state"]["episodes"][-1]["death_match"]["seats"]
            s.ok("decide", {"loser": seats[1], "reason": "a coin"})
    s.wait(lambda st: st["step"] == "over")
    return s


def test_every_match_played_here_has_its_watch_link(client: TestClient,
                                                    played: Season) -> None:
    r = recap(client, played)
    assert r.status_code == 200, r.text[:300]
    page = tree(r.text)
    state = played.state()
    winner = state["winner"]
    assert f"{winner} won the season" in page.one(data_testid="recap-lead").text()
    final = page.one("section", data_testid="recap-final")
    assert winner in final.text()
    keys = ["e1-mm", "e1-dm", "e2-dm"]
    for key in keys:
        item = page.one("li", data_testid=f"recap-match-{key}")
        link = item.one("a", data_testid=f"recap-watch-{key}").attrs["href"]
        assert f"/m/{played.id}-{key}?token=" in link
        token = link.split("token=")[1]
        view = client.get(f"/api/matches/{played.id}-{key}/view", params={"token": token})
        assert view.status_code == 200 and view.json()["role"] == "spectator"
        assert item.one(**{"class": "recap-match-result"}).text()
    assert page.one("a", data_testid="recap-final-watch").attrs["href"].endswith(
        page.one("a", data_testid="recap-watch-e2-dm").attrs["href"].split("/m/")[1])
    # Both episodes, the last the final; the losers are crossed out where they left.
    drawn = series(chart_of(r.text))
    lost = {ep["eliminated"]: ep for ep in state["episodes"]}
    for name, (values, out) in drawn["garnets"].items():
        assert len(values) == 3
        if name in lost:
            assert out == ("Final" if lost[name]["final"] else "1")
    final_step = steps(page, 2)["death_result"]
    assert f"{winner} won the final" in final_step.text()
    assert "/rulings#SE-1" in rule_links(final_step)


# ---------------------------------------------------------------------- who may read it
def test_who_may_read_the_recap_and_what_else_is_answered(
        client: TestClient, recorded: Season, monkeypatch: pytest.MonkeyPatch) -> None:
    s = create(client, ["Ann", "Ben", "Cat"])
    assert recap(client, s).status_code == 200
    r = client.get("/s/nosuchseason/recap")
    assert r.status_code == 404 and "no such season" in r.text
    r = recap(client, s, token="not-a-link")
    assert r.status_code in (401, 403) and 'data-testid="link-error"' in r.text
    # A match that is no season has no recap.
    m = client.post("/api/matches", json={"game": "boxes", "seats": [{"name": "A"},
                                                                       {"name": "B"}]})
    assert client.get(f"/s/{m.json()['id']}/recap").status_code == 404
    # Closed to spectators: not public any more, but every link of the season still reads it.
    closed = client.post(f"/api/matches/{s.id}/host/spectators", params={"token": s.host},
                         json={"open": False})
    assert closed.status_code == 200, closed.text
    assert recap(client, s).status_code == 403
    assert recap(client, s, token=s.spectator).status_code == 403
    assert recap(client, s, token=s.host).status_code == 200
    assert recap(client, s, token=s.players["Ben"]).status_code == 200
    # G-15: a broadcast link reads the season one delay behind, never the recap of now.
    b = client.post(f"/api/matches/{recorded.id}/host/broadcast",
                    params={"token": recorded.host}, json={"delay": 60, "open": True})
    assert b.status_code == 200, b.text
    token = b.json()["link"].split("token=")[1]
    r = recap(client, recorded, token=token)
    assert r.status_code == 403 and "G-15" in r.text
    # A season the server could not rebuild: its recap says so, as its page does.
    app: Any = client.app
    matches = app.state.matches
    matches.quarantine(s.id, "its log does not replay")
    try:
        r = recap(client, s)
        assert r.status_code == 503 and "its log does not replay" in r.text
    finally:
        matches.quarantined.pop(s.id, None)
    # A record the recap cannot read is a 503 page too, never a 500.

    def broken(view: Any, events: Any) -> Any:
        raise KeyError("episode")

    monkeypatch.setattr(season_recap, "gather", broken)
    r = recap(client, recorded)
    assert r.status_code == 503 and "recap could not be made" in r.text


# ---------------------------------------------------------------------- never a private fact
CAST = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def _record_main(m: Match, data: st.DataObject) -> None:
    players = m.state.still_in()
    escaped = data.draw(st.lists(st.sampled_from(players), unique=True), label="escaped")
    trapped = [p for p in players if p not in escaped]
    bars = {n: data.draw(st.integers(0, 7), label="bars") for n in escaped}
    opal = data.draw(st.none() | st.sampled_from(players), label="opal")
    m.act("record_main", {"reason": "drawn", "result": {
        "escaped": escaped, "trapped": trapped, "bars": bars, "opal": opal}}, "host")


def _choose(m: Match, data: st.DataObject) -> None:
    """Some of the step's players make a sealed choice (not necessarily all of them)."""
    turn = flow.turn(m.state)
    assert turn is not None
    verb = {VOTE: "Vote", TIE: "Vote", GIFT: "Gift", NOMINATE: "Nominate"}[m.state.step]
    for player in turn.players:
        if m.is_final(m.state.cast.index(player)):
            continue
        if data.draw(st.booleans(), label=f"{player} chooses"):
            pick = data.draw(st.sampled_from(turn.options), label="pick")
            phase = m.phase_no
            m.submit(m.state.cast.index(player), f"{verb} {pick}", final=True)
            if m.phase_no != phase:  # every one of them chose: the step closed (G-4)
                return


def _drive(data: st.DataObject) -> tuple[Match, list[str], str | None]:
    cast = CAST[:data.draw(st.integers(3, 6), label="players")]
    clock = ManualClock(1_700_000_000.0)
    m = Match(SEASON, SEASON.make_config({"cast": list(cast), "step_seconds": 100,
                                           "vote_seconds": 100}),
              data.draw(st.integers(0, 2**32), label="seed"), clock,
              MatchSettings(bot_pace="instant"), names=cast)
    secrets: list[str] = []
    for _ in range(data.draw(st.integers(1, 40), label="moves")):
        if m.finished:
            break
        move = data.draw(st.sampled_from(["step", "step", "step", "private", "wait"]),
                         label="move")
        step = m.state.step
        if move == "private":
            seat = data.draw(st.integers(0, len(cast) - 1), label="seat")
            secrets.append(f"SECRET-{len(secrets)}-line")
            if seat not in m.private:
                m.set_private(seat, True)
            m.chat(data.draw(st.sampled_from([HOST, seat]), label="writer"),
                   private_channel(seat), secrets[-1])
        elif move == "wait" and step not in (MM_PLAY, DM_PLAY):  # its clock runs out (SE-7)
            clock.set(clock.now() + 101)
            m.advance()
        elif step in (MAIN_NEXT, MM_PLAY):
            _record_main(m, data)
        elif step == NAME_EC:
            pool = list(m.state.episode.main.trapped or m.state.episode.players)
            m.act("name_ec", {"ec": data.draw(st.sampled_from(pool)), "reason": "drawn"},
                  "host")
        elif step in (DM_NEXT, DM_PLAY):
            seats = list(m.state.episode.dm_seats)
            m.act("record_death", {"winner": data.draw(st.sampled_from(seats)),
                                   "reason": "drawn"}, "host")
        else:
            _choose(m, data)
        clock.set(clock.now() + 1)
    open_step = m.state.step if m.state.step in (VOTE, TIE, GIFT, NOMINATE) else None
    return m, secrets, open_step


CLOSES = {VOTE: "vote_counted", TIE: "tie_counted", GIFT: "gift_given", NOMINATE: "nominated"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_recap_never_shows_a_private_fact(data: st.DataObject) -> None:
    m, secrets, open_step = _drive(data)
    event(f"ended at: {m.state.step}, episode {m.state.episode.number}")
    event(f"private lines: {bool(secrets)}")
    seen = gather(m.view(SPECTATOR, svg=False),
                  [e.to_json() for _, e in m.events_seen(SPECTATOR)])
    # The host reads every entry of the log, sealed choices and private lines included: the
    # recap is made of the public ones only, so it is the same.
    assert gather(m.view(HOST, svg=False), [e.to_json() for e in m.log]) == seen
    page = recap_web.body(seen, name="S", season_id="s1", links={},
                          codes=all_rulings().codes())
    for secret in secrets:
        assert secret not in page
    number = m.state.episode.number
    if open_step is not None:  # a choice made in the open step is nobody's news yet (G-10)
        told = {s.kind for ep in seen.episodes if ep.number == number for s in ep.steps}
        assert CLOSES[open_step] not in told, (open_step, told)
        now = tree(page).one("article", data_testid=f"recap-episode-{number}").text()
        for sub in (m.standing(s) for s in range(m.seats)):
            if sub is None:
                continue
            who, whom = m.state.cast[sub.seat], sub.value.name
            said = {VOTE: f"{who} for {whom}", TIE: f"{who} for {whom}",
                    GIFT: f"Token of Life to {whom}", NOMINATE: f"nominated {whom}"}
            assert said[open_step] not in now, (open_step, said[open_step], now)
    # The chart ends where the standings are.
    standings = {s["name"]: s for s in m.view(SPECTATOR, svg=False)["state"]["standings"]}
    for line in seen.lines:
        end = line.points[-1]
        s = standings[line.name]
        assert (end.tols, end.garnets, end.opals) == (s["tols"], s["garnets"], s["opals"])
        assert line.eliminated_in == s["eliminated_in"]
        assert len(line.points) == number + 1


@pytest.mark.parametrize("name", ["finished", "gift", "dm_pick"])
def test_a_season_the_old_engine_stored_has_its_recap(name: str) -> None:
    """A season brought over from the old season engine (SE-5) has its earlier steps in its
    record only: the recap tells them from there, without times."""
    from server.test_season_import import old_season

    record, _, log = season_import.build(old_season(name), [], "spectator-token")
    m = Match.replay(SEASON, SEASON.config_from_record(record.config), record.seed,
                     MatchSettings.from_json(record.settings), record.start,
                     [e for e in log if e.kind in INPUT_KINDS], ManualClock(log[-1].t),
                     until=log[-1].t, names=record.seat_names)
    seen = gather(m.view(SPECTATOR, svg=False),
                  [e.to_json() for _, e in m.events_seen(SPECTATOR)])
    page = tree(recap_web.body(seen, name="Old", season_id="s1", links={},
                               codes=all_rulings().codes()))
    first = steps(page, 1)
    assert "ec_chosen" in first, set(first)
    assert "imported" in steps(page, seen.episodes[-1].number)  # where it was brought over
    assert "before this record" in first["ec_chosen"].text()
    assert len(series(chart_of(str(recap_web.chart(seen))))["garnets"]) == len(record.seat_names)
    if name == "finished":
        assert seen.winner == "Ann" and "Ann won the season" in seen.lead


def test_the_recap_module_needs_no_server() -> None:
    """season/ never imports the server or the web (tests/test_layers.py holds the rule)."""
    source = Path(gather.__code__.co_filename).read_text(encoding="utf-8")
    assert "arena.server" not in source and "arena.web" not in source


def test_a_posted_recap_unfurls_with_the_standings_card(client: TestClient,
                                                        recorded: Season) -> None:
    """The recap is the page a host posts: its preview names the season and shows the
    standings card, fetched by the season's public link."""
    import re

    text = recap(client, recorded).text
    tags = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text))
    assert tags["og:title"].endswith("season recap") and tags["og:description"]
    assert tags["twitter:card"] == "summary_large_image"
    image = tags["og:image"].replace("&amp;", "&")
    assert f"/m/{recorded.id}/card.png?token={recorded.spectator}" in image
    png = client.get(image)
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content[16:24] == (1200).to_bytes(4, "big") + (630).to_bytes(4, "big")
    assert len(png.content) <= 200_000
