/* Lockmaker: the lock image (the server's SVG), the round's pool and hands, and the controls
   of each stage, which compose the game's own notation and submit it:
   - study: Ready, or in round 1 the DMO's "first" / "second" (LM-13);
   - draft: toggle pieces of the pool, then Take, Take and stop, or Stop (LM-14);
   - build: a click-to-place grid editor that writes the lock file (LM-10), also editable as
     text; Submit lock (LM-15);
   - solve: a copy of the lock to play on (click a piece, then one of its legal moves), which
     writes the moves box (LM-11); Declare impossible (LM-16); pick: which solution counts;
   - decide: Countersolve or Pass (LM-17); counter: a moves box again.
   Editor drafts survive the re-renders caused by live updates. */
(function () {
  "use strict";

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const LETTERS = "ABCDEFGHIJK";
  const BAR_LETTERS = "ABCDEFGHIJLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const draft = { key: null, grid: null, tool: null, picks: [], moves: "", counter: "" };

  function parseBoard(text) {
    return String(text || "").split("\n").filter((l) => l.length && l[0] !== ";").map((l) => l.split(""));
  }

  function gridText(grid) { return grid.map((r) => r.join("")).join("\n") + "\n"; }

  function resetEditor(st, seat) {
    draft.grid = parseBoard(st.board);
    draft.tool = null;
    draft.placed = (st.hands[seat] || []).map(() => null);
  }

  function pieceCells(spec, col, row) {
    // spec: {kind: "H"|"V"|"X"|"K-H"|"K-V"|"@", length}
    const out = [];
    const n = spec.kind === "X" || spec.kind === "@" ? 1 : spec.length;
    const horizontal = spec.kind === "H" || spec.kind === "K-H";
    for (let i = 0; i < n; i++) out.push(horizontal ? [col + i, row] : [col, row + i]);
    return out;
  }

  function freeLetter(grid) {
    const used = new Set(grid.flat());
    for (const ch of BAR_LETTERS) if (!used.has(ch)) return ch;
    return null;
  }

  function clearSymbol(grid, ch) {
    for (const r of grid) for (let c = 0; c < r.length; c++) if (r[c] === ch) r[c] = ".";
  }

  function place(st, seat, col, row) {
    const grid = draft.grid;
    const tool = draft.tool;
    if (!tool) return "Choose a piece first.";
    if (tool.kind === "erase") {
      const ch = grid[row][col];
      if (ch === "#" || ch === ".") return null;
      if (ch === "+" || ch === "@") grid[row][col] = ".";
      else clearSymbol(grid, ch);
      draft.placed = draft.placed.map((p) => (p && p.symbol === ch ? null : p));
      return null;
    }
    const cells = pieceCells(tool, col, row);
    for (const [c, r] of cells) {
      if (r >= grid.length || c >= grid[0].length) return "That piece would leave the board (LM-1).";
      if (grid[r][c] !== ".") return "Cell " + LETTERS[c] + (r + 1) + " is not free.";
    }
    let symbol;
    if (tool.kind === "K-H" || tool.kind === "K-V") { clearSymbol(grid, "K"); symbol = "K"; }
    else if (tool.kind === "@") { clearSymbol(grid, "@"); symbol = "@"; }
    else if (tool.kind === "X") symbol = "+";
    else symbol = freeLetter(grid);
    if (tool.index != null) {
      const old = draft.placed[tool.index];
      if (old) {
        if (old.symbol === "+") grid[old.row][old.col] = "."; else clearSymbol(grid, old.symbol);
      }
      draft.placed[tool.index] = { symbol: symbol, col: col, row: row };
    }
    for (const [c, r] of cells) grid[r][c] = symbol;
    return null;
  }

  function infoHtml(st, seat) {
    const scores = (st.scores || []).map((s, i) => "Seat " + (i + 1) + ": <b>" + esc(s) + "</b>").join(" · ");
    const hands = (st.hands || []).map((h, i) => "<li data-testid=\"lm-hand-" + (i + 1) + "\">Seat " + (i + 1) + (seat === i ? " (you)" : "") + ": " + (h.length ? esc(h.join(", ")) : "<i>nothing yet</i>") + (st.stopped && st.stopped[i] ? " · stopped" : "") + "</li>").join("");
    let extra = "";
    if (st.turn) extra += "<p data-testid=\"lm-turn\">Draft turn: seat " + (st.turn.seat + 1) + ", up to " + st.turn.picks + " piece(s)</p>";
    if (st.final) {
      extra += "<p data-testid=\"lm-final\">Final solutions: " + st.final.map((f, i) => "seat " + (i + 1) + " " +
        (st.impossible && st.impossible[i] ? "declared impossible" : f ? f.moves + " moves in " + Number(f.time).toFixed(1) + " s" : "none")).join(" · ") + "</p>";
    }
    if (st.my_solutions && st.my_solutions.length) {
      extra += "<h4>Your solutions</h4><ol data-testid=\"lm-my-solutions\">" + st.my_solutions.map((s) => "<li>" + esc(s) + "</li>").join("") + "</ol>";
    }
    const hist = (st.history || []).map((h) => "<li>Round " + h.round + ": +" + h.points[0] + " / +" + h.points[1] +
      (h.notes.length ? "<ul>" + h.notes.map((n) => "<li>" + esc(n) + "</li>").join("") + "</ul>" : "") + "</li>").join("");
    return '<div class="lm-info" data-testid="lm-info">' +
      '<p data-testid="lm-status">Round ' + st.round + " of " + st.rounds + " · " + esc(st.stage) + " · " + scores + " (target " + st.target + ")</p>" +
      (st.pool && st.pool.length && (st.stage === "study" || st.stage === "draft") ? '<p data-testid="lm-pool">Pool: ' + esc(st.pool.join(", ")) + "</p>" : "") +
      "<ul>" + hands + "</ul>" + extra +
      (hist ? "<h4>Rounds</h4><ul data-testid=\"lm-history\">" + hist + "</ul>" : "") + "</div>";
  }

  function controls(view, api) {
    const st = view.state || {};
    const seat = api.seat;
    const box = document.createElement("div");
    box.className = "lm-controls";
    box.dataset.testid = "lm-controls";
    if (!view.phase || seat == null || api.replay) return box;
    const waiting = (view.phase.waiting_for || []).includes(seat);
    const key = view.phase.no + ":" + st.stage + ":" + st.round;
    if (draft.key !== key) {
      draft.key = key;
      draft.picks = [];
      draft.moves = "";
      draft.counter = "";
      draft.sim = null;
      if (st.stage === "build") resetEditor(st, seat);
    }
    const msg = document.createElement("p");
    msg.className = "lm-msg";
    msg.dataset.testid = "lm-msg";
    const send = async (text) => {
      api.setNotation(text);
      const r = await api.submit(text, true);
      msg.textContent = r.ok ? "Sent: " + text.split("\n").join(" / ") : r.error;
      return r;
    };
    const button = Arena.button;
    const movesBox = (field, testid, placeholder) => {
      const input = document.createElement("input");
      input.type = "text";
      input.size = 40;
      input.placeholder = placeholder;
      input.dataset.testid = testid;
      input.value = draft[field];
      input.addEventListener("input", () => { draft[field] = input.value; });
      return input;
    };
    if (!waiting) {
      msg.textContent = view.phase.waiting_for && view.phase.waiting_for.length ? "Waiting for the other seat." : "";
      box.appendChild(msg);
      return box;
    }
    if (st.stage === "study") {
      if (st.round === 1 && seat === 1) {
        box.appendChild(button("Draft first", "lm-first", () => send("first")));
        box.appendChild(button("Draft second", "lm-second", () => send("second")));
      } else {
        box.appendChild(button("Ready", "lm-ready", () => send("ready")));
      }
    } else if (st.stage === "draft") {
      const list = document.createElement("div");
      list.className = "lm-pool";
      (st.pool || []).forEach((p, i) => {
        const on = draft.picks.includes(i);
        const b = button((on ? "✓ " : "") + p, "lm-pool-" + i, () => {
          if (on) draft.picks = draft.picks.filter((x) => x !== i);
          else if (draft.picks.length < st.turn.picks) draft.picks.push(i);
          root().lmDraw();
        });
        if (on) b.className = "selected";
        list.appendChild(b);
      });
      box.appendChild(list);
      const chosen = () => draft.picks.map((i) => st.pool[i]).join(",");
      box.appendChild(button("Take", "lm-take", () => { if (chosen()) send(chosen()); else msg.textContent = "Choose a piece (or Stop)."; }));
      box.appendChild(button("Take and stop", "lm-take-stop", () => send(chosen() ? chosen() + ",stop" : "stop")));
      box.appendChild(button("Stop drafting", "lm-stop", () => send("stop")));
    } else if (st.stage === "build") {
      box.appendChild(editor(st, seat, send, msg));
    } else if (st.stage === "solve" || st.stage === "counter") {
      const field = st.stage === "solve" ? "moves" : "counter";
      const lockIndex = st.stage === "solve" ? 1 - seat : seat;
      if (st.locks && st.locks[lockIndex]) box.appendChild(mover(st.locks[lockIndex], field));
      const input = movesBox(field, "lm-moves", "e.g. BC1 L1, C34 D2, K R1");
      box.appendChild(input);
      box.appendChild(button(st.stage === "solve" ? "Submit solution" : "Submit countersolve", "lm-submit-moves", () => send(input.value)));
      if (st.stage === "solve") box.appendChild(button("Declare impossible", "lm-impossible", () => send("impossible")));
    } else if (st.stage === "pick") {
      (st.my_solutions || []).forEach((s, i) => box.appendChild(button("Use solution " + (i + 1), "lm-pick-" + (i + 1), () => send(String(i + 1)))));
    } else if (st.stage === "decide") {
      box.appendChild(button("Countersolve", "lm-countersolve", () => send("countersolve")));
      box.appendChild(button("Pass", "lm-pass", () => send("pass")));
    }
    box.appendChild(msg);
    return box;
  }

  let rootEl = null;
  const root = () => rootEl;

  // ---------------------------------------------------------------- the move builder
  // A copy of the lock to play on: click a piece, then one of its legal moves (LM-5, LM-7,
  // LM-8 as in the engine); each move is appended to the moves box in LM-11 notation.
  function cellsOf(grid, ch) {
    const out = [];
    grid.forEach((row, r) => row.forEach((x, c) => { if (x === ch) out.push([c, r]); }));
    return out;
  }

  function runName(cells) {
    if (cells.length === 1) return LETTERS[cells[0][0]] + (cells[0][1] + 1);
    const horizontal = cells.every((x) => x[1] === cells[0][1]);
    const sorted = cells.slice().sort((a, b) => (a[1] - b[1]) || (a[0] - b[0]));
    if (horizontal) return sorted.map((x) => LETTERS[x[0]]).join("") + (sorted[0][1] + 1);
    const rows = sorted.map((x) => x[1] + 1);
    if (rows[rows.length - 1] >= 10) return LETTERS[sorted[0][0]] + rows[0] + "-" + rows[rows.length - 1];
    return LETTERS[sorted[0][0]] + rows.join("");
  }

  function isHorizontal(cells) { return cells.every((x) => x[1] === cells[0][1]); }

  function attachedTo(grid, ac, ar) {
    const out = [];
    const seen = new Set();
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const c = ac + dc, r = ar + dr;
      if (r < 0 || r >= grid.length || c < 0 || c >= grid[0].length) continue;
      const ch = grid[r][c];
      if (!/[A-Za-z]/.test(ch) || seen.has(ch)) continue;
      const cells = cellsOf(grid, ch);
      const inLine = dr === 0 ? isHorizontal(cells) && cells.length > 0 : !isHorizontal(cells);
      // end-on: the piece extends away from the axis along the side it touches (LM-6)
      if (inLine && cells.every((x) => (dr === 0 ? x[1] === ar : x[0] === ac))) {
        const far = cells.every((x) => (dr === 0 ? Math.sign(x[0] - ac) === dc : Math.sign(x[1] - ar) === dr));
        if (far) { seen.add(ch); out.push(ch); }
      }
    }
    return out;
  }

  function axesOk(grid) {
    return cellsOf(grid, "+").every(([c, r]) => attachedTo(grid, c, r).length > 0);
  }

  function slides(grid, ch) {
    const cells = cellsOf(grid, ch);
    const horizontal = isHorizontal(cells);
    const out = [];
    const dirs = horizontal ? [["L", -1, 0], ["R", 1, 0]] : [["U", 0, -1], ["D", 0, 1]];
    for (const [d, dc, dr] of dirs) {
      for (let n = 1; ; n++) {
        const ok = cells.every(([c, r]) => {
          const nc = c + dc * n, nr = r + dr * n;
          if (nr < 0 || nr >= grid.length || nc < 0 || nc >= grid[0].length) return false;
          const x = grid[nr][nc];
          return x === "." || x === ch;
        });
        if (!ok) break;
        const g = grid.map((row) => row.map((x) => (x === ch ? "." : x)));
        for (const [c, r] of cells) g[r + dr * n][c + dc * n] = ch;
        if (axesOk(g)) out.push({ text: (ch === "K" ? "K" : runName(cells)) + " " + d + n, label: d + n, grid: g });
      }
    }
    return out;
  }

  function turns(grid, ac, ar) {
    const moving = attachedTo(grid, ac, ar);
    if (!moving.length) return [];
    const out = [];
    for (const t of ["CW", "CCW", "180"]) {
      const g = grid.map((row) => row.map((x) => (moving.includes(x) ? "." : x)));
      let ok = true;
      for (const ch of moving) {
        for (const [c, r] of cellsOf(grid, ch)) {
          let dc = c - ac, dr = r - ar;
          if (t === "CW") [dc, dr] = [-dr, dc];
          else if (t === "CCW") [dc, dr] = [dr, -dc];
          else [dc, dr] = [-dc, -dr];
          const nc = ac + dc, nr = ar + dr;
          if (nr < 0 || nr >= g.length || nc < 0 || nc >= g[0].length || g[nr][nc] !== ".") { ok = false; break; }
          g[nr][nc] = ch;
        }
        if (!ok) break;
      }
      if (ok && axesOk(g)) out.push({ text: LETTERS[ac] + (ar + 1) + " " + t, label: t, grid: g });
    }
    return out;
  }

  function mover(lockText, field) {
    const wrap = document.createElement("div");
    wrap.className = "lm-mover";
    wrap.dataset.testid = "lm-mover";
    if (!draft.sim || draft.sim.source !== lockText) {
      draft.sim = { source: lockText, grid: parseBoard(lockText), stack: [], sel: null };
    }
    const sim = draft.sim;
    const table = document.createElement("table");
    table.className = "lm-grid";
    sim.grid.forEach((row, r) => {
      const tr = document.createElement("tr");
      row.forEach((ch, c) => {
        const td = document.createElement("td");
        td.textContent = ch === "." || ch === "#" ? "" : ch === "+" ? "+" : ch === "@" ? "@" : ch;
        td.dataset.testid = "lm-sim-" + LETTERS[c] + (r + 1);
        const sel = sim.sel && ((sim.sel.axis && sim.sel.c === c && sim.sel.r === r) || (!sim.sel.axis && sim.sel.ch === ch));
        td.style.cssText = "width:26px;height:26px;text-align:center;border:" + (sel ? "2px solid #111" : "1px solid #fff") +
          ";cursor:pointer;color:" + (ch === "+" ? "#000" : "#fff") + ";background:" +
          (ch === "#" ? "#555" : ch === "K" ? "#d62728" : ch === "@" ? "#222" : ch === "+" ? "#fff" : ch === "." ? "#d9d9d9" : "#4e79a7");
        td.addEventListener("click", () => {
          if (ch === "+") sim.sel = { axis: true, c: c, r: r };
          else if (/[A-Za-z]/.test(ch)) sim.sel = { axis: false, ch: ch };
          else sim.sel = null;
          rootEl.lmDraw();
        });
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    wrap.appendChild(table);
    const opts = document.createElement("div");
    opts.className = "lm-move-options";
    let options = [];
    if (sim.sel) options = sim.sel.axis ? turns(sim.grid, sim.sel.c, sim.sel.r) : slides(sim.grid, sim.sel.ch);
    for (const o of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = o.text;
      b.dataset.testid = "lm-move-" + o.text.replace(/\s+/g, "_");
      b.addEventListener("click", () => {
        sim.stack.push(sim.grid);
        sim.grid = o.grid;
        const cur = draft[field].trim();
        draft[field] = cur ? cur + ", " + o.text : o.text;
        rootEl.lmDraw();
      });
      opts.appendChild(b);
    }
    if (sim.sel && !options.length) opts.appendChild(document.createTextNode("No legal move for that piece."));
    const undo = document.createElement("button");
    undo.type = "button";
    undo.textContent = "Undo";
    undo.dataset.testid = "lm-undo";
    undo.addEventListener("click", () => {
      if (!sim.stack.length) return;
      sim.grid = sim.stack.pop();
      const parts = draft[field].split(",").map((x) => x.trim()).filter(Boolean);
      parts.pop();
      draft[field] = parts.join(", ");
      rootEl.lmDraw();
    });
    const reset = document.createElement("button");
    reset.type = "button";
    reset.textContent = "Reset";
    reset.dataset.testid = "lm-reset";
    reset.addEventListener("click", () => { draft.sim = null; draft[field] = ""; rootEl.lmDraw(); });
    wrap.appendChild(opts);
    wrap.appendChild(undo);
    wrap.appendChild(reset);
    const solved = document.createElement("p");
    solved.dataset.testid = "lm-sim-status";
    solved.textContent = sim.stack.length ? sim.stack.length + " move(s) played on the copy" : "Click a piece, then a move.";
    wrap.appendChild(solved);
    return wrap;
  }

  function editor(st, seat, send, msg) {
    const wrap = document.createElement("div");
    wrap.className = "lm-editor";
    wrap.dataset.testid = "lm-editor";
    const hand = st.hands[seat] || [];
    const tools = document.createElement("div");
    tools.className = "lm-tools";
    const tool = (label, testid, spec) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.testid = testid;
      const same = draft.tool && draft.tool.testid === testid;
      b.textContent = (same ? "▶ " : "") + label;
      b.addEventListener("click", () => { draft.tool = Object.assign({ testid: testid }, spec); rootEl.lmDraw(); });
      tools.appendChild(b);
    };
    hand.forEach((p, i) => {
      const kind = p[0];
      const done = draft.placed && draft.placed[i] ? " ✓" : "";
      tool(p + done, "lm-tool-" + i, { kind: kind === "X" ? "X" : kind, length: kind === "X" ? 1 : Number(p.slice(1)), index: i });
    });
    tool("Key →", "lm-tool-key-h", { kind: "K-H", length: 2 });
    tool("Key ↓", "lm-tool-key-v", { kind: "K-V", length: 2 });
    tool("Keyhole", "lm-tool-keyhole", { kind: "@", length: 1 });
    tool("Erase", "lm-tool-erase", { kind: "erase" });
    wrap.appendChild(tools);
    const table = document.createElement("table");
    table.className = "lm-grid";
    const head = document.createElement("tr");
    head.appendChild(document.createElement("th"));
    for (let c = 0; c < draft.grid[0].length; c++) {
      const th = document.createElement("th");
      th.textContent = LETTERS[c];
      head.appendChild(th);
    }
    table.appendChild(head);
    draft.grid.forEach((row, r) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = String(r + 1);
      tr.appendChild(th);
      row.forEach((ch, c) => {
        const td = document.createElement("td");
        td.textContent = ch === "." ? "" : ch;
        td.dataset.testid = "lm-cell-" + LETTERS[c] + (r + 1);
        td.className = ch === "#" ? "blocked" : ch === "K" ? "key" : ch === "@" ? "keyhole" : ch === "+" ? "axis" : ch === "." ? "open" : "bar";
        td.style.cssText = "width:28px;height:28px;text-align:center;border:1px solid #fff;cursor:pointer;background:" +
          ({ blocked: "#555", key: "#d62728", keyhole: "#222", axis: "#fff", open: "#d9d9d9", bar: "#4e79a7" })[td.className] +
          ";color:" + (ch === "+" ? "#000" : "#fff");
        td.addEventListener("click", () => {
          const err = place(st, seat, c, r);
          msg.textContent = err || "";
          rootEl.lmDraw();
          if (err) { const m = rootEl.querySelector('[data-testid="lm-msg"]'); if (m) m.textContent = err; }
        });
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    wrap.appendChild(table);
    const text = document.createElement("textarea");
    text.rows = draft.grid.length + 1;
    text.cols = draft.grid[0].length + 6;
    text.dataset.testid = "lm-lock-text";
    text.value = gridText(draft.grid);
    text.addEventListener("change", () => {
      const g = parseBoard(text.value);
      if (g.length) { draft.grid = g; rootEl.lmDraw(); }
    });
    wrap.appendChild(text);
    const submit = document.createElement("button");
    submit.type = "button";
    submit.textContent = "Submit lock";
    submit.dataset.testid = "lm-submit-lock";
    submit.addEventListener("click", () => send(text.value));
    wrap.appendChild(submit);
    const reset = document.createElement("button");
    reset.type = "button";
    reset.textContent = "Clear";
    reset.dataset.testid = "lm-clear";
    reset.addEventListener("click", () => { resetEditor(st, seat); rootEl.lmDraw(); });
    wrap.appendChild(reset);
    return wrap;
  }

  function render(rootNode, view, api) {
    rootEl = rootNode;
    const st = view.state || {};
    const draw = () => {
      rootNode.innerHTML = (view.svg ? '<div class="svg-board" data-testid="lm-board">' + view.svg + "</div>" : "") + infoHtml(st, api.seat);
      rootNode.appendChild(controls(view, api));
    };
    rootNode.lmDraw = draw;
    draw();
  }

  function describe(e, view) {
    const d = e.data || {};
    switch (e.kind) {
      case "draft_order": return "The DMO chose to draft " + esc(d.dmo_chose) + "; seat " + (d.first + 1) + " drafts first";
      case "drafted": return "Seat " + (d.seat + 1) + (d.took.length ? " took " + esc(d.took.join(", ")) : " took nothing") + (d.stopped ? " and stopped" : "");
      case "draft_over": return "Draft over: " + d.hands.map((h, i) => "seat " + (i + 1) + " " + esc(h || "nothing")).join(" · ");
      case "locks_shown": return "Both locks are shown: solving starts";
      case "solving_over": return "Seat " + (d.seat + 1) + (d.impossible ? " declared the lock impossible" : " submitted " + d.solutions + " solution(s)");
      case "solutions_announced": return "Final solutions: " + ["seat_1", "seat_2"].map((k, i) => "seat " + (i + 1) + " " +
        (d[k] == null ? "none" : d[k].impossible ? "impossible" : d[k].moves + " moves, " + Number(d[k].time).toFixed(1) + " s")).join(" · ");
      case "countersolve_decisions": return "Countersolve: seat 1 " + (d.seat_1 ? "yes" : "no") + ", seat 2 " + (d.seat_2 ? "yes" : "no");
      case "countersolved": return "Seat " + (d.seat + 1) + (d.solved ? " countersolved in " + d.moves + " moves" : " did not countersolve in time");
      case "round_scored": return "<b>Round " + d.round + "</b>: +" + d.points[0] + " / +" + d.points[1] + " → " + d.scores.join(" : ");
      default: return null;
    }
  }

  window.Arena.registerGame("lockmaker", { render: render, describe: describe });
})();
