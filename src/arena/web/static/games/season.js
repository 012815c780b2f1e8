/* The season's board on the match shell (SE-1 to SE-7; docs/season-engine.md 3). A season is
   a match of the game "season": the shell draws its header, clock, chat, private channel, log
   and replay, and updates come over the match socket like any game's. This board draws what
   is the season's own:
   - the step card first: the step in words, what it waits for (said to this reader), the
     deadline in the reader's own clock, and the reader's call to act (the vote, gift or
     nomination buttons, or "Play your seat" while their match is on);
   - the host's panels for the current step (each a <details> whose open state the reader
     owns, so an update never opens or closes one);
   - the standings, the episodes (newest first) and the ledger with its causes (SE-5).
   Each reader's links to the season's matches are asked of GET /api/seasons/{id} when the
   step changes (they are never in the log). Forms are plain and read on submit, so an update
   never takes a half-typed reason from under the host. */
import { html, useState, useEffect, registerGame, RuleText, ErrorText, capital, fmtNum, plural, readerIsSeat } from "/static/ui.js";
import { MatchForm, loadOptionChoices } from "/static/matchform.js";

const TOKEN = new URLSearchParams(location.search).get("token") || "";

/* Open or closed, by panel or episode id, as the reader left it (module state: it outlives
   every redraw, and a panel that comes back in a later step comes back as it was). */
const OPEN = new Map();

/* GET /api/games, once: each game's title, and the Death Match games' options. */
let GAMES = null;
let gamesAsked = false;
function loadGames(redraw) {
  if (gamesAsked) return;
  gamesAsked = true;
  fetch("/api/games", { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : []))
    .then(async (list) => { await loadOptionChoices(list).catch(() => null); GAMES = list; redraw(); })
    .catch(() => { gamesAsked = false; });
}
function gameTitle(name) {
  const g = (GAMES || []).find((x) => x.name === name);
  return g ? g.title : name || "a game played elsewhere";
}

async function seasonCall(view, method, path, body) {
  const url = "/api/seasons/" + encodeURIComponent(view.match.id) + path + "?token=" + encodeURIComponent(TOKEN);
  const opts = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  try {
    const res = await fetch(url, opts);
    const data = await res.json().catch(() => null);
    if (res.ok) return Object.assign({ ok: true }, data || {});
    return { ok: false, status: res.status, error: (data && data.error) || "the server answered " + res.status };
  } catch (e) {
    return { ok: false, status: 0, error: "the server could not be reached; check your connection and try again" };
  }
}

/* ------------------------------------------------------------------ links to the matches */
/* The match the current step waits for, by its key ("e2-mm"). */
function liveKey(st) {
  const ep = lastEpisode(st);
  if (!ep) return null;
  if (st.step === "mm_play" && ep.main) return ep.main.key;
  if (st.step === "dm_play" && ep.death_match) return ep.death_match.key;
  return null;
}

/* The reader's links, asked again when the step changes. The server makes the step's match
   just after the step's update goes out, so a first answer without its links is asked again
   a few times, a little later each time, then left until the next step. */
const LINKS = { key: "", data: {}, tries: 0, timer: null };
async function fetchLinks(view, key, redraw) {
  const r = await seasonCall(view, "GET", "");
  if (LINKS.key !== key) return;
  if (r.ok && r.links) LINKS.data = r.links;
  const live = liveKey(view.state);
  if (live && !(LINKS.data[live] && LINKS.data[live].watch) && LINKS.tries < 6) {
    LINKS.tries += 1;
    LINKS.timer = setTimeout(() => fetchLinks(view, key, redraw), 200 * 2 ** LINKS.tries);
  }
  redraw();
}

/* ------------------------------------------------------------------ words */
const VERB = { vote: "Vote", tie: "Vote", gift: "Gift", nominate: "Nominate" };
const CHOICE = { vote: "Vote for", tie: "Choose", gift: "Give it to", nominate: "Nominate" };
const SENT = { vote: "vote", tie: "vote", gift: "gift", nominate: "nomination" };
const AT_DEADLINE = {
  main_next: "When it passes, the Main Match starts with SE-1's players (SE-7).",
  vote: "When it passes, a vote not cast does not count (LO-9).",
  tie: "When it passes, a vote not cast does not count (LO-9).",
  gift: "When it passes, the token's receiver is drawn from the season's chance (SE-7).",
  name_ec: "When it passes, the Elimination Candidate is drawn from the season's chance (SE-7).",
  nominate: "When it passes, the Death Match Opponent is drawn from the season's chance (SE-7).",
  dm_next: "When it passes, the Death Match's game is drawn and the match starts (SE-7).",
  dm_decide: "When it passes, who leaves is drawn from the season's chance (SE-7).",
};
const NO_LIMIT = {
  mm_play: "the season goes on when the Main Match ends.",
  dm_play: "the season goes on when the Death Match ends.",
  mm_record: "it waits for the host's record of the Main Match (SE-2).",
};

function lastEpisode(st) { return st.episodes && st.episodes.length ? st.episodes[st.episodes.length - 1] : null; }
function stepTitle(st) {
  if (st.step === "over" || st.ended) return "Season over";
  return (st.final ? "Final" : "Episode " + st.episode) + " · " + capital(st.step_words);
}
/* "Ann", "Ann and Ben", "Ann, Ben or Cat" (``or`` as the server's flow.player_list lists
   choices). */
function nameList(names, join) {
  const n = (names || []).map(String);
  return n.length <= 1 ? n[0] || "nobody" : n.slice(0, -1).join(", ") + " " + join + " " + n[n.length - 1];
}
const orList = (names) => nameList(names, "or");

function andList(names) {
  return nameList(names, "and");
}
function leftWords(sec) {
  const n = Math.max(0, Math.round(sec));
  const d = Math.floor(n / 86400), h = Math.floor((n % 86400) / 3600), m = Math.floor((n % 3600) / 60);
  if (d) return plural(d, "day") + " " + plural(h, "hour");
  if (h) return h + " h " + m + " min";
  return m ? m + " min " + (n % 60) + " s" : (n % 60) + " s";
}
function localTime(t) {
  return new Date(t * 1000).toLocaleString([], { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
let offset = 0, seenNow = null;
function serverNow(view) {
  if (view.now !== seenNow) { seenNow = view.now; offset = view.now - Date.now() / 1000; }
  return Date.now() / 1000 + offset;
}
/* The seats of the episode's Death Match: the EC in seat 1 and the DMO in seat 2 (SE-4);
   in the final, the last two. */
function dmSeats(ep) {
  if (!ep) return [];
  if (ep.death_match && ep.death_match.seats.length) return ep.death_match.seats;
  return ep.dmo ? [ep.ec, ep.dmo] : ep.players;
}
/* Whether this reader plays the match the step waits for. */
function playsLive(st) {
  const ep = lastEpisode(st);
  const me = st.me && st.me.name;
  if (!me || !ep) return null;
  if (st.step === "mm_play" && ep.players.includes(me)) return "Main Match";
  if (st.step === "dm_play" && dmSeats(ep).includes(me)) return ep.final ? "final Death Match" : "Death Match";
  return null;
}

/* ------------------------------------------------------------------ the step card */
function Deadline({ view }) {
  const p = view.phase, st = view.state;
  if (!p || view.result) return null;
  if (view.paused) return html`<p class="se-deadline" data-testid="season-deadline">The host paused this step's clock.</p>`;
  if (p.next_deadline == null) {
    return html`<p class="se-deadline muted" data-testid="season-deadline">No time limit: ${NO_LIMIT[st.step] || "it waits for the host."}</p>`;
  }
  const left = p.next_deadline - serverNow(view);
  return html`<p class="se-deadline" data-testid="season-deadline">Deadline:${" "}
    <time datetime=${new Date(p.next_deadline * 1000).toISOString()}>${localTime(p.next_deadline)}</time>${" "}
    (<span data-testid="season-left">${leftWords(left)}</span> left).${" "}
    <span class="muted small"><${RuleText} text=${AT_DEADLINE[st.step] || ""}/></span></p>`;
}

function MatchLinks({ links, prefix, done }) {
  if (!links || !(links.play || links.watch || links.host)) return null;
  return html`<span class="se-links">
    ${links.watch ? html`<a href=${links.watch} data-testid=${prefix + "-watch-link"}>${done ? "Replay" : "Watch"}</a>` : ""}
    ${links.host ? html`<a href=${links.host} data-testid=${prefix + "-host-link"}>Host page</a>` : ""}
  </span>`;
}

/* What the step waits for, told to this reader. The server words it for the seat ("Your turn:
   vote for ..."); a broadcast's seat board (G-15) is read by the audience, so there the same
   turn is told of the player by name. */
const ASK_OF = { vote: "vote for the Elimination Candidate among", tie: "choose the Elimination Candidate among",
  gift: "give the Token of Life to", nominate: "nominate the Death Match Opponent among" };
function waitingWords(view, st) {
  const name = st.me && st.me.name;
  const t = st.turn;
  if (!name || readerIsSeat(view, view.you) || !t || !(t.players || []).includes(name) || !ASK_OF[st.step]) return st.waiting;
  return "It is " + name + "'s turn to " + ASK_OF[st.step] + " " + orList(t.options) + ".";
}

function StepCard({ view, api, links }) {
  const st = view.state;
  const me = st.me;
  const live = liveKey(st);
  const L = (live && links[live]) || {};
  const mine = view.you != null ? view.seats[view.you] || {} : {};
  const open = !view.result && !api.replay && !view.paused;
  const toAct = open && me && me.to_act && !!VERB[st.step];
  const chose = toAct && mine.final;
  const playing = !view.result && playsLive(st);
  const yours = (toAct && !chose) || (playing && !!L.play);
  let waiting = waitingWords(view, st);
  if (chose) {
    const subs = mine.submissions || [];
    const sent = subs.length ? subs[subs.length - 1].text : "";
    waiting = "Your " + SENT[st.step] + " is in" + (sent ? ": " + sent : "") + ". " +
      (st.step === "vote" || st.step === "tie" ? "The votes are counted once all have voted or the deadline passes (LO-9)." : "");
  }
  const Msg = window.Arena && window.Arena.Msg;
  const host = view.role === "host" && st.turn && (st.step === "vote" || st.step === "tie");
  const done = host ? st.turn.players.filter((n) => { const s = view.seats[st.cast.indexOf(n)]; return s && s.acted; }) : [];
  return html`<section class=${"se-now" + (yours ? " yours" : "")} data-testid="season-step" aria-labelledby="se-now-title">
    <h2 id="se-now-title">${view.result ? "Season over" : stepTitle(st)}</h2>
    <p class="se-waiting" data-testid="season-waiting"><${RuleText} text=${view.result ? capital(view.result.reason || st.waiting).replace(/\.?$/, ".") : waiting}/></p>
    ${playing && L.play ? html`<p class="se-play">
      <a class="button" href=${L.play} data-testid="season-play-link">Play your seat</a>
      <span>Your ${playing} is on: it is played on its own page.</span></p>` : ""}
    ${toAct && !chose ? html`<div class="se-choices" role="group" aria-label=${CHOICE[st.step]}>
      ${me.options.map((n) => html`<button type="button" data-testid=${"season-choice-" + n}
        onClick=${() => api.submit(VERB[st.step] + " " + n, true, "season")}>${CHOICE[st.step]} ${n}</button>`)}</div>` : ""}
    ${host ? html`<p class="small" data-testid="season-progress">Voted so far: ${done.length ? andList(done) : "nobody"}.</p>` : ""}
    <${Deadline} view=${view}/>
    ${L.watch || L.host ? html`<p class="se-links-row">${st.step === "mm_play" ? "Main Match" : "Death Match"}:${" "}
      ${L.watch ? html`<a href=${L.watch} data-testid="season-watch-link">Watch</a>` : ""}
      ${L.host ? html`<a href=${L.host} data-testid="season-host-link">Host page</a>` : ""}</p>` : ""}
    ${Msg && toAct ? html`<${Msg} source="season" testid="season-msg" okTestid="season-msg-ok"/>` : ""}
  </section>`;
}

/* ------------------------------------------------------------------ standings, episodes, ledger */
function statusWords(s) {
  if (s.won) return "Won the season";
  return s.in ? "In" : "Eliminated in episode " + s.eliminated_in;
}

/* The season's recap (/s/{id}/recap): public, so any reader may share it; the host first. */
function RecapLink({ view }) {
  const url = location.origin + "/s/" + encodeURIComponent(view.match.id) + "/recap";
  const Copy = window.Arena && window.Arena.CopyButton;
  return html`<p class="se-recap small">Recap to share:${" "}
    <a href=${url} data-testid="recap-link">Season recap</a>${" "}
    ${Copy ? html`<${Copy} text=${url} testid="recap-copy" label="Copy the link of the season's recap"/>` : ""}</p>`;
}

function Standings({ view }) {
  const st = view.state;
  const bots = view.match.bots || [];
  const me = st.me && st.me.name;
  return html`<section class="se-section" aria-labelledby="se-standings-title">
    <h2 id="se-standings-title">Standings</h2>
    <${RecapLink} view=${view}/>
    <div class="table-wrap" tabindex="0" role="region" aria-label="standings">
      <table class="se-table" data-testid="season-standings">
        <thead><tr><th scope="col">Player</th><th scope="col">Status</th>
          <th scope="col"><abbr title="Tokens of Life">ToLs</abbr></th><th scope="col">Garnets</th><th scope="col">Opals</th></tr></thead>
        <tbody>${st.standings.map((s, i) => html`<tr class=${(s.in ? "" : "out") + (s.won ? " won" : "")} data-testid=${"season-row-" + i}>
          <th scope="row">${s.name}${s.name === me && readerIsSeat(view, view.you) ? html` <span class="tag you">you</span>` : ""}${bots[i] ? html` <span class="tag">bot</span>` : ""}</th>
          <td data-testid=${"season-status-" + i}>${statusWords(s)}</td>
          <td>${fmtNum(s.tols)}</td><td>${fmtNum(s.garnets)}</td><td>${fmtNum(s.opals)}</td></tr>`)}</tbody>
      </table>
    </div>
  </section>`;
}

function withBars(names, bars) { return andList(names.map((n) => n + " (" + plural(bars[n] || 0, "gold bar") + ")")); }
function ballotWords(ballots) { return Object.entries(ballots).map(([v, t]) => v + " for " + t).join(", ") || "no votes"; }
function countWords(counts) { return Object.entries(counts).map(([n, k]) => n + " " + fmtNum(k)).join(", "); }

function EpisodeItems({ ep, links }) {
  const items = [];
  const li = (text, testid) => items.push(html`<li data-testid=${testid}><${RuleText} text=${text}/></li>`);
  const n = ep.episode;
  const main = ep.main;
  if (main) {
    const how = main.external ? "recorded by hand (SE-2)" : "Locked Out!";
    items.push(html`<li data-testid=${"season-ep" + n + "-mm"}>Main Match (<${RuleText} text=${how}/>) with ${andList(ep.players)}.${" "}
      <${MatchLinks} links=${main.key && links[main.key]} prefix=${"season-ep" + n + "-mm"} done=${!!main.result}/></li>`);
    const r = main.result;
    if (r) {
      li("Escaped: " + (r.escaped.length ? withBars(r.escaped, r.bars) : "nobody") + ". Trapped: " + andList(r.trapped) + ".");
      if (r.winners.length) li("Won by " + andList(r.winners) + (r.opal ? "; the opal went to " + r.opal + " (LO-8)" : "") + ".");
    }
    if (main.handed_to_bot.length) li("Played by a bot for " + andList(main.handed_to_bot) + ".");
  }
  // A note about the Main Match (recorded by hand, ended early) reads with it; the rest last.
  const aboutMain = (t) => /main match/i.test(t);
  for (const note of ep.notes.filter(aboutMain)) li(capital(note).replace(/\.?$/, "."));
  const v = ep.vote;
  if (v) {
    li("The trapped voted (LO-9): " + ballotWords(v.ballots) + ". Count: " + countWords(v.counts) + ".", "season-ep" + n + "-vote");
    if (v.tied.length) li("Tied: " + andList(v.tied) + ". The escaped chose: " + ballotWords(v.tie_ballots) + ".");
  }
  if (ep.gift) li("Token of Life given to " + ep.gift + " — " + (ep.gift_how || "") + ".", "season-ep" + n + "-gift");
  else if (ep.gift_how) li(capital(ep.gift_how) + ".", "season-ep" + n + "-gift");
  if (ep.ec) li("Elimination Candidate: " + ep.ec + " — " + (ep.ec_how || "") + ".", "season-ep" + n + "-ec");
  if (ep.dmo) li("Death Match Opponent: " + ep.dmo + " — " + (ep.dmo_how || "") + ".", "season-ep" + n + "-dmo");
  const dm = ep.death_match;
  if (dm) {
    const seats = dm.seats.length === 2 ? dm.seats[0] + " (seat 1) against " + dm.seats[1] + " (seat 2)" : andList(dm.seats);
    const how = dm.external ? " recorded by hand (SE-4)" : "";
    items.push(html`<li data-testid=${"season-ep" + n + "-dm"}>${ep.final ? "Final Death Match" : "Death Match"}: ${gameTitle(dm.game)}<${RuleText} text=${how}/>, ${seats}${dm.winner ? "; won by " + dm.winner : ""}.${" "}
      <${MatchLinks} links=${dm.key && links[dm.key]} prefix=${"season-ep" + n + "-dm"} done=${!!dm.winner}/></li>`);
    if (dm.handed_to_bot.length) li("Played by a bot for " + andList(dm.handed_to_bot) + ".");
  }
  for (const note of ep.notes.filter((t) => !aboutMain(t))) li(capital(note).replace(/\.?$/, "."));
  if (ep.eliminated) items.push(html`<li data-testid=${"season-ep" + n + "-out"}><b>${ep.eliminated} was eliminated.</b></li>`);
  return items.length ? items : [html`<li class="muted">Nothing yet.</li>`];
}

function Toggle({ id, dflt, cls, testid, summary, children }) {
  const open = OPEN.has(id) ? OPEN.get(id) : !!dflt;
  // Preact setting ``open`` fires a toggle too: only the reader's own toggles are kept.
  return html`<details class=${cls} data-testid=${testid} open=${open}
    onToggle=${(e) => { if (e.currentTarget.open !== open) OPEN.set(id, e.currentTarget.open); }}>
    <summary>${summary}</summary>${children}</details>`;
}

function Episodes({ view, links }) {
  const eps = view.state.episodes.slice().reverse();
  const left = view.result ? " · not finished: the season ended" : " · under way";
  return html`<section class="se-section" aria-labelledby="se-episodes-title">
    <h2 id="se-episodes-title">Episodes</h2>
    ${eps.map((ep, i) => html`<${Toggle} key=${"ep-" + ep.episode} id=${"ep-" + ep.episode} dflt=${i === 0}
      cls="se-episode" testid=${"season-episode-" + ep.episode}
      summary=${html`${ep.final ? "Final" : "Episode " + ep.episode}<span class="muted small">${ep.eliminated ? " · " + ep.eliminated + " eliminated" : left}</span>`}>
      <ul>${EpisodeItems({ ep, links })}</ul><//>`)}
  </section>`;
}

const COUNTED = { garnets: ["garnet"], opal: ["opal"], tol: ["Token of Life", "Tokens of Life"] };
function changeWords(e) {
  if (COUNTED[e.kind]) return (e.amount > 0 ? "+" : "") + plural(e.amount, ...COUNTED[e.kind]);
  return e.kind === "winner" ? "won the season" : e.kind === "eliminated" ? "eliminated" : e.kind;
}

function Ledger({ view }) {
  const rows = view.state.ledger;
  return html`<section class="se-section" aria-labelledby="se-ledger-title">
    <h2 id="se-ledger-title">Ledger</h2>
    <p class="muted small">Every change with its cause (<${RuleText} text="SE-5"/>); replayed, it gives the standings.</p>
    <div class="table-wrap" tabindex="0" role="region" aria-label="ledger">
      <table class="se-table se-ledger" data-testid="season-ledger">
        <thead><tr><th scope="col">Ep.</th><th scope="col">Player</th><th scope="col">Change</th><th scope="col">Cause</th></tr></thead>
        <tbody>${rows.length ? rows.map((e, i) => html`<tr data-testid=${"season-ledger-" + i}><td>${e.episode}</td><td>${e.player}</td>
          <td>${changeWords(e)}</td><td><${RuleText} text=${e.cause}/></td></tr>`)
          : html`<tr><td colspan="4" class="muted">No entries yet.</td></tr>`}</tbody>
      </table>
    </div>
  </section>`;
}

/* ------------------------------------------------------------------ the host's panels */
/* One act of the host: the form's values read on submit, a confirmation first when the act
   cannot be undone, and the server's refusal (naming its rule) beside the button. */
function ActForm({ view, action, testid, label, confirmText, build, danger, reason, children }) {
  const [msg, setMsg] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = build ? build(new FormData(form)) : {};
    if (reason && !String(body.reason || "").trim()) {
      setMsg({ ok: false, text: reason + ": write the reason; the season's record shows it" });
      return;
    }
    if (confirmText && !window.confirm(confirmText)) return;
    setBusy(true);
    setMsg(null);
    const r = await seasonCall(view, "POST", "/host/" + action, body);
    setBusy(false);
    setMsg(r.ok ? { ok: true, text: "Done." } : { ok: false, text: r.error });
  };
  return html`<form class="se-form" onSubmit=${submit}>
    ${children}
    <p class="form-actions"><button type="submit" class=${danger ? "danger" : ""} data-testid=${testid} disabled=${busy}>${label}</button></p>
    <p class="error-text" role="alert" data-testid=${testid + "-error"}>${msg && !msg.ok ? html`<${ErrorText} message=${msg.text}/>` : ""}</p>
    <p class="ok-text" role="status" data-testid=${testid + "-ok"}>${msg && msg.ok ? msg.text : ""}</p>
  </form>`;
}

const Reason = ({ testid, optional }) => html`<label class="se-field">Reason${optional ? " (optional)" : ""}
  <input name="reason" maxlength="300" autocomplete="off" data-testid=${testid}/></label>`;

function Select({ name, label, options, testid, blank }) {
  return html`<label class="se-field">${label}
    <select name=${name} data-testid=${testid}>
      ${blank != null ? html`<option value="">${blank}</option>` : ""}
      ${options.map((o) => (Array.isArray(o) ? html`<option value=${o[0]}>${o[1]}</option>` : html`<option value=${o}>${o}</option>`))}
    </select></label>`;
}

/* SE-1: with more than six still in, the host picks who plays (none picked: SE-1's six). */
function Picker({ still, prefix }) {
  return html`<fieldset class="se-pick"><legend>Who plays (3 to 6; none picked: the six who played the fewest Main Matches, <${RuleText} text="SE-1"/>)</legend>
    ${still.map((n, i) => html`<label class="check"><input type="checkbox" name="played" value=${n} data-testid=${prefix + i}/> ${n}</label>`)}</fieldset>`;
}

function StartMain({ view, still }) {
  const many = still.length > 6;
  return html`<${ActForm} view=${view} action="start_main" testid="season-start-main" label="Start the Main Match"
    build=${(fd) => { const p = fd.getAll("played"); return many && p.length ? { players: p } : {}; }}>
    ${many ? html`<${Picker} still=${still} prefix="season-sm-player-"/>`
      : html`<p>Locked Out! with ${andList(still)} (<${RuleText} text="SE-1"/>).</p>`}
  <//>`;
}

function RecordMain({ view, players, pick }) {
  const build = (fd) => {
    const chosen = pick ? fd.getAll("played") : players;
    const result = { escaped: [], trapped: [], bars: {} };
    for (const n of chosen) {
      (fd.get("esc:" + n) ? result.escaped : result.trapped).push(n);
      result.bars[n] = Number(fd.get("bars:" + n) || 0);
    }
    if (fd.get("opal")) result.opal = fd.get("opal");
    if (fd.get("ec")) result.ec = fd.get("ec");
    const body = { result, reason: String(fd.get("reason") || "") };
    if (pick && chosen.length) body.players = chosen;
    return body;
  };
  return html`<${ActForm} view=${view} action="record_main" testid="season-record-main" reason="SE-2" label="Record the Main Match" build=${build}
    confirmText="Record this Main Match result? The season moves on from it, and it cannot be undone.">
    <p class="muted small">A Main Match played elsewhere, or this one by hand (<${RuleText} text="SE-2"/>): who escaped, with their gold bars.</p>
    <div class="se-rows">${players.map((n, i) => html`<div class="se-rec-row" key=${n}>
      ${pick ? html`<label class="check"><input type="checkbox" name="played" value=${n} data-testid=${"season-rm-played-" + i}/> played</label>` : ""}
      <span class="se-name">${n}</span>
      <label class="check"><input type="checkbox" name=${"esc:" + n} data-testid=${"season-rm-escaped-" + i}/> escaped</label>
      <label class="se-bars">gold bars <input type="number" name=${"bars:" + n} min="0" step="1" defaultValue="0"
        aria-label=${"gold bars of " + n} data-testid=${"season-rm-bars-" + i}/></label></div>`)}</div>
    <${Select} name="opal" label=${html`Opal (most safes opened, <${RuleText} text="LO-8"/>)`} options=${players} blank="nobody" testid="season-rm-opal"/>
    <${Select} name="ec" label="Elimination Candidate, if already known" options=${players} blank="the trapped vote (LO-9)" testid="season-rm-ec"/>
    <${Reason} testid="season-rm-reason"/>
  <//>`;
}

function StartDeath({ view, seats }) {
  const st = view.state;
  if (!GAMES) return html`<p class="muted">Loading the games…</p>`;
  const games = GAMES.filter((g) => st.death_games.includes(g.name));
  const names = view.match.names, bots = view.match.bots, levels = view.match.levels || [];
  const fixed = seats.map((n) => { const i = names.indexOf(n); return { name: n, bot: !!bots[i], level: levels[i] || "normal" }; });
  const onSubmit = async (body) => {
    const r = await seasonCall(view, "POST", "/host/start_death", {
      game: body.game, config: body.config, settings: body.settings,
      levels: body.seats.map((s) => s.level || "normal") });
    return r.ok ? null : r.error;
  };
  return html`<p class="muted small">${seats[0]} plays seat 1 and ${seats[1]} seat 2 (<${RuleText} text="SE-4"/>); the game and its options are yours to choose.</p>
    <${MatchForm} key=${"dm-" + st.episode} games=${games} fixedSeats=${fixed} onSubmit=${onSubmit}
      submitLabel="Start the Death Match" testidPrefix="dm-" seed=${false}
      settings=${{ time_scale: view.match.time_scale, early_close: view.match.early_close, bot_pace: view.match.bot_pace }}/>`;
}

function RecordDeath({ view, seats, ask }) {
  const st = view.state;
  return html`<${ActForm} view=${view} action="record_death" testid="season-record-death" reason="SE-4" label="Record the Death Match"
    confirmText="Record this Death Match result? Its loser leaves the season, and it cannot be undone."
    build=${(fd) => { const b = { winner: fd.get("winner"), reason: String(fd.get("reason") || "") }; if (fd.get("game")) b.game = fd.get("game"); return b; }}>
    <p class="muted small">A Death Match played elsewhere, or this one by hand (<${RuleText} text="SE-4"/>).</p>
    <${Select} name="winner" label="Winner" options=${seats} testid="season-rd-winner"/>
    ${ask ? html`<${Select} name="game" label="Game" options=${st.death_games.map((g) => [g, gameTitle(g)])} blank="another game" testid="season-rd-game"/>` : ""}
    <${Reason} testid="season-rd-reason"/>
  <//>`;
}

function HostPanels({ view }) {
  const st = view.state;
  const ep = lastEpisode(st);
  const step = st.step;
  const still = st.standings.filter((s) => s.in).map((s) => s.name);
  const seats = dmSeats(ep);
  const trapped = ep && ep.main && ep.main.result ? ep.main.result.trapped : [];
  const panels = [];
  const add = (id, title, open, body) => panels.push(html`<${Toggle} key=${id} id=${id} dflt=${open} cls="se-panel"
    testid=${"season-panel-" + id} summary=${title}>${body}<//>`);
  if (step === "main_next") add("start-main", "Start the Main Match", true, html`<${StartMain} view=${view} still=${still}/>`);
  if (step === "mm_play") {
    add("close-vault", "Close the vault now", true, html`<${ActForm} view=${view} action="close_vault" testid="season-close-vault"
      label="Close the vault now" danger=${true} confirmText="Close the vault now? The Main Match ends and is scored as it stands (SE-6, LO-8).">
      <p class="muted small">The Main Match ends now and is scored as it stands (<${RuleText} text="SE-6"/>, <${RuleText} text="LO-8"/>).</p><//>`);
  }
  if (["main_next", "mm_play", "mm_record"].includes(step)) {
    const pick = step === "main_next" && still.length > 6;
    add("record-main", "Record the Main Match by hand", step === "mm_record",
      html`<${RecordMain} view=${view} players=${step === "main_next" ? still : ep.players} pick=${pick}/>`);
  }
  if (step === "name_ec") {
    const pool = trapped.length ? trapped : ep.players;
    add("name-ec", "Name the Elimination Candidate", true, html`<${ActForm} view=${view} action="name_ec" testid="season-name-ec" reason="SE-6"
      label="Name the EC" confirmText="Name this Elimination Candidate? It cannot be undone."
      build=${(fd) => ({ ec: fd.get("ec"), reason: String(fd.get("reason") || "") })}>
      <p class="muted small">${trapped.length ? "The Main Match ended before the trapped players voted" : "Nobody was trapped"}: the host names the Elimination Candidate (<${RuleText} text="SE-6"/>).</p>
      <${Select} name="ec" label="Elimination Candidate" options=${pool} testid="season-ec-name"/>
      <${Reason} testid="season-ec-reason"/><//>`);
  }
  if (step === "dm_next") add("start-death", ep.final ? "Start the final Death Match" : "Start the Death Match", true, html`<${StartDeath} view=${view} seats=${seats}/>`);
  if (step === "dm_next" || step === "dm_play") {
    add("record-death", "Record the Death Match by hand", false, html`<${RecordDeath} view=${view} seats=${seats} ask=${step === "dm_next"}/>`);
  }
  if (step === "dm_decide") {
    add("decide", "Decide who leaves", true, html`<${ActForm} view=${view} action="decide" testid="season-decide" reason="SE-4" label="Decide"
      confirmText="Decide this Death Match? Who you name leaves the season, and it cannot be undone."
      build=${(fd) => ({ loser: fd.get("loser"), reason: String(fd.get("reason") || "") })}>
      <p class="muted small">The Death Match had no winner: the host decides who leaves, with a reason (<${RuleText} text="SE-4"/>).</p>
      <${Select} name="loser" label="Who leaves" options=${seats} testid="season-decide-loser"/>
      <${Reason} testid="season-decide-reason"/><//>`);
  }
  add("adjust", "Adjust the ledger", false, html`<${ActForm} view=${view} action="adjust" testid="season-adjust" reason="SE-5" label="Record the adjustment"
    build=${(fd) => ({ player: fd.get("player"), what: fd.get("what"), amount: Number(fd.get("amount")), reason: String(fd.get("reason") || "") })}>
    <p class="muted small">Spending or a correction, with a written reason (<${RuleText} text="SE-5"/>).</p>
    <div class="se-inline">
      <${Select} name="player" label="Player" options=${st.cast} testid="season-adj-player"/>
      <${Select} name="what" label="What" options=${[["tol", "Tokens of Life"], ["garnets", "Garnets"], ["opal", "Opals"]]} testid="season-adj-what"/>
      <label class="se-field">By <input type="number" name="amount" step="1" defaultValue="-1" data-testid="season-adj-amount"/></label>
    </div>
    <${Reason} testid="season-adj-reason"/><//>`);
  add("mm-rounds", "Main Match round limit: " + (st.mm_rounds ? fmtNum(st.mm_rounds) : "none"), false, html`<${ActForm} view=${view} action="mm_rounds"
    testid="season-mm-rounds" label="Set the limit" build=${(fd) => ({ max_rounds: Number(fd.get("max_rounds")) })}>
    <label class="se-field">Rounds of the Main Matches still to start (0: none, <${RuleText} text="SE-6"/>)
      <input type="number" name="max_rounds" min="0" max="400" step="1" defaultValue=${String(st.mm_rounds)} data-testid="season-mm-rounds-input"/></label><//>`);
  add("end", "End the season", false, html`<${ActForm} view=${view} action="end" testid="season-end" label="End the season" danger=${true}
    confirmText="End the season now? Nobody wins it, the match being played ends too, and it cannot be undone."
    build=${(fd) => (fd.get("reason") ? { reason: String(fd.get("reason")) } : {})}>
    <p class="muted small">The season ends with the standings as they are (<${RuleText} text="SE-1"/>).</p>
    <${Reason} testid="season-end-reason" optional=${true}/><//>`);
  return html`<section class="se-host" data-testid="season-host" aria-labelledby="se-host-title">
    <h2 id="se-host-title">Host</h2>${panels}</section>`;
}

/* ------------------------------------------------------------------ the board */
function Board({ view, api }) {
  const st = view.state;
  const [, setTick] = useState(0);
  const redraw = () => setTick((n) => n + 1);
  useEffect(() => loadGames(redraw), []);
  const key = [view.match.id, st.episode, st.step, view.phase ? view.phase.no : "-", view.result ? "end" : ""].join("/");
  useEffect(() => {
    if (api.replay || LINKS.key === key) return;
    LINKS.key = key;
    LINKS.tries = 0;
    clearTimeout(LINKS.timer);
    fetchLinks(view, key, redraw);
  }, [key, api.replay]);
  if (!st || !st.standings) return html`<p class="muted">Loading the season…</p>`;
  const links = LINKS.data;
  const hosting = view.role === "host" && !view.result && !api.replay && st.step !== "over";
  return html`<div class="se" data-testid="season-board">
    <${StepCard} view=${view} api=${api} links=${links}/>
    ${hosting ? html`<${HostPanels} view=${view}/>` : ""}
    <${Standings} view=${view}/>
    <${Episodes} view=${view} links=${links}/>
    <${Ledger} view=${view}/>
  </div>`;
}

/* ------------------------------------------------------------------ the header and the log */
function phaseTitle(view) {
  const st = view.state;
  return st && st.step ? stepTitle(st) : null;
}

function sentWord(view) { return SENT[(view.state || {}).step] || null; }

/* What the shell's turn line says while the reader's own match is on (the season's step has
   nobody to act in it, which the shell would call "nothing to do"). */
function turnWords(view) {
  const what = view.state && readerIsSeat(view, view.you) && playsLive(view.state);
  return what ? "Your " + what + " is on: play your seat from the button below." : null;
}

/* One season entry in words, as Preact nodes (names in bold); undefined leaves the shared
   events (the clock, the host's notes) to the shell's words. */
const B = (s) => html`<b>${s}</b>`;
function describe(e) {
  const d = e.data || {};
  const names = (xs) => andList(xs || []);
  const ep = d.episode != null ? "Episode " + d.episode + ": " : "";
  switch (e.kind) {
    case "main_started": return ep + "the Main Match starts with " + names(d.players) + ".";
    case "main_result": {
      const escaped = (d.escaped || []).length ? withBars(d.escaped, d.bars || {}) : "nobody";
      return ep + "the Main Match (" + d.how + ") is over. Escaped: " + escaped + "; trapped: " + names(d.trapped) +
        ((d.winners || []).length ? "; won by " + names(d.winners) : "") + (d.opal ? "; the opal went to " + d.opal : "") + ".";
    }
    case "vote_counted": return ep + "the trapped voted (LO-9): " + ballotWords(d.ballots || {}) + ". Count: " + countWords(d.counts || {}) + "." +
      ((d.tied || []).length ? " Tied: " + names(d.tied) + "." : "");
    case "tie_counted": return ep + "the escaped broke the tie (LO-9): " + ballotWords(d.ballots || {}) + ".";
    case "ec_chosen": return html`${ep}${B(d.ec)} is the Elimination Candidate — <${RuleText} text=${String(d.how || "")}/>.`;
    case "gift_given": return d.to ? html`${ep}the Token of Life goes to ${B(d.to)} — <${RuleText} text=${String(d.how || "")}/>.`
      : ep + (d.how || "") + ".";
    case "nominated": return html`${ep}${d.ec}'s Death Match Opponent is ${B(d.dmo)} — <${RuleText} text=${String(d.how || "")}/>.`;
    case "death_started": return ep + "the " + (d.final ? "final " : "") + "Death Match starts: " + gameTitle(d.game) + ", " +
      (d.seats || [])[0] + " (seat 1) against " + (d.seats || [])[1] + " (seat 2).";
    case "death_result": return html`${ep}${B(d.winner)} won the Death Match (${gameTitle(d.game)}) against ${d.loser}${d.how && d.how !== "played here" ? html`: <${RuleText} text=${String(d.how)}/>` : ""}.`;
    case "death_undecided": return ep + "the Death Match had no winner (" + d.why + "); the host decides who leaves (SE-4).";
    case "eliminated": return html`${ep}${B(d.player + " is eliminated")}.`;
    case "season_won": return html`${B(d.winner + " wins the season")}.`;
    case "adjusted": return ep + "the host adjusted " + d.player + "'s " + ({ tol: "Tokens of Life", garnets: "garnets", opal: "opals" }[d.what] || d.what) +
      " by " + (d.amount > 0 ? "+" : "") + fmtNum(d.amount) + ": " + d.reason + " (SE-5).";
    case "mm_rounds": return d.max_rounds ? "The Main Matches still to start have a limit of " + plural(d.max_rounds, "round") + " (SE-6)."
      : "The Main Matches still to start have no round limit (SE-6).";
    case "act": return false; // the host's own entry: the season's events above say what it did
    default: return undefined;
  }
}

registerGame("season", {
  Board, describe, phaseTitle, sentWord, turnWords,
  // The clock actions go to the season's route, which applies them to the match being played;
  // the season ends from its own panel (with a reason), not the shell's "End match".
  hostRoute: { root: "/api/seasons/", actions: ["pause", "resume", "extend", "deadline"], noEnd: true },
});
