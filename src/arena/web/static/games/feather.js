/* Light as a Feather: the board (the server's SVG: buckets, basins, objectives, cooldowns,
   locks, the ankh), a short status line, and the controls of each phase, which compose the
   game's notation and submit it:
   - study phases: a Ready button ("ready");
   - ticks: an action composer (verb, basin, buckets, number) with a preview of the notation
     ("fill Z A", "transfer A -> B", "complete A+B 2", "modify B -2", "sip opp B", ...),
     Send, and Pass. The last action sent in a tick is the one processed at the next
     boundary (LF-2); sending again replaces it.
   The draft survives the re-render that every tick causes. */
(function () {
  "use strict";

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const VERBS = ["fill", "drain", "transfer", "complete", "exchange", "modify", "sip", "lock", "accelerate"];
  const POWER = { exchange: 1, modify: 1, sip: 1, lock: 1, accelerate: 1 };
  const draft = { verb: "fill", basin: "", b1: "A", b2: "B", number: "1", opp: false, picks: {}, objective: "", sent: "", msg: "" };

  function compose(st) {
    const picks = Object.keys(draft.picks).filter((k) => draft.picks[k]).sort();
    switch (draft.verb) {
      case "fill": return "fill " + draft.basin + " " + draft.b1;
      case "drain": return "drain " + draft.b1 + (draft.basin ? " -> " + draft.basin : "");
      case "transfer": return "transfer " + draft.b1 + " -> " + draft.b2;
      case "complete": return "complete " + (picks.join("+") || draft.b1) + " " + (draft.objective || "?");
      case "exchange": return "exchange " + draft.b1 + " " + draft.b2;
      case "modify": return "modify " + draft.b1 + " " + (Number(draft.number) > 0 ? "+" : "") + draft.number;
      case "sip": return "sip " + (draft.opp ? "opp " : "") + draft.b1;
      case "lock": return "lock " + draft.b1;
      case "accelerate": return "accelerate " + draft.basin + " " + draft.number;
      default: return "pass";
    }
  }

  function statusHtml(st, you) {
    const sess = st.session || {};
    let line = esc(sess.name || "") + (sess.practice ? " (practice)" : "") + " · session " + ((sess.index || 0) + 1) + " of " + (sess.count || 1);
    if (st.stage === "tick") line += " · tick " + st.tick + " of " + st.ticks;
    else if (st.stage === "study") line += " · study time";
    else line += " · over";
    const pts = (st.seats || []).map((s, i) => "seat " + (i + 1) + ": <b>" + s.points + "</b>").join(" · ");
    let mine = "";
    if (you != null && st.seats && st.seats[you]) {
      const me = st.seats[you];
      const held = Object.keys(me.powerups).filter((p) => me.powerups[p]).map((p) => me.powerups[p] + " " + p).join(", ");
      mine = '<p data-testid="feather-mine">You: ' + (me.can_fill_next ? "fill ready" : "fill blocked until tick " + me.fill_ready_at) + " · powerups: " + esc(held || "none") + (st.ankh === you ? " · you hold the ankh ☥" : "") + "</p>";
    }
    const last = (st.last || []).map((o) => "<li>seat " + (o.seat + 1) + " <code>" + esc(o.action) + "</code>: " + (o.done ? "done" : "void") + (o.note ? " (" + esc(o.note) + ")" : "") + "</li>").join("");
    return '<div class="feather-info" data-testid="feather-info"><p data-testid="feather-status">' + line + " · points " + pts + "</p>" + mine +
      (last ? '<h4>Last boundary</h4><ul data-testid="feather-last">' + last + "</ul>" : "") + "</div>";
  }

  function select(testid, options, value, onchange) {
    const s = document.createElement("select");
    s.dataset.testid = testid;
    for (const [val, label] of options) {
      const o = document.createElement("option");
      o.value = val;
      o.textContent = label;
      if (val === value) o.selected = true;
      s.appendChild(o);
    }
    s.addEventListener("change", () => onchange(s.value));
    return s;
  }

  function controls(view, api, redraw) {
    const st = view.state || {};
    const box = document.createElement("div");
    box.className = "feather-controls";
    box.dataset.testid = "feather-controls";
    if (!view.phase || api.seat == null || api.replay || st.stage === "over") return box;
    const msg = document.createElement("p");
    msg.className = "feather-msg";
    msg.dataset.testid = "feather-msg";
    msg.textContent = draft.msg;
    const send = async (text, final) => {
      api.setNotation(text);
      // Ticks never close early, so a tick's action stays open to change (final = false);
      // "ready" is final so that the study phase can end when both seats are ready (G-4).
      const r = await api.submit(text, !!final);
      draft.msg = r.ok ? "Sent for the next tick: " + text : r.error;
      if (r.ok) draft.sent = text;
      redraw();
    };
    const button = Arena.button;
    if (st.stage === "study") {
      box.appendChild(button("Ready", "feather-ready", () => send("ready", true)));
      box.appendChild(msg);
      return box;
    }
    const me = st.seats[api.seat];
    const buckets = me.buckets.map((b) => [b.name, b.name + " (" + b.water + "/" + b.capacity + ")"]);
    const theirs = st.seats[1 - api.seat].buckets.map((b) => [b.name, b.name]);
    const basins = st.basins.map((b) => [b.name, b.name + " (" + b.amount + ")"]);
    const objectives = st.objectives.map((o) => [String(o.id), o.id + ". " + o.text]);
    if (!basins.some(([v]) => v === draft.basin)) draft.basin = basins.length ? basins[0][0] : "";
    if (!buckets.some(([v]) => v === draft.b1)) draft.b1 = "A";
    if (!buckets.some(([v]) => v === draft.b2)) draft.b2 = buckets.length > 1 ? buckets[1][0] : "A";
    if (!objectives.some(([v]) => v === draft.objective)) draft.objective = objectives.length ? objectives[0][0] : "";

    const row = document.createElement("div");
    row.className = "feather-row";
    const preview = document.createElement("code");
    preview.dataset.testid = "feather-preview";
    const refresh = () => { preview.textContent = compose(st); };
    const change = (key) => (v) => { draft[key] = v; redraw(); };
    const verbs = VERBS.map((v) => [v, v + (POWER[v] ? " (" + (me.powerups[v] || 0) + ")" : "")]);
    row.appendChild(select("feather-verb", verbs, draft.verb, change("verb")));
    const uses = {
      fill: ["basin", "b1"], drain: ["basinOpt", "b1"], transfer: ["b1", "b2"], complete: ["picks", "objective"],
      exchange: ["b1", "b2"], modify: ["b1", "number"], sip: ["opp", "b1"], lock: ["b1"], accelerate: ["basin", "number"],
    }[draft.verb] || [];
    if (uses.includes("basin")) row.appendChild(select("feather-basin", basins, draft.basin, change("basin")));
    if (uses.includes("basinOpt")) row.appendChild(select("feather-basin", [["", "(spill)"]].concat(basins), draft.basin, change("basin")));
    if (uses.includes("opp")) {
      const label = document.createElement("label");
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.dataset.testid = "feather-opp";
      cb.checked = draft.opp;
      cb.addEventListener("change", () => { draft.opp = cb.checked; redraw(); });
      label.appendChild(cb);
      label.appendChild(document.createTextNode(" opponent's"));
      row.appendChild(label);
    }
    if (uses.includes("b1")) {
      const list = draft.verb === "lock" || (draft.verb === "sip" && draft.opp) ? theirs : buckets;
      row.appendChild(select("feather-bucket-1", list, draft.b1, change("b1")));
    }
    if (uses.includes("b2")) row.appendChild(select("feather-bucket-2", buckets, draft.b2, change("b2")));
    if (uses.includes("picks")) {
      for (const [name, label] of buckets) {
        const l = document.createElement("label");
        const cb = document.createElement("input");
        cb.type = "checkbox";
        cb.dataset.testid = "feather-pick-" + name;
        cb.checked = !!draft.picks[name];
        cb.addEventListener("change", () => { draft.picks[name] = cb.checked; refresh(); });
        l.appendChild(cb);
        l.appendChild(document.createTextNode(" " + label + " "));
        row.appendChild(l);
      }
    }
    if (uses.includes("objective")) row.appendChild(select("feather-objective", objectives, draft.objective, change("objective")));
    if (uses.includes("number")) {
      const range = draft.verb === "modify" ? ["-2", "-1", "0", "1", "2"] : ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
      if (!range.includes(draft.number)) draft.number = range[draft.verb === "modify" ? 3 : 0];
      row.appendChild(select("feather-number", range.map((x) => [x, x]), draft.number, change("number")));
    }
    box.appendChild(row);
    const actions = document.createElement("div");
    actions.appendChild(document.createTextNode("Action: "));
    actions.appendChild(preview);
    actions.appendChild(document.createTextNode(" "));
    actions.appendChild(button("Send", "feather-send", () => send(compose(st))));
    actions.appendChild(button("Pass", "feather-pass", () => send("pass")));
    box.appendChild(actions);
    box.appendChild(msg);
    refresh();
    return box;
  }

  // The latest render's arguments: a control's late callback (a submit answered after the
  // next tick's update) redraws the newest view, never the one it was created with.
  let latest = null;

  function draw() {
    if (!latest) return;
    const { root, view, api } = latest;
    root.innerHTML = (view.svg ? '<div class="svg-board" data-testid="feather-board">' + view.svg + "</div>" : "") + statusHtml(view.state || {}, api.seat);
    root.appendChild(controls(view, api, draw));
  }

  function render(root, view, api) {
    const phaseKey = view.phase ? view.phase.no : null;
    if (draft.phaseKey !== phaseKey) {
      draft.phaseKey = phaseKey;
      draft.msg = "";
    }
    latest = { root: root, view: view, api: api };
    draw();
  }

  function describe(e, view) {
    const d = e.data || {};
    switch (e.kind) {
      case "tick":
        if (!d.outcomes || !d.outcomes.length) return esc(d.session) + " tick " + d.tick;
        return esc(d.session) + " tick " + d.tick + ": " + d.outcomes.map((o) => "seat " + (o.seat + 1) + " <code>" + esc(o.action) + "</code> " + (o.done ? "" : "void ") + (o.note ? "(" + esc(o.note) + ")" : "")).join("; ");
      case "session_started": return "<b>" + esc(d.session) + "</b> begins";
      case "session_over": return "<b>" + esc(d.session) + "</b> over: points " + d.points.join(" / ") + ", water " + d.water.join(" / ");
      default: return null;
    }
  }

  window.Arena.registerGame("feather", { render: render, describe: describe });
})();
