/* Playback: a finished match (or a broadcast past its delay, G-15) watched as it unfolded.

   A clock of its own runs over the log's times (``event.t``, match time in seconds) at the
   chosen speed; every entry whose time has come is shown, and the board is the replay view at
   the last entry reached. It drives the replay viewer's own state (``S.replayIndex``,
   ``S.replay``, ``S.replayCaption``), so the board, the chat (filtered by ``S.replayIndex``) and
   the replay controls follow it, and a step of the replay controls moves it.

   The view is asked for only at the last entry reached, one request at a time: at 60x many
   entries land within one tick, and a request per entry would spend the server's replay
   budget (REPLAY_LIMIT, about 20 a second per address) in a second. Nothing plays until the
   reader presses Play. */
import { html, fmtClock } from "/static/ui.js";
import { phaseName } from "/static/words.js";

export const SPEEDS = [1, 2, 5, 10, 30, 60];

/* With "skip quiet stretches", a stretch of more than this many seconds of match time with
   nothing logged is shortened to it: an untimed phase that waited a day for the host plays in
   ten seconds, not 24 minutes at 60x. */
export const QUIET = 10;

const TICK_MS = 200; // the clock's step: five redraws a second whatever the speed
const RETRY_MS = 1000; // after a 429 (the replay budget), the view is asked again this much later
const RUN_MAX = 12; // a run of phases of one name (a real-time game's ticks) lists at most this many

/* Whether a view may be played back: a finished match, for any reader; a broadcast, whose
   log ends one delay ago (G-15). A running match's seat may not watch its own past at speed
   while the match goes on. */
export function playbackAvailable(view) {
  return !!view && (!!view.result || view.role === "broadcast");
}

/* Elapsed match time as "03:07", "1:02:03" (never the tenths fmtClock gives under 10 s). */
export function fmtElapsed(sec) {
  const s = Math.max(0, Math.floor(Number(sec) || 0));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return (h ? h + ":" + two(m) : two(m)) + ":" + two(r);
}

/* The last entry whose time ``at`` has reached, going forward from ``from`` only: the clock
   never steps back by itself (entries logged at one instant are reached together). */
export function reached(events, from, at) {
  let i = Math.max(0, from);
  while (i + 1 < events.length && events[i + 1].t <= at) i += 1;
  return i;
}

/* ``at`` past the middle of a quiet stretch after entry ``index`` moves on to its last
   QUIET/2 seconds: half the quiet shown after the entry, half before the next. */
export function skipQuiet(events, index, at) {
  const cur = events[index], next = events[index + 1];
  if (!cur || !next || next.t - cur.t <= QUIET) return at;
  const half = QUIET / 2;
  return at > cur.t + half && at < next.t - half ? next.t - half : at;
}

/* The phases a reader may jump to: every ``phase_started`` entry, named in the game's words
   with its moment ("Pick · 00:42"); a long run of phases of one name (a real-time game's
   ticks) is thinned to at most RUN_MAX of them. */
export function phaseStarts(events, view, impl) {
  const starts = [];
  events.forEach((e, index) => { if (e.kind === "phase_started") starts.push({ index, e }); });
  const t0 = events.length ? events[0].t : 0;
  const out = [];
  for (let a = 0; a < starts.length;) {
    const name = (starts[a].e.data || {}).name;
    let b = a;
    while (b + 1 < starts.length && (starts[b + 1].e.data || {}).name === name) b += 1;
    const step = Math.ceil((b - a + 1) / RUN_MAX);
    for (let k = a; k <= b; k += step) {
      const { index, e } = starts[k];
      out.push({ index, t: e.t, label: phaseName(name, view, impl) + " · " + fmtElapsed(e.t - t0) });
    }
    a = b + 1;
  }
  return out;
}

/* The playback of the shell's log. ``state`` is the shell's state (``events``, ``view``,
   ``replay``, ``replayIndex``, ``replayCaption``), ``update()`` redraws the page,
   ``load(version)`` answers the replay view at that entry as the shell's ``call`` does
   (``{ok, status, error, ...view}``), ``impl()`` the game's registered module (its words).

   Returns ``{available, play, pause, toggle, jump, setSpeed, setSkip, stop, upTo, clock,
   status, Controls}``. */
export function createPlayback({ state: S, update, load, impl }) {
  const P = {
    playing: false, speed: 1, skip: false,
    // ``at`` is the virtual now (match time); ``index`` the entry playback last showed;
    // ``engaged`` once the reader played or jumped, until the replay is left.
    at: null, index: null, engaged: false, wall: 0, timer: null,
    want: null, busy: false,
  };
  const game = () => (typeof impl === "function" ? impl() : impl);

  function available() { return playbackAvailable(S.view) && S.events.length > 0; }

  /* Show entry ``i``: the caption and the chat follow at once, the board when its view comes. */
  function show(i) {
    P.index = i;
    S.replayIndex = i;
    S.replayCaption = "Entry " + (i + 1) + " of " + S.events.length;
    P.want = i;
    pump();
  }

  /* One replay request at a time, always for the entry wanted last: entries reached while one
     is on its way are skipped, never asked for one by one. */
  async function pump() {
    if (P.busy) return;
    P.busy = true;
    try {
      while (P.want != null) {
        const i = P.want;
        const e = S.events[i];
        if (!e || (S.replay && S.replay.replay_version === e.version)) {
          if (P.want === i) P.want = null;
          continue;
        }
        const r = await load(e.version);
        if (r && r.status === 429) { await new Promise((ok) => setTimeout(ok, RETRY_MS)); continue; }
        if (!r || !r.ok) {
          if (S.replayIndex === i) S.replayCaption = (r && r.error) || "the replay could not be loaded";
          if (P.want === i) P.want = null;
          pause();
          continue;
        }
        if (S.replayIndex === i) {
          const view = Object.assign({}, r);
          delete view.ok;
          delete view.status;
          S.replay = view;
          update();
        }
        if (P.want === i) P.want = null;
      }
    } finally {
      P.busy = false;
    }
  }

  function tick() {
    if (!P.playing) return;
    const evs = S.events;
    // "Back to live" left the replay: nothing left to play.
    if (!evs.length || S.replayIndex == null) { pause(); return; }
    // The reader stepped (the replay's buttons, slider or keys): play on from there.
    if (S.replayIndex !== P.index) { P.index = Math.min(S.replayIndex, evs.length - 1); P.at = evs[P.index].t; }
    const wall = performance.now();
    let at = Math.max(P.at, evs[P.index].t) + ((wall - P.wall) / 1000) * P.speed;
    P.wall = wall;
    if (P.skip) at = skipQuiet(evs, P.index, at);
    const last = evs.length - 1;
    const end = evs[last].t;
    const i = reached(evs, P.index, at);
    P.at = Math.min(at, Math.max(end, evs[i].t));
    if (i !== P.index) show(i);
    // The end: the last entry stays shown (with the result, once its view comes).
    if (i === last && P.at >= end) { pause(); return; }
    update();
  }

  function play() {
    const evs = S.events;
    if (!evs.length || P.playing) return;
    const last = evs.length - 1;
    let i = S.replayIndex;
    if (i == null || i >= last) { i = 0; P.at = evs[0].t; } // from the start (again)
    else if (i !== P.index || P.at == null || P.at < evs[i].t) P.at = evs[i].t;
    P.engaged = true;
    P.playing = true;
    P.wall = performance.now();
    show(i);
    P.timer = setInterval(tick, TICK_MS);
    update();
  }

  function pause() {
    if (P.timer != null) clearInterval(P.timer);
    P.timer = null;
    if (!P.playing) return;
    P.playing = false;
    update();
  }

  function toggle() { if (P.playing) pause(); else play(); }

  /* Jump to entry ``index`` (a phase's start): playing goes on from there, a pause stays. */
  function jump(index) {
    const evs = S.events;
    if (!evs[index]) return;
    P.engaged = true;
    P.at = evs[index].t;
    P.wall = performance.now();
    show(index);
    update();
  }

  function setSpeed(x) {
    const n = Number(x);
    if (!SPEEDS.includes(n)) return;
    if (P.playing) tick(); // the time so far at the old speed
    P.speed = n;
    update();
  }

  function setSkip(on) { P.skip = !!on; update(); }

  /* The replay was left ("Back to live"): playback stops and forgets where it was. */
  function stop() {
    pause();
    P.engaged = false;
    P.index = null;
    P.at = null;
    P.want = null;
  }

  /* The version of the last entry reached while playing back, or null: the log shows the
     entries up to it (the chat already follows ``S.replayIndex``). */
  function upTo() {
    if (!P.engaged || S.replayIndex == null || !S.events[S.replayIndex]) return null;
    return S.events[S.replayIndex].version;
  }

  /* The virtual now: where playback is, else (the reader stepped elsewhere meanwhile) the
     moment of the entry shown. */
  function now() {
    if (P.engaged && P.at != null && P.index === S.replayIndex) return P.at;
    if (S.replay && typeof S.replay.now === "number") return S.replay.now;
    return null;
  }

  /* The clock as it stood at the virtual now, for the replayed view: ``{text, state, note,
     left}`` like the header's clock, or null when no replay is shown. */
  function clock() {
    const v = S.replay;
    const at = now();
    if (!v || at == null) return null;
    if (v.result) return { text: "Final", state: "finished", note: "", left: null };
    if (v.paused) return { text: "Paused", state: "paused", note: "", left: null };
    if (!v.phase) return { text: "—", state: "idle", note: "", left: null };
    if (v.phase.next_deadline == null) return { text: "—", state: "untimed", note: "no time limit", left: null };
    const left = Math.max(0, v.phase.next_deadline - at);
    const note = v.phase.base_passed ? "reserve time" : v.phase.reserve ? "then reserve" : "left in phase";
    return { text: fmtClock(left), state: "running", note, left };
  }

  /* Where playback stands, for the controls and a test: seconds since the first entry, the
     whole length, whether it plays, at what speed. */
  function status() {
    const evs = S.events;
    if (!evs.length) return { elapsed: 0, total: 0, playing: false, speed: P.speed, skip: P.skip };
    const t0 = evs[0].t, end = evs[evs.length - 1].t;
    const mine = P.engaged && P.at != null && P.index === S.replayIndex;
    const at = mine ? P.at : S.replayIndex != null && evs[S.replayIndex] ? evs[S.replayIndex].t : end;
    return { elapsed: Math.max(0, at - t0), total: Math.max(0, end - t0), playing: P.playing, speed: P.speed, skip: P.skip };
  }

  /* The phase the shown entry is in: the last phase start at or before it. */
  function currentStart(starts) {
    if (S.replayIndex == null) return null;
    let cur = null;
    for (const s of starts) if (s.index <= S.replayIndex) cur = s;
    return cur;
  }

  function Controls() {
    if (!available()) return null;
    const st = status();
    const starts = phaseStarts(S.events, S.view, game());
    const cur = currentStart(starts);
    const c = clock();
    const phase = S.replay && S.replay.phase ? phaseName(S.replay.phase.name, S.replay, game()) : null;
    const where = !S.replay ? "" : S.replay.result ? "The match is over." :
      (phase || "Before the first phase") + (c && c.state === "running" ? " · " + c.text + " left" :
        c && c.state === "paused" ? " · paused" : "");
    return html`<div class="playback" data-testid="playback" role="group" aria-label="Playback">
      <div class="control-row">
        <button type="button" class=${"small" + (P.playing ? " secondary" : "")} data-testid="playback-play"
          aria-pressed=${P.playing ? "true" : "false"} onClick=${toggle}>${P.playing ? "Pause" : "Play"}</button>
        <label class="inline small">Speed
          <select data-testid="playback-speed" value=${String(P.speed)}
            onChange=${(e) => setSpeed(e.currentTarget.value)}>
            ${SPEEDS.map((x) => html`<option value=${String(x)}>${x}x</option>`)}
          </select></label>
        <span class="playback-time" data-testid="playback-time" data-elapsed=${st.elapsed.toFixed(3)}
          data-total=${st.total.toFixed(3)} data-playing=${P.playing ? "true" : "false"}>${fmtElapsed(st.elapsed)} of ${fmtElapsed(st.total)}</span>
      </div>
      ${starts.length ? html`<div class="control-row">
        <label class="inline small playback-jump">Jump to phase
          <select data-testid="playback-phase" value=${cur ? String(cur.index) : ""}
            onChange=${(e) => { if (e.currentTarget.value !== "") jump(Number(e.currentTarget.value)); }}>
            ${cur ? "" : html`<option value="">Choose a phase</option>`}
            ${starts.map((s) => html`<option value=${String(s.index)}>${s.label}</option>`)}
          </select></label>
      </div>` : ""}
      <label class="check small"><input type="checkbox" data-testid="playback-skip" checked=${P.skip}
        onChange=${(e) => setSkip(e.currentTarget.checked)}/> Skip quiet stretches (over ${QUIET} s)</label>
      ${where ? html`<p class="small playback-now" data-testid="playback-now">${where}</p>` : ""}
    </div>`;
  }

  return { available, play, pause, toggle, jump, setSpeed, setSkip, stop, upTo, clock, status, Controls };
}
