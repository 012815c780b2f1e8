"""The season page ``/s/{id}?token=T`` (SE-1..SE-5), rendered on the server: the cast with
status, ToLs, garnets and opals; the episodes with links to their matches (and so to their
replays); the ledger with causes; the host's controls; and the gift or nomination form when it
is the viewer's step. ``/static/season.js`` sends the forms and reloads the page when the
season moves on (never on a clock tick)."""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from typing import Any

from starlette.responses import HTMLResponse

from arena.core.registry import get_game
from arena.web.pages import _page
from arena.web.rules import link_rule_ids

E = html.escape
KIND_WORDS = {"garnets": "garnets", "opal": "opal", "tol": "Token of Life",
              "eliminated": "eliminated", "winner": "won the season", "adjust": "adjustment"}


def _t(text: str) -> str:
    """Escaped text with its rule ids as links."""
    return link_rule_ids(E(text))


def _game_title(name: str | None) -> str:
    if not name:
        return "a game played elsewhere"
    try:
        return get_game(name).title
    except Exception:
        return name


def _link(href: str | None, text: str, testid: str) -> str:
    if not href:
        return ""
    return f'<a href="{E(href)}" data-testid="{E(testid)}">{E(text)}</a>'


def _match_links(block: dict[str, Any], prefix: str) -> str:
    links = block.get("links") or {}
    parts = [_link(links.get("yours"), "Play your seat", f"{prefix}-yours"),
             _link(links.get("host"), "Host the match", f"{prefix}-host"),
             _link(links.get("watch"), "Watch or replay" if links.get("status") == "finished"
                   else "Watch", f"{prefix}-watch")]
    seats = links.get("seats") or {}
    if seats:
        parts.append("Seat links: " + ", ".join(
            _link(url, name, f"{prefix}-seat-{i}") for i, (name, url) in enumerate(seats.items())))
    return " · ".join(p for p in parts if p)


def _cast(data: dict[str, Any]) -> str:
    rows = []
    bots = dict(zip(data["cast"], data["bots"], strict=False))
    for i, s in enumerate(data["standings"]):
        if s["won"]:
            status = "Won the season"
        elif s["in"]:
            status = "In"
        else:
            status = f"Eliminated in episode {s['eliminated_in']}"
        you = " (you)" if data["you"]["player"] == s["name"] else ""
        bot = ' <span class="tag">bot</span>' if bots.get(s["name"]) else ""
        rows.append(f'<tr data-testid="se-player-{i}"><td><b>{E(s["name"])}</b>{E(you)}{bot}</td>'
                    f'<td data-testid="se-status-{i}">{E(status)}</td>'
                    f'<td>{s["tols"]} <span class="muted small">ToL</span></td>'
                    f'<td>{s["garnets"]} <span class="muted small">garnets</span></td>'
                    f'<td>{s["opals"]} <span class="muted small">opals</span></td></tr>')
    return (f'<section class="card se-cast" data-testid="se-cast"><h2>Cast</h2><div class="table-wrap">'
            f'<table class="matches"><thead><tr><th>Player</th><th>Status</th><th>Tokens of Life'
            f'</th><th>Garnets</th><th>Opals</th></tr></thead><tbody>{"".join(rows)}</tbody>'
            f'</table></div></section>')


def _bars(name: str, bars: int) -> str:
    return f"{name} ({bars} gold bar{'' if bars == 1 else 's'})"


def _episode(ep: dict[str, Any]) -> str:
    n = ep["episode"]
    lines = []
    main = ep.get("main")
    if main:
        where = "recorded by hand (SE-2)" if main.get("external") else "Locked Out!"
        res = main.get("result")
        text = f"Main Match ({where}) with {', '.join(ep['players'])}"
        lines.append(f'<li>{_t(text)}. {_match_links(main, f"se-ep{n}-mm")}</li>')
        if res:
            esc = ", ".join(_bars(p, res["bars"].get(p, 0)) for p in res["escaped"]) or "nobody"
            trapped = ", ".join(_bars(p, res["bars"].get(p, 0))
                                for p in res["trapped"]) or "nobody"
            lines.append(f'<li>Escaped: {E(esc)}. Trapped: {E(trapped)}.</li>')
            if res["winners"]:
                lines.append(f'<li>Won by {E(", ".join(res["winners"]))}'
                             f'{"" if not res.get("opal") else "; opal: " + E(res["opal"])}.</li>')
    if ep.get("gift"):
        lines.append(f'<li data-testid="se-ep{n}-gift">Token of Life given to {E(ep["gift"])} '
                     f'({_t(ep.get("gift_how") or "")}).</li>')
    elif ep.get("gift_how"):
        lines.append(f'<li>{_t(ep["gift_how"][:1].upper() + ep["gift_how"][1:])}.</li>')
    if ep.get("ec"):
        lines.append(f'<li data-testid="se-ep{n}-ec">Elimination Candidate: {E(ep["ec"])} '
                     f'({_t(ep.get("ec_how") or "")}).</li>')
    if ep.get("dmo"):
        lines.append(f'<li data-testid="se-ep{n}-dmo">Death Match Opponent: {E(ep["dmo"])} '
                     f'({_t(ep.get("dmo_how") or "")}).</li>')
    dm = ep.get("death_match")
    if dm:
        seats = dm.get("seats") or []
        who = (f"seat 1: {seats[0]}, seat 2: {seats[1]}" if len(seats) == 2 else "")
        what = "Final Death Match" if ep.get("final") else "Death Match"
        ext = " recorded by hand (SE-4)" if dm.get("external") else ""
        lines.append(f'<li data-testid="se-ep{n}-dm">{E(what)}: {E(_game_title(dm.get("game")))}'
                     f'{_t(ext)}, {E(who)}. {_match_links(dm, f"se-ep{n}-dm")}</li>')
        for name in dm.get("handed_to_bot") or []:
            lines.append(f'<li data-testid="se-ep{n}-dm-bot">The host handed {E(name)}\'s seat '
                         f'in the Death Match to a bot.</li>')
    elif ep.get("final"):
        lines.append(f'<li>Final Death Match between {E(" and ".join(ep["players"]))}.</li>')
    if ep.get("note"):
        lines.append(f'<li>{_t(ep["note"][:1].upper() + ep["note"][1:].rstrip("."))}.</li>')
    if ep.get("eliminated"):
        lines.append(f'<li data-testid="se-ep{n}-out"><b>{E(ep["eliminated"])} was eliminated'
                     f'</b>.</li>')
    body = "".join(lines) or '<li class="muted">Not started yet.</li>'
    title = f"Episode {n}" + (" · final" if ep.get("final") else "")
    return (f'<article class="se-episode" data-testid="se-episode-{n}"><h3>{E(title)}</h3>'
            f'<ul>{body}</ul></article>')


def _ledger(data: dict[str, Any]) -> str:
    rows = []
    for i, e in enumerate(data["ledger"]):
        amount = e["amount"]
        change = KIND_WORDS.get(e["kind"], e["kind"])
        if e["kind"] in ("garnets", "opal", "tol"):
            change = f'{"+" if amount > 0 else ""}{amount} {change}'
        rows.append(f'<tr data-testid="se-ledger-{i}"><td><span class="muted small">Ep. </span>{e["episode"]}</td><td>{E(e["player"])}'
                    f'</td><td>{E(change)}</td><td>{_t(e["cause"])}</td></tr>')
    if not rows:
        rows.append('<tr><td colspan="4" class="muted">No entries yet.</td></tr>')
    return (f'<section class="card se-ledger" data-testid="se-ledger"><h2>Ledger</h2><p class="muted small">'
            f'Every change with its cause (<a href="/rulings#SE-5">SE-5</a>); replaying it gives '
            f'the cast table above.</p><div class="table-wrap"><table class="matches"><thead><tr>'
            f'<th>Episode</th><th>Player</th><th>Change</th><th>Cause</th></tr></thead><tbody>'
            f'{"".join(rows)}</tbody></table></div></section>')


def _options(names: list[str], testid: str, name: str) -> str:
    return "".join(
        f'<label class="se-choice"><input type="radio" name="{E(name)}" value="{E(o)}" '
        f'data-testid="{E(testid)}-{i}" required> {E(o)}</label>' for i, o in enumerate(names))


def _select(name: str, names: list[str], testid: str, blank: str | None = None) -> str:
    opts = (f'<option value="">{E(blank)}</option>' if blank is not None else "") + "".join(
        f'<option value="{E(o)}">{E(o)}</option>' for o in names)
    return f'<select name="{E(name)}" data-testid="{E(testid)}">{opts}</select>'


def _reason(testid: str) -> str:
    return (f'<label>Reason <input name="reason" required maxlength="300" '
            f'data-testid="{E(testid)}"></label>')


def _form(form: str, inner: str, button: str, testid: str) -> str:
    return (f'<form class="se-form" data-form="{E(form)}" data-testid="{E(testid)}">{inner}'
            f'<p class="form-actions"><button type="submit" data-testid="{E(testid)}-submit">'
            f'{E(button)}</button> <span class="error-text" role="alert" '
            f'data-testid="{E(testid)}-error"></span></p></form>')


def _clock(data: dict[str, Any]) -> str:
    """The step's clock (SE-7): the deadline as a moment (the page's script shows it in the
    viewer's own clock time) and the time left, or that the host paused it."""
    rule = '<a href="/rulings#SE-7">SE-7</a>'
    if data.get("paused"):
        left = int(data.get("paused_left") or 0)
        return (f'<p class="muted" data-testid="step-paused">The host paused this step\'s '
                f'clock with {left // 60} min {left % 60} s left ({rule}): it does not run '
                f'out.</p>')
    deadline = data.get("deadline")
    if not deadline:
        return ""
    left = max(0, int(deadline - data["now"]))
    utc = datetime.fromtimestamp(deadline, UTC)
    runs = ("the Death Match starts with a game drawn from the season's chance"
            if data["stage"] == "dm_pick" else "the choice is drawn from the season's chance")
    return (f'<p class="muted">Deadline: <time class="se-local" datetime="{utc.isoformat()}" '
            f'data-testid="step-deadline-shown" data-at="{deadline}">'
            f'{utc.strftime("%Y-%m-%d %H:%M")} UTC</time>; time left: '
            f'<b class="se-countdown" data-testid="se-step-clock" data-deadline="{deadline}" '
            f'data-now="{data["now"]}">{left} s</b>; when it runs out {runs} ({rule}).</p>')


def _step(data: dict[str, Any]) -> str:
    stage, actor = data["stage"], data.get("actor")
    if stage == "dm_pick" and (data.get("deadline") or data.get("paused")):
        return (f'<section class="card se-step" data-testid="se-step"><h2>Death Match start'
                f'</h2>{_clock(data)}</section>')
    if stage not in ("gift", "nominate") or actor is None:
        return ""
    what = ("give the Token of Life to another escaped player" if stage == "gift"
            else "nominate the Death Match Opponent")
    clock = _clock(data)
    rule = '<a href="/rulings#SE-3">SE-3</a>'
    if data["you"]["player"] == actor:
        key = "to" if stage == "gift" else "dmo"
        title = "Your Token of Life" if stage == "gift" else "Your nomination"
        inner = (f'<fieldset><legend>Choose who ({rule})</legend>'
                 f'{_options(data["options"], f"se-{stage}-option", key)}</fieldset>')
        form = _form(stage, inner, "Give the token" if stage == "gift" else "Nominate",
                     f"se-{stage}")
        return (f'<section class="card se-step" data-testid="se-step"><h2>{E(title)}</h2>'
                f'<p>You {E(what)}.</p>{clock}{form}</section>')
    return (f'<section class="card se-step" data-testid="se-step"><h2>Waiting for {E(actor)}</h2>'
            f'<p>{E(actor)} is to {E(what)} ({rule}). Allowed: '
            f'{E(", ".join(data["options"]))}.</p>{clock}</section>')


def _clock_forms(data: dict[str, Any]) -> str:
    """The host's hold on the step's clock (SE-7): pause or resume, extend, set a clock time
    (entered in the host's local time; the script sends it with the host's UTC offset)."""
    forms = []
    if data.get("paused"):
        forms.append(_form("resume", "", "Resume the clock", "step-resume"))
    elif data.get("deadline"):
        forms.append(_form("pause", "", "Pause the clock", "step-pause"))
    if data.get("deadline") or data.get("paused"):
        forms.append(_form("extend", '<label>Extend by <input name="minutes" type="number" '
                                     'min="1" max="525600" value="10" required '
                                     'data-testid="step-extend-minutes"> min</label>',
                           "Extend", "step-extend"))
    forms.append(_form("deadline", '<label>Deadline (your local time) <input name="at" '
                                   'type="datetime-local" required '
                                   'data-testid="step-deadline"></label>',
                       "Set the deadline", "step-deadline-form"))
    return (f'<details data-testid="step-clock" open><summary>Step clock (<a '
            f'href="/rulings#SE-7">SE-7</a>)</summary>{"".join(forms)}</details>')


def _host(data: dict[str, Any]) -> str:
    if data["you"]["role"] != "host":
        return ""
    stage = data["stage"]
    ep = data["episodes"][-1]
    still = [s["name"] for s in data["standings"] if s["in"]]
    parts = []
    if data.get("problem"):
        parts.append(f'<p class="error-text" role="alert" data-testid="se-problem">'
                     f'{_t(data["problem"])}</p>')
    if stage == "main":
        parts.append(_form("start_main", f'<p>Locked Out! with {E(", ".join(still))} '
                           f'(<a href="/rulings#SE-1">SE-1</a>).</p>',
                           "Start the Main Match", "se-start-main"))
    if stage in ("main", "mm"):
        players = ep["players"] or still
        rows = "".join(
            f'<div class="control-row"><span class="se-name">{E(p)}</span>'
            f'<select name="status:{E(p)}" aria-label="{E(p)} escaped or trapped" '
            f'data-testid="se-rm-status-{i}"><option value="escaped">escaped</option>'
            f'<option value="trapped">trapped</option></select>'
            f'<input type="number" min="0" step="1" value="0" name="bars:{E(p)}" '
            f'aria-label="gold bars of {E(p)}" data-testid="se-rm-bars-{i}"> bars</div>'
            for i, p in enumerate(players))
        inner = (f'<p class="muted small">A Main Match played elsewhere (<a href="/rulings#SE-2">'
                 f'SE-2</a>).</p>{rows}<label>Elimination Candidate '
                 f'{_select("ec", players, "se-rm-ec", "nobody (all escaped)")}</label>'
                 f'<label>Opal {_select("opal", players, "se-rm-opal", "nobody")}</label>'
                 f'{_reason("se-rm-reason")}')
        parts.append(f'<details><summary>Record a Main Match by hand</summary>'
                     f'{_form("record_main", inner, "Record", "se-record-main")}</details>')
    if stage == "mm":
        inner = ('<p class="muted small">Ends the Main Match now; it is scored as it stands '
                 '(<a href="/rulings#SE-6">SE-6</a>, <a href="/rulings#LO-8">LO-8</a>).</p>')
        parts.append(_form("close_vault", inner, "Close the vault now", "se-close-vault"))
    if stage == "name_ec":
        trapped = ((ep.get("main") or {}).get("result") or {}).get("trapped") or []
        why = ('The Main Match closed before its vote, so the host names the EC among the '
               'trapped (<a href="/rulings#SE-6">SE-6</a>, <a href="/rulings#LO-9">LO-9</a>).'
               if trapped else 'Nobody was trapped, so nobody voted '
               '(<a href="/rulings#LO-9">LO-9</a>).')
        inner = (f'<p>{why}</p>'
                 f'<label>Elimination Candidate '
                 f'{_select("ec", trapped or ep["players"], "se-ec-name")}'
                 f'</label>{_reason("se-ec-reason")}')
        parts.append(_form("name_ec", inner, "Name the EC", "se-name-ec"))
    seats = (ep.get("death_match") or {}).get("seats") or []
    if stage == "dm_pick" and not seats:
        seats = [ep.get("ec"), ep.get("dmo")] if ep.get("dmo") else ep["players"]
    if stage == "dm_pick":
        games = "".join(f'<option value="{E(g)}">{E(_game_title(g))}</option>'
                        for g in data["death_matches"])
        inner = (f'<p>Seat 1: {E(seats[0])}, seat 2: {E(seats[1])} '
                 f'(<a href="/rulings#SE-4">SE-4</a>).</p><label>Game <select name="game" '
                 f'data-testid="se-dm-game">{games}</select></label>'
                 # SE-7: the options any match takes, checked like the lobby's form.
                 f'<label>Time scale <input name="time_scale" type="number" min="0.001" '
                 f'step="any" value="{E(str(data.get("time_scale") or 1))}" '
                 f'data-testid="dm-time-scale"></label><label>Bot pace <select '
                 f'name="bot_pace" data-testid="dm-bot-pace"><option value="human">human'
                 f'</option><option value="instant">instant</option></select></label>'
                 f'<label>Game options (JSON, as the lobby\'s) <textarea name="config" '
                 f'rows="2" data-testid="dm-config" placeholder=\'{{"rounds": 3}}\'>'
                 f'</textarea></label>')
        parts.append(_form("start_death", inner, "Start the Death Match", "se-start-death"))
    if stage in ("dm_pick", "dm"):
        inner = (f'<label>Loser {_select("loser", seats, "se-rd-loser")}</label>'
                 f'<label>Game <input name="game" maxlength="40" data-testid="se-rd-game"></label>'
                 f'{_reason("se-rd-reason")}')
        parts.append(f'<details><summary>Record a Death Match by hand</summary>'
                     f'{_form("record_death", inner, "Record", "se-record-death")}</details>')
    if stage == "dm_decide":
        inner = (f'<p>The Death Match had no winner (<a href="/rulings#LM-21">LM-21</a>, '
                 f'<a href="/rulings#SE-4">SE-4</a>): decide who leaves.</p>'
                 f'<label>Loser {_select("loser", seats, "se-decide-loser")}</label>'
                 f'{_reason("se-decide-reason")}')
        parts.append(_form("decide", inner, "Decide", "se-decide"))
    what = ('<select name="what" data-testid="se-adj-what"><option value="tol">Tokens of Life'
            '</option><option value="garnets">garnets</option><option value="opal">opals'
            '</option></select>')
    inner = (f'<label>Player {_select("player", data["cast"], "se-adj-player")}</label>'
             f'<label>Change {what}</label><label>By <input type="number" step="1" name="amount" '
             f'value="-1" required data-testid="se-adj-amount"></label>{_reason("se-adj-reason")}')
    parts.append(f'<details><summary>Adjust the ledger</summary><p class="muted small">Spending '
                 f'or a correction, with a written reason (<a href="/rulings#SE-5">SE-5</a>).'
                 f'</p>{_form("adjust", inner, "Record the adjustment", "se-adjust")}</details>')
    if stage != "over":
        inner = (f'<label>Round limit of the next Main Matches (0: none, '
                 f'<a href="/rulings#SE-6">SE-6</a>) <input type="number" name="max_rounds" '
                 f'min="0" max="400" step="1" required value="{int(data.get("mm_rounds") or 0)}" '
                 f'data-testid="se-mm-rounds"></label>')
        parts.append(f'<details><summary>Main Match round limit: {data.get("mm_rounds")}'
                     f'</summary>{_form("mm_rounds", inner, "Change", "se-mm-rounds-form")}'
                     f'</details>')
        parts.append(f'<details><summary>End the season</summary>'
                     f'{_form("end", _reason("se-end-reason"), "End the season", "se-end")}'
                     f'</details>')
    if data.get("clock"):
        parts.append(_clock_forms(data))
    links = data.get("player_links") or {}
    items = "".join(f'<li>{_link(url, name, f"se-link-{i}")}</li>'
                    for i, (name, url) in enumerate(links.items()))
    parts.append(f'<details data-testid="se-player-links"><summary>Players\' season links'
                 f'</summary><p class="muted small">Each link is secret: it answers that '
                 f'player\'s gift and nomination.</p><ul class="links">{items}</ul></details>')
    return (f'<section class="card se-host" data-testid="se-host"><h2>Host</h2>'
            f'{"".join(parts)}</section>')


STYLE = """<style>
main.season a { text-decoration: underline; text-underline-offset: 2px; }
.se-form label { display: block; margin: 6px 0; }
.se-form select, .se-form input:not([type=radio]) { min-height: 40px; max-width: 100%; }
.se-form button { min-height: 40px; }
.se-choice { display: flex !important; align-items: center; gap: 8px; min-height: 40px; }
.se-choice input { width: 22px; height: 22px; }
.se-name { min-width: 5em; display: inline-block; overflow-wrap: anywhere; }
.se-form .control-row { display: flex; flex-wrap: nowrap; align-items: center; gap: 8px; margin: 4px 0; }
.se-form .control-row input[type=number] { width: 72px; }
.se-episode h3 { margin: 10px 0 4px; }
.se-episode ul { margin: 0; padding-left: 20px; }
.se-host details { margin: 10px 0; }
.se-host summary { padding: 10px 0; cursor: pointer; font-weight: 600; }
@media (max-width: 700px) {
  :is(.se-cast, .se-ledger) table.matches td { display: inline-block; width: auto; margin-right: 14px; }
  .se-cast table.matches td:first-child, .se-ledger table.matches td:last-child { display: block; width: 100%; }
}
.se-step fieldset { border: 1px solid var(--line); border-radius: 7px; }
</style>"""


def render_season(data: dict[str, Any], *, role: str, player: str | None, season_id: str,
                  version: int, token: str) -> HTMLResponse:
    """The season page for one reader, drawn from the season's view (what the API answers
    that reader) alone: the page layer reads the season like any client and never reaches
    into the server (DESIGN.md; the server's route calls this)."""
    if data["winner"]:
        status = f"{data['winner']} won the season."
    elif data["ended"]:
        status = data["ended"][:1].upper() + data["ended"][1:] + "."
    else:
        status = f"Episode {data['episode']}: {data['stage_words']}."
    waiting = (f'<p data-testid="se-waiting">{E(data["waiting"])}</p>'
               if data.get("waiting") and not data["winner"] and not data["ended"] else "")
    problem = (f'<p class="error-text" role="alert" data-testid="se-problem">'
               f'{_t(data["problem"])}</p>' if data.get("problem") and role != "host"
               else "")
    you = {"host": "You host this season.", "public": "You are watching."}.get(
        role, f"You are {player}.")
    boot = json.dumps({"id": season_id, "version": version, "token": token})
    episodes = "".join(_episode(ep) for ep in reversed(data["episodes"]))
    body = (f'<main class="narrow season" id="season" data-boot="{E(boot)}">'
            f'<section class="card"><p class="eyebrow">Season · {len(data["cast"])} players</p>'
            f'<h1 data-testid="se-title">{E(status)}</h1><p class="lead" data-testid="se-you">'
            f'{E(you)}</p>{waiting}{problem}<p class="muted small">Rules: <a href="/rulings#SE-1">'
            f'SE-1</a> to <a href="/rulings#SE-7">SE-7</a>.</p></section>'
            f'{_step(data)}{_host(data)}{_cast(data)}'
            f'<section class="card" data-testid="se-episodes"><h2>Episodes</h2>{episodes}'
            f'</section>{_ledger(data)}</main>')
    head = STYLE + '<script src="/static/season.js" defer></script>'
    return _page("Season", body, head=head)
