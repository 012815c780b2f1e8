/* Light as a Feather: the board (the server's SVG: buckets, basins, objectives, cooldowns,
   locks, the ankh), a status line, and the controls of each phase, which compose the game's
   notation and send it:
   - study phases: Ready ("ready");
   - ticks: an action composer (verb, basin, buckets, number) previewing the notation
     ("fill Z A", "transfer A -> B", "complete A+B 2", "modify B -2", "sip opp B", ...), Send and
     Pass. The last action sent in a tick is the one processed at the next boundary (LF-2).
   The composer is a Preact component with its own state, so the tick that redraws the board
   every second leaves the player's choices, focus and typing alone (issue 14, point 2). */
import { html, useState, fmtNum, registerGame } from "/static/ui.js";

const VERBS = ["fill", "drain", "transfer", "complete", "exchange", "modify", "sip", "lock", "accelerate"];
const POWER = { exchange: 1, modify: 1, sip: 1, lock: 1, accelerate: 1 };
const USES = {
  fill: ["basin", "b1"], drain: ["basinOpt", "b1"], transfer: ["b1", "b2"], complete: ["picks", "objective"],
  exchange: ["b1", "b2"], modify: ["b1", "number"], sip: ["opp", "b1"], lock: ["b1"], accelerate: ["basin", "number"],
};

function compose(d) {
  const picks = Object.keys(d.picks).filter((k) => d.picks[k]).sort();
  switch (d.verb) {
    case "fill": return "fill " + d.basin + " " + d.b1;
    case "drain": return "drain " + d.b1 + (d.basin ? " -> " + d.basin : "");
    case "transfer": return "transfer " + d.b1 + " -> " + d.b2;
    case "complete": return "complete " + (picks.join("+") || d.b1) + " " + (d.objective || "?");
    case "exchange": return "exchange " + d.b1 + " " + d.b2;
    case "modify": return "modify " + d.b1 + " " + (Number(d.number) > 0 ? "+" : "") + d.number;
    case "sip": return "sip " + (d.opp ? "opp " : "") + d.b1;
    case "lock": return "lock " + d.b1;
    case "accelerate": return "accelerate " + d.basin + " " + d.number;
    default: return "pass";
  }
}

function Select({ testid, label, options, value, onChange }) {
  return html`<label class="field"><span class="field-label">${label}</span>
    <select data-testid=${testid} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      ${options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
    </select></label>`;
}

function Status({ st, you, api }) {
  const sess = st.session || {};
  let line = (sess.name || "") + (sess.practice ? " (practice)" : "") + " · session " + ((sess.index || 0) + 1) + " of " + (sess.count || 1);
  if (st.stage === "tick") line += " · tick " + st.tick + " of " + st.ticks;
  else if (st.stage === "study") line += " · study time";
  else line += " · over";
  const pts = (st.seats || []).map((s, i) => api.seatName(i) + " " + fmtNum(s.points)).join(" · ");
  let mine = null;
  if (you != null && st.seats && st.seats[you]) {
    const me = st.seats[you];
    const held = Object.keys(me.powerups).filter((p) => me.powerups[p]).map((p) => me.powerups[p] + " " + p).join(", ");
    mine = html`<p data-testid="feather-mine">You: ${me.can_fill_next ? "fill ready" : "fill blocked until tick " + me.fill_ready_at} · powerups: ${held || "none"}${st.ankh === you ? " · you hold the ankh ☥" : ""}</p>`;
  }
  const last = st.last || [];
  return html`<div class="feather-info" data-testid="feather-info">
    <p data-testid="feather-status">${line} · points ${pts}</p>
    ${mine}
    ${last.length ? html`<h3 class="small-head">Last boundary</h3><ul data-testid="feather-last">${last.map((o) => html`<li>${api.seatName(o.seat)} <code>${o.action}</code>: ${o.done ? "done" : "void"}${o.note ? " (" + o.note + ")" : ""}</li>`)}</ul>` : ""}
  </div>`;
}

function Composer({ view, api }) {
  const st = view.state || {};
  const [d, setD] = useState({ verb: "fill", basin: "", b1: "A", b2: "B", number: "1", opp: false, picks: {}, objective: "" });
  const set = (patch) => setD(Object.assign({}, d, patch));
  const Msg = window.Arena.Msg;
  const send = (text, final) => api.submit(text, !!final, "feather");
  if (!view.phase || api.seat == null || api.replay || st.stage === "over") return null;
  if (st.stage === "study") {
    return html`<div class="feather-controls" data-testid="feather-controls">
      <button type="button" data-testid="feather-ready" onClick=${() => send("ready", true)}>Ready</button>
      <${Msg} source="feather" testid="feather-msg" okTestid="feather-msg-ok"/>
    </div>`;
  }
  const me = st.seats[api.seat];
  const buckets = me.buckets.map((b) => [b.name, b.name + " (" + fmtNum(b.water) + "/" + fmtNum(b.capacity) + ")"]);
  const theirs = st.seats[1 - api.seat].buckets.map((b) => [b.name, b.name]);
  const basins = st.basins.map((b) => [b.name, b.name + " (" + fmtNum(b.amount) + ")"]);
  const objectives = st.objectives.map((o) => [String(o.id), o.id + ". " + o.text]);
  // Choices that no longer exist (a basin ran dry) fall back to the first that does.
  const dd = Object.assign({}, d);
  if (!basins.some(([v]) => v === dd.basin)) dd.basin = basins.length ? basins[0][0] : "";
  if (!buckets.some(([v]) => v === dd.b2)) dd.b2 = buckets.length > 1 ? buckets[1][0] : "A";
  if (!objectives.some(([v]) => v === dd.objective)) dd.objective = objectives.length ? objectives[0][0] : "";
  const uses = USES[dd.verb] || [];
  const b1list = dd.verb === "lock" || (dd.verb === "sip" && dd.opp) ? theirs : buckets;
  if (!b1list.some(([v]) => v === dd.b1)) dd.b1 = b1list.length ? b1list[0][0] : "A";
  const range = dd.verb === "modify" ? ["-2", "-1", "0", "1", "2"] : ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
  if (uses.includes("number") && !range.includes(dd.number)) dd.number = range[dd.verb === "modify" ? 3 : 0];
  const text = compose(dd);
  const verbs = VERBS.map((v) => [v, v + (POWER[v] ? " (" + (me.powerups[v] || 0) + " held)" : "")]);
  return html`<div class="feather-controls" data-testid="feather-controls">
    <div class="feather-row">
      <${Select} testid="feather-verb" label="Action" options=${verbs} value=${dd.verb} onChange=${(v) => set({ verb: v })}/>
      ${uses.includes("basin") ? html`<${Select} testid="feather-basin" label="Basin" options=${basins} value=${dd.basin} onChange=${(v) => set({ basin: v })}/>` : ""}
      ${uses.includes("basinOpt") ? html`<${Select} testid="feather-basin" label="Into" options=${[["", "(spill)"]].concat(basins)} value=${d.basin} onChange=${(v) => set({ basin: v })}/>` : ""}
      ${uses.includes("opp") ? html`<label class="check"><input type="checkbox" data-testid="feather-opp" checked=${dd.opp} onChange=${(e) => set({ opp: e.currentTarget.checked })}/> opponent's bucket</label>` : ""}
      ${uses.includes("b1") ? html`<${Select} testid="feather-bucket-1" label="Bucket" options=${b1list} value=${dd.b1} onChange=${(v) => set({ b1: v })}/>` : ""}
      ${uses.includes("b2") ? html`<${Select} testid="feather-bucket-2" label=${dd.verb === "transfer" ? "To" : "With"} options=${buckets} value=${dd.b2} onChange=${(v) => set({ b2: v })}/>` : ""}
      ${uses.includes("picks") ? html`<fieldset class="picks"><legend>Buckets</legend>${buckets.map(([name, label]) => html`<label class="check"><input type="checkbox" data-testid=${"feather-pick-" + name}
          checked=${!!d.picks[name]} onChange=${(e) => set({ picks: Object.assign({}, d.picks, { [name]: e.currentTarget.checked }) })}/> ${label}</label>`)}</fieldset>` : ""}
      ${uses.includes("objective") ? html`<${Select} testid="feather-objective" label="Objective" options=${objectives} value=${dd.objective} onChange=${(v) => set({ objective: v })}/>` : ""}
      ${uses.includes("number") ? html`<${Select} testid="feather-number" label="Amount" options=${range.map((x) => [x, x])} value=${dd.number} onChange=${(v) => set({ number: v })}/>` : ""}
    </div>
    <div class="control-row">
      <span>Action: <code data-testid="feather-preview">${text}</code></span>
      <button type="button" data-testid="feather-send" onClick=${() => send(text)}>Send</button>
      <button type="button" class="secondary" data-testid="feather-pass" onClick=${() => send("pass")}>Pass</button>
    </div>
    <${Msg} source="feather" testid="feather-msg" okTestid="feather-msg-ok"/>
  </div>`;
}

function Board({ view, api }) {
  const st = view.state || {};
  return html`<div class="feather">
    ${view.svg ? html`<div class="svg-board" data-testid="feather-board" dangerouslySetInnerHTML=${{ __html: view.svg }}></div>` : ""}
    <${Status} st=${st} you=${api.seat} api=${api}/>
    <${Composer} view=${view} api=${api}/>
  </div>`;
}

function describe(e) {
  const d = e.data || {};
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const name = (seat) => esc(window.Arena.state.view ? ((window.Arena.state.view.match.names || [])[seat] || "Seat " + (seat + 1)) : "Seat " + (seat + 1));
  switch (e.kind) {
    case "tick":
      if (!d.outcomes || !d.outcomes.length) return esc(d.session) + ", tick " + d.tick + ": nobody acted";
      return esc(d.session) + ", tick " + d.tick + ": " + d.outcomes.map((o) => name(o.seat) + " <code>" + esc(o.action) + "</code>" + (o.done ? "" : " (void)") + (o.note ? " — " + esc(o.note) : "")).join("; ");
    case "session_started": return "<b>" + esc(d.session) + "</b> begins";
    case "session_over": return "<b>" + esc(d.session) + "</b> over: points " + d.points.map(fmtNum).join(" / ") + ", water " + d.water.map(fmtNum).join(" / ");
    default: return null;
  }
}

registerGame("feather", { Board, describe });
