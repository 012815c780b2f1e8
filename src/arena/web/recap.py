"""A season's recap page (``/s/{id}/recap``): what a host shares once a season is over, or
while it runs: the lead, the standings over the episodes as a chart with its numbers, every
episode's steps in order and every match's result with the link to watch it.

Server-rendered HTML and SVG, no script: it reads the same in a chat's link preview, with
scripts off and on paper, and needs nothing the pages' Content-Security-Policy would refuse.
Its facts are :func:`arena.season.recap.gather`'s, which reads only what a spectator may
(G-10); its words are this module's.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from starlette.responses import HTMLResponse

from arena.season.recap import COUNTED, EpisodeStory, MatchLine, Recap
from arena.season.recap_steps import Step, plural
from arena.web.chart import Panel, Series, line_chart
from arena.web.rules import link_rule_ids

TITLES = {"tols": "Tokens of Life", "garnets": "Garnets", "opals": "Opals"}
PANELS = tuple(Panel(key, TITLES[key]) for key, _ in COUNTED)
SHEET = '<link rel="stylesheet" href="/static/recap.css">'


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _day(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%a %-d %b %Y")


def _time(t: float | None, *, day: bool = False) -> str:
    if t is None:
        return '<span class="recap-when muted">before this record</span>'
    when = datetime.fromtimestamp(t, UTC)
    shown = _day(t) if day else when.strftime("%a %-d %b · %H:%M")
    return f'<time class="recap-when" datetime="{when.isoformat()}">{_esc(shown)}</time>'


def _recap_head(title: str, description: str, page_url: str, image_url: str | None) -> str:
    """The link preview's tags of the page (title, description, its picture, its address):
    a recap is the page a host posts where the community talks."""
    if image_url is None:
        return ""
    from arena.web.unfurl import unfurl_head

    return unfurl_head(title, description, image_url, page_url)


class _Words:
    """Text with ruling ids turned into links to /rulings, as every page of the site."""

    def __init__(self, codes: Iterable[str]) -> None:
        self.codes = tuple(codes)

    def text(self, text: str) -> str:
        return link_rule_ids(_esc(text), self.codes) if self.codes else _esc(text)

    def rules(self, ids: Iterable[str], *, label: bool = True) -> str:
        links = [f'<a class="rule-link" href="/rulings#{_esc(r)}">{_esc(r)}</a>'
                 if r.split("-")[0] in self.codes else _esc(r) for r in ids]
        if not links:
            return ""
        said = ("Rulings: " if len(links) > 1 else "Ruling: ") if label else ""
        return f'<span class="recap-rules">{said}{", ".join(links)}</span>'



# --------------------------------------------------------------------------- standings
def chart(recap: Recap) -> str:
    """The standings after each episode, drawn, with what a screen reader says of it."""
    series = [Series(line.name, {key: [p.get(key) for p in line.points] for key, _ in COUNTED},
                     line.eliminated_in, line.won) for line in recap.lines]
    said = []
    for line in recap.lines:
        end = line.points[-1]
        fate = (" Won the season." if line.won else
                f" Eliminated in episode {line.eliminated_in}." if line.eliminated_in else "")
        said.append(f"{line.name}: {plural(end.tols, 'Token of Life', 'Tokens of Life')}, "
                    f"{plural(end.garnets, 'garnet')}, {plural(end.opals, 'opal')}.{fate}")
    going = next((ep.number for ep in recap.episodes[-1:] if ep.under_way), None)
    desc = ("Three panels, Tokens of Life, garnets and opals, each with one line per player "
            f"from the start to {'the end' if recap.over else 'now'}"
            + (f" (episode {going} so far)" if going else "") + ". " + " ".join(said))
    return line_chart(recap.labels, PANELS, series, ident="recap-chart",
                      title="Standings after each episode", desc=desc, axis="after episode")


def _status(recap: Recap, name: str) -> str:
    line = next(ln for ln in recap.lines if ln.name == name)
    if line.won:
        return "Won the season"
    return f"Out in episode {line.eliminated_in}" if line.eliminated_in else "In"


def numbers(recap: Recap) -> str:
    """The chart's numbers as tables (what the chart shows, for a screen reader and a
    reader who wants the figures)."""
    now = "at the end" if recap.over else "now"
    rows = "".join(
        f'<tr data-player="{_esc(ln.name)}"><th scope="row">{_esc(ln.name)}</th>'
        f"<td>{_esc(_status(recap, ln.name))}</td><td>{ln.points[-1].tols}</td>"
        f"<td>{ln.points[-1].garnets}</td><td>{ln.points[-1].opals}</td></tr>"
        for ln in recap.lines)
    tables = [f'<div class="table-wrap" tabindex="0" role="region" aria-label="standings {now}">'
              f'<table class="recap-table" data-testid="recap-table-now">'
              f"<caption>Standings {now}</caption><thead><tr><th scope=\"col\">Player</th>"
              f'<th scope="col">Status</th><th scope="col">Tokens of Life</th>'
              f'<th scope="col">Garnets</th><th scope="col">Opals</th></tr></thead>'
              f"<tbody>{rows}</tbody></table></div>"]
    under_way = any(ep.under_way for ep in recap.episodes[-1:])
    head = "".join(
        f'<th scope="col">{"Ep. " if label.isdigit() else ""}{_esc(label)}'
        f'{" (so far)" if under_way and k == len(recap.labels) - 1 else ""}</th>'
        for k, label in enumerate(recap.labels) if k)
    for key, _ in COUNTED:
        body = []
        for ln in recap.lines:
            cells = []
            for k, p in enumerate(ln.points[1:], start=1):
                out = " (out)" if ln.eliminated_in == k else ""
                cells.append(f"<td>{p.get(key)}{out}</td>")
            body.append(f'<tr data-player="{_esc(ln.name)}"><th scope="row">{_esc(ln.name)}'
                        f'</th>{"".join(cells)}</tr>')
        tables.append(
            f'<div class="table-wrap" tabindex="0" role="region" aria-label="{TITLES[key]}">'
            f'<table class="recap-table" data-testid="recap-table-{key}">'
            f"<caption>{TITLES[key]} after each episode</caption><thead><tr>"
            f'<th scope="col">Player</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
            f"</table></div>")
    return "".join(tables)


# --------------------------------------------------------------------------- episodes
def _match(m: MatchLine, links: Mapping[str, Mapping[str, str]], words: _Words) -> str:
    watch = links.get(m.key or "", {}).get("watch") if m.key else None
    link = (f' <a class="recap-watch" href="{_esc(watch)}" data-testid="recap-watch-{_esc(m.key)}"'
            f' aria-label="Watch the {_esc(m.what)} of episode {m.episode}">Watch</a>'
            if watch else "")
    where = m.game
    if m.key is None:  # played elsewhere (SE-2, SE-4): the game if the host named one
        where = ("" if m.game == "played elsewhere" else f"{m.game}, ") + \
            "played elsewhere and recorded by the host"
    players = (f"{_esc(m.players[0])} (seat 1) against {_esc(m.players[1])} (seat 2)"
               if m.what != "Main Match" and len(m.players) == 2
               else _esc(", ".join(m.players)))
    ident = m.key or f"e{m.episode}-{'mm' if m.what == 'Main Match' else 'dm'}"
    return (f'<li class="recap-match" data-testid="recap-match-{_esc(ident)}">'
            f'<div class="recap-match-body"><span class="recap-match-what">{_esc(m.what)}'
            f'</span> <span class="muted">{_esc(where)} · {players}</span><br>'
            f'<span class="recap-match-result">{words.text(m.result)}</span> '
            f'{words.rules(m.rules)}</div>{link}</li>')


def _step(s: Step, words: _Words) -> str:
    cause = (f'<span class="recap-cause">Why: {words.text(s.cause)}.</span> '
             if s.cause else "")
    return (f'<li class="recap-step" data-kind="{_esc(s.kind)}">'
            f'<p class="recap-meta">{_time(s.t)} · <span class="recap-actor">{_esc(s.actor)}'
            f'</span></p><p class="recap-outcome">{words.text(s.outcome)}</p>'
            f'<p class="recap-why">{cause}{words.rules(s.rules)}</p></li>')


def episode(ep: EpisodeStory, links: Mapping[str, Mapping[str, str]], words: _Words) -> str:
    name = "Final" if ep.final else f"Episode {ep.number}"
    tag = (f"{ep.eliminated} eliminated" if ep.eliminated and not ep.final
           else "under way" if ep.under_way else "")
    matches = "".join(_match(m, links, words) for m in ep.matches)
    steps = "".join(_step(s, words) for s in ep.steps)
    notes = "".join(f"<li>{words.text(n[:1].upper() + n[1:])}</li>" for n in ep.notes)
    return (f'<article class="recap-episode" id="episode-{ep.number}" '
            f'data-testid="recap-episode-{ep.number}"><h3>{name}'
            + (f' <span class="muted small">· {_esc(tag)}</span>' if tag else "") + "</h3>"
            + (f'<ul class="recap-matches">{matches}</ul>' if matches else "")
            + (f'<ol class="recap-timeline" aria-label="{name}, step by step">{steps}</ol>'
               if steps else '<p class="muted">Nothing has happened in it yet.</p>')
            + (f'<ul class="recap-notes small muted">{notes}</ul>' if notes else "")
            + "</article>")


# --------------------------------------------------------------------------- the page
def body(recap: Recap, *, name: str, season_id: str,
         links: Mapping[str, Mapping[str, str]], codes: Iterable[str]) -> str:
    words = _Words(codes)
    dates = ""
    if recap.started is not None:
        dates = f"Started {_time(recap.started, day=True)}"
        if recap.ended is not None and _day(recap.ended) == _day(recap.started):
            dates = f"Played on {_time(recap.started, day=True)}"
        elif recap.ended is not None:
            dates += f", ended {_time(recap.ended, day=True)}"
        dates += f". {len(recap.cast)} players: {_esc(', '.join(recap.cast))}."
    final = ""
    if recap.final:
        fm = next((m for e in recap.episodes if e.final for m in e.matches), None)
        watch = "" if fm is None else links.get(fm.key or "", {}).get("watch", "")
        link = (f' <a class="recap-watch" href="{_esc(watch)}" data-testid="recap-final-watch">'
                "Watch the final</a>" if watch else "")
        final = (f'<section class="card recap-final" data-testid="recap-final">'
                 f'<h2>The final</h2><p>{words.text(recap.final)}{link}</p></section>')
    episodes = "".join(episode(ep, links, words) for ep in recap.episodes)
    season = f"/s/{_esc(season_id)}"
    return (
        f'<main class="narrow recap" data-testid="recap">'
        f'<section class="card recap-head"><p class="eyebrow">Season recap</p>'
        f'<h1 data-testid="recap-title">{_esc(name)}</h1>'
        f'<p class="lead" data-testid="recap-lead">{words.text(recap.lead)}</p>'
        f'<p class="muted small" data-testid="recap-date">{dates}</p>'
        f'<p class="small"><a href="{season}" data-testid="recap-season-link">The season\'s '
        f'page</a> · <a href="/rulings#SE">The season\'s rulings</a></p></section>'
        f"{final}"
        f'<section class="card" aria-labelledby="recap-standings-title">'
        f'<h2 id="recap-standings-title">Standings, episode by episode</h2>'
        f'<p class="muted small">What each player held after each episode ('
        f'{words.rules(["SE-5"], label=False)}). A cross marks the episode a player was '
        f"eliminated in (✕ ep 2), a star the winner.</p>"
        f'<figure class="recap-figure" data-testid="recap-chart">{chart(recap)}</figure>'
        f'<details class="recap-numbers" data-testid="recap-numbers"><summary>The numbers'
        f"</summary>{numbers(recap)}</details></section>"
        f'<section class="card" aria-labelledby="recap-episodes-title">'
        f'<h2 id="recap-episodes-title">Episodes</h2>'
        f'<p class="muted small">Every step in order: when (UTC), who took it, what came of '
        f"it, why, and the rulings it followed.</p>{episodes}</section></main>")


def head(name: str, recap: Recap, page_url: str, image_url: str | None = None) -> str:
    return SHEET + _recap_head(f"{name}: season recap", recap.lead, page_url, image_url)


def page(recap: Recap, *, name: str, season_id: str, page_url: str,
         links: Mapping[str, Mapping[str, str]], image_url: str | None = None
         ) -> HTMLResponse:
    """The whole page, with the site's header and no script."""
    from arena.web.pages import all_rulings, scriptless_page

    text = body(recap, name=name, season_id=season_id, links=links,
                codes=all_rulings().codes())
    return scriptless_page(f"{name}: recap", text, head=head(name, recap, page_url, image_url))
