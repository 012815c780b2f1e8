/* The match shell (docs/CONTRACT.md): a sticky header with the phase in words and the
   clock, the game's board as the main area, the notation drawer for players who type, the
   seats, private panel, log and replay beside the board (below it on a phone), the result, and
   the host's controls. Everything is one Preact tree re-rendered from one state object, so an
   update never rebuilds a control under the player.

   A game's module registers its board with ui.js: ``registerGame(name, {Board, describe})``. */
import {
  html, render, useState, useEffect, useRef, useLayoutEffect, games, registerGame, onRegister,
  fmtNum, fmtClock, capital, RuleText, markup, ErrorText, splitRule,
  setGameForLinks, seesAll, readerIsSeat,
} from "/static/ui.js";
import { applyPatch } from "/static/patch.js";
import { logLine, moveWords, phaseName, wordsContext } from "/static/words.js";
import { createPlayback } from "/static/playback.js";
import { ReviewPanel } from "/static/review.js";

const S = {
  boot: null, token: "", view: null, events: [], seen: new Set(), version: 0, offset: 0,
  ws: null, retry: 0, replay: null, replayIndex: null, conn: "connecting", linkError: null,
  reconnectAt: null, msg: null, lastSent: null, hostError: "", now: Date.now() / 1000,
  prefs: loadPrefs(), lastPhaseAlert: null, outage: false,
  // G-2: a send that could not reach the server waits here and goes, with
  // the phase it was made for, once the connection is back; ``lost`` holds the phases whose
  // last send was refused as late (or never left), so a board keeps that draft; ``applied``
  // the phases where a send of this page was taken; ``stale`` the words of the last refusal.
  unsent: null, lost: new Set(), applied: new Set(), stale: null,
  // Every refusal of a send, kept until the player dismisses it: a late one (G-2) arrives
  // after its phase has gone, when the message under the control is no longer shown.
  refusals: [], refusalSeq: 0,
};

// Older game scripts call window.Arena.registerGame(name, {render, describe}).
window.Arena = {
  registerGame, state: S, games, renders: 0,
  /* A plain button for an older game's controls (tests find it by data-testid). */
  button(label, testid, fn, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.testid = testid;
    if (cls) b.className = cls;
    b.addEventListener("click", fn);
    return b;
  },
};

let root = null;
let scheduled = false;
function update() {
  if (scheduled) return;
  scheduled = true;
  // ``renders`` lets a test await a number of redraws (clock ticks) instead of sleeping.
  queueMicrotask(() => { scheduled = false; if (root) render(html`<${App}/>`, root); updateTitle(); window.Arena.renders += 1; });
}
onRegister(() => update());

function loadPrefs() {
  try { return Object.assign({ sound: false, notify: false }, JSON.parse(localStorage.getItem("arena.prefs") || "{}")); }
  catch (e) { return { sound: false, notify: false }; }
}
function savePrefs() { try { localStorage.setItem("arena.prefs", JSON.stringify(S.prefs)); } catch (e) { /* private mode */ } }

/* ------------------------------------------------------------------ helpers */
function names() { return (S.view && S.view.match && S.view.match.names) || []; }
function seatName(seat) { return names()[seat] || "Seat " + (Number(seat) + 1); }
function phaseNo() { return S.view && S.view.phase ? S.view.phase.no : undefined; }
function gameImpl() { return games[S.boot.game]; }
function now() { return Date.now() / 1000 + S.offset; }

function phaseLeft(v) {
  if (!v || !v.phase || v.phase.next_deadline == null) return null;
  return v.phase.next_deadline - now();
}

/* "Round 2 · Pick", from the game when it knows better. */
function phaseWords(v) {
  if (!v) return "Connecting…";
  if (v.result) return winnerWords(v);
  if (!v.phase) return "Starting…";
  const impl = gameImpl();
  if (impl && impl.phaseTitle) {
    try { const t = impl.phaseTitle(v); if (t) return t + (v.paused ? " (paused)" : ""); } catch (e) { console.error(e); }
  }
  const st = v.state || {};
  const round = typeof st.round === "number" ? "Round " + st.round + " · " : "";
  return round + capital(v.phase.name) + (v.paused ? " (paused)" : "");
}

/* "Alice wins", "You win", "Draw": the result in a few words, for the header and the result
   card (the sticky header said only "Match over · Final"). */
function winnerWords(v) {
  const r = v.result;
  const impl = gameImpl();
  if (impl && typeof impl.resultTitle === "function") {
    try { const t = impl.resultTitle(v, wordsContext(v)); if (t) return t; } catch (e) { console.error(e); }
  }
  // A match the host ended without a winner was no draw: nobody played it to its end.
  if (r.winner == null && endedByHost()) return "Ended by the host";
  if (r.winner == null) return r.double_loss ? "Both seats lose" : v.seats.length === 2 ? "Draw" : "No single winner";
  return readerIsSeat(v, r.winner) ? "You win" : seatName(r.winner) + " wins";
}

/* Whether the host ended the match (its ``end`` entry is in every reader's log). */
function endedByHost() { return S.events.some((e) => e.kind === "end"); }

/* Whether the clock can be trusted: not while the socket is silent or away,
   when the page cannot know whether the phase has moved on. */
function clockKnown() { return S.conn !== "reconnecting"; }

/* Whether this page's seat is still expected to act in the phase. */
function yourMove(v) {
  if (!v || v.role !== "seat" || v.result || !v.phase || v.paused) return false;
  const me = v.seats[v.you];
  return (v.phase.waiting_for || []).includes(v.you) && !(me && (me.final || me.acted));
}

function updateTitle() {
  const v = S.view;
  const title = S.boot ? S.boot.title : "Arena";
  if (S.linkError) { document.title = title + " · link not valid"; return; }
  if (!v) { document.title = title + " · Arena"; return; }
  let state;
  if (v.result) state = "match over";
  else if (v.paused) state = "paused";
  else if (yourMove(v)) state = "your " + (v.phase ? v.phase.name : "move");
  else if (v.phase) state = v.phase.name;
  else state = "";
  const left = phaseLeft(v);
  const clock = !v.result && !v.paused && left != null ? " · " + (clockKnown() ? fmtClock(left) : "reconnecting") : "";
  document.title = title + (state ? " · " + state : "") + clock;
}

/* ------------------------------------------------------------------ server calls */
async function call(method, path, body, root, timeoutMs) {
  const sep = path.includes("?") ? "&" : "?";
  const url = (root || "/api/matches/") + S.boot.id + path + sep + "token=" + encodeURIComponent(S.token);
  const opts = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  // A bounded wait where the caller needs an answer soon (the reconnect's check): on a network
  // gone silent a request can hang for minutes.
  const ctl = timeoutMs && typeof AbortController === "function" ? new AbortController() : null;
  const timer = ctl ? setTimeout(() => ctl.abort(), timeoutMs) : null;
  if (ctl) opts.signal = ctl.signal;
  try {
    const res = await fetch(url, opts);
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    // A 503 "store:" answer means the database is away and commands are
    // refused; a command that goes through means it is back.
    const storeDown = res.status === 503 && data && String(data.error || "").startsWith("store:");
    if (storeDown) setOutage(true);
    else if (res.ok && method === "POST") setOutage(false);
    if (res.ok) return Object.assign({ ok: true, status: res.status }, data || {});
    // A refusal keeps the server's fields (a late one names its phase, G-2).
    return Object.assign({}, data || {}, { ok: false, status: res.status, error: (data && data.error) || "the server answered " + res.status });
  } catch (e) {
    return { ok: false, status: 0, error: "the server could not be reached; check your connection and try again" };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function setOutage(down) {
  if (S.outage === down) return;
  S.outage = down;
  update();
}

/* A message belongs to the control that caused it and to the phase it was made in; it goes
   away on the next action or when the phase changes. */
function setMsg(source, ok, text, phase) {
  // Stamped with the phase the action was made in: if the phase moved on meanwhile (an
  // instant bot), the message is already stale and is not shown.
  S.msg = { source, ok, text, phase: phase === undefined ? phaseNo() : phase };
  update();
}

/* "Round 1", "The study": a phase as the game says it (words.js), never the engine's number. */
function phaseLabel(no, title) {
  return title ? phaseName(title, S.view, gameImpl()) : "The phase";
}

/* What the player sent, in the game's word ("plan", "vote"; a game's ``sentWord``). */
function sentWord(kind) {
  if (kind === "confirm") return "confirmation";
  const impl = gameImpl();
  try { const w = impl && impl.sentWord && S.view ? impl.sentWord(S.view) : null; if (w) return w; } catch (e) { console.error(e); }
  return "submission";
}

/* A send remembers the phase it was made for, in number and words, and what it is called. */
function sendOf(kind, source) {
  const p = S.view && S.view.phase;
  return { kind, phase: p ? p.no : undefined, title: p ? p.name : "", word: sentWord(kind), source: source || "board" };
}

async function submit(text, final, source) {
  return deliver(Object.assign(sendOf("submit", source), { text: String(text), final: !!final }));
}

async function confirmFinal(source) {
  return deliver(sendOf("confirm", source));
}

/* Send one submission or confirmation, always naming the phase it was made for (G-2): the
   server refuses it (409) if that phase closed before it arrived, instead of applying it to
   the next phase. A refusal is said plainly and stays in view in the new phase; the draft is
   kept (``api.keepDraft``); "Submitted" is never shown for it. A send that cannot reach the
   server waits and goes once the connection is back. */
function deliver(item) {
  // A double click sends once: the same send made again is that send and
  // gets its answer, while it is on its way or, once it stood as final, for the rest of its
  // phase (a fast server answers between the two clicks). A second copy was refused as
  // already final, with a 422 only the console saw.
  const last = S.lastSend;
  if (last && last.kind === item.kind && last.phase === item.phase && last.text === item.text &&
      last.final === item.final && (!last.settled || (last.stood && last.phase === phaseNo()))) {
    return last.promise;
  }
  S.lastSend = item;
  item.settled = item.stood = false; // a held send is delivered again as the same item
  item.promise = deliverNow(item).then((r) => {
    item.stood = r.ok && (item.kind === "confirm" || item.final);
    return r;
  }).finally(() => { item.settled = true; if (S.lastSend === item) update(); });
  return item.promise;
}

/* A refusal kept in view (the Refusals list) with the rule that made it, whatever the phase. */
function keepRefusal(text, item, rule) {
  const words = String(text || "");
  const own = /^[A-Z]{1,4}-\d{1,3}:/.test(words);
  S.refusals.push({ id: ++S.refusalSeq, text: !own && rule ? rule + ": " + words : words, word: item.word,
    phase: item.phase, title: item.title });
  if (S.refusals.length > 8) S.refusals.shift(); // the oldest go; a list is not a log
}

function dismissRefusal(id) {
  const i = S.refusals.findIndex((r) => r.id === id);
  if (i >= 0) S.refusals.splice(i, 1);
  update();
  // The focus, on the dismissed button, goes to the next one or back to the board.
  queueMicrotask(() => {
    const next = document.querySelector("[data-testid=refusal-dismiss]") || document.getElementById("board");
    if (next) next.focus({ preventScroll: true });
  });
}

async function deliverNow(item) {
  const { kind, phase } = item;
  item.seq = S.sent = (S.sent || 0) + 1;
  // An answer speaks only if no later send has spoken: with a double click the two answers
  // can come back in either order, and the older one must not hide the newer one's words.
  const say = (ok, text, stamp) => {
    if (item.seq < (S.said || 0)) return;
    S.said = item.seq;
    setMsg(item.source, ok, text, stamp);
  };
  S.msg = null;
  if (S.stale && S.stale.phase === phaseNo()) S.stale = null;
  if (kind === "submit") S.lastSent = { text: item.text, phase };
  if (S.unsent && S.unsent !== item) S.unsent = null; // a newer send replaces a waiting one
  update();
  const body = kind === "submit" ? { text: item.text, final: item.final, phase } : { phase };
  const r = await call("POST", "/" + kind, body);
  if (S.unsent === item) S.unsent = null;
  if (r.ok) {
    S.lost.clear(); // a send reached the match: older drafts are history
    S.applied.add(phase);
    if (kind === "confirm") say(true, "Confirmed as final.", phase);
    else {
      const open = !!(S.view && S.view.phase);
      say(true, r.final ? "Sent as final: " + item.text : "Sent: " + item.text + (open ? " (you can change it until the phase ends)" : ""), phase);
    }
    return kind === "submit" ? { ok: true, final: r.final, value: r.value } : { ok: true };
  }
  if (r.status === 0) {
    // Offline: nothing reached the match. Held, and sent as made (for its own phase) later.
    S.unsent = item;
    S.lost.add(phase);
    const label = phase != null ? phaseLabel(phase, item.title) : "the phase";
    say(false, "Not sent: the server could not be reached. Your " + item.word + " will be sent when the connection is back, if " + label.charAt(0).toLowerCase() + label.slice(1) + " is still open.", phase);
    return { ok: false, error: r.error, offline: true };
  }
  if (r.stale) {
    // G-2: made for a phase that closed before it arrived; the server applied nothing.
    S.lost.add(phase);
    const again = S.applied.has(phase);
    const word = item.word;
    const words = "G-2: " + phaseLabel(r.phase, r.phase_title) + " closed before your " + word + " was sent" +
      (again ? " again; nothing more was sent, and what you sent before it stands." : "; nothing was sent.");
    const now = r.current_phase == null ? phaseNo() : r.current_phase;
    S.stale = { text: words, phase: now }; // in the turn line whatever the order of answers
    keepRefusal(words, item, r.rule);
    say(false, words, now);
    refreshView();
    return { ok: false, error: words, stale: true };
  }
  keepRefusal(r.error, item, r.rule);
  say(false, r.error); // any other refusal is news in the phase it is read in
  return { ok: false, error: r.error };
}

/* Send the waiting submission, once the connection is back (G-2: for its own phase). */
function flushUnsent() {
  if (S.unsent) deliver(S.unsent); // once while it is on its way (deliver)
}

/* The view now, without waiting for the socket (a refusal said the match moved on). */
async function refreshView() {
  const r = await call("GET", "/view");
  if (!r.ok || (S.view && S.view.phase && r.phase && r.phase.no < S.view.phase.no)) return;
  if (S.view && S.view.result && !r.result) return; // an answer older than the end
  delete r.ok;
  delete r.status;
  const old = phaseNo();
  S.view = r;
  S.offset = r.now - Date.now() / 1000;
  if (phaseNo() !== old) phaseMoved();
  update();
}

/* The phase moved on: the messages and the last sent text of older phases go. */
function phaseMoved() {
  if (S.msg && S.msg.phase !== phaseNo()) S.msg = null;
  if (S.lastSent && S.lastSent.phase !== phaseNo()) S.lastSent = null;
}

function makeApi(view, readOnly) {
  const refuse = () => Promise.resolve({ ok: false, error: "the replay viewer cannot submit" });
  return {
    seat: S.view ? S.view.you : null,
    role: S.view ? S.view.role : null,
    replay: !!readOnly,
    view,
    events: S.events,
    names: names(),
    submit: readOnly ? refuse : (text, final, source) => submit(text, final, source),
    confirm: readOnly ? refuse : (source) => confirmFinal(source),
    setNotation(text) { S.notationDraft = text; update(); },
    /* Whether a draft made in ``phase`` never reached the match (refused as late, G-2, or
       still waiting for the connection): the board keeps it for the next phase. */
    keepDraft: (phase) => phase != null && S.lost.has(phase),
    /* A seat's private notes, kept by the server so they follow the player. */
    loadNotes: () => call("GET", "/notes"),
    saveNotes: (notes) => call("POST", "/notes", { notes }),
    showError(msg) { setMsg("board", false, msg); },
    seatName,
    fmtNum,
  };
}

/* ------------------------------------------------------------------ components */
/* The message of ``source`` if it is still current. */
export function Msg({ source, testid, okTestid }) {
  const m = S.msg;
  const current = m && m.source === source && m.phase === phaseNo();
  return html`
    <div class="msg-slot">
      <p class="error-text" data-testid=${testid || "error"} role="alert">${current && !m.ok ? html`<${ErrorText} message=${m.text} game=${S.boot.game}/>` : ""}</p>
      <p class="ok-text" data-testid=${okTestid || "status"} role="status">${current && m.ok ? m.text : ""}</p>
    </div>`;
}
window.Arena.Msg = Msg;

function Clock() {
  const v = S.view;
  let text = "--:--", state = "idle", low = false, note = "";
  // Playing back: the clock as it stood at the moment the playback has reached.
  const back = S.replay ? playback.clock() : null;
  if (back) { text = back.text; state = back.state; note = back.note; low = back.left != null && back.left < 10; }
  else if (v && v.result) { text = "Final"; state = "finished"; }
  else if (v && v.paused) { text = "Paused"; state = "paused"; }
  else if (v && v.phase && !clockKnown()) { text = "—"; state = "unknown"; note = "clock unknown while reconnecting"; }
  else if (v && v.phase) {
    const left = phaseLeft(v);
    if (left != null) {
      text = fmtClock(left); state = "running"; low = left < 10;
      note = v.phase.base_passed ? "reserve time" : v.phase.reserve ? "then reserve" : "left in phase";
    } else { text = "—"; state = "untimed"; note = "no time limit"; }  /* a phase that waits on the host or another match */
  }
  return html`
    <div class="clock" data-testid="clock" aria-label="clock">
      <div class="clock-main">
        <span class=${"countdown" + (low ? " low" : "")} data-testid="countdown" data-state=${state}
          data-deadline=${v && v.phase && v.phase.next_deadline != null ? String(v.phase.next_deadline) : ""}>${text}</span>
        <span class="clock-note muted small" data-testid="clock-note">${note}</span>
      </div>
    </div>`;
}

/* Every seat's clock in the header, one cell a seat (compact enough for six seats on a
   phone): the time the seat has left in the phase (its reserve's, once in it), or that it has
   sent, and its reserve periods. On a phone the chip row was 673 px wide in a 366 px box and
   the opponent's clock ("Bob: 16 re…") was cut. */
function seatClock(v, s) {
  const waiting = (v.phase && v.phase.waiting_for) || [];
  const asked = v.phase && [v.phase.must, v.phase.may, waiting].some((l) => (l || []).includes(s.seat));
  if (s.in_reserve_until) {
    return { time: clockKnown() ? fmtClock(s.in_reserve_until - now()) : "—", state: "reserve", words: "in reserve" };
  }
  if (s.final) return { time: "final", state: "done", words: "final answer sent" };
  if (s.acted) return { time: "sent", state: "done", words: "answer sent" };
  // A seat the phase asks: the phase's time is its time (whether it has sent is not said to
  // the others while the phase is sealed, G-10).
  if (!asked || (v.phase.base_passed && !waiting.includes(s.seat))) return { time: "—", state: "idle", words: "nothing asked now" };
  if (v.paused) return { time: "paused", state: "paused", words: "paused" };
  const left = phaseLeft(v);
  if (left == null) return { time: "—", state: "untimed", words: "no time limit" };
  if (!clockKnown()) return { time: "—", state: "unknown", words: "clock unknown while reconnecting" };
  return { time: fmtClock(left), short: shortClock(left), state: "running", words: fmtClock(left) + " left" };
}

/* A clock in at most four characters, for six cells on a phone: "23 h", "42 m", "9:42". */
function shortClock(sec) {
  if (!(sec > 0)) sec = 0;
  if (sec >= 3600) return Math.floor(sec / 3600) + " h";
  if (sec >= 600) return Math.floor(sec / 60) + " m";
  return fmtClock(sec);
}

function SeatClocks() {
  const v = S.view;
  if (!v || !v.seats || !v.seats.length || v.result || !v.phase) return null;
  const reserve = !!(v.phase.reserve || v.seats.some((s) => s.reserve_left > 0));
  const few = v.seats.length <= 3;
  return html`<ul class=${"seat-clocks" + (few ? "" : " many")} data-testid="seat-clocks" aria-label="each seat's clock">
    ${v.seats.map((s) => {
      const mine = readerIsSeat(v, s.seat);
      const c = seatClock(v, s);
      const name = mine ? "You" : seatName(s.seat);
      const res = reserve ? s.reserve_left + (s.reserve_left === 1 ? " reserve period left" : " reserve periods left") : "";
      const full = name + ": " + c.words + (res ? ", " + res : "");
      // Six cells on a phone: the seat's number (as in the Seats panel) and a short clock; the
      // whole is in the box's title and read out to a screen reader.
      return html`<li class=${mine ? "mine" : ""} data-testid=${"seat-clock-" + s.seat} data-state=${c.state} title=${full}>
        ${few ? "" : html`<span class="sc-no" aria-hidden="true">${s.seat + 1}</span>`}
        <span class="sc-name" aria-hidden="true">${name}</span>
        <span class="sc-time" aria-hidden="true">${c.time}</span>
        ${few ? "" : html`<span class="sc-time sc-short" aria-hidden="true">${c.short || c.time}</span>`}
        ${reserve && few ? html`<span class="sc-res" aria-hidden="true">${s.reserve_left} reserve</span>` : ""}
        <span class="sr-only">${full}</span></li>`;
    })}</ul>`;
}

function Prefs() {
  const toggle = async (key) => {
    if (key === "notify" && !S.prefs.notify && "Notification" in window && Notification.permission !== "granted") {
      try { await Notification.requestPermission(); } catch (e) { /* refused */ }
    }
    S.prefs[key] = !S.prefs[key];
    savePrefs();
    update();
  };
  // In a menu: beside every seat's clock the two buttons pushed the clocks off a phone.
  return html`<details class="head-menu" data-testid="header-menu">
    <summary aria-label="Sound and alerts">Alerts</summary>
    <div class="prefs">
    <button type="button" class="ghost small" data-testid="sound-toggle" aria-pressed=${S.prefs.sound ? "true" : "false"}
      title="Play a sound when a phase starts that needs you" onClick=${() => toggle("sound")}>${S.prefs.sound ? "Sound on" : "Sound off"}</button>
    <button type="button" class="ghost small" data-testid="notify-toggle" aria-pressed=${S.prefs.notify ? "true" : "false"}
      title="Show a browser notification when a phase starts that needs you" onClick=${() => toggle("notify")}>${S.prefs.notify ? "Alerts on" : "Alerts off"}</button>
    </div></details>`;
}

const CONN_WORDS = { live: "Live", connecting: "Connecting…", reconnecting: "Reconnecting", closed: "Closed", delayed: "Delayed" };

/* "5 min behind": how far a broadcast runs behind the match (G-15), in match time. */
function behindWords(v) {
  const d = v && v.broadcast ? Number(v.broadcast.delay) : 0;
  if (!d) return "behind the match";
  return (d % 60 === 0 ? d / 60 + " min" : fmtNum(d) + " s") + " behind";
}

function Header() {
  const v = S.view;
  const role = !v ? "…" : v.role === "seat" ? "Seat " + (v.you + 1) + " · " + seatName(v.you) : v.role === "host" ? "Host"
    : v.role === "broadcast" ? "Broadcast" : "Spectator";
  // A broadcast's connection is its delay (G-15): "1 min behind" in the chip, where a phone
  // keeps it in view (the badge is cut at 11em there).
  const conn = v && v.role === "broadcast" && S.conn === "delayed" ? capital(behindWords(v))
    : CONN_WORDS[S.conn] || capital(S.conn);
  // A game with a board says on the board what to do; its notation prompt stays in the drawer.
  const impl = gameImpl();
  const prompt = v && v.phase && !v.result && !(impl && impl.Board) ? v.phase.prompt : "";
  const words = phaseWords(v);
  // Opaque, one line of title cut with an ellipsis (its full text in the tab title and the
  // tooltip), chips on a line of their own: at most 120 px on a phone.
  // The connection state comes right after the role: on a phone the row scrolls sideways
  // and, after two reserve chips, "Live" (or "Reconnecting") was off the screen.
  return html`
    <header class="match-head" data-testid="match-head" data-finished=${v && v.result ? "true" : "false"}>
      <div class="mh-title">
        <p class="eyebrow"><a href="/games/${S.boot.game}" data-testid="game-title">${S.boot.title}</a>${v && v.match && v.match.parent
          ? html` · <a href=${"/s/" + encodeURIComponent(v.match.parent.id)} data-testid="back-to-season">Back to the season</a>` : ""}</p>
        <h1 data-testid="phase-name" title=${words}>${words}</h1>
        ${prompt ? html`<p class="prompt" data-testid="phase-prompt"><${RuleText} text=${prompt}/></p>` : ""}
      </div>
      <${Clock}/>
      <div class="who">
        <span class="badge" data-testid="role">${role}</span>
        <span class="conn" data-testid="conn" data-state=${S.conn} title="connection to the server">
          <span data-testid="conn-state">${conn}</span></span>
        ${v && v.role === "broadcast" ? "" : html`<${Prefs}/>`}
      </div>
      <${SeatClocks}/>
    </header>`;
}

function TurnBanner() {
  const v = S.view;
  if (!v || v.role !== "seat" || v.result || !v.phase) return null;
  const me = v.seats[v.you] || {};
  if (S.stale && S.stale.phase === v.phase.no && !me.acted) {
    const next = yourMove(v) ? " " + capital(phaseWords(v)) + ": your move." : "";
    return html`<p class="turn stale" data-testid="own-status"><${ErrorText} message=${S.stale.text} game=${S.boot.game}/>${next}</p>`;
  }
  if (me.final) return html`<p class="turn done" data-testid="own-status">Your submission is final. Waiting for the phase to end.</p>`;
  if (me.acted) return html`<p class="turn done" data-testid="own-status">Submitted — you can change it until the phase ends.</p>`;
  const impl = gameImpl();
  const words = impl && impl.Board ? phaseWords(v) : v.phase.prompt;
  if (yourMove(v)) return html`<p class="turn yours" data-testid="own-status">Your move${words ? html`: <${RuleText} text=${words}/>` : ""}</p>`;
  // A phase may wait on a match this seat plays elsewhere (a season's): the game says so.
  const elsewhere = impl && impl.turnWords ? impl.turnWords(v) : null;
  if (elsewhere) return html`<p class="turn yours" data-testid="own-status"><${RuleText} text=${elsewhere}/></p>`;
  return html`<p class="turn" data-testid="own-status">Nothing to do in this phase; waiting for the others.</p>`;
}

function LinkError() {
  return html`<main class="narrow"><section class="card link-error" data-testid="link-error" role="alert">
    <h1>This link does not open a match</h1>
    <p><${ErrorText} message=${S.linkError}/></p>
    <p class="muted">Ask the host for a fresh link, or start a match of your own.</p>
    <p><a class="button" href="/" data-testid="to-lobby">Go to the lobby</a></p>
  </section></main>`;
}

/* While the server cannot save the match (its database is away), nothing sent is applied:
   say so above the board until the server says saving works again (a socket "store"
   message) or a command goes through. */
function OutageBanner() {
  if (!S.outage) return null;
  return html`<div class="banner warn" data-testid="outage-banner" role="status">
    The server cannot save the match just now, so moves and messages are not accepted; nothing
    you sent was applied. The match is still shown; this note goes away when saving works again.
  </div>`;
}

/* What was refused and why, until the player dismisses it: fixed at the foot of the screen, so
   a refusal that arrives late (a send held offline, G-2) is seen wherever the page is. */
function Refusals() {
  if (!S.refusals.length) return null;
  return html`<section class="refusals" data-testid="refusals" aria-labelledby="refusals-title">
    <h2 id="refusals-title" class="refusals-title">Not accepted</h2>
    <ul>${S.refusals.map((r) => html`<li key=${r.id} data-testid="refusal">
      <span class="refusal-text" role="alert"><${ErrorText} message=${r.text} game=${S.boot.game}/></span>
      <button type="button" class="ghost small" data-testid="refusal-dismiss"
        aria-label=${"Dismiss: " + splitRule(r.text).text} onClick=${() => dismissRefusal(r.id)}>Dismiss</button>
    </li>`)}</ul>
  </section>`;
}

function Reconnecting() {
  if (S.conn !== "reconnecting") return null;
  const wait = S.reconnectAt ? Math.max(0, Math.ceil(S.reconnectAt - Date.now() / 1000)) : 0;
  return html`<div class="banner warn" data-testid="reconnecting" role="status">
    ${S.reconnectReason ? "The server closed the connection: " + S.reconnectReason + ". " : "Connection lost. "}Reconnecting${wait ? " in " + wait + " s" : "…"}; nothing you sent is lost.
    <button type="button" class="secondary small" data-testid="reconnect-now" onClick=${() => { clearTimeout(S.retryTimer); connect(); }}>Retry now</button>
  </div>`;
}

/* G-5: the server paused a match whose deadlines came too fast; everyone sees why,
   the host can resume or end it. */
function ServerPaused() {
  const v = S.view;
  if (!v || !v.paused || !v.pause_reason || v.result) return null;
  return html`<div class="banner warn" data-testid="server-paused" role="alert">
    <${RuleText} text=${"Paused by the server: " + v.pause_reason + "."}/></div>`;
}

/* Older game scripts draw into a node of their own; they are redrawn only when the match has
   moved (a new version, phase or replay step), never on a clock tick. */
function LegacyBoard({ impl, view, api }) {
  const ref = useRef(null);
  const key = JSON.stringify([view.version, view.phase && view.phase.no, api.replay, view.paused, S.replayIndex]);
  useLayoutEffect(() => {
    try { impl.render(ref.current, view, api); } catch (e) { console.error(e); }
  }, [key]);
  return html`<div ref=${ref} class="legacy-board"></div>`;
}

function FallbackBoard({ view }) {
  return view.svg ? html`<div class="svg-board">${markup(view.svg, { svg: true })}</div>`
    : html`<p class="muted">This game has no board drawing; play it with the notation box below.</p>`;
}

function GameBoard() {
  const view = S.replay || S.view;
  if (!view) return html`<p class="muted" data-testid="board-loading">${S.bcast && S.bcast.waiting
    ? "The broadcast runs " + S.bcast.waiting.replace(/^.*?one delay/, "one delay") + ": nothing to show yet. This page fills in by itself."
    : "Loading the match…"}</p>`;
  const impl = gameImpl();
  if (view.role === "broadcast" && !S.replay && impl && impl.Board) return html`<${BroadcastBoards} view=${view} impl=${impl}/>`;
  const api = makeApi(view, !!S.replay || view.role === "broadcast");
  let board;
  if (impl && impl.Board) board = html`<${impl.Board} view=${view} api=${api}/>`;
  else if (impl && impl.render) board = html`<${LegacyBoard} impl=${impl} view=${view} api=${api}/>`;
  else board = html`<${FallbackBoard} view=${view}/>`;
  return html`<div class="game-root" data-testid="game-root" aria-busy=${S.lastSend && !S.lastSend.settled ? "true" : "false"}>${board}</div>
    ${impl && impl.render && !impl.Board ? html`<${Msg} source="board" testid="board-error" okTestid="board-status"/>` : ""}`;
}

/* G-15: the audience picks what to follow: the host's table (everything on one board), every
   seat's own board side by side, or one seat's. A seat's board is drawn from that seat's view
   of the same moment, read-only, on the same components the seat itself plays on; that view's
   ``broadcast`` field makes their words name the seat instead of "you" (ui.js person). */
function BroadcastBoards({ view, impl }) {
  const B = S.bcast;
  const seats = view.seats.map((s) => s.seat);
  const picks = [["table", "Host's table"], ["side", "Side by side"], ...seats.map((i) => [String(i), seatName(i)])];
  const board = (v) => {
    const api = Object.assign(makeApi(v, true), { seat: v.you, role: v.role });
    return html`<${impl.Board} view=${v} api=${api}/>`;
  };
  const seatBoard = (i) => {
    const v = B.seatViews[i];
    return html`<section class="bcast-seat" data-testid=${"broadcast-board-" + i} aria-label=${seatName(i) + "'s board"}>
      <h2 class="bcast-seat-name">${seatName(i)}</h2>
      ${v ? board(v) : html`<p class="muted">Loading ${seatName(i)}'s board…</p>`}</section>`;
  };
  let body;
  if (B.mode === "table") body = board(view);
  else if (B.mode === "side") body = html`<div class="bcast-side" data-testid="broadcast-side">${seats.map(seatBoard)}</div>`;
  else body = seatBoard(Number(B.mode));
  return html`<div class="game-root" data-testid="game-root">
    <div class="bcast-picker" role="group" aria-label="What to follow" data-testid="broadcast-picker" data-keep-live="1">
      ${picks.map(([key, label]) => html`<button type="button" class=${"secondary small" + (B.mode === key ? " on" : "")}
        aria-pressed=${B.mode === key ? "true" : "false"} data-testid=${"broadcast-pick-" + key}
        onClick=${() => pickBroadcast(key)}>${label}</button>`)}
    </div>
    ${body}</div>`;
}

function NotationDrawer() {
  const v = S.view;
  const impl = gameImpl();
  // Closed by default where the board has controls; open for a game that has none.
  const [chosen, setOpen] = useState(null);
  const open = chosen == null ? !(impl && (impl.Board || impl.render)) : chosen;
  // Nothing is left to type once the match is over: the drawer goes with the controls.
  if (!v || v.role !== "seat" || v.result) return null;
  const closed = false;
  const text = S.notationDraft == null ? "" : S.notationDraft;
  const send = (final) => submit(S.notationDraft == null ? "" : S.notationDraft, final, "notation");
  const last = S.lastSent && S.lastSent.phase === phaseNo() ? S.lastSent.text : null;
  return html`
    <details class="card drawer" data-testid="notation" open=${open} onToggle=${(e) => { if (e.currentTarget.open !== open) setOpen(e.currentTarget.open); }}>
      <summary>Type a move in the game's notation${last ? html` <span class="muted small">· last sent: <code data-testid="last-sent">${last}</code></span>` : ""}</summary>
      <label for="notation-input" class="label">Your move <span class="muted" data-testid="notation-help">${v.help ? html`— <${RuleText} text=${v.help}/>` : ""}</span></label>
      <textarea id="notation-input" data-testid="notation-input" rows="3" spellcheck="false" maxlength="16384"
        placeholder="type a submission" disabled=${closed} value=${text}
        onInput=${(e) => { S.notationDraft = e.currentTarget.value; }}
        onKeyDown=${(e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(false); } }}></textarea>
      <div class="control-row">
        <button type="button" data-testid="submit" disabled=${closed} onClick=${() => send(false)}>Submit</button>
        <button type="button" class="secondary" data-testid="submit-final" disabled=${closed} onClick=${() => send(true)}>Submit as final</button>
        <button type="button" class="secondary" data-testid="confirm" disabled=${closed} onClick=${() => confirmFinal("notation")}>Confirm as final</button>
      </div>
      <${Msg} source="notation"/>
    </details>`;
}

/* SE-7 made the match clock: the host picks the deadline in its own local time, and the
   server gets that moment with the local offset of that date (so a date across a change to
   summer time still means what the host read), never a time the server would have to guess. */
function pad2(n) { return String(n).padStart(2, "0"); }
function localInputValue(t) {
  if (t == null) return "";
  const d = new Date(t * 1000);
  return d.getFullYear() + "-" + pad2(d.getMonth() + 1) + "-" + pad2(d.getDate()) + "T" + pad2(d.getHours()) + ":" + pad2(d.getMinutes());
}
function isoWithOffset(local) {
  const d = new Date(local); // a datetime-local value is read in the reader's own zone
  if (!local || isNaN(d.getTime())) return null;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return localInputValue(d.getTime() / 1000) + ":" + pad2(d.getSeconds()) + sign
    + pad2(Math.floor(Math.abs(off) / 60)) + ":" + pad2(Math.abs(off) % 60);
}

function HostControls() {
  const v = S.view;
  const [secs, setSecs] = useState("60");
  const [when, setWhen] = useState(() => localInputValue(v && v.phase ? v.phase.next_deadline : null));
  if (!v || v.role !== "host" || v.result) return null;
  // A game whose steps wait on matches of their own (a season) takes the clock actions on its
  // own route, which applies them to the match being played, and ends itself on its board.
  const impl = gameImpl();
  const own = impl && impl.hostRoute;
  const act = async (action) => {
    if (action === "end" && !window.confirm("End the match now?")) return;
    let body = action === "extend" ? { seconds: Number(secs) } : {};
    if (action === "deadline") {
      const at = isoWithOffset(when);
      if (!at) { S.hostError = "Choose the date and time of the new deadline first."; update(); return; }
      body = { at };
    }
    const r = await call("POST", "/host/" + action, body, own && own.actions.includes(action) ? own.root : undefined);
    S.hostError = r.ok ? "" : r.error;
    update();
  };
  return html`<section class="card host-controls" data-testid="host-controls">
    <h2>Host</h2>
    <div class="control-row">
      <button type="button" class="secondary" data-testid="host-pause" onClick=${() => act("pause")}>Pause</button>
      <button type="button" class="secondary" data-testid="host-resume" onClick=${() => act("resume")}>Resume</button>
      <label class="inline">Add <input type="number" value=${secs} min="1" step="1" data-testid="host-extend-seconds"
        onInput=${(e) => setSecs(e.currentTarget.value)}/> s</label>
      <button type="button" class="secondary" data-testid="host-extend" onClick=${() => act("extend")}>Extend</button>
      ${own && own.noEnd ? "" : html`<button type="button" class="danger" data-testid="host-end" onClick=${() => act("end")}>End match</button>`}
    </div>
    <div class="control-row">
      <label class="inline">Deadline <input type="datetime-local" value=${when} data-testid="host-deadline-input"
        onInput=${(e) => setWhen(e.currentTarget.value)}/></label>
      <button type="button" class="secondary" data-testid="host-set-deadline" onClick=${() => act("deadline")}>Set deadline</button>
    </div>
    ${v.host_options && Object.keys(v.host_options).length ? html`<div class="control-row host-options">
      ${Object.entries(v.host_options).map(([name, o]) => html`<label class="check">
        <input type="checkbox" data-testid=${"host-option-" + name} checked=${o.value}
          onChange=${async (e) => { const r = await call("POST", "/host/option", { name, value: e.currentTarget.checked }); S.hostError = r.ok ? "" : r.error; update(); }}/>
        <${RuleText} text=${o.label}/></label>`)}</div>` : ""}
    <p class="error-text" data-testid="host-error" role="alert">${S.hostError ? html`<${ErrorText} message=${S.hostError}/>` : ""}</p>
    <${HostLinks}/>
  </section>`;
}

/* The host's links: copy, reissue or hand a seat to a bot or a person, and
   open or close the match to spectators. Links are fetched from the server on demand; they
   are never part of the match log. */
async function loadLinks() {
  const r = await call("GET", "/host/links");
  S.hostLinks = r.ok ? r : null;
  if (!r.ok) S.hostError = r.error;
  update();
}

function CopyButton({ text, testid, label }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try { await navigator.clipboard.writeText(text); setDone(true); }
    catch (e) { window.prompt("Copy this link", text); }
    setTimeout(() => setDone(false), 1500);
  };
  return html`<button type="button" class="secondary small" data-testid=${testid} aria-label=${label} onClick=${copy}>${done ? "Copied" : "Copy"}</button>`;
}
window.Arena.CopyButton = CopyButton; // a board's own links (a season's recap) copy alike

/* G-13: the host's private channel with one seat; only the two of them read it. */
const PRIVATE = "host-private-";
function privateOpen(seat) {
  return ((S.view && S.view.chat) || []).some((c) => c.id === PRIVATE + seat);
}

async function talkPrivately(seat, open) {
  const r = await call("POST", "/host/private", { seat, open });
  S.hostError = r.ok ? "" : r.error;
  if (r.ok && open) S.chatChannel = PRIVATE + seat; // the chat panel shows it at once
  await refreshView();
  update();
}

function HostLinks() {
  const L = S.hostLinks;
  useEffect(() => { if (!S.hostLinks) loadLinks(); }, []);
  if (!L) return html`<p class="muted small">Loading the links…</p>`;
  const act = async (path, body, confirmText) => {
    if (confirmText && !window.confirm(confirmText)) return;
    const r = await call("POST", path, body);
    S.hostError = r.ok ? "" : r.error;
    await loadLinks();
  };
  return html`<div class="host-links" data-testid="host-links">
    <h3>Links</h3>
    <ul class="links">
      ${L.seats.map((s) => html`<li data-testid=${"host-seat-" + s.seat}>
        <span class="who">Seat ${s.seat + 1} · ${s.name}${s.bot ? " (bot)" : ""}</span>
        ${s.link ? html`<a href=${s.link} data-testid=${"seat-link-" + s.seat} target="_blank" rel="noopener">${s.link}</a>`
          : html`<span class="muted">played by a bot, no link</span>`}
        <span class="control-row">
          ${s.link ? html`<${CopyButton} text=${s.link} testid=${"copy-seat-" + s.seat} label=${"Copy the link of seat " + (s.seat + 1)}/>
            <button type="button" class="secondary small" data-testid=${"reissue-seat-" + s.seat}
              onClick=${() => act("/host/reissue", { seat: s.seat }, "Give seat " + (s.seat + 1) + " a new link? The old link stops working at once.")}>New link</button>` : ""}
          ${!S.view || S.view.result ? "" : privateOpen(s.seat)
            ? html`<button type="button" class="secondary small" data-testid=${"private-close-" + s.seat}
                onClick=${() => talkPrivately(s.seat, false)}>Close the private channel</button>`
            : html`<button type="button" class="secondary small" data-testid=${"private-open-" + s.seat}
                onClick=${() => talkPrivately(s.seat, true)}>Talk privately with ${s.name}</button>`}
          <button type="button" class="secondary small" data-testid=${"replace-seat-" + s.seat}
            onClick=${() => act("/host/seat", { seat: s.seat, bot: !s.bot }, s.bot ? "Give seat " + (s.seat + 1) + " to a person? You get a new link to hand out." : "Hand seat " + (s.seat + 1) + " to a bot? Its link stops working.")}>
            ${s.bot ? "Give to a person" : "Hand to a bot"}</button>
        </span>
      </li>`)}
      <li><span class="who">Spectators</span>
        ${L.spectators_open && L.spectator ? html`<a href=${L.spectator} data-testid="spectator-link" target="_blank" rel="noopener">${L.spectator}</a>` : html`<span class="muted">closed to spectators</span>`}
        <span class="control-row">
          ${L.spectators_open && L.spectator ? html`<${CopyButton} text=${L.spectator} testid="copy-spectator" label="Copy the spectator link"/>` : ""}
          <button type="button" class="secondary small" data-testid="spectators-toggle" aria-pressed=${L.spectators_open ? "true" : "false"}
            onClick=${() => act("/host/spectators", { open: !L.spectators_open })}>${L.spectators_open ? "Close to spectators" : "Open to spectators"}</button>
        </span></li>
    </ul>
    <${BroadcastLink} L=${L} act=${act}/>
    <p class="muted small">To announce something, post in the Table chat: every seat and spectator reads it.</p>
  </div>`;
}

/* G-15: the audience's link, which sees everything one delay behind the match. */
function BroadcastLink({ L, act }) {
  const b = L.broadcast;
  const [minutes, setMinutes] = useState(b ? String(b.delay / 60) : "5");
  const open = () => act("/host/broadcast", { open: true, delay: Math.round(Number(minutes) * 60) },
    b ? "Make a new broadcast link? The old one stops working at once." : null);
  return html`<div class="bcast-host" data-testid="broadcast-host">
    <h3>Broadcast</h3>
    <p class="muted small">An audience link that sees everything, every seat's private state and
      channels included, a delay behind the match, so nobody watching can help a player (<${RuleText} text="G-15"/>).</p>
    ${b ? html`<p><a href=${b.link} data-testid="broadcast-link" target="_blank" rel="noopener">${b.link}</a></p>
      <p class="control-row"><${CopyButton} text=${b.link} testid="copy-broadcast" label="Copy the broadcast link"/>
        <span class="muted small" data-testid="broadcast-delay-now">${fmtNum(b.delay / 60)} min behind</span></p>` : ""}
    <div class="control-row">
      <label class="inline">Delay <input type="number" min="1" max="1440" step="1" value=${minutes} data-testid="broadcast-delay"
        onInput=${(e) => setMinutes(e.currentTarget.value)}/> min</label>
      <button type="button" class="secondary small" data-testid="broadcast-open" onClick=${open}>${b ? "New broadcast link" : "Open a broadcast"}</button>
      ${b ? html`<button type="button" class="secondary small" data-testid="broadcast-close"
        onClick=${() => act("/host/broadcast", { open: false, delay: 0 }, "Close the broadcast? Its link stops working at once.")}>Close the broadcast</button>` : ""}
    </div></div>`;
}

/* A side panel: open on a wide screen, folded on a phone until the player opens it. */
function Panel({ id, title, extra, children, testid, phoneOpen }) {
  const wide = typeof matchMedia === "function" ? matchMedia("(min-width: 900px)").matches : true;
  const [open, setOpen] = useState(wide || !!phoneOpen);
  return html`<details class="card panel" data-testid=${testid} open=${open} onToggle=${(e) => setOpen(e.currentTarget.open)} id=${id}>
    <summary><span class="panel-title">${title}</span>${extra ? html`<span class="muted small">${extra}</span>` : ""}</summary>
    ${children}
  </details>`;
}

/* The chat panel: folded on a phone, so its summary counts the messages from others that came
   while it was folded; without the count a phone player never learns that
   someone wrote. Opening the panel reads them. */
function ChatPanel() {
  const wide = typeof matchMedia === "function" ? matchMedia("(min-width: 900px)").matches : true;
  const [open, setOpen] = useState(wide);
  const you = S.view && S.view.you;
  const count = chatEvents().filter((e) => e.data.from !== you).length;
  const [read, setRead] = useState(count);
  useEffect(() => { if (open && read !== count) setRead(count); });
  const unread = open ? 0 : Math.max(0, count - read);
  return html`<details class="card panel" data-testid="chat-panel" open=${open} onToggle=${(e) => setOpen(e.currentTarget.open)}>
    <summary><span class="panel-title">Chat</span>${unread > 0 ? html`<span class="tag unread" data-testid="chat-unread"
      aria-label=${unread + (unread === 1 ? " unread message" : " unread messages")}>${unread} new</span>` : ""}</summary>
    <${Chat}/>
  </details>`;
}

function Seats() {
  const v = S.view;
  if (!v) return null;
  const waiting = new Set((v.phase && v.phase.waiting_for) || []);
  return html`<ul class="seat-list" data-testid="seats">${v.seats.map((s) => {
    let st = "";
    if (v.result) st = v.result.scores ? "score " + fmtNum(v.result.scores[s.seat]) : "";
    else if (s.final) st = "final";
    else if (s.acted) st = "submitted";
    else if (waiting.has(s.seat) && s.acted !== null) st = "to act";
    return html`<li data-testid=${"seat-" + s.seat} class=${v.you === s.seat ? "mine" : ""}>
      <span class="seat-no" aria-hidden="true">${s.seat + 1}</span>
      <span class="seat-name">${seatName(s.seat)}${v.match.bots[s.seat] ? html` <span class="tag">bot</span>` : ""}${v.you === s.seat ? html` <span class="tag you">you</span>` : ""}${s.in_reserve_until ? html` <span class="tag warn">in reserve</span>` : ""}</span>
      <span class="seat-state">${st}</span>
    </li>`;
  })}</ul>`;
}

function Private() {
  const v = S.view;
  if (!v) return null;
  if (v.role === "spectator") return html`<p class="muted">Spectators see what is public; everything hidden is shown when the match ends (rule <${RuleText} text="G-9"/>).</p>`;
  const seats = seesAll(v) ? v.seats : v.seats.filter((s) => s.seat === v.you);
  const blocks = [];
  if (v.role === "host") blocks.push(html`<p class="muted small">As host you see every seat's private state (<${RuleText} text="G-9"/>) and who has submitted (<${RuleText} text="G-10"/>).</p>`);
  if (v.role === "broadcast") blocks.push(html`<p class="muted small">The broadcast shows every seat's private state and what each sent, ${behindWords(v)} (<${RuleText} text="G-15"/>).</p>`);
  for (const s of seats) {
    const subs = s.submissions || [];
    if (!subs.length) {
      // Once the match is over there is no phase to submit in.
      if (!seesAll(v) && !v.result) blocks.push(html`<p class="muted">You have not submitted in this phase.</p>`);
      continue;
    }
    blocks.push(html`<h3>${seesAll(v) ? seatName(s.seat) : "Your submissions this phase"}</h3>
      <ul class="subs">${subs.map((x) => html`<li><${LogText} text=${capitalWords(moveWords(x.value, v.phase ? v.phase.name : "", v, gameImpl()))}/> <span class="muted">at ${fmtNum(Math.round(x.at * 10) / 10)} s${x.final ? " · final" : ""}</span></li>`)}</ul>`);
  }
  if (v.role === "seat" && ((v.phase && v.phase.reserve) || v.seats.some((s) => s.reserve_left > 0))) {
    blocks.push(html`<p class="muted small">Your reserve: <b data-testid="my-reserve">${v.seats[v.you].reserve_left}</b> ${v.seats[v.you].reserve_left === 1 ? "period" : "periods"} left.</p>`);
  }
  if (v.role === "seat") {
    const mine = S.events.filter((e) => e.to && e.to.length && !["submit", "accepted", "confirm"].includes(e.kind)).slice(-6);
    const lines = mine.map((e) => describe(e)).filter((x) => x != null);
    if (lines.length) blocks.push(html`<h3>Private news</h3><ul class="subs">${lines.map((t) => html`<li><${LogText} text=${t}/></li>`)}</ul>`);
  }
  return blocks.length ? html`${blocks}` : html`<p class="muted">Nothing private yet.</p>`;
}

/* Game events that score a round, a bout or the match: the results screen lists them in words
   as the breakdown of how the match was decided. */
const BREAKDOWN = new Set(["round_scored", "bout_settled", "round_over", "session_over", "grids_full",
  "vault_done", "vote_counted", "ec_chosen", "escaped"]);

function detailWords(key) { return capital(String(key).replace(/_/g, " ")); }

/* Detail keys that list seats (who won, who lost, who escaped), not a value per seat: said as
   names, never as a column of seat numbers (a "Losers" column once held 0-5, LO-8). */
const SEAT_LISTS = new Set(["winners", "losers", "escaped", "inside", "tied", "eliminated"]);

/* The game's result details as a table, one row per seat where a value is per seat: no column
   named by a bare number, none that repeats the score in other digits, no
   column of nested lists; on a phone the table scrolls in a box whose shadow and note say
   that more columns are there. */
function DetailTable({ result, seats }) {
  const d = result.detail && typeof result.detail === "object" ? result.detail : {};
  const cols = [];
  const scalar = (x) => x === null || typeof x !== "object";
  const cell = (x) => (typeof x === "number" ? fmtNum(x) : /^-?\d+(\.\d+)?$/.test(String(x ?? "")) ? fmtNum(Number(x)) : String(x ?? ""));
  const sameAsScore = (get) => result.scores.every((sc, i) => Number(get(i)) === Number(sc));
  // A game's detail may repeat a column the table already has (its own "score"): shown once.
  const add = (title, get) => {
    if (["seat", "score"].includes(title.toLowerCase()) || /^\d+$/.test(title.trim()) || sameAsScore(get)) return;
    cols.push([title, (i) => cell(get(i))]);
  };
  const lists = [];
  for (const [k, val] of Object.entries(d)) {
    if (!Array.isArray(val)) continue;
    if (SEAT_LISTS.has(k) || (val.length !== seats && val.every((x) => typeof x === "number"))) { lists.push([k, val]); continue; }
    if (val.length !== seats) continue;
    if (val.every(scalar)) add(detailWords(k), (i) => val[i]);
    else if (val.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      for (const sub of Object.keys(val[0])) if (val.every((x) => scalar(x[sub]))) add(detailWords(sub), (i) => val[i][sub]);
    }
  }
  const ref = useRef(null);
  const [more, setMore] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    const check = () => setMore(!!el && el.scrollWidth > el.clientWidth + 1);
    check();
    window.addEventListener("resize", check);
    return () => window.removeEventListener("resize", check);
  });
  return html`<div class=${"table-scroll" + (more ? " more" : "")} ref=${ref} data-testid="result-table-box">
    <table class="result-table" data-testid="result-table" tabindex="0">
    <caption class="sr-only">Scores by seat</caption>
    <thead><tr><th scope="col">Seat</th><th scope="col">Score</th>${cols.map(([t]) => html`<th scope="col">${t}</th>`)}</tr></thead>
    <tbody>${result.scores.map((x, i) => html`<tr class=${result.winner === i ? "won" : ""}>
      <th scope="row">${who(i)}${result.winner === i ? " (winner)" : ""}</th><td>${fmtNum(x)}</td>${cols.map(([, f]) => html`<td>${f(i)}</td>`)}</tr>`)}</tbody>
  </table></div>
  ${more ? html`<p class="muted small" data-testid="result-table-more">More columns to the right: swipe or scroll the table sideways.</p>` : ""}
  ${lists.map(([k, val]) => html`<p class="small">${detailWords(k)}: ${val.map((i) => who(i)).join(", ") || "none"}</p>`)}`;
}

function Result() {
  const v = S.view;
  if (!v || !v.result) return null;
  const r = v.result;
  const winner = winnerWords(v);
  const steps = S.events.filter((e) => BREAKDOWN.has(e.kind)).map((e) => describe(e)).filter((x) => x != null);
  // A game's own first words on the result (LO-8's who escaped, who was locked in): before
  // the table, which reads as their detail.
  const impl = gameImpl();
  let lead = null;
  if (impl && typeof impl.resultLead === "function") {
    try { lead = impl.resultLead(v, wordsContext(v)); } catch (e) { console.error(e); }
  }
  const replayFromStart = () => { showReplay(0); const el = document.querySelector("[data-testid=replay-panel]"); if (el) { el.open = true; el.scrollIntoView({ block: "nearest" }); } };
  return html`<section class="card result" data-testid="result">
    <p class="eyebrow">Result</p>
    <h2 data-testid="winner">${winner}</h2>
    ${lead ? html`<div class="result-lead" data-testid="result-lead">${typeof lead === "string" ? html`<p><${RuleText} text=${lead}/></p>` : lead}</div>` : ""}
    ${r.reason && r.reason.trim().replace(/\.$/, "").toLowerCase() !== winner.toLowerCase()
      ? html`<p data-testid="result-reason"><${RuleText} text=${capital(r.reason)}/></p>` : ""}
    ${r.scores ? html`<${DetailTable} result=${r} seats=${v.seats.length}/>` : ""}
    ${steps.length ? html`<details class="breakdown" data-testid="result-breakdown" open>
      <summary>How it was decided</summary>
      <ol>${steps.map((t) => html`<li><${LogText} text=${t}/></li>`)}</ol></details>` : ""}
    ${v.svg && !(gameImpl() && gameImpl().Board) ? html`<details data-testid="result-revealed"><summary>Everything that was hidden</summary>
      <div class="svg-board">${markup(v.svg, { svg: true })}</div></details>` : ""}
    <p class="control-row"><button type="button" class="secondary small" data-testid="result-replay" onClick=${replayFromStart}>Replay from the start</button></p>
    ${v.match.seed != null ? html`<p class="muted small">Seed <span data-testid="result-seed">${String(v.match.seed)}</span></p>` : ""}
    ${v.role === "host" && !S.rematchUrl ? html`<p><button type="button" data-testid="rematch" onClick=${startRematch}>Rematch</button>
      <span class="muted small"> same seats and settings, a new seed</span></p>` : ""}
    ${S.rematchUrl ? html`<p class="banner" data-testid="rematch-banner">A rematch has started.
      <a class="button" href=${S.rematchUrl} data-testid="rematch-go">Go to the rematch</a></p>` : ""}
    <p class="error-text" data-testid="rematch-error" role="alert">${S.rematchError ? html`<${ErrorText} message=${S.rematchError}/>` : ""}</p>
  </section>
  ${v.role !== "broadcast" ? html`<${ReviewPanel} view=${v} call=${call} goto=${gotoReplay}/>` : ""}`;
}

/* A review's link: the reader's own entry ``version`` shown in the replay, its panel open.
   The page scrolls once the replay is drawn, the board's top (its replay banner) just under
   the sticky header: scrolled before, the cards above it still changed height and the
   banner ended up behind the header on a phone. */
async function gotoReplay(version) {
  const i = S.events.findIndex((e) => e.version === version);
  const el = document.querySelector("[data-testid=replay-panel]");
  if (el) el.open = true;
  await showReplay(i < 0 ? 0 : i);
  requestAnimationFrame(() => {
    const board = document.getElementById("board");
    if (!board) return;
    scrollUnderHead(board.getBoundingClientRect().top);
  });
}

async function startRematch() {
  const r = await call("POST", "/host/rematch", {});
  if (!r.ok) { S.rematchError = r.error; update(); return; }
  S.rematchUrl = r.links.host;
  update();
  location.assign(r.links.host);
}

/* Every page of the old match follows the rematch to its own new link (a bot's seat has none). */
async function followRematch(go) {
  const r = await call("GET", "/next");
  if (!r.ok) return;
  S.rematchUrl = r.url;
  update();
  if (go && S.view && S.view.role !== "host") location.assign(r.url);
}

/* ------------------------------------------------------------------ the log, in words */
function who(seat) {
  const you = S.view ? S.view.you : null;
  return seat === you ? "You" : seatName(seat);
}

function capitalWords(t) { return typeof t === "string" ? capital(t) : t; }

/* One log entry in words (words.js), or null to leave it out. */
function describe(e) { return logLine(e, S.view, gameImpl(), S.events); }

/* A log line: a plain string (its rule ids become links) or the game's own Preact nodes. */
function LogText({ text }) {
  if (text == null) return null;
  if (typeof text === "string") return html`<${RuleText} text=${text}/>`;
  return text;
}

function Log() {
  const items = [];
  const upTo = playback.upTo(); // playing back: the log as it stood then
  for (const e of S.events) {
    if (upTo != null && e.version > upTo) continue;
    const text = describe(e);
    if (text == null) continue;
    const priv = e.to !== null && e.to !== undefined;
    const time = new Date(e.t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const current = S.replayIndex != null && S.events[S.replayIndex] && S.events[S.replayIndex].version === e.version;
    items.push(html`<li key=${e.version} class=${(priv ? "private" : "") + (current ? " current" : "")} data-version=${e.version}>
      <span class="t">${time}</span> ${priv ? html`<span class="tag priv" title="only you and the host see this">private</span> ` : ""}<${LogText} text=${text}/>
    </li>`);
  }
  items.reverse();
  return html`<ol class="log" data-testid="log" tabindex="0" aria-label="match log">${items}</ol>`;
}


/* ------------------------------------------------------------------ chat (G-13, LO-12) */
function channelTitle(id) {
  const known = (S.view && S.view.chat) || [];
  const c = known.find((x) => x.id === id);
  if (c) return c.title;
  if (id === "table") return "Table";
  if (id === "spectators") return "Spectators";
  if (String(id).startsWith(PRIVATE)) {
    return seesAll(S.view) ? "Private: " + seatName(Number(String(id).slice(PRIVATE.length))) : "Host (private)";
  }
  return capital(String(id).replace(/-/g, " "));
}

function sender(from) {
  if (from === "host") return "Host";
  if (from === "spectator") return "Spectator";
  return who(Number(from));
}

function chatEvents() {
  let evs = S.events.filter((e) => e.kind === "chat");
  if (S.replayIndex != null && S.events[S.replayIndex]) {
    const upTo = S.events[S.replayIndex].version;
    evs = evs.filter((e) => e.version <= upTo);
  }
  return evs;
}

const CHAT_MAX = 500; // core/chat.py MAX_CHARS (G-13)

function Chat() {
  const v = S.view;
  const [channel, setChannel] = useState("table");
  const [draft, setDraft] = useState("");
  const [error, setError] = useState("");
  const [seen, setSeen] = useState({});
  const listRef = useRef(null);
  const evs = chatEvents();
  const channels = (v && v.chat) || [];
  const ids = channels.map((c) => c.id);
  // Closed private channels keep their history for the seats that were in them.
  for (const e of evs) if (!ids.includes(e.data.channel)) { ids.push(e.data.channel); channels.push({ id: e.data.channel, title: channelTitle(e.data.channel), can_post: false, why_not: "this channel is closed", muted: false }); }
  const current = ids.includes(channel) ? channel : (ids[0] || "table");
  useEffect(() => {
    // The host just opened a private channel: show it (G-13).
    if (S.chatChannel && ids.includes(S.chatChannel)) { setChannel(S.chatChannel); S.chatChannel = null; }
  });
  const here = evs.filter((e) => e.data.channel === current);
  const info = channels.find((c) => c.id === current) || { can_post: false, why_not: "" };
  useLayoutEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
    if ((seen[current] || 0) < here.length) setSeen(Object.assign({}, seen, { [current]: here.length }));
  }, [here.length, current]);
  const send = async () => {
    const text = draft.trim();
    if (!text) return;
    if (text.length > CHAT_MAX) {
      // G-13: refused here in words, the line kept as typed so the player can shorten it.
      setError("G-13: a chat message may be at most " + CHAT_MAX + " characters; this one has " + text.length + ". Shorten it and send again.");
      return;
    }
    const r = await call("POST", "/chat", { channel: current, text });
    if (r.ok) { setDraft(""); setError(""); } else setError(r.error);
  };
  const mute = async () => {
    const r = await call("POST", "/host/mute", { channel: current, muted: !info.muted });
    setError(r.ok ? "" : r.error);
  };
  // G-13: a seat may open its own channel with the host and write first.
  const own = v && v.role === "seat" && v.you != null ? PRIVATE + v.you : null;
  const canOpen = own && !v.result && !(v.chat || []).some((c) => c.id === own);
  const writeToHost = async () => {
    const r = await call("POST", "/private", { open: true });
    if (r.ok) { S.chatChannel = own; setError(""); await refreshView(); } else setError(r.error);
  };
  const replaying = S.replayIndex != null;
  // A line over the limit is counted down as typed and refused in words, never cut: the
  // input had maxlength, and a pasted 800-character line lost 300 of them silently.
  const length = draft.trim().length;
  const over = length > CHAT_MAX;
  return html`<div class="chat" data-testid="chat">
    ${channels.length > 1 ? html`<div class="chat-tabs" role="tablist" aria-label="chat channels">
      ${channels.map((c) => {
        const n = evs.filter((e) => e.data.channel === c.id).length;
        const unread = c.id === current ? 0 : n - (seen[c.id] || 0);
        return html`<button type="button" role="tab" class=${"chat-tab" + (c.id === current ? " on" : "")}
          aria-selected=${c.id === current ? "true" : "false"} data-testid=${"chat-tab-" + c.id}
          onClick=${() => { setChannel(c.id); setError(""); }}>${c.title}${c.muted ? " (muted)" : ""}${unread > 0 ? html` <span class="tag">${unread} new</span>` : ""}</button>`;
      })}</div>` : ""}
    <ol class="chat-list" ref=${listRef} tabindex="0" aria-live="polite" aria-label=${channelTitle(current) + " messages"}>
      ${here.length ? here.map((e) => html`<li key=${e.version} data-testid="chat-message" class=${e.data.from === (v && v.you) ? "mine" : ""}>
        <b class="chat-from">${sender(e.data.from)}</b> <span class="chat-text">${e.data.text}</span>
        <span class="t muted small">${new Date(e.t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}</span></li>`)
        : html`<li class="muted small">No messages in ${channelTitle(current)} yet.</li>`}
    </ol>
    ${replaying ? html`<p class="muted small">Replay: the chat as it stood at that moment.</p>`
      : v && v.role === "broadcast" ? html`<p class="muted small" data-testid="broadcast-chat-note">Every channel, private ones too, ${behindWords(v)}; the audience cannot write.</p>` : html`
    ${canOpen ? html`<div class="control-row"><button type="button" class="secondary small" data-testid="chat-open-host"
      onClick=${writeToHost}>Write to the host</button></div>` : ""}
    <form class="chat-form" onSubmit=${(e) => { e.preventDefault(); send(); }}>
      <label class="sr-only" for="chat-input">Message to ${channelTitle(current)}</label>
      <input id="chat-input" data-testid="chat-input" autocomplete="off" aria-describedby="chat-count"
        aria-invalid=${over ? "true" : "false"}
        placeholder=${info.can_post ? "Message " + channelTitle(current) : "You cannot post here"}
        disabled=${!info.can_post} value=${draft} onInput=${(e) => { setDraft(e.currentTarget.value); if (error && e.currentTarget.value.trim().length <= CHAT_MAX) setError(""); }}/>
      <button type="submit" data-testid="chat-send" disabled=${!info.can_post}>Send</button>
      ${v && v.role === "host" && !v.result ? html`<button type="button" class="ghost small" data-testid="chat-mute"
        aria-pressed=${info.muted ? "true" : "false"} onClick=${mute}>${info.muted ? "Unmute" : "Mute"}</button>` : ""}
    </form>
    <p id="chat-count" class=${"chat-count small " + (over ? "error-text" : "muted")} data-testid="chat-count" aria-live="polite">${
      draft.length > CHAT_MAX * 0.8 ? (over ? (length - CHAT_MAX) + " characters over the limit of " + CHAT_MAX : (CHAT_MAX - length) + " characters left") : ""}</p>
    ${!info.can_post && info.why_not ? html`<p class="muted small" data-testid="chat-why-not"><${ErrorText} message=${info.why_not}/></p>` : ""}
    <p class="error-text" data-testid="chat-error" role="alert">${error ? html`<${ErrorText} message=${error}/>` : ""}</p>`}
  </div>`;
}

/* ------------------------------------------------------------------ replay viewer */
/* Playback (playback.js): the match watched as it unfolded, at 1x to 60x, driving the same
   S.replayIndex and S.replay as the replay's steps; its controls head the board card. */
const playback = createPlayback({
  state: S, update, impl: () => gameImpl(),
  load: (version) => call("GET", "/replay?version=" + version),
});
window.Arena.playback = playback;

async function showReplay(index) {
  if (!S.events.length) return;
  index = Math.max(0, Math.min(S.events.length - 1, index));
  S.replayIndex = index;
  const e = S.events[index];
  S.replayCaption = "Entry " + (index + 1) + " of " + S.events.length;
  update();
  const r = await call("GET", "/replay?version=" + e.version);
  if (!r.ok) { S.replayCaption = r.error; update(); return; }
  if (S.replayIndex !== index) return;
  delete r.ok;
  delete r.status;
  S.replay = r;
  update();
}

/* The index of the previous or next phase start from ``from`` (Page Up / Page Down). */
function phaseStep(from, dir) {
  for (let i = from + dir; i >= 0 && i < S.events.length; i += dir) {
    if (S.events[i].kind === "phase_started") return i;
  }
  return dir < 0 ? 0 : S.events.length - 1;
}

function exitReplay() {
  playback.stop();
  S.replay = null;
  S.replayIndex = null;
  S.replayCaption = null;
  update();
}

function Replay() {
  const n = Math.max(1, S.events.length);
  const at = S.replayIndex == null ? n : S.replayIndex + 1;
  const from = S.replayIndex == null ? S.events.length - 1 : S.replayIndex;
  return html`<div class="replay" data-testid="replay">
    <div class="control-row">
      <button type="button" class="secondary small" data-testid="replay-first" aria-label="first entry" onClick=${() => showReplay(0)}>|◀</button>
      <button type="button" class="secondary small" data-testid="replay-prev" aria-label="previous entry" onClick=${() => showReplay(from - 1)}>◀</button>
      <input type="range" min="1" max=${n} value=${at} data-testid="replay-slider" aria-label="log entry"
        onInput=${(e) => showReplay(Number(e.currentTarget.value) - 1)}/>
      <button type="button" class="secondary small" data-testid="replay-next" aria-label="next entry" onClick=${() => showReplay(from + 1)}>▶</button>
      <button type="button" class="secondary small" data-testid="replay-last" aria-label="last entry" onClick=${() => showReplay(S.events.length - 1)}>▶|</button>
    </div>
    <div class="control-row">
      <button type="button" class="secondary small" data-testid="replay-prev-phase" onClick=${() => showReplay(phaseStep(from, -1))}>◀ Phase</button>
      <button type="button" class="secondary small" data-testid="replay-next-phase" onClick=${() => showReplay(phaseStep(from, 1))}>Phase ▶</button>
    </div>
    <p class="muted small" data-testid="replay-caption">${S.replayCaption || "Step through every entry of the log (arrow keys), or a phase at a time (Page Up, Page Down)."}</p>
  </div>`;
}

/* ------------------------------------------------------------------ the page */
/* Whether the page is laid out in one column (a phone): side panels below the board. */
function narrow() { return typeof matchMedia === "function" && !matchMedia("(min-width: 900px)").matches; }

/* One phase at a time: the key of the moment the player acts in. */
function momentKey(v) { return !v ? "" : v.result ? "result" : v.phase ? "phase-" + v.phase.no : "start"; }

/* What the match asks of this seat now: the page scrolls or moves the focus only when this
   changes. A phase number is not a task: a real-time game starts a phase at every tick, and
   the page scrolled its Transfer button (with the focus on it) away at each one. A phase of
   the same name that asks the same seat again ("tick", "shove") is the same task; one that asks
   something new ("bout 1: round 2"), or starts asking this seat, is a new one. A game whose
   phase names say less may register ``taskKey(view)``. */
function taskKey(v) {
  if (!v) return "";
  if (v.result) return "result";
  if (!v.phase) return "start";
  const impl = gameImpl();
  if (impl && typeof impl.taskKey === "function") {
    try { const k = impl.taskKey(v); if (k != null) return "game:" + k; } catch (e) { console.error(e); }
  }
  if (v.role !== "seat") return "watch";
  const p = v.phase;
  const asked = [p.must, p.may, p.waiting_for].some((l) => (l || []).includes(v.you));
  return asked ? "ask:" + p.name : "wait";
}
window.Arena.taskKey = () => taskKey(S.view);

/* When a phase or the match ends, a phone shows what comes next: the new phase's first
   control when the seat has to act, or the result. The page was left scrolled to the bottom
   where the last send was made, with the opponent's lock, the new round or the result card
   2,500 px away. Not while the player types somewhere else (a chat line keeps its place). */
function showNewMoment(v) {
  if (!narrow() || !v || S.replay) return;
  const active = document.activeElement;
  if (active && /INPUT|TEXTAREA|SELECT/.test(active.tagName) && !active.closest("[data-testid=game-root]")) return;
  // The phase's first control as the keyboard's focus finds it (a part the game marks with
  // data-focus-first, such as a vote below its vault, LO-9, comes first).
  const target = v.result ? document.querySelector("[data-testid=result]")
    : yourMove(v) ? firstBoardControl() : null;
  if (target) scrollToShow(target);
}

/* Where to scroll to show a control with the words that lead to it (the heading of its
   panel: "Bets for bout 1", "Cards of bout 1"): the top of the outermost box around it that
   starts at most a third of the screen above it. A control flush under the header had its
   panel's heading and the points left hidden above it. */
function leadTop(el) {
  const root = document.querySelector("[data-testid=game-root]");
  const own = el.getBoundingClientRect().top;
  const limit = own - window.innerHeight / 3;
  let top = own;
  for (let p = el.parentElement; p && root && p !== root && root.contains(p); p = p.parentElement) {
    const t = p.getBoundingClientRect().top;
    if (t < limit) break;
    top = Math.min(top, t);
  }
  return top;
}

/* Focus kept across view updates. A player on the keyboard who
   sends a move loses the button they pressed: the phase that held it is gone. Chromium then
   parks the focus on <body> but keeps its Tab starting point where the button was, so the next
   Tab skipped the new phase's controls above it (a bet builder after "Ready") or started
   from the page's top. When the element that had the focus inside the board disappears (or is
   disabled), the focus goes to the new phase's first control, else to the result, else to the
   board itself. Only for keyboard players: a tap moves no focus on a phone. */
const focusKeep = { keyboard: false, last: null, parked: null };
if (typeof document !== "undefined") {
  document.addEventListener("keydown", (e) => { if (!e.altKey && !e.ctrlKey && !e.metaKey) focusKeep.keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { focusKeep.keyboard = false; }, true);
  document.addEventListener("focusin", (e) => {
    const t = e.target;
    focusKeep.last = t && t.closest && t.closest("[data-testid=game-root], [data-testid=result]") ? t : null;
  });
}
/* The new phase's first control: the first usable one inside a part the game marks with
   data-focus-first (a vote below its vault, LO-9), else the board's first. */
function firstBoardControl() {
  const root = document.querySelector("[data-testid=game-root]");
  if (!root) return null;
  for (const part of root.querySelectorAll("[data-focus-first]")) {
    const el = firstControlIn(part);
    if (el) return el;
  }
  return firstControlIn(root);
}
function firstControlIn(root) {
  for (const el of root.querySelectorAll("button, input, select, textarea, [tabindex='0']")) {
    if (el.disabled || el.getAttribute("aria-disabled") === "true" || el.getAttribute("role") === "region"
        || el.closest("[hidden], details:not([open])")) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return el;
  }
  return null;
}
function keepFocus(v) {
  // A rescue on a mere update (a tick, a bot's move) keeps the page where the player put it.
  const scroll = !!focusKeep.taskChanged;
  focusKeep.taskChanged = false;
  if (!focusKeep.keyboard || S.replay) return;
  const active = document.activeElement;
  const parked = focusKeep.parked;
  focusKeep.parked = null;
  if (parked && active === parked) {
    // The focus waited on the board while the opponent moved: the new phase's first control.
    const next = v && v.result ? resultTarget() : firstBoardControl();
    if (next) moveFocus(next, scroll);
    else focusKeep.parked = parked;
    return;
  }
  const lost = focusKeep.last;
  if (!lost) return;
  if (lost.isConnected && !lost.disabled && active === lost) return;
  if (active && active !== document.body && active !== lost) return; // the player went elsewhere
  let target = v && v.result ? resultTarget() : firstBoardControl();
  if (!target) {
    target = document.querySelector(".board-card");
    focusKeep.parked = target;
  }
  if (target) moveFocus(target, scroll);
}
function resultTarget() {
  const el = document.querySelector("[data-testid=result]");
  if (el) el.setAttribute("tabindex", "-1");
  return el;
}
function headBottom() {
  const head = document.querySelector("[data-testid=match-head]");
  return head ? Math.max(0, head.getBoundingClientRect().bottom) : 0;
}
/* The focus moves without the browser's own scroll, which put the control flush under the
   sticky header with the words that lead to it ("Bets for bout 1") hidden behind it:
   when it is out of view, the page scrolls to show it with some room above it. */
function moveFocus(el, scroll = true) {
  el.focus({ preventScroll: true });
  if (scroll) scrollToShow(el);
}
/* Out of view, or its leading words (its panel's heading) under the sticky header: scrolled
   to show both. A vote's buttons in view with its question hidden were a riddle. */
function scrollToShow(el) {
  const r = el.getBoundingClientRect();
  const top = headBottom();
  const lead = leadTop(el);
  if (lead >= top && r.bottom <= window.innerHeight) return; // already in view, words and all
  scrollUnderHead(lead);
}
/* The page scrolled so that what is now at ``top`` (in the viewport) sits just under the
   sticky header. */
function scrollUnderHead(top) {
  window.scrollTo({ top: Math.max(0, window.scrollY + top - headBottom() - 8), behavior: "instant" });
}

function App() {
  if (S.linkError) return html`<${LinkError}/>`;
  const v = S.view;
  const moment = momentKey(v);
  const task = taskKey(v);
  const last = useRef(null);
  useLayoutEffect(() => {
    const before = last.current;
    last.current = task;
    // Not when the page first gets its view: the page opens at its top, on the board ("Study
    // the boards" was scrolled 889 px past both boards to its Ready button).
    if (before && before !== task && task !== "start") { focusKeep.taskChanged = true; showNewMoment(v); }
  }, [task]);
  // A game whose board needs the whole width on a wide screen (real-time ticks) puts the
  // side panels below the board; its result then goes on top too.
  const impl = gameImpl();
  const wide = !!(impl && impl.wideBoard);
  // The result first: on a phone the card sits above the board, not 2,500 px down the page.
  const resultOnTop = !!(v && v.result) && (narrow() || wide);
  // A finished match's board is a picture: no control of its last phase stays live.
  // Its controls are disabled one by one after each render: a disabled
  // fieldset would do it at once, but it also takes the board's scrolling tables out of the
  // keyboard's reach (axe: scrollable-region-focusable).
  const over = !!(v && v.result);
  const lock = useRef(null);
  useLayoutEffect(() => {
    if (over && lock.current) {
      // What only chooses how to look (the broadcast's picker) stays usable.
      for (const el of lock.current.querySelectorAll("button, input, select, textarea")) if (!el.closest("[data-keep-live]")) el.disabled = true;
    }
    keepFocus(v);
    // Tab scrolls a focused control into view; the sticky header must not cover it.
    const head = document.querySelector("[data-testid=match-head]");
    const pad = head ? head.offsetHeight + 8 : 0;
    if (document.documentElement.style.scrollPaddingTop !== pad + "px") document.documentElement.style.scrollPaddingTop = pad + "px";
  });
  return html`
    <${Header}/>
    <${Reconnecting}/>
    <${OutageBanner}/>
    <${ServerPaused}/>
    <div class=${"match-grid" + (wide ? " wide-board" : "")}>
      <section class="board-col" aria-label="board">
        ${resultOnTop ? html`<${Result}/>` : ""}
        <${TurnBanner}/>
        <div class="card board-card" id="board" tabindex="0" role="region" aria-label="the board">
          ${S.replay ? html`<div class="replay-banner" data-testid="replay-banner">
            Replay: the match as it stood after entry ${S.replayIndex + 1}.
            <button type="button" class="secondary small" data-testid="replay-exit" onClick=${exitReplay}>Back to live</button>
          </div>` : ""}
          <${playback.Controls}/>
          <div class="board-lock" ref=${lock} data-testid="board-lock" data-moment=${moment}
            data-over=${over ? "1" : null}>
            <${GameBoard}/>
          </div>
        </div>
        <${NotationDrawer}/>
        <${HostControls}/>
      </section>
      <aside class="side-col" aria-label="match information">
        ${resultOnTop ? "" : html`<${Result}/>`}
        <${Panel} title="Seats" testid="seats-panel"><${Seats}/><//>
        <${Panel} title="Private" testid="private"><${Private}/><//>
        <${ChatPanel}/>
        <${Panel} title="Log" testid="log-panel" extra=${S.events.length ? S.events.length + " entries" : ""}><${Log}/><//>
        <${Panel} title="Replay" testid="replay-panel"><${Replay}/><//>
      </aside>
    </div>
    <${Refusals}/>`;
}

/* ------------------------------------------------------------------ live connection */
function absorb(events) {
  let added = false;
  for (const e of events) {
    if (S.seen.has(e.version)) continue;
    S.seen.add(e.version);
    S.events.push(e);
    added = true;
  }
  if (added) S.events.sort((a, b) => a.version - b.version);
}

async function refetchAll() {
  // At the end the whole log is revealed (G-9) and renumbered: every viewer's numbers become
  // the log's own (G-10 numbers each viewer's entries in its own sequence while it runs), so
  // the entries are replaced, not merged.
  const r = await call("GET", "/events?since=0");
  if (r.ok) { S.events = []; S.seen = new Set(); absorb(r.events); S.version = r.version; update(); }
}

function alertPhase(view) {
  const p = view.phase;
  if (!p || view.role !== "seat" || view.result) return;
  if (S.lastPhaseAlert === p.no) return;
  const first = S.lastPhaseAlert === null;
  S.lastPhaseAlert = p.no;
  if (first || !(p.must || []).includes(view.you)) return;
  if (S.prefs.sound) beep();
  if (S.prefs.notify && "Notification" in window && Notification.permission === "granted" && document.hidden) {
    try { new Notification(S.boot.title + ": your move", { body: capital(p.name) + (p.prompt ? " — " + p.prompt : ""), tag: "arena-" + S.boot.id }); } catch (e) { /* unsupported */ }
  }
}

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660; g.gain.value = 0.08;
    o.connect(g); g.connect(ctx.destination);
    o.start(); o.stop(ctx.currentTime + 0.18);
  } catch (e) { /* no audio */ }
}

function linkFailed(message) {
  S.linkError = message || "this link is not valid";
  if (S.ws) { try { S.ws.onclose = null; S.ws.close(); } catch (e) { /* already closed */ } }
  update();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // A game that draws its own board needs no board picture in every update.
  const svg = gameImpl() && gameImpl().Board ? "&svg=0" : "";
  const url = proto + "//" + location.host + "/ws/" + S.boot.id + "?token=" + encodeURIComponent(S.token) + "&since=" + S.version + svg;
  let ws;
  try { ws = new WebSocket(url); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  S.connecting = Date.now();
  // The back-off resets only once the server has said hello: a socket it accepts and closes at
  // once (4429, too many connections) must not be retried every half second.
  // "Live" only once the server has said hello: an open socket that says nothing (a proxy
  // that accepted it, a network gone quiet) is not a connection.
  ws.onopen = () => { S.opened = Date.now(); };
  ws.onmessage = (msg) => {
    if (S.ws !== ws) return;
    S.heard = Date.now();
    let data;
    try { data = JSON.parse(msg.data); } catch (e) { return; }
    if (data.type === "hello") {
      const back = S.conn === "reconnecting";
      S.retry = 0;
      S.conn = "live"; S.reconnectAt = null; S.awaiting = null; update(); flushUnsent();
      if (back) refreshView(); // catch up at once: the view may have moved on while away
    }
    if (data.type === "update") {
      const wasFinished = S.view && S.view.result;
      const oldPhase = phaseNo();
      absorb(data.events);
      S.version = Math.max(S.version, data.version);
      // The socket sends its view whole once, then only differences from what it sent
      //: they apply to the socket's own copy, never to a view fetched over HTTP.
      S.sockView = data.view !== undefined ? data.view : applyPatch(S.sockView, data.patch);
      S.view = S.sockView;
      S.offset = S.view.now - Date.now() / 1000;
      if (phaseNo() !== oldPhase) phaseMoved();
      alertPhase(S.view);
      update();
      if (S.view.result && !wasFinished) refetchAll(); // G-9: private entries revealed at the end
    } else if (data.type === "store") {
      setOutage(!data.ok);
    } else if (data.type === "rematch") {
      followRematch(true);
    } else if (data.type === "revoked") {
      linkFailed(data.reason || "this link was replaced by the host");
    }
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    if (ev.code >= 4400 && ev.code < 4405) { linkFailed(ev.reason || "this link is not valid"); return; }
    if (S.view && S.view.result && ev.code === 1000) { S.conn = "closed"; update(); return; }
    const busy = ev.code === 4429 || ev.code === 1008;
    scheduleReconnect(busy ? ev.reason : "", busy);
  };
}

/* The heartbeat: a socket can go silent without closing (a phone losing
   its network, a proxy dropping the connection), and the page would go on saying "live" and
   counting down a clock it cannot know. Every second the page pings the server
   (server/socket.py answers "pong"); when nothing at all has come HEARTBEAT_SILENCE ms after a ping
   the socket is given up, the page says "Reconnecting" and the clock stops claiming time. */
const HEARTBEAT_EVERY = 1000;
const HEARTBEAT_SILENCE = 2800;
/* The server says hello as soon as a socket opens: a socket that has not opened, or opened
   and said nothing, this long after it was made is given up and made again. With the retry
   waits capped (RETRY_CAP), a page whose network comes back is live within about
   HELLO_WAIT + RETRY_CAP seconds whatever happened before (after a 20 s silence the page
   needed 12.2 s, its back-off at 8 s). */
const HELLO_WAIT = 1500;
const CONNECT_WAIT = 4000; // a handshake may be slow on a phone's network; a dead one never ends
function heartbeat() {
  probe();
  const ws = S.ws;
  const t = Date.now();
  if (ws && ws.readyState === WebSocket.CONNECTING && S.connecting && t - S.connecting > CONNECT_WAIT) {
    S.connecting = null; // a handshake lost on a dead network: tried again, not awaited
    giveUp(ws);
    return;
  }
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (S.conn !== "live") {
    // Open but no hello: given up, and tried again.
    if (S.opened && t - S.opened > HELLO_WAIT) { S.opened = null; giveUp(ws); }
    return;
  }
  // Silent: a ping has gone unanswered (nothing at all came since) for too long. Counted from
  // the ping, not the last message, so a background tab whose timers the browser slows down
  // is not taken for a dead one.
  if (S.awaiting != null && S.heard < S.awaiting && t - S.awaiting > HEARTBEAT_SILENCE) {
    giveUp(ws);
    return;
  }
  if (t - (S.pinged || 0) < HEARTBEAT_EVERY) return;
  S.pinged = t;
  if (S.awaiting == null || S.heard >= S.awaiting) S.awaiting = t;
  try { ws.send(JSON.stringify({ type: "ping" })); } catch (e) { /* the close handler follows */ }
}

/* Drop a socket that has gone silent and try again. */
function giveUp(ws) {
  S.ws = null;
  ws.onclose = null;
  ws.onmessage = null;
  try { ws.close(4000, "no answer to the heartbeat"); } catch (e) { /* already gone */ }
  scheduleReconnect("");
}

const RETRY_CAP = 1.5; // seconds between tries once the back-off has grown

async function scheduleReconnect(reason, busy) {
  // Said at once, before any request (which may hang on a silent network): the page no longer
  // knows what happens in the match.
  if (S.conn !== "reconnecting") { S.conn = "reconnecting"; update(); }
  // A link revoked or closed while this page was away is refused before the socket opens (the
  // browser sees only 1006): ask the API, which says what is wrong, before trying again.
  if (S.retry > 0) {
    const r = await call("GET", "/view", undefined, undefined, 1500);
    if (!r.ok && r.status >= 400 && r.status < 500 && r.status !== 429) { linkFailed(r.error); return; }
    if (r.status === 0) S.netDown = true; // nothing answered: the probe watches for its return
    if (S.conn === "live") return; // back meanwhile (the probe, "online", the tab shown again)
  }
  S.reconnectReason = reason || "";
  S.conn = "reconnecting";
  S.retry += 1;
  // Capped low: a player's network that comes back must not wait out a long back-off. Only a
  // server that asked for fewer connections (4429, 1008) is given the long one.
  const cap = busy ? 10 : RETRY_CAP;
  const delay = Math.min(cap, 0.5 * Math.pow(2, S.retry - 1));
  S.reconnectAt = Date.now() / 1000 + delay;
  update();
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(() => { if (S.conn !== "live") connect(); }, delay * 1000);
}

/* Reconnect at once instead of waiting out the back-off: a player whose network came back
   should not wait even the capped one (or a busy server's 10 s). Called when the probe sees the server again, on "online", and when the
   tab is shown again. A socket already opening is left to finish. */
function reconnectNow() {
  if (S.conn === "live" || S.linkError) return;
  // A socket just made is left to finish; one stuck in its handshake since before the network
  // came back is not.
  if (S.ws && S.ws.readyState === WebSocket.CONNECTING && Date.now() - (S.connecting || 0) < 1000) return;
  if (S.ws && S.ws.readyState === WebSocket.CONNECTING) { const old = S.ws; S.ws = null; old.onopen = old.onclose = old.onmessage = null; try { old.close(); } catch (e) { /* gone */ } }
  clearTimeout(S.retryTimer);
  connect();
}

/* While a retry waits (more than a second off), the heartbeat asks the server for a tiny file
   every 2 s. Only traffic seen *again* counts: when the server answered all along (a proxy
   that refuses sockets but passes HTTP), reconnecting on every answer would undo the back-off. */
const PROBE_EVERY = 2000;
function probe() {
  if (S.conn !== "reconnecting" || !S.reconnectAt || S.probing || S.linkError) return;
  if (S.reconnectAt - Date.now() / 1000 < 1) return;
  if (Date.now() - (S.probed || 0) < PROBE_EVERY) return;
  S.probed = Date.now();
  S.probing = true;
  const ctl = typeof AbortController === "function" ? new AbortController() : null;
  const timer = setTimeout(() => { if (ctl) ctl.abort(); }, 1500);
  const done = (ok) => {
    S.probing = false;
    clearTimeout(timer);
    if (!ok) { S.netDown = true; return; }
    if (S.netDown) { S.netDown = false; reconnectNow(); }
  };
  fetch("/static/favicon.svg", { cache: "no-store", signal: ctl ? ctl.signal : undefined })
    .then((r) => done(r.ok), () => done(false));
}

/* The page's first Tab stop (shown only when focused): "Skip to the board", past the site's
   links and the header, so a keyboard player reaches the board's controls in two presses. */
function addSkipLink() {
  if (document.querySelector("[data-testid=skip-to-board]")) return;
  const a = document.createElement("a");
  a.className = "skip-link";
  a.href = "#board";
  a.dataset.testid = "skip-to-board";
  a.textContent = "Skip to the board";
  a.addEventListener("click", (e) => {
    const board = document.getElementById("board");
    if (!board) return;
    e.preventDefault();
    moveFocus(board);
  });
  document.body.prepend(a);
}

/* ------------------------------------------------------------------ the delayed broadcast */
/* A broadcast link has no socket (the server cuts the match at each read, G-15): the page asks
   for the log's new entries every POLL_EVERY ms and, when there are any, for the views. */
const POLL_EVERY = 1500;

function pickBroadcast(key) {
  S.bcast.mode = key;
  update();
  refreshSeatViews();
}

async function refreshSeatViews() {
  const v = S.view;
  if (!v || v.role !== "broadcast") return;
  const mode = S.bcast.mode;
  const wanted = mode === "side" ? v.seats.map((s) => s.seat) : mode === "table" ? [] : [Number(mode)];
  await Promise.all(wanted.map(async (i) => {
    // Pinned to the entry the header's view stands at: the cut moves between the reads.
    const r = await call("GET", "/view?as=" + i + (v.version ? "&version=" + v.version : ""));
    if (r.ok) { delete r.ok; delete r.status; S.bcast.seatViews[i] = r; }
  }));
  update();
}

/* The view of the moment the broadcast stands at, then the log up to that same moment: the
   page never holds an entry the view has not reached (a poll of the log alone only says
   whether anything is new). */
async function refreshBroadcast() {
  const r = await call("GET", "/view");
  if (r.status === 425) { S.bcast.waiting = r.error; update(); return; }
  if (!r.ok) { if (r.status >= 400 && r.status < 500 && r.status !== 429) linkFailed(r.error); return; }
  delete r.ok;
  delete r.status;
  // At the end of what it shows, the seed joins the log (G-7, G-15): read again whole.
  const whole = !!r.result && !(S.view && S.view.result);
  const log = await call("GET", "/events?since=" + (whole ? 0 : S.version));
  if (!log.ok) return;
  if (whole) { S.events = []; S.seen = new Set(); }
  absorb(log.events.filter((e) => e.version <= r.version));
  S.version = r.version;
  const old = phaseNo();
  S.bcast.waiting = null;
  S.view = r;
  S.offset = r.now - Date.now() / 1000;
  if (phaseNo() !== old) phaseMoved();
  await refreshSeatViews();
}

async function pollBroadcast() {
  const r = await call("GET", "/events?since=" + S.version);
  if (!r.ok && r.status >= 400 && r.status < 500 && r.status !== 429) { linkFailed(r.error); return; }
  if (!r.ok) { S.conn = "reconnecting"; update(); }
  else {
    S.conn = "delayed";
    if (r.version !== S.version || !S.view) await refreshBroadcast();
    update();
  }
  if (!S.linkError) S.bcastTimer = setTimeout(pollBroadcast, POLL_EVERY);
}

function startBroadcast() {
  S.bcast = { mode: "table", seatViews: {}, waiting: null };
  S.conn = "delayed";
  update();
  pollBroadcast();
}

async function start() {
  const main = document.getElementById("arena-match");
  if (!main) return;
  S.boot = JSON.parse(main.dataset.boot);
  setGameForLinks(S.boot.game);
  S.token = new URLSearchParams(location.search).get("token") || "";
  root = main;
  main.textContent = "";
  addSkipLink();
  update();
  // A bad, revoked or expired link is said at once, not left "connecting".
  const first = await call("GET", "/view");
  // G-15: a broadcast before its first delay has passed has nothing to show yet; it waits.
  if (first.status === 425 || first.role === "broadcast") {
    setInterval(() => { if (S.view && !S.view.result) update(); }, 250);
    startBroadcast();
    return;
  }
  if (!first.ok && first.status >= 400 && first.status < 500) { linkFailed(first.error); return; }
  if (first.ok) {
    delete first.ok;
    delete first.status;
    S.view = first;
    S.offset = first.now - Date.now() / 1000;
    update();
    if (first.result) followRematch(false); // an old page shows the way, without moving
  }
  setInterval(() => { if (S.view && !S.view.result) update(); }, 250);
  setInterval(heartbeat, 250); // checked often, so a silence is said within 4 s (pings go every second)
  // Back online: reconnect at once (not after the back-off) and send what waited (G-2).
  window.addEventListener("offline", () => { if (S.conn === "live" && S.ws) giveUp(S.ws); });
  window.addEventListener("online", () => { reconnectNow(); flushUnsent(); });
  // A phone's browser freezes a hidden tab's timers and sockets: shown again, the page tries at
  // once rather than after whatever back-off it had reached.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  connect();
}

document.addEventListener("keydown", (e) => {
  if (S.replay && (e.key === "PageUp" || e.key === "PageDown") && !(e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName) && e.target.type !== "range")) {
    e.preventDefault();
    showReplay(phaseStep(S.replayIndex, e.key === "PageUp" ? -1 : 1));
    return;
  }
  if (e.target && e.target.dataset && e.target.dataset.testid === "replay-slider") return;
  if (S.replay && (e.key === "ArrowLeft" || e.key === "ArrowRight") && !(e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName))) {
    e.preventDefault();
    showReplay(S.replayIndex + (e.key === "ArrowLeft" ? -1 : 1));
  }
});

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
