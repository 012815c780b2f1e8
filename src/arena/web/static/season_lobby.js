/* The lobby's "New season" form (Preact + htm since): the cast's
   names, which of them the server plays as bots, the match settings; creates the season over
   the JSON API, lists the host's and players' links and keeps the host's in this browser's
   "Your matches and seasons". A field's help is the match form's (matchform.js). */
import { html, useState, useEffect, RuleText } from "/static/ui.js";
import { keep } from "/static/yours.js";
import { Help, TIME_SCALE_HELP } from "/static/matchform.js";

const NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"];
const MAX_CAST = 26;

function SeasonList({ tick }) {
  const [seasons, setSeasons] = useState(null);
  useEffect(() => {
    fetch("/api/seasons", { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : []))
      .then((v) => setSeasons(Array.isArray(v) ? v : []))
      .catch(() => setSeasons("error"));
  }, [tick]);
  let items;
  if (seasons === null) items = html`<li class="muted">Loading…</li>`;
  else if (seasons === "error") items = html`<li class="muted">The seasons could not be loaded.</li>`;
  else if (!seasons.length) items = html`<li class="muted">No seasons yet.</li>`;
  else {
    items = seasons.map((s, i) => {
      const cast = s.cast || [];
      return html`<li key=${s.id}><a data-testid=${"season-row-" + i} href=${"/s/" + encodeURIComponent(s.id)}>${cast.slice(0, 6).join(", ") + (cast.length > 6 ? ", …" : "")}</a>
        <span class="muted"> · ${s.winner ? s.winner + " won" : "episode " + s.episode + ": " + (s.stage || "")}</span></li>`;
    });
  }
  return html`<ul id="season-list" class="links" data-testid="season-list">${items}</ul>`;
}

function Created({ data, cast }) {
  const players = Object.entries(data.links.players);
  return html`<div id="season-created" class="created" data-testid="season-created">
    <h3>Season created</h3>
    <p class="muted">Keep the host link (it stays in "Your matches and seasons" in this browser);
    give each player their own season link.</p>
    <ul id="season-links" class="links">
      <li><span class="who">Host (you)</span><a data-testid="season-host-link" href=${data.links.host}>season page for the host</a></li>
      ${players.map(([name, url], i) => (cast.find((c) => c.name === name && c.bot) ? "" : html`<li key=${name}>
        <span class="who">${name}</span><a data-testid=${"season-player-link-" + i} href=${url}>season link for ${name}</a></li>`))}
      <li><span class="who">Everyone</span><a data-testid="season-public-link" href=${data.links.public}>public season page</a></li>
    </ul></div>`;
}

// SE-6: the server's default round limit for a season's Main Match, given by the lobby page.
const DEFAULT_MM_ROUNDS = (document.getElementById("season-root") || { dataset: {} }).dataset.maxRounds || "20";

export function SeasonSection({ onCreated }) {
  const [rows, setRows] = useState(NAMES.map((name, i) => ({ id: i, name, bot: i > 0 })));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(null);
  const [tick, setTick] = useState(0);

  const setRow = (i, patch) => setRows(rows.map((r, j) => (j === i ? Object.assign({}, r, patch) : r)));
  const add = () => { if (rows.length < MAX_CAST) setRows(rows.concat([{ id: rows.length, name: "", bot: true }])); };

  async function submit(ev) {
    ev.preventDefault();
    const fd = new FormData(ev.currentTarget);
    const cast = rows.map((r) => ({ name: r.name.trim(), bot: r.bot })).filter((c) => c.name);
    const hours = parseFloat(fd.get("step_hours")) || 24;
    const round = parseFloat(fd.get("round_seconds")) || 86400;
    const body = {
      cast,
      settings: { time_scale: parseFloat(fd.get("time_scale")) || 1, bot_pace: fd.get("bot_pace") },
      step_seconds: hours * 3600,
      mm_config: {
        round_seconds: round, vote_seconds: round,
        // SE-6: a limit by default (the form shows 20); a blank field keeps the server's.
        ...(fd.get("max_rounds") === "" ? {} : { max_rounds: parseInt(fd.get("max_rounds"), 10) }),
      },
    };
    const seed = String(fd.get("seed") || "").trim();
    if (seed) body.seed = seed;
    setError("");
    setBusy(true);
    try {
      const r = await fetch("/api/seasons", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({ error: "the server did not answer" }));
      if (!r.ok) { setError(data.error || "refused"); return; }
      const now = Date.now() / 1000;
      keep({ key: "s:" + data.id + ":host", kind: "season", id: data.id, role: "host", seat: null, player: null,
        token: data.tokens.host, url: data.links.host, title: "Season", cast: cast.map((c) => c.name),
        bots: cast.map((c) => c.bot), players: data.links.players, public: data.links.public,
        status: "running", created: now, opened: now });
      setCreated({ data, cast });
      setTick(tick + 1);
      if (onCreated) onCreated();
    } catch (e) {
      setError("The server could not be reached; try again.");
    } finally {
      setBusy(false);
    }
  }

  const message = error ? error.charAt(0).toUpperCase() + error.slice(1) : "";
  return html`<form id="season-form" data-testid="season-form" autocomplete="off" onSubmit=${submit}>
      <div id="season-cast" class="seat-rows" data-testid="season-cast">
        ${rows.map((r, i) => html`<div class="seat-row" key=${r.id}>
          <span class="seat-no" aria-hidden="true">${i + 1}</span>
          <input name=${"cast-name-" + i} data-testid=${"season-name-" + i} aria-label=${"Player " + (i + 1) + " name"}
            maxlength="40" value=${r.name} onInput=${(e) => setRow(i, { name: e.currentTarget.value })}/>
          <select name=${"cast-kind-" + i} data-testid=${"season-kind-" + i} aria-label=${"Player " + (i + 1) + " played by"}
            value=${r.bot ? "bot" : "human"} onChange=${(e) => setRow(i, { bot: e.currentTarget.value === "bot" })}>
            <option value="human">Human</option><option value="bot">Bot</option>
          </select></div>`)}
      </div>
      <p><button type="button" class="secondary small" id="season-add" data-testid="season-add" onClick=${add}
        disabled=${rows.length >= MAX_CAST}>Add a player</button></p>
      <div class="form-grid">
        <label>Time scale
          <input name="time_scale" type="number" min="0.001" max="1000" step="any" defaultValue="1"
            data-testid="season-time-scale" aria-describedby="help-season-time-scale"/>
          <${Help} id="help-season-time-scale" text=${"G-5: " + TIME_SCALE_HELP}/>
        </label>
        <label>Bots answer <span class="muted">(<a href="/rulings#G-11">G-11</a>)</span>
          <select name="bot_pace" data-testid="season-bot-pace">
            <option value="human" selected>at a human pace</option>
            <option value="instant">at once</option>
          </select>
        </label>
        <label>Seed <span class="muted">(blank = random)</span>
          <input name="seed" type="number" min="0" step="1" data-testid="season-seed" placeholder="random"/>
        </label>
        <label>Main Match round, seconds <span class="muted">(<a href="/rulings#LO-11">LO-11</a>)</span>
          <input name="round_seconds" type="number" min="1" step="any" defaultValue="86400" data-testid="season-round-seconds"/>
        </label>
        <label>Main Match round limit <span class="muted">(0 = none, <a href="/rulings#SE-6">SE-6</a>)</span>
          <input name="max_rounds" type="number" min="0" max="400" step="1" defaultValue=${DEFAULT_MM_ROUNDS} data-testid="season-max-rounds"/>
        </label>
        <label>Hours for the gift and the nomination <span class="muted">(each, <a href="/rulings#SE-3">SE-3</a>)</span>
          <input name="step_hours" type="number" min="0.001" step="any" defaultValue="24" data-testid="season-step-hours"/>
        </label>
      </div>
      <p class="form-actions">
        <button type="submit" data-testid="season-create" disabled=${busy}>Create season</button>
        <span class="error-text" id="season-error" data-testid="season-error" role="alert">${message ? html`<${RuleText} text=${message}/>` : ""}</span>
      </p>
    </form>
    ${created ? html`<${Created} data=${created.data} cast=${created.cast}/>` : ""}
    <h3>Seasons</h3>
    <${SeasonList} tick=${tick}/>`;
}
