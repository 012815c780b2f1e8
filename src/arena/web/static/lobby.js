/* The lobby: the create-match form built from /api/games, "Your matches and
   seasons" kept in this browser, the new-season form (season_lobby.js) and the public list of
   matches. One Preact + htm tree, like the match pages: no innerHTML, so a refresh of the
   lists never takes a half-filled form from under the host. */
import { html, render, useState, useEffect, useRef, RuleText } from "/static/ui.js";
import { loadYours, saveYours, keep, forget } from "/static/yours.js";
import { SeasonSection } from "/static/season_lobby.js";
import { MatchForm, loadOptionChoices } from "/static/matchform.js";

const getJSON = async (url, opts) => {
  const res = await fetch(url, Object.assign({ headers: { Accept: "application/json" } }, opts || {}));
  const data = await res.json().catch(() => null);
  return { ok: res.ok, status: res.status, data };
};
const when = (t) => new Date(t * 1000).toLocaleString();

/* ------------------------------------------------------------------ the create-match form */
/* The links of a match, each under the seat's own name, the one its page shows. A bot's seat
   has no link: nobody should be handed a seat a bot plays. */
function MatchLinks({ links, prefix }) {
  return html`<ul class="links">
    ${(links.seats || []).map((s, i) => html`<li key=${i}><span class="who">${s.name}${s.bot ? html` <span class="tag">bot</span>` : ""}</span>
      ${s.link ? html`<a data-testid=${prefix + "seat-" + i} href=${s.link} target="_blank" rel="noopener">${s.link}</a>`
        : html`<span class="muted">${s.bot ? "played by a bot, no link" : "no link"}</span>`}</li>`)}
    ${links.spectator ? html`<li><span class="who">Spectators</span><a data-testid=${prefix + "spectator"} href=${links.spectator} target="_blank" rel="noopener">${links.spectator}</a></li>` : ""}
    <li><span class="who">Host (you)</span><a data-testid=${prefix + "host"} href=${links.host} target="_blank" rel="noopener">${links.host}</a></li>
  </ul>`;
}

/* The game cards' "New match" buttons (drawn by the server) choose the game in the form. One
   can be pressed while the games are still loading and the form is not there yet: the
   choice is then kept for the form instead of lost. */
let earlyChoice = null;
let chooseGame = null;
document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest("[data-new]");
  if (!b) return;
  if (!chooseGame) { earlyChoice = b.dataset.new; return; }
  chooseGame(b.dataset.new);
  document.getElementById("new").scrollIntoView({ behavior: "smooth" });
});

/* The form itself is matchform.js's (the season's Death Match uses it too); the lobby POSTs
   its body, keeps the host's entry in this browser and shows the links. */
function NewMatch({ games, wanted, onCreated }) {
  const initial = [earlyChoice, wanted].find((n) => n && games.some((g) => g.name === n));
  const [created, setCreated] = useState(null);
  const bindChooser = (fn) => {
    chooseGame = fn;
    if (fn && earlyChoice) document.getElementById("new").scrollIntoView({ behavior: "smooth" });
  };

  async function create(body) {
    const game = games.find((g) => g.name === body.game);
    const r = await getJSON("/api/matches", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
    if (!r.ok) return (r.data && r.data.error) || "The server refused the match (HTTP " + r.status + ").";
    // The names the server gave the seats ("Alice", "Bot 2"), the ones the match page shows.
    const info = await getJSON("/api/matches/" + encodeURIComponent(r.data.id));
    const names = info.ok ? info.data.names : body.seats.map((s, i) => s.name || "Seat " + (i + 1));
    const bots = body.seats.map((s) => s.bot);
    const links = {
      seats: r.data.links.seats.map((url, i) => ({ name: names[i], bot: bots[i], link: bots[i] ? null : url })),
      spectator: r.data.links.spectator, host: r.data.links.host,
    };
    const now = Date.now() / 1000;
    keep({ key: "m:" + r.data.id + ":host", kind: "match", id: r.data.id, role: "host", seat: null, player: null,
      token: r.data.tokens.host, url: r.data.links.host, title: game.title, game: game.name,
      names, bots, links, status: "running", created: now, opened: now });
    setCreated(links);
    onCreated();
    return null;
  }

  return html`<${MatchForm} games=${games} initial=${initial} onChooser=${bindChooser} onSubmit=${create}/>
    ${created ? html`<div id="created" class="created" data-testid="created">
      <h3>Match created</h3>
      <p class="muted">Each link is secret: whoever holds a seat's link plays that seat. Keep the
      host link for yourself. All of them stay in "Your matches and seasons" in this browser.</p>
      <${MatchLinks} links=${created} prefix="link-"/>
    </div>` : ""}`;
}

/* ------------------------------------------------------------------ your matches and seasons */
function keyOf(kind, id, role, who) {
  return (kind === "match" ? "m:" : "s:") + id + ":" + role + (who != null ? ":" + who : "");
}

/* Ask the server what this entry's link is now: whose it is, the match's or season's state,
   the host's current links (a reissued seat link replaces the old), a rematch. Returns the
   entries to keep in its place (the entry itself, and a rematch it has found). */
async function check(e) {
  const q = "?token=" + encodeURIComponent(e.token);
  const out = Object.assign({}, e);
  const found = [];
  try {
    if (e.kind === "match") {
      const base = "/api/matches/" + encodeURIComponent(e.id);
      const r = await getJSON(base + "/view" + q);
      if (r.status === 401 || r.status === 403) { out.status = "revoked"; return [out]; }
      if (r.status === 404) { out.status = "gone"; return [out]; }
      if (!r.ok || !r.data) return [out];
      const v = r.data;
      Object.assign(out, { role: v.role, seat: v.you, names: v.match.names, bots: v.match.bots,
        title: v.match.title, game: v.match.game, status: v.match.status, unchecked: false });
      out.key = keyOf("match", e.id, v.role, v.role === "seat" ? v.you : null);
      if (v.role === "host") {
        const l = await getJSON(base + "/host/links" + q);
        if (l.ok) out.links = l.data;
      }
      if (v.match.status === "finished") {
        const n = await getJSON(base + "/next" + q);
        if (n.ok && n.data && n.data.url) {
          const token = new URL(n.data.url, location.origin).searchParams.get("token");
          const now = Date.now() / 1000;
          found.push({ key: "t:" + token, kind: "match", id: n.data.id, token, url: n.data.url, role: null,
            seat: null, player: null, title: (out.title || "Match") + " (rematch)", created: now, opened: now,
            unchecked: true, rematchOf: e.id });
        }
      }
    } else {
      const r = await getJSON("/api/seasons/" + encodeURIComponent(e.id) + q);
      if (r.status === 401 || r.status === 403) { out.status = "revoked"; return [out]; }
      if (r.status === 404) { out.status = "gone"; return [out]; }
      if (!r.ok || !r.data) return [out];
      // A season is a match of the season game: its view is the match's, the season's own
      // record under "state", and the links to its matches under "links".
      const d = r.data;
      const st = d.state || {};
      const role = d.role === "seat" ? "player" : d.role;
      const player = d.role === "seat" ? (d.match.names || [])[d.you] : null;
      const over = d.match.status === "finished";
      Object.assign(out, { role, player, cast: st.cast || d.match.names, bots: d.match.bots, unchecked: false,
        status: over ? "finished" : "running",
        stage: st.winner ? st.winner + " won the season"
          : over ? "Season over" : "Episode " + st.episode + ": " + st.step_words,
        title: d.name || "Season" });
      out.key = keyOf("season", e.id, role, player);
      out.public = location.origin + "/s/" + encodeURIComponent(e.id);
      if (role === "host") {
        // The players' links are the season match's seat links, opened on the season's page.
        const l = await getJSON("/api/matches/" + encodeURIComponent(e.id) + "/host/links" + q);
        const players = {};
        for (const s of (l.ok && l.data ? l.data.seats : [])) {
          if (!s.link) continue;  // a bot's seat has none
          const token = new URL(s.link, location.origin).searchParams.get("token");
          players[s.name] = location.origin + "/s/" + encodeURIComponent(e.id) + "?token=" + encodeURIComponent(token);
        }
        out.players = players;
      }
      const WHAT = { mm: "Main Match", dm: "Death Match" };
      const matches = [];
      for (const [key, l] of Object.entries(d.links || {})) {
        const m = /^e(\d+)-(mm|dm)$/.exec(key);
        const url = l.host || l.play || l.watch;
        if (!m || !url) continue;
        matches.push({ label: "Episode " + m[1] + ": " + WHAT[m[2]], url,
          how: l.host ? "host page" : l.play ? "your seat" : "watch" });
      }
      out.matches = matches;
    }
  } catch (err) { /* offline: keep what we had */ }
  return [out].concat(found);
}

/* The entries after a check, filed by key: of two links for one seat the one opened last
   stays (the older was reissued); an unfiled link that no longer works is dropped once the
   same match or season has a working entry. */
function file(list) {
  const byKey = new Map();
  for (const e of list) {
    const had = byKey.get(e.key);
    if (!had || (e.opened || 0) > (had.opened || 0)) byKey.set(e.key, e);
  }
  const all = [...byKey.values()];
  const working = new Set(all.filter((e) => e.status !== "revoked" && !e.key.startsWith("t:")).map((e) => e.kind + e.id));
  return all.filter((e) => !(e.key.startsWith("t:") && e.status === "revoked" && working.has(e.kind + e.id)));
}

async function refreshAll() {
  let pending = loadYours();
  const results = new Map();
  for (let round = 0; round < 3 && pending.length; round++) {
    const checked = await Promise.all(pending.map(async (e) => [e, await check(e)]));
    pending = [];
    for (const [e, out] of checked) {
      results.set(e.key, out[0]);
      for (const extra of out.slice(1)) {
        if (!results.has(extra.key) && !loadYours().some((x) => x.token === extra.token)) pending.push(extra);
      }
    }
  }
  // Merge into what the store holds now (a page may have added an entry meanwhile).
  const now = loadYours();
  const merged = now.map((e) => results.get(e.key) || e);
  for (const [k, e] of results) if (!now.some((x) => x.key === k)) merged.push(e);
  saveYours(file(merged));
}

function sorted(list) {
  return list.slice().sort((a, b) => Math.max(b.opened || 0, b.created || 0) - Math.max(a.opened || 0, a.created || 0));
}

const STATUS_WORDS = { running: "running", finished: "finished", revoked: "link no longer works", gone: "gone" };

function roleWords(e) {
  if (e.unchecked) return "not checked yet";
  if (e.role === "host") return "you host";
  if (e.role === "spectator") return "you watch";
  if (e.kind === "match" && e.role === "seat") return "you play " + ((e.names || [])[e.seat] || "seat " + (e.seat + 1));
  if (e.kind === "season" && e.role === "player") return "you are " + e.player;
  return "";
}

function itemTitle(e) {
  if (e.kind === "season") {
    const cast = e.cast || [];
    return "Season" + (cast.length ? ": " + cast.slice(0, 4).join(", ") + (cast.length > 4 ? ", …" : "") : "");
  }
  return e.title || "Match";
}

function SeasonPlayers({ e, n, onChange }) {
  const [msg, setMsg] = useState("");
  const names = Object.keys(e.players || {});
  async function reissue(name) {
    if (!confirm("Give " + name + " a new season link? The old one stops working at once.")) return;
    const r = await getJSON("/api/seasons/" + encodeURIComponent(e.id) + "/host/reissue?token=" + encodeURIComponent(e.token),
      { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ player: name }) });
    setMsg(r.ok ? "New link for " + name + "; send it to them." : (r.data && r.data.error) || "The server refused (HTTP " + r.status + ").");
    if (r.ok) onChange();
  }
  return html`<ul class="links">
    ${names.map((name, i) => html`<li key=${name}><span class="who">${name}${(e.bots || [])[(e.cast || []).indexOf(name)] ? html` <span class="tag">bot</span>` : ""}</span>
      <a data-testid=${"your-" + n + "-player-" + i} href=${e.players[name]} target="_blank" rel="noopener">${e.players[name]}</a>
      <button type="button" class="ghost small" data-testid=${"your-" + n + "-reissue-" + i}
        aria-label=${"New season link for " + name} onClick=${() => reissue(name)}>New link</button></li>`)}
    ${e.public ? html`<li><span class="who">Everyone</span><a href=${e.public} target="_blank" rel="noopener">${e.public}</a></li>` : ""}
  </ul>${msg ? html`<p class="small" role="status"><${RuleText} text=${msg}/></p>` : ""}`;
}

function YourItem({ e, n, onChange }) {
  const st = e.status || (e.unchecked ? "unchecked" : "");
  const hostMatch = e.kind === "match" && e.role === "host";
  const remove = () => { forget(e.key); onChange(); };
  return html`<li class="my-match" data-testid="your-item" data-kind=${e.kind} data-role=${e.role || ""} data-id=${e.id}>
    <div class="my-head" data-testid=${"my-match-" + n}>
      <b>${itemTitle(e)}</b>
      <span class="tag you">${roleWords(e)}</span>
      ${st ? html`<span class=${"status " + (st === "revoked" ? "gone" : st)} data-testid=${"my-match-status-" + n}>${STATUS_WORDS[st] || "…"}</span>` : ""}
      <span class="muted small">${when(e.created || e.opened || 0)}</span>
      <span class="my-actions">
        <a class="button small open" data-testid=${hostMatch ? "my-match-host-" + n : "your-open-" + n} href=${e.url}>${e.role === "host" ? "Host page" : "Open"}</a>
        <button type="button" class="ghost small" data-testid=${"my-match-remove-" + n} aria-label=${"Remove " + itemTitle(e) + " from this list"} onClick=${remove}>Remove</button>
      </span>
    </div>
    ${e.kind === "season" && e.stage ? html`<p class="small your-line">${e.stage}</p>` : ""}
    ${e.rematchOf ? html`<p class="small muted your-line">A rematch of an earlier match in this list.</p>` : ""}
    ${st === "revoked" ? html`<p class="small your-line error-text">This link no longer works: the host gave it a new one or took it back. Open the new link once (the host can give it again) and it takes this one's place.</p>` : ""}
    ${e.kind === "season" && (e.matches || []).length ? html`<ul class="your-sub">${e.matches.map((m, i) => html`<li key=${i}>
      <a data-testid=${"your-" + n + "-match-" + i} href=${m.url}>${m.label}</a> <span class="muted small">${m.how}</span></li>`)}</ul>` : ""}
    ${hostMatch && e.links && st !== "revoked" ? html`<details><summary class="small">Links</summary><${MatchLinks} links=${e.links} prefix=${"my-" + n + "-"}/></details>` : ""}
    ${e.kind === "season" && e.role === "host" && e.players && st !== "revoked" ? html`<details><summary class="small">Players' season links</summary><${SeasonPlayers} e=${e} n=${n} onChange=${onChange}/></details>` : ""}
  </li>`;
}

function YourList({ tick }) {
  const [list, setList] = useState(() => sorted(loadYours()));
  const [checking, setChecking] = useState(false);
  const busy = useRef(false);
  const again = useRef(false);
  const refresh = async () => {
    setList(sorted(loadYours()));
    if (busy.current) { again.current = true; return; }
    busy.current = true; setChecking(true);
    try {
      do { again.current = false; await refreshAll(); setList(sorted(loadYours())); } while (again.current);
    } finally { busy.current = false; setChecking(false); }
  };
  useEffect(() => { refresh(); }, [tick]);
  useEffect(() => {
    // Another tab opened a link, or this one came back to the front: show the list as it is now.
    const onStorage = (ev) => { if (ev.key === "arena.yours") refresh(); };
    const onShow = () => { if (document.visibilityState === "visible") refresh(); };
    window.addEventListener("storage", onStorage);
    document.addEventListener("visibilitychange", onShow);
    return () => { window.removeEventListener("storage", onStorage); document.removeEventListener("visibilitychange", onShow); };
  }, []);
  return html`<div data-testid="my-matches" aria-busy=${checking ? "true" : "false"}>
    <ul class="my-matches" data-testid="your-list">
      ${list.length ? list.map((e, n) => html`<${YourItem} key=${e.key} e=${e} n=${n} onChange=${refresh}/>`)
        : html`<li class="muted">None yet: the matches and seasons you create or open in this browser are listed here with their links.</li>`}
    </ul></div>`;
}

/* ------------------------------------------------------------------ all matches */
function MatchTable({ games, tick }) {
  const [rows, setRows] = useState(null);
  const load = async () => {
    const r = await getJSON("/api/matches").catch(() => ({ ok: false }));
    setRows(r.ok && Array.isArray(r.data) ? r.data : []);
  };
  useEffect(() => { load(); }, [tick]);
  const title = (name) => { const g = games.find((x) => x.name === name); return g ? g.title : name; };
  return html`<div class="section-head"><h2>Matches</h2><button type="button" class="secondary small" id="refresh" onClick=${load}>Refresh</button></div>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Matches on this server"><table class="matches" data-testid="matches">
      <thead><tr><th>Game</th><th>Players</th><th>Status</th><th>Result</th><th>Started</th><th><span class="sr-only">Link</span></th></tr></thead>
      <tbody id="match-rows">
        ${rows === null ? html`<tr><td colspan="6" class="muted">Loading…</td></tr>`
          : !rows.length ? html`<tr><td colspan="6" class="muted">No matches yet.</td></tr>`
          : rows.map((m) => html`<tr key=${m.id}>
            <td>${title(m.game)}</td>
            <td>${m.names.map((nm, i) => html`${i ? ", " : ""}${nm}${m.bots[i] ? html` <span class="tag">bot</span>` : ""}`)}</td>
            <td><span class=${"status " + m.status}>${m.status}</span></td>
            <td>${m.result ? (m.result.winner == null ? "no single winner" : m.names[m.result.winner] + " won") : ""}</td>
            <td>${when(m.created)}</td>
            <td>${m.watch ? html`<a href=${m.watch}>${m.status === "running" ? "Watch" : "Replay"}</a>` : ""}</td>
          </tr>`)}
      </tbody>
    </table></div>`;
}

/* ------------------------------------------------------------------ mounting */
async function init() {
  const r = await getJSON("/api/games").catch(() => ({ ok: false }));
  const games = r.ok && Array.isArray(r.data) ? r.data : [];
  await loadOptionChoices(games);
  let tick = 0;
  const wanted = new URLSearchParams(location.search).get("game");
  const mounted = new Set();
  const mount = (id, vnode) => {
    const el = document.getElementById(id);
    if (!el) return;
    if (!mounted.has(id)) { el.replaceChildren(); mounted.add(id); } // the "Loading…" line
    render(vnode, el);
  };
  const draw = () => {
    mount("yours-root", html`<${YourList} tick=${tick}/>`);
    mount("matches-root", html`<${MatchTable} games=${games} tick=${tick}/>`);
  };
  const created = () => { tick++; draw(); };
  mount("new-match-root", games.length ? html`<${NewMatch} games=${games} wanted=${wanted} onCreated=${created}/>`
    : html`<p class="error-text" role="alert">The games could not be loaded; reload the page.</p>`);
  mount("season-root", html`<${SeasonSection} onCreated=${created}/>`);
  draw();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
