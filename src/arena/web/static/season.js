/* The season page (SE-1..SE-7, G-13, G-14) on the model of the match pages (DESIGN.md): a
   Preact + htm tree drawn from GET /api/seasons/{id} for this page's link alone, polled while
   the page is open. Preact patches the page instead of rebuilding it, so a poll, a clock tick
   or another form's answer never takes a half-filled form, its focus or a chosen radio button
   from under the reader; forms are plain (read with FormData on submit) so typing costs no
   render. Rule ids in any text become links; the season's texts are always shown as text. */
import {
  html, render, useState, useEffect, RuleText, ErrorText, capital, fmtNum, plural,
} from "/static/ui.js";

const KIND_WORDS = {
  eliminated: "eliminated", winner: "won the season", adjust: "adjustment",
};
const COUNTED = { garnets: ["garnet"], opal: ["opal"], tol: ["Token of Life", "Tokens of Life"] };
/* "+1 garnet", "2 garnets", "-1 Token of Life". */
const counted = (n, kind) => (n > 0 ? "+" : "") + plural(n, ...COUNTED[kind]);
const ENDPOINTS = {
  gift: "/gift", nominate: "/nominate", private: "/private", start_main: "/host/start_main",
  record_main: "/host/record_main", name_ec: "/host/name_ec", start_death: "/host/start_death",
  record_death: "/host/record_death", decide: "/host/decide", adjust: "/host/adjust",
  end: "/host/end", close_vault: "/host/close_vault", mm_rounds: "/host/mm_rounds",
  pause: "/host/pause", resume: "/host/resume", extend: "/host/extend",
  deadline: "/host/deadline", webhook: "/host/webhook", reissue: "/host/reissue",
};
const POLL_MS = 1500;

const root = document.getElementById("season");
const boot = JSON.parse(root.dataset.boot);
const token = new URLSearchParams(location.search).get("token") || "";
const q = token ? "?token=" + encodeURIComponent(token) : "";
const api = "/api/seasons/" + encodeURIComponent(boot.id);

const S = { data: null, error: "", offset: 0, busy: 0 };

/* ------------------------------------------------------------------ the server */
async function load() {
  try {
    const r = await fetch(api + q, { headers: { Accept: "application/json" } });
    const body = await r.json().catch(() => null);
    if (r.ok && body) {
      S.data = body;
      S.error = "";
      S.offset = body.now - Date.now() / 1000; // the server's clock, for the time left
    } else {
      S.error = (body && body.error) || "the season could not be read (" + r.status + ")";
    }
  } catch (e) {
    S.error = "the server could not be reached; trying again";
  }
  draw();
}

async function poll() {
  await load();
  setTimeout(poll, POLL_MS);
}

/* SE-7: a local date and time from the form, sent as ISO 8601 with this browser's offset, so
   the server stores the moment the host meant. */
function withOffset(local) {
  const d = new Date(local);
  if (isNaN(d.getTime())) return local;
  const off = -d.getTimezoneOffset(), sign = off >= 0 ? "+" : "-", a = Math.abs(off);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:` +
    `${two(d.getMinutes())}:00${sign}${two(Math.floor(a / 60))}:${two(a % 60)}`;
}

/* The JSON body of a form, as its endpoint takes it. */
function bodyOf(kind, form) {
  const fd = new FormData(form);
  if (kind === "record_main") {
    const result = { escaped: [], trapped: [], bars: {}, ec: null, opal: null };
    for (const [k, v] of fd.entries()) {
      if (k.startsWith("status:")) result[v === "escaped" ? "escaped" : "trapped"].push(k.slice(7));
      else if (k.startsWith("bars:")) result.bars[k.slice(5)] = parseInt(v, 10) || 0;
    }
    result.ec = fd.get("ec") || null;
    result.opal = fd.get("opal") || null;
    return { result, reason: fd.get("reason") || "" };
  }
  if (kind === "extend") return { seconds: Math.round(parseFloat(fd.get("minutes")) * 60) };
  if (kind === "deadline") return { at: withOffset(fd.get("at")) };
  if (kind === "webhook") return { url: (fd.get("url") || "").trim() || null };
  if (kind === "start_death") {
    const settings = { bot_pace: fd.get("bot_pace") };
    const scale = fd.get("time_scale");
    if (scale) settings.time_scale = Number(scale);
    let config = {};
    const raw = (fd.get("config") || "").trim();
    if (raw) { try { config = JSON.parse(raw); } catch (e) { config = raw; } }
    return { game: fd.get("game"), settings, config };
  }
  const out = {};
  for (const [k, v] of fd.entries()) out[k] = v;
  if (kind === "adjust") out.amount = parseInt(out.amount, 10);
  if (kind === "mm_rounds") out.max_rounds = parseInt(out.max_rounds, 10);
  if (kind === "record_death" && !out.game) delete out.game;
  return out;
}

/* Send a form; answer with the refusal's words (rule ids linked), or null when taken. */
async function send(kind, form) {
  S.busy++;
  try {
    const r = await fetch(api + ENDPOINTS[kind] + q, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(bodyOf(kind, form)),
    });
    const data = await r.json().catch(() => ({ ok: false, error: "the server did not answer" }));
    if (r.ok && data.ok) { await load(); return null; }
    return data.error || "refused";
  } catch (e) {
    return "the server could not be reached; try again";
  } finally {
    S.busy--;
  }
}

/* ------------------------------------------------------------------ small parts */
function now() { return Date.now() / 1000 + S.offset; }

function left(seconds) {
  const n = Math.max(0, Math.round(seconds));
  const h = Math.floor(n / 3600), m = Math.floor((n % 3600) / 60), s = n % 60;
  if (h >= 48) return `${Math.floor(h / 24)} days ${h % 24} h`;
  return h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
}

function localTime(epoch) {
  return new Date(epoch * 1000).toLocaleString([], {
    weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit",
    minute: "2-digit", timeZoneName: "short",
  });
}

const Rule = ({ id }) => html`<a href=${"/rulings#" + id}>${id}</a>`;
const T = ({ text }) => html`<${RuleText} text=${text}/>`;

function gameTitle(data, name) {
  if (!name) return "a game played elsewhere";
  return (data.game_titles && data.game_titles[name]) || name;
}

function Link({ href, text, testid }) {
  if (!href) return null;
  return html`<a href=${href} data-testid=${testid}>${text}</a>`;
}

function MatchLinks({ block, prefix }) {
  const links = block.links || {};
  const parts = [];
  if (links.yours) parts.push(html`<${Link} href=${links.yours} text="Play your seat" testid=${prefix + "-yours"}/>`);
  if (links.host) parts.push(html`<${Link} href=${links.host} text="Host the match" testid=${prefix + "-host"}/>`);
  if (links.watch) {
    parts.push(html`<${Link} href=${links.watch} testid=${prefix + "-watch"}
      text=${links.status === "finished" ? "Watch or replay" : "Watch"}/>`);
  }
  const seats = Object.entries(links.seats || {});
  if (seats.length) {
    parts.push(html`<span>Seat links: ${seats.map(([name, url], i) => html`${i ? ", " : ""}<${Link}
      href=${url} text=${name} testid=${`${prefix}-seat-${i}`}/>`)}</span>`);
  }
  if (!parts.length) return null;
  return html`<span class="se-links">${parts.map((p, i) => html`${i ? " · " : ""}${p}`)}</span>`;
}

/* A form of the page: plain inputs read on submit, its own refusal next to its button. */
function Form({ kind, testid, button, children, danger, reset = true }) {
  // The refusal belongs to the form that was sent: Preact may reuse this component for the
  // next step's form in the same place, which must not inherit it.
  const [refusal, setRefusal] = useState(null);
  const [sending, setSending] = useState(false);
  const error = refusal && refusal.kind === kind ? refusal.text : "";
  async function submit(ev) {
    ev.preventDefault();
    const form = ev.currentTarget;
    setRefusal(null);
    setSending(true);
    const refused = await send(kind, form);
    setSending(false);
    if (refused) setRefusal({ kind, text: refused });
    else if (reset) form.reset();
  }
  return html`<form class="se-form" data-form=${kind} data-testid=${testid} onSubmit=${submit}>
    ${children}
    <p class="form-actions">
      <button type="submit" class=${danger ? "danger" : ""} disabled=${sending}
        data-testid=${testid + "-submit"}>${button}</button>
      <span class="error-text" role="alert" data-testid=${testid + "-error"}>${error
        ? html`<${ErrorText} message=${error}/>` : ""}</span>
    </p>
  </form>`;
}

function Select({ name, options, testid, blank, label }) {
  return html`<select name=${name} data-testid=${testid} aria-label=${label || null}>
    ${blank != null ? html`<option value="">${blank}</option>` : ""}
    ${options.map((o) => html`<option value=${o}>${o}</option>`)}
  </select>`;
}

const Reason = ({ testid }) => html`<label>Reason <input name="reason" required maxlength="300"
  data-testid=${testid}/></label>`;

/* ------------------------------------------------------------------ sections */
function Header({ data }) {
  const role = data.you.role;
  let status;
  if (data.winner) status = `${data.winner} won the season.`;
  else if (data.ended) status = capital(data.ended) + ".";
  else status = `Episode ${data.episode}: ${data.stage_words}.`;
  const you = role === "host" ? "You host this season." : role === "public" ? "You are watching."
    : `You are ${data.you.player}.`;
  const waiting = data.waiting && !data.winner && !data.ended;
  return html`<section class="card se-head">
    <p class="eyebrow">Season · ${data.cast.length} players</p>
    <h1 data-testid="se-title">${status}</h1>
    <p class="lead" data-testid="se-you">${you}</p>
    ${waiting ? html`<p data-testid="se-waiting">${data.waiting}</p>` : ""}
    ${data.problem && role !== "host"
      ? html`<p class="error-text" role="alert" data-testid="se-problem"><${T} text=${capital(data.problem)}/></p>` : ""}
    <p class="muted small">Rules: <${Rule} id="SE-1"/> to <${Rule} id="SE-7"/>.</p>
  </section>`;
}

/* SE-7: the step's deadline in the reader's own clock time and the time left, or that the
   host paused it. */
function Clock({ data }) {
  if (data.paused) {
    const n = Math.round(data.paused_left || 0);
    return html`<p class="se-clock" data-testid="step-paused">The host paused this step's clock
      with ${left(n)} left (<${Rule} id="SE-7"/>): it does not run out.</p>`;
  }
  if (!data.deadline) return null;
  const runs = data.stage === "dm_pick"
    ? "the Death Match starts with a game drawn from the season's chance"
    : "the choice is drawn from the season's chance";
  return html`<p class="se-clock">Deadline: <time datetime=${new Date(data.deadline * 1000).toISOString()}
      data-testid="step-deadline-shown" data-at=${data.deadline}>${localTime(data.deadline)}</time>;
    time left: <b class="se-countdown" data-testid="se-step-clock">${left(data.deadline - now())}</b>.${" "}<span class="muted small">When it runs out ${runs} (<${Rule} id="SE-7"/>).</span></p>`;
}

function Step({ data }) {
  const { stage, actor } = data;
  if (stage === "dm_pick" && (data.deadline || data.paused)) {
    return html`<section class="card se-step" data-testid="se-step"><h2>Death Match start</h2>
      <${Clock} data=${data}/></section>`;
  }
  if ((stage !== "gift" && stage !== "nominate") || !actor) return null;
  const gift = stage === "gift";
  const what = gift ? "give the Token of Life to another escaped player"
    : "nominate the Death Match Opponent";
  if (data.you.player === actor) {
    const key = gift ? "to" : "dmo";
    return html`<section class="card se-step se-mine" data-testid="se-step">
      <h2>${gift ? "Your Token of Life" : "Your nomination"}</h2>
      <p>You ${what}.</p>
      <${Clock} data=${data}/>
      <${Form} kind=${stage} testid=${"se-" + stage} button=${gift ? "Give the token" : "Nominate"}>
        <fieldset><legend>Choose who (<${Rule} id="SE-3"/>)</legend>
          ${data.options.map((o, i) => html`<label class="se-choice"><input type="radio" name=${key}
            value=${o} data-testid=${`se-${stage}-option-${i}`} required/> ${o}</label>`)}
        </fieldset>
      </${Form}>
    </section>`;
  }
  return html`<section class="card se-step" data-testid="se-step"><h2>Waiting for ${actor}</h2>
    <p>${actor} is to ${what} (<${Rule} id="SE-3"/>). Allowed: ${data.options.join(", ")}.</p>
    <${Clock} data=${data}/></section>`;
}

function statusOf(s) {
  if (s.won) return "Won the season";
  if (s.in) return "In";
  return `Eliminated in episode ${s.eliminated_in}`;
}

function Cast({ data }) {
  return html`<section class="card se-cast" data-testid="se-cast"><h2>Cast</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Cast"><table class="matches">
      <thead><tr><th>Player</th><th>Status</th><th>Tokens of Life</th><th>Garnets</th><th>Opals</th></tr></thead>
      <tbody>${data.standings.map((s, i) => html`<tr data-testid=${"se-player-" + i}>
        <td><b>${s.name}</b>${data.you.player === s.name ? " (you)" : ""}${data.bots[i]
          ? html` <span class="tag">bot</span>` : ""}</td>
        <td data-testid=${"se-status-" + i}>${statusOf(s)}</td>
        <td>${fmtNum(s.tols)} <span class="muted small">ToL</span></td>
        <td>${fmtNum(s.garnets)} <span class="muted small">${s.garnets === 1 ? "garnet" : "garnets"}</span></td>
        <td>${fmtNum(s.opals)} <span class="muted small">${s.opals === 1 ? "opal" : "opals"}</span></td>
      </tr>`)}</tbody>
    </table></div></section>`;
}

const bars = (name, n) => `${name} (${n} gold bar${n === 1 ? "" : "s"})`;

function Episode({ data, ep }) {
  const n = ep.episode;
  const lines = [];
  const main = ep.main;
  if (main) {
    const where = main.external ? "recorded by hand (SE-2)" : "Locked Out!";
    lines.push(html`<li><${T} text=${`Main Match (${where}) with ${ep.players.join(", ")}`}/>.${" "}<${MatchLinks} block=${main} prefix=${`se-ep${n}-mm`}/></li>`);
    const res = main.result;
    if (res) {
      const esc = res.escaped.map((p) => bars(p, res.bars[p] || 0)).join(", ") || "nobody";
      const trapped = res.trapped.map((p) => bars(p, res.bars[p] || 0)).join(", ") || "nobody";
      lines.push(html`<li>Escaped: ${esc}. Trapped: ${trapped}.</li>`);
      if (res.winners.length) {
        lines.push(html`<li>Won by ${res.winners.join(", ")}${res.opal ? "; opal: " + res.opal : ""}.</li>`);
      }
    }
  }
  if (ep.gift) {
    lines.push(html`<li data-testid=${`se-ep${n}-gift`}>Token of Life given to ${ep.gift} (<${T} text=${ep.gift_how || ""}/>).</li>`);
  } else if (ep.gift_how) {
    lines.push(html`<li><${T} text=${capital(ep.gift_how)}/>.</li>`);
  }
  if (ep.ec) {
    lines.push(html`<li data-testid=${`se-ep${n}-ec`}>Elimination Candidate: ${ep.ec} (<${T} text=${ep.ec_how || ""}/>).</li>`);
  }
  if (ep.dmo) {
    lines.push(html`<li data-testid=${`se-ep${n}-dmo`}>Death Match Opponent: ${ep.dmo} (<${T} text=${ep.dmo_how || ""}/>).</li>`);
  }
  const dm = ep.death_match;
  if (dm) {
    const seats = dm.seats || [];
    const who = seats.length === 2 ? `seat 1: ${seats[0]}, seat 2: ${seats[1]}` : "";
    lines.push(html`<li data-testid=${`se-ep${n}-dm`}>${ep.final ? "Final Death Match" : "Death Match"}: ${gameTitle(data, dm.game)}${dm.external
      ? html` recorded by hand (<${Rule} id="SE-4"/>)` : ""}, ${who}.${" "}<${MatchLinks} block=${dm} prefix=${`se-ep${n}-dm`}/></li>`);
    for (const name of dm.handed_to_bot || []) {
      lines.push(html`<li data-testid=${`se-ep${n}-dm-bot`}>The host handed ${name}'s seat in the
        Death Match to a bot.</li>`);
    }
  } else if (ep.final) {
    lines.push(html`<li>Final Death Match between ${ep.players.join(" and ")}.</li>`);
  }
  if (ep.note) lines.push(html`<li><${T} text=${capital(ep.note).replace(/\.$/, "")}/>.</li>`);
  if (ep.eliminated) {
    lines.push(html`<li data-testid=${`se-ep${n}-out`}><b>${ep.eliminated} was eliminated</b>.</li>`);
  }
  return html`<article class="se-episode" data-testid=${"se-episode-" + n}>
    <h3>Episode ${n}${ep.final ? " · final" : ""}</h3>
    <ul>${lines.length ? lines : html`<li class="muted">Not started yet.</li>`}</ul>
  </article>`;
}

function Ledger({ data }) {
  const rows = data.ledger.map((e, i) => {
    const change = COUNTED[e.kind] ? counted(e.amount, e.kind) : KIND_WORDS[e.kind] || e.kind;
    return html`<tr data-testid=${"se-ledger-" + i}><td><span class="muted small">Ep. </span>${e.episode}</td>
      <td>${e.player}</td><td>${change}</td><td><${T} text=${e.cause}/></td></tr>`;
  });
  return html`<section class="card se-ledger" data-testid="se-ledger"><h2>Ledger</h2>
    <p class="muted small">Every change with its cause (<${Rule} id="SE-5"/>); replaying it gives
      the cast table above.</p>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Ledger"><table class="matches">
      <thead><tr><th>Episode</th><th>Player</th><th>Change</th><th>Cause</th></tr></thead>
      <tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">No entries yet.</td></tr>`}</tbody>
    </table></div></section>`;
}

/* G-13: the host's private channel with one player. The host sees every channel and writes
   to any player; a player sees its own once the host has written, and answers there. */
function Private({ data }) {
  const host = data.you.role === "host";
  const lines = data.private || [];
  if (!host && !lines.length) return null;
  const who = (p) => p.from === "host" ? (host ? `You to ${p.player}` : "Host") : (host ? p.player : "You");
  return html`<section class="card se-private" data-testid="se-private">
    <h2>${host ? "Private channels" : "Host (private)"}</h2>
    <p class="muted small">${host ? "Talk with one player alone: only the two of you read it"
      : "Only you and the host read this"} (<${Rule} id="G-13"/>); it is kept with the season.</p>
    ${lines.length ? html`<ol class="se-private-log" data-testid="se-private-log" aria-live="polite">
      ${lines.map((p, i) => html`<li data-testid=${"se-private-line-" + i}
        class=${p.from === "host" ? "from-host" : "from-player"}><b>${who(p)}:</b> <span
        class="se-private-text">${p.text}</span></li>`)}</ol>` : ""}
    <${Form} kind="private" testid="se-private-form" button="Send">
      ${host ? html`<label>Player <${Select} name="player" options=${data.cast}
        testid="se-private-player"/></label>` : ""}
      <label>Message <input name="text" required maxlength="500" autocomplete="off"
        data-testid="se-private-text"/></label>
    </${Form}>
  </section>`;
}

function RecordMain({ data, players }) {
  return html`<details><summary>Record a Main Match by hand</summary>
    <${Form} kind="record_main" testid="se-record-main" button="Record">
      <p class="muted small">A Main Match played elsewhere (<${Rule} id="SE-2"/>).</p>
      ${players.map((p, i) => html`<div class="control-row"><span class="se-name">${p}</span>
        <select name=${"status:" + p} aria-label=${p + " escaped or trapped"}
          data-testid=${"se-rm-status-" + i}><option value="escaped">escaped</option>
          <option value="trapped">trapped</option></select>
        <input type="number" min="0" step="1" defaultValue="0" name=${"bars:" + p}
          aria-label=${"gold bars of " + p} data-testid=${"se-rm-bars-" + i}/> bars</div>`)}
      <label>Elimination Candidate <${Select} name="ec" options=${players} testid="se-rm-ec"
        blank="nobody (all escaped)"/></label>
      <label>Opal <${Select} name="opal" options=${players} testid="se-rm-opal" blank="nobody"/></label>
      <${Reason} testid="se-rm-reason"/>
    </${Form}>
  </details>`;
}

function StartDeath({ data, seats }) {
  return html`<${Form} kind="start_death" testid="se-start-death" button="Start the Death Match">
    <p>Seat 1: ${seats[0]}, seat 2: ${seats[1]} (<${Rule} id="SE-4"/>).</p>
    <label>Game <select name="game" data-testid="se-dm-game">
      ${data.death_matches.map((g) => html`<option value=${g}>${gameTitle(data, g)}</option>`)}
    </select></label>
    <label>Time scale <input name="time_scale" type="number" min="0.001" step="any"
      defaultValue=${String(data.time_scale || 1)} data-testid="dm-time-scale"/></label>
    <label>Bot pace <select name="bot_pace" data-testid="dm-bot-pace">
      <option value="human">human</option><option value="instant">instant</option></select></label>
    <label>Game options (JSON, as the lobby's) <textarea name="config" rows="2"
      data-testid="dm-config" placeholder='{"rounds": 3}'></textarea></label>
  </${Form}>`;
}

/* SE-7: the host's hold on the step's clock. */
function ClockForms({ data }) {
  const running = data.deadline || data.paused;
  return html`<details data-testid="step-clock" open>
    <summary>Step clock</summary>
    <p class="muted small">Pause, extend or set the deadline of this step (<${Rule} id="SE-7"/>).</p>
    ${data.paused ? html`<${Form} kind="resume" testid="step-resume" button="Resume the clock"/>`
      : data.deadline ? html`<${Form} kind="pause" testid="step-pause" button="Pause the clock"/>` : ""}
    ${running ? html`<${Form} kind="extend" testid="step-extend" button="Extend">
      <label>Extend by <input name="minutes" type="number" min="1" max="525600" defaultValue="10"
        required data-testid="step-extend-minutes"/> min</label></${Form}>` : ""}
    <${Form} kind="deadline" testid="step-deadline-form" button="Set the deadline">
      <label>Deadline (your local time) <input name="at" type="datetime-local" required
        data-testid="step-deadline"/></label>
    </${Form}>
  </details>`;
}

function Host({ data }) {
  if (data.you.role !== "host") return null;
  const stage = data.stage;
  const ep = data.episodes[data.episodes.length - 1];
  const still = data.standings.filter((s) => s.in).map((s) => s.name);
  const parts = [];
  if (data.problem) {
    parts.push(html`<p class="error-text" role="alert" data-testid="se-problem"><${T} text=${capital(data.problem)}/></p>`);
  }
  if (stage === "main") {
    parts.push(html`<${Form} kind="start_main" testid="se-start-main" button="Start the Main Match" reset=${false}>
      <p>Locked Out! with ${still.join(", ")} (<${Rule} id="SE-1"/>).</p></${Form}>`);
  }
  if (stage === "main" || stage === "mm") {
    parts.push(html`<${RecordMain} data=${data} players=${ep.players.length ? ep.players : still}/>`);
  }
  if (stage === "mm") {
    parts.push(html`<${Form} kind="close_vault" testid="se-close-vault" button="Close the vault now">
      <p class="muted small">Ends the Main Match now; it is scored as it stands
        (<${Rule} id="SE-6"/>, <${Rule} id="LO-8"/>).</p></${Form}>`);
  }
  if (stage === "name_ec") {
    const trapped = (((ep.main || {}).result || {}).trapped) || [];
    parts.push(html`<${Form} kind="name_ec" testid="se-name-ec" button="Name the EC">
      <p>${trapped.length ? html`The Main Match closed before the trapped players' vote was done, so the
        host names the EC among them (<${Rule} id="SE-6"/>, <${Rule} id="LO-9"/>).`
        : html`Nobody was trapped, so nobody voted (<${Rule} id="LO-9"/>).`}</p>
      <label>Elimination Candidate <${Select} name="ec" options=${trapped.length ? trapped : ep.players}
        testid="se-ec-name"/></label>
      <${Reason} testid="se-ec-reason"/>
    </${Form}>`);
  }
  let seats = ((ep.death_match || {}).seats) || [];
  if (stage === "dm_pick" && !seats.length) seats = ep.dmo ? [ep.ec, ep.dmo] : ep.players;
  if (stage === "dm_pick") parts.push(html`<${StartDeath} data=${data} seats=${seats}/>`);
  if (stage === "dm_pick" || stage === "dm") {
    parts.push(html`<details><summary>Record a Death Match by hand</summary>
      <${Form} kind="record_death" testid="se-record-death" button="Record">
        <label>Loser <${Select} name="loser" options=${seats} testid="se-rd-loser"/></label>
        <label>Game <input name="game" maxlength="40" data-testid="se-rd-game"/></label>
        <${Reason} testid="se-rd-reason"/>
      </${Form}></details>`);
  }
  if (stage === "dm_decide") {
    parts.push(html`<${Form} kind="decide" testid="se-decide" button="Decide">
      <p>The Death Match had no winner (<${Rule} id="LM-21"/>, <${Rule} id="SE-4"/>): decide who leaves.</p>
      <label>Loser <${Select} name="loser" options=${seats} testid="se-decide-loser"/></label>
      <${Reason} testid="se-decide-reason"/>
    </${Form}>`);
  }
  if (data.clock) parts.push(html`<${ClockForms} data=${data}/>`);
  parts.push(html`<details><summary>Adjust the ledger</summary>
    <p class="muted small">Spending or a correction, with a written reason (<${Rule} id="SE-5"/>).</p>
    <${Form} kind="adjust" testid="se-adjust" button="Record the adjustment">
      <label>Player <${Select} name="player" options=${data.cast} testid="se-adj-player"/></label>
      <label>Change <select name="what" data-testid="se-adj-what"><option value="tol">Tokens of Life</option>
        <option value="garnets">garnets</option><option value="opal">opals</option></select></label>
      <label>By <input type="number" step="1" name="amount" defaultValue="-1" required
        data-testid="se-adj-amount"/></label>
      <${Reason} testid="se-adj-reason"/>
    </${Form}></details>`);
  if (stage !== "over") {
    parts.push(html`<details><summary>Main Match round limit: ${data.mm_rounds}</summary>
      <${Form} kind="mm_rounds" testid="se-mm-rounds-form" button="Change" reset=${false}>
        <label>Round limit of the next Main Matches (0: none, <${Rule} id="SE-6"/>)
          <input type="number" name="max_rounds" min="0" max="400" step="1" required
            defaultValue=${String(data.mm_rounds || 0)} data-testid="se-mm-rounds"/></label>
      </${Form}></details>`);
  }
  parts.push(html`<details data-testid="se-webhook"><summary>Announcements to Discord</summary>
    <p class="muted small" data-testid="se-webhook-state">${data.webhook
      ? "A webhook hears the season's public news (steps, results, standings; never a link)."
      : "No webhook: the season's news stays on this page."} Save an empty field to stop them
      (<${Rule} id="G-14"/>).</p>
    <${Form} kind="webhook" testid="se-webhook-form" button="Save">
      <label>Discord webhook URL <input name="url" type="url" maxlength="300" autocomplete="off"
        placeholder="https://discord.com/api/webhooks/…" data-testid="se-webhook-url"/></label>
    </${Form}></details>`);
  if (stage !== "over") {
    parts.push(html`<details><summary>End the season</summary>
      <${Form} kind="end" testid="se-end" button="End the season" danger=${true}>
        <${Reason} testid="se-end-reason"/></${Form}></details>`);
  }
  const links = Object.entries(data.player_links || {});
  parts.push(html`<details data-testid="se-player-links"><summary>Players' season links</summary>
    <p class="muted small">Each link is secret: it answers that player's gift and nomination. A
      player who lost theirs gets a new one here; the old one stops working at once.</p>
    <ul class="links">${links.map(([name, url], i) => html`<li><${Link} href=${url} text=${name}
      testid=${"se-link-" + i}/>
      <${Form} kind="reissue" testid=${"se-reissue-" + i} button=${"New link for " + name} reset=${false}>
        <input type="hidden" name="player" value=${name}/></${Form}></li>`)}</ul></details>`);
  return html`<section class="card se-host" data-testid="se-host"><h2>Host</h2>${parts}</section>`;
}

/* ------------------------------------------------------------------ the page */
function App() {
  const [, setTick] = useState(0);
  useEffect(() => { const t = setInterval(() => setTick((n) => n + 1), 1000); return () => clearInterval(t); }, []);
  const data = S.data;
  if (!data) {
    return html`<section class="card">${S.error
      ? html`<p class="error-text" role="alert" data-testid="se-load-error"><${ErrorText} message=${S.error}/></p>`
      : html`<p class="muted">Loading the season…</p>`}</section>`;
  }
  const episodes = data.episodes.slice().reverse();
  return html`
    ${S.error ? html`<p class="banner error-text" role="alert" data-testid="se-load-error"><${ErrorText} message=${S.error}/></p>` : ""}
    <${Header} data=${data}/>
    <${Step} data=${data}/>
    <${Host} data=${data}/>
    <${Private} data=${data}/>
    <${Cast} data=${data}/>
    <section class="card" data-testid="se-episodes"><h2>Episodes</h2>
      ${episodes.map((ep) => html`<${Episode} key=${ep.episode} data=${data} ep=${ep}/>`)}</section>
    <${Ledger} data=${data}/>`;
}

function draw() { render(html`<${App}/>`, root); }

root.textContent = "";
draw();
poll();
