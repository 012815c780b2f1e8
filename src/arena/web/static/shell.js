/* The match shell (docs/CONTRACT.md): phase, live countdown, reserve, notation box, Submit,
   Confirm as final, public log, private panel, result, replay viewer, host controls.
   A game's own /static/games/<name>.js draws the board and its controls through
   Arena.registerGame(name, {render(root, view, api), describe?(event, view)}). */
(function () {
  "use strict";

  const games = {};
  const S = {
    boot: null, token: "", view: null, events: [], seen: new Set(), version: 0,
    offset: 0, ws: null, retry: 0, replay: null, replayIndex: null, started: false,
  };

  const Arena = (window.Arena = {
    registerGame(name, impl) {
      games[name] = impl;
      if (S.started) renderGame();
    },
    games: games,
    state: S,
    /* A plain button for a game's controls (tests find it by data-testid). */
    button(label, testid, fn, cls) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.dataset.testid = testid;
      if (cls) b.className = cls;
      b.addEventListener("click", fn);
      return b;
    },
  });

  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  function seatName(seat) {
    const names = (S.view && S.view.match && S.view.match.names) || [];
    return names[seat] || "Seat " + (Number(seat) + 1);
  }

  /* The phase this page is answering: a submission that arrives after it closed is refused as
     late (G-2) instead of being read as an answer to the next phase. */
  function phaseNo() {
    return S.view && S.view.phase ? S.view.phase.no : undefined;
  }

  async function call(method, path, body) {
    const sep = path.includes("?") ? "&" : "?";
    const url = "/api/matches/" + S.boot.id + path + sep + "token=" + encodeURIComponent(S.token);
    const opts = { method: method, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    try {
      const res = await fetch(url, opts);
      let data = null;
      try { data = await res.json(); } catch (e) { data = null; }
      if (res.ok) return Object.assign({ ok: true }, data || {});
      return { ok: false, error: (data && data.error) || "HTTP " + res.status };
    } catch (e) {
      return { ok: false, error: "network: the server could not be reached" };
    }
  }

  function showError(msg) {
    $("submit-error").textContent = msg || "";
    if (msg) $("submit-status").textContent = "";
  }
  function showStatus(msg) {
    $("submit-status").textContent = msg || "";
    if (msg) $("submit-error").textContent = "";
  }

  async function submit(text, final) {
    const r = await call("POST", "/submit", { text: String(text), final: !!final, phase: phaseNo() });
    if (r.ok) showStatus(r.final ? "Accepted as final." : "Accepted. You may still change it.");
    else showError(r.error);
    return r.ok ? { ok: true, final: r.final, value: r.value } : { ok: false, error: r.error };
  }

  async function confirmFinal() {
    const r = await call("POST", "/confirm", { phase: phaseNo() });
    if (r.ok) showStatus("Confirmed as final.");
    else showError(r.error);
    return r.ok ? { ok: true } : { ok: false, error: r.error };
  }

  function makeApi(view, readOnly) {
    return {
      seat: S.view ? S.view.you : null,
      role: S.view ? S.view.role : null,
      replay: !!readOnly,
      view: view,
      events: S.events,
      names: (S.view && S.view.match && S.view.match.names) || [],
      submit: readOnly ? () => Promise.resolve({ ok: false, error: "replay: the replay viewer cannot submit" }) : submit,
      confirm: readOnly ? () => Promise.resolve({ ok: false, error: "replay" }) : confirmFinal,
      setNotation(text) { $("notation").value = text; },
      showError: showError,
      seatName: seatName,
    };
  }

  // ------------------------------------------------------------------ rendering
  function fallbackBoard(root, view) {
    const svg = view.svg ? '<div class="svg-board">' + view.svg + "</div>" : "";
    root.innerHTML = svg + '<details class="state-details"' + (view.svg ? "" : " open") + '><summary>Game state (as JSON)</summary><pre class="state-json" data-testid="state-json">' + esc(JSON.stringify(view.state, null, 2)) + "</pre></details>";
  }

  function renderGame() {
    const view = S.replay || S.view;
    if (!view) return;
    const root = $("game-root");
    const impl = games[S.boot.game];
    if (impl && typeof impl.render === "function") {
      try {
        impl.render(root, view, makeApi(view, !!S.replay));
      } catch (e) {
        console.error(e);
        fallbackBoard(root, view);
      }
    } else {
      fallbackBoard(root, view);
    }
  }

  function fmtClock(sec) {
    if (sec < 0) sec = 0;
    if (sec < 10) return sec.toFixed(1) + "s";
    const s = Math.floor(sec);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const two = (n) => String(n).padStart(2, "0");
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(r);
  }

  function tick() {
    const v = S.view;
    const box = $("countdown");
    if (!v) return;
    box.classList.remove("low");
    if (v.result) { box.textContent = "Final"; box.dataset.state = "finished"; return; }
    if (v.paused) { box.textContent = "Paused"; box.dataset.state = "paused"; return; }
    if (!v.phase || v.phase.next_deadline == null) { box.textContent = "--:--"; return; }
    const left = v.phase.next_deadline - (Date.now() / 1000 + S.offset);
    box.textContent = fmtClock(left);
    box.dataset.state = "running";
    box.dataset.deadline = String(v.phase.next_deadline);
    if (left < 10) box.classList.add("low");
  }

  function describe(e) {
    const d = e.data || {};
    const you = S.view ? S.view.you : null;
    const who = (seat) => (seat === you ? "You" : esc(seatName(seat)));
    switch (e.kind) {
      case "match_started": return "Match started";
      case "phase_started": return "<b>Phase " + d.no + ": " + esc(d.name) + "</b>" + (d.prompt ? ' <span class="muted">— ' + esc(d.prompt) + "</span>" : "");
      case "seat_acted": return who(d.seat) + (d.final ? " submitted (final)" : " submitted");
      case "submit": return who(d.seat) + " sent <code>" + esc(d.text) + "</code>" + (d.final ? " as final" : "") + (d.bot ? " (bot)" : "");
      case "accepted": return null;
      case "confirm": return who(d.seat) + " confirmed as final";
      case "limit_passed": return "Time limit of " + esc(d.phase) + " passed";
      case "reserve_period": return who(d.seat) + " in reserve period " + d.period + " (" + d.left + " left)";
      case "reserve_exhausted": return who(d.seat) + " ran out of reserve";
      case "phase_resolved": return "Phase " + d.no + " (" + esc(d.name) + ") resolved" + (d.missing && d.missing.length ? "; nothing from " + d.missing.map(who).join(", ") : "");
      case "match_ended": return "<b>Match over</b>: " + (d.winner == null ? "no single winner" : who(d.winner) + (d.winner === you ? " win" : " wins")) + " — " + esc(d.reason);
      case "pause": return "The host paused the match";
      case "resume": return "The host resumed the match";
      case "extend": return "The host added " + d.seconds + " s";
      case "end": return "The host ended the match: " + esc(d.reason || "");
      default: {
        const impl = games[S.boot.game];
        if (impl && typeof impl.describe === "function") {
          try { const t = impl.describe(e, S.view); if (t != null) return t; } catch (err) { console.error(err); }
        }
        const data = e.data == null ? "" : " <code>" + esc(JSON.stringify(e.data)).slice(0, 300) + "</code>";
        return esc(e.kind.replace(/_/g, " ")) + data;
      }
    }
  }

  function renderLog() {
    const ol = $("log");
    const items = [];
    for (const e of S.events) {
      const text = describe(e);
      if (text == null) continue;
      const priv = e.to !== null && e.to !== undefined;
      const time = new Date(e.t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
      const cls = (priv ? "private" : "") + (S.replayIndex != null && S.events[S.replayIndex] && S.events[S.replayIndex].version === e.version ? " current" : "");
      items.push('<li class="' + cls + '" data-version="' + e.version + '"><span class="v">' + e.version + "</span><span class=\"t\">" + time + "</span> " + (priv ? '<span class="tag priv" title="only you (and the host) see this">private</span> ' : "") + text + "</li>");
    }
    ol.innerHTML = items.reverse().join("");
    $("log-version").textContent = "version " + S.version;
  }

  function renderSeats(v) {
    const waiting = new Set((v.phase && v.phase.waiting_for) || []);
    const rows = v.seats.map((s) => {
      const bot = v.match.bots[s.seat] ? ' <span class="tag">bot</span>' : "";
      const you = v.you === s.seat ? ' <span class="tag you">you</span>' : "";
      let st = "";
      if (v.result) st = v.result.scores ? "score " + v.result.scores[s.seat] : "";
      else if (s.final) st = '<span class="ok-text">✓ final</span>';
      else if (s.acted) st = "submitted";
      else if (waiting.has(s.seat)) st = '<span class="muted">thinking…</span>';
      const reserve = v.phase && v.phase.reserve || s.reserve_left > 0 ? '<span class="reserve" data-testid="reserve-' + s.seat + '">reserve ' + s.reserve_left + "</span>" : "";
      const inRes = s.in_reserve_until ? ' <span class="tag warn">in reserve</span>' : "";
      return '<li data-testid="seat-' + s.seat + '"><span class="seat-no">' + (s.seat + 1) + '</span><span class="seat-name">' + esc(seatName(s.seat)) + bot + you + inRes + '</span><span class="seat-state">' + st + "</span>" + reserve + "</li>";
    });
    $("seat-list").innerHTML = rows.join("");
  }

  function renderPrivate(v) {
    const body = $("private-body");
    if (v.role === "spectator") { body.innerHTML = '<p class="muted">Spectators see public information only (G-9).</p>'; return; }
    const parts = [];
    const seats = v.role === "host" ? v.seats : v.seats.filter((s) => s.seat === v.you);
    if (v.role === "host") parts.push('<p class="muted">The host sees every seat\'s private state (G-9).</p>');
    for (const s of seats) {
      const subs = s.submissions || [];
      const label = v.role === "host" ? esc(seatName(s.seat)) : "Your submissions this phase";
      if (!subs.length) { if (v.role !== "host") parts.push('<p class="muted">You have not submitted in this phase.</p>'); continue; }
      parts.push("<h3>" + label + "</h3><ul class=\"subs\">" + subs.map((x) => "<li><code>" + esc(x.text) + "</code> <span class=\"muted\">at " + x.at.toFixed(1) + " s" + (x.final ? " · final" : "") + "</span></li>").join("") + "</ul>");
    }
    if (v.role === "seat" && (v.seats.some((s) => s.reserve_left > 0) || (v.phase && v.phase.reserve))) {
      parts.push('<p class="muted small">Your reserve: <b data-testid="my-reserve">' + v.seats[v.you].reserve_left + "</b> period(s) left.</p>");
    }
    if (v.role === "seat") {
      const mine = S.events.filter((e) => e.to && e.to.length && e.kind !== "submit" && e.kind !== "accepted" && e.kind !== "confirm").slice(-6);
      if (mine.length) parts.push("<h3>Private news</h3><ul class=\"subs\">" + mine.map((e) => "<li>" + describe(e) + "</li>").join("") + "</ul>");
    }
    body.innerHTML = parts.join("") || '<p class="muted">Nothing private yet.</p>';
  }

  function renderResult(v) {
    const box = $("result");
    if (!v.result) { box.hidden = true; return; }
    const r = v.result;
    const winner = r.winner == null ? "No single winner" : esc(seatName(r.winner)) + " wins";
    const scores = (r.scores || []).map((x, i) => "<li>" + esc(seatName(i)) + ": <b>" + x + "</b></li>").join("");
    box.innerHTML = '<p class="eyebrow">Result</p><h2 data-testid="winner">' + winner + "</h2><p>" + esc(r.reason) + '</p><ul class="scores">' + scores + "</ul>" + (v.match.seed != null ? '<p class="muted small">Seed ' + v.match.seed + "</p>" : "");
    box.hidden = false;
  }

  function render() {
    const v = S.view;
    if (!v) return;
    const role = v.role === "seat" ? "Seat " + (v.you + 1) + " · " + seatName(v.you) : v.role === "host" ? "Host" : "Spectator";
    $("role-badge").textContent = role;
    $("phase-name").textContent = v.result ? "Match over" : v.phase ? v.phase.name.charAt(0).toUpperCase() + v.phase.name.slice(1) + (v.paused ? " (paused)" : "") : "…";
    $("phase-prompt").textContent = v.phase ? "Phase " + v.phase.no + (v.phase.prompt ? " · " + v.phase.prompt : "") : "";
    let note = "";
    if (v.phase && v.phase.base_passed) note = "reserve time";
    else if (v.phase) note = v.phase.reserve ? "time limit (then reserve)" : "time limit";
    const hasReserve = (v.phase && v.phase.reserve) || v.seats.some((s) => s.reserve_left > 0);
    if (v.role === "seat" && hasReserve) note += (note ? " · " : "") + "your reserve: " + v.seats[v.you].reserve_left;
    $("clock-note").textContent = note;
    $("notation-help").textContent = v.help ? "— " + v.help : "";
    $("controls").hidden = v.role !== "seat";
    const closed = !!v.result;
    for (const id of ["submit", "submit-final", "confirm", "notation"]) $(id).disabled = closed;
    $("host-controls").hidden = v.role !== "host" || closed;
    renderSeats(v);
    renderPrivate(v);
    renderResult(v);
    renderLog();
    renderReplayControls();
    renderGame();
    tick();
  }

  // ------------------------------------------------------------------ replay viewer
  function renderReplayControls() {
    const slider = $("replay-slider");
    slider.max = String(Math.max(1, S.events.length));
    if (S.replayIndex == null) slider.value = slider.max;
  }

  async function showReplay(index) {
    if (!S.events.length) return;
    index = Math.max(0, Math.min(S.events.length - 1, index));
    S.replayIndex = index;
    const e = S.events[index];
    $("replay-slider").value = String(index + 1);
    $("replay-caption").textContent = "Entry " + (index + 1) + " of " + S.events.length + " (version " + e.version + ")";
    const r = await call("GET", "/replay?version=" + e.version);
    if (!r.ok) { $("replay-caption").textContent = r.error; return; }
    if (S.replayIndex !== index) return;
    delete r.ok;
    S.replay = r;
    $("replay-banner").hidden = false;
    $("replay-at").textContent = String(index + 1) + " (version " + e.version + ")";
    renderLog();
    renderGame();
  }

  function exitReplay() {
    S.replay = null;
    S.replayIndex = null;
    $("replay-banner").hidden = true;
    $("replay-caption").textContent = "Step through every entry of the log.";
    render();
  }

  // ------------------------------------------------------------------ live connection
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
    const r = await call("GET", "/events?since=0");
    if (r.ok) { absorb(r.events); render(); }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = proto + "//" + location.host + "/ws/" + S.boot.id + "?token=" + encodeURIComponent(S.token) + "&since=" + S.version;
    const ws = new WebSocket(url);
    S.ws = ws;
    ws.onopen = () => { S.retry = 0; setConn("live"); };
    ws.onmessage = (msg) => {
      let data;
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      if (data.type === "update") {
        const wasFinished = S.view && S.view.result;
        absorb(data.events);
        S.version = Math.max(S.version, data.version);
        S.view = data.view;
        S.offset = data.view.now - Date.now() / 1000;
        render();
        if (data.view.result && !wasFinished) refetchAll(); // G-9: private entries revealed at the end
      }
    };
    ws.onclose = (ev) => {
      setConn("offline");
      if (ev.code >= 4400 && ev.code < 4405) { showError("access: " + (ev.reason || "this link is not valid")); $("phase-name").textContent = "No access"; return; }
      S.retry += 1;
      setTimeout(connect, Math.min(5000, 200 * Math.pow(2, S.retry)));
    };
  }

  function setConn(state) {
    const c = $("conn");
    c.textContent = state;
    c.dataset.state = state;
  }

  function start() {
    const main = $("arena-match");
    if (!main) return;
    S.boot = JSON.parse(main.dataset.boot);
    S.token = new URLSearchParams(location.search).get("token") || "";
    S.started = true;
    $("submit").addEventListener("click", () => submit($("notation").value, false));
    $("submit-final").addEventListener("click", () => submit($("notation").value, true));
    $("confirm").addEventListener("click", () => confirmFinal());
    $("notation").addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) submit($("notation").value, false);
    });
    for (const b of document.querySelectorAll("[data-host]")) {
      b.addEventListener("click", async () => {
        const action = b.dataset.host;
        if (action === "end" && !confirm("End the match now?")) return;
        const body = action === "extend" ? { seconds: Number($("extend-seconds").value) } : {};
        const r = await call("POST", "/host/" + action, body);
        $("host-error").textContent = r.ok ? "" : r.error;
      });
    }
    $("replay-slider").addEventListener("input", (ev) => showReplay(Number(ev.target.value) - 1));
    $("replay-prev").addEventListener("click", () => showReplay((S.replayIndex == null ? S.events.length - 1 : S.replayIndex) - 1));
    $("replay-next").addEventListener("click", () => showReplay((S.replayIndex == null ? S.events.length - 1 : S.replayIndex) + 1));
    $("replay-first").addEventListener("click", () => showReplay(0));
    $("replay-last").addEventListener("click", () => showReplay(S.events.length - 1));
    $("replay-exit").addEventListener("click", exitReplay);
    setInterval(tick, 100);
    connect();
  }

  Arena.submit = submit;
  Arena.confirm = confirmFinal;
  document.addEventListener("DOMContentLoaded", start);
})();
