/* Paint Factory, played on its board. One Preact component per stage, each keeping
   its own choices (keyed by the phase, so a clock tick never resets them):
   - design: eight sets of four slots; a tap cycles a slot red, green, blue (the colour is also
     written in the slot); a live PF-4 check names every problem; "Send sets" only when valid
     (notation "GRBR,RGBB,...", first-entering colour first);
   - pick: the three offered sets as pictures; tap one to choose it, tap again (or "Pick set N")
     to send "pick N" (PF-5);
   - shove: the grid with a handle per row (shove right) and per column (shove down); a tap
     previews the shove on the grid (the result, the containers it pushes marked), a second
     handle of the other kind adds the second shove (PF-3), a tap on the last handle again (or
     "Confirm") sends "1", "A", "B then 1", ...;
   - last: the three colours with the final score each would give; tap, then tap again (PF-5).
   Your own grid always comes with its score so far: the chains, their lengths and product
   (PF-6, PF-7). Spectators see what the server shows them; the grids are private until the
   end (G-9), then everyone sees both grids with their chains. */
import { html, useState, fmtNum, RuleText, registerGame, person } from "/static/ui.js";

const COLS = "ABCDE";
const ROWS = "12345";
const SIZE = 5;
const COLOURS = ["R", "G", "B"];
const NAME = { R: "red", G: "green", B: "blue" };
const EXAMPLE = ["RGBR", "GBRG", "BRGB", "RBGR", "GRBG", "BGRB", "RGRB", "GBGR"];

const cellName = (i) => COLS[i % SIZE] + (Math.floor(i / SIZE) + 1);
/* A set's colours (a list of R, G, B, first in first; an older string reads the same) in words. */
const colourLetters = (set) => (Array.isArray(set) ? set : String(set || "").split(""));
const colourWords = (set) => colourLetters(set).map((c) => NAME[c] || c).join(", ");
const listWords = (xs) => xs.length < 2 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
const setsWords = (idx) => (idx.length === 1 ? "set " : "sets ") + listWords(idx.map((i) => String(i + 1)));

/* ------------------------------------------------------------------ shoves (PF-2, PF-3) */
function line(name) {
  if (ROWS.includes(name)) return { start: (Number(name) - 1) * SIZE, step: 1, head: "A" + name, where: "row " + name, arrow: "→" };
  return { start: COLS.indexOf(name), step: SIZE, head: name + "1", where: "column " + name, arrow: "↓" };
}

function shoveError(grid, name) {
  const { start, step, head } = line(name);
  if (grid[start] === ".") return "there is no container on " + head;
  for (let k = 1; k < SIZE; k++) if (grid[start + k * step] === ".") return null;
  return "it is full, its containers have nowhere to go";
}

/* The grid after shoving ``name`` and the moves it makes ([from, to] cell indices). */
function shove(grid, name) {
  const { start, step, arrow } = line(name);
  const cells = grid.split("");
  for (let k = 1; k < SIZE; k++) {
    if (cells[start + k * step] !== ".") continue;
    const moves = [];
    for (let j = k; j > 0; j--) {
      cells[start + j * step] = cells[start + (j - 1) * step];
      moves.push([start + (j - 1) * step, start + j * step]);
    }
    cells[start] = ".";
    return { grid: cells.join(""), moves, arrow };
  }
  return null;
}

/* The preview of a chosen sequence of shoves: the grid, and where each moved container ended. */
function previewOf(grid, names) {
  let g = grid;
  let moved = new Map(); // end cell -> {from, arrow}
  for (const n of names) {
    if (shoveError(g, n)) return null;
    const r = shove(g, n);
    const next = new Map();
    for (const [end, info] of moved) next.set(end, info);
    for (const [from, to] of r.moves) {
      const was = next.get(from);
      next.delete(from);
      next.set(to, { from: was ? was.from : from, arrow: (was ? was.arrow : "") + r.arrow });
    }
    moved = next;
    g = r.grid;
  }
  return { grid: g, moved };
}

/* ------------------------------------------------------------------ chains (PF-6, PF-7) */
function neighbours(i) {
  const r = Math.floor(i / SIZE), c = i % SIZE, out = [];
  if (r > 0) out.push(i - SIZE);
  if (c > 0) out.push(i - 1);
  if (c < SIZE - 1) out.push(i + 1);
  if (r < SIZE - 1) out.push(i + SIZE);
  return out;
}

function farthest(start, members) {
  const dist = new Map([[start, 1]]);
  let frontier = [start], last = start;
  while (frontier.length) {
    const next = [];
    for (const i of frontier) for (const j of neighbours(i)) {
      if (members.has(j) && !dist.has(j)) { dist.set(j, dist.get(i) + 1); next.push(j); last = j; }
    }
    frontier = next;
  }
  return [last, dist.get(last)];
}

function scoreGrid(grid) {
  const seen = new Array(SIZE * SIZE).fill(false);
  const chains = [], looped = [];
  for (let i = 0; i < SIZE * SIZE; i++) {
    const colour = grid[i];
    if (colour === "." || seen[i]) continue;
    const stack = [i], cells = [i];
    let edges2 = 0;
    seen[i] = true;
    while (stack.length) {
      const k = stack.pop();
      for (const j of neighbours(k)) {
        if (grid[j] !== colour) continue;
        edges2 += 1;
        if (!seen[j]) { seen[j] = true; stack.push(j); cells.push(j); }
      }
    }
    cells.sort((a, b) => a - b);
    if (edges2 / 2 >= cells.length) looped.push({ colour, cells });
    else chains.push({ colour, cells, length: farthest(farthest(i, new Set(cells))[0], new Set(cells))[1] });
  }
  // No container, no score: an empty grid scores 0, as the result says (PF-7).
  const score = chains.length || looped.length ? chains.reduce((p, c) => p * c.length, 1) : 0;
  return { score, chains, looped, nonConnected: chains.filter((c) => c.cells.length === 1).length };
}

/* The server's score (cell names) in the same shape as scoreGrid's (cell indices). */
function fromServerScore(s) {
  const idx = (name) => (Number(name[1]) - 1) * SIZE + COLS.indexOf(name[0]);
  return {
    score: s.score,
    chains: (s.chains || []).map((c) => ({ colour: c.colour, cells: c.cells.map(idx), length: c.length })),
    looped: (s.looped || []).map((c) => ({ colour: c.colour, cells: c.cells.map(idx) })),
    nonConnected: s.non_connected,
  };
}

const formula = (sc) => {
  const f = sc.chains.filter((c) => c.length > 1).map((c) => c.length);
  return f.length ? f.join(" × ") : "1";
};

/* How the score is made, in words: the product of the chains' lengths, or,
   before any chain, "no chain yet" instead of "1 = 1". */
export function scoreWords(sc) {
  const f = sc.chains.filter((c) => c.length > 1).map((c) => c.length);
  if (!sc.chains.length && !sc.looped.length) return "no container yet";
  if (!f.length) return "no chain of two or more yet";
  if (f.length === 1) return "one chain of " + f[0];
  return "chains of " + f.join(" × ") + " multiplied";
}

/* Shoves in words: "row 1 right", "column A down, then row 2 right" (the notation stays in
   the drawer). ``names`` are the handles' names ("A", "2"), as the page keeps its choice. */
const lineWords = (n) => (ROWS.includes(String(n)) ? "row " + n : "column " + n);
const namesWords = (names) => names.map((n) => lineWords(n) + (ROWS.includes(String(n)) ? " right" : " down")).join(", then ");
export function shoveWords(action) { return namesWords(String(action).split(" then ")); }

/* A shove as the events and moves carry it: {row, direction} or {column, direction} (PF-2). */
const factWords = (s) => (s.row != null ? "row " + s.row + " " + (s.direction || "right") : "column " + s.column + " " + (s.direction || "down"));
const shovesWords = (shoves) => (shoves || []).map(factWords).join(", then ");

/* ------------------------------------------------------------------ the PF-4 check */
function designProblems(sets) {
  const out = [];
  const incomplete = sets.map((s, i) => (s.some((x) => !x) ? i : -1)).filter((i) => i >= 0);
  if (incomplete.length) {
    out.push((incomplete.length === 8 ? "No set is filled in yet" : capitalFirst(setsWords(incomplete)) + (incomplete.length === 1 ? " is" : " are") + " not complete") +
      ": every set holds four containers (PF-4)");
  }
  const full = sets.map((s) => s.filter(Boolean).join(""));
  const complete = full.map((s, i) => (s.length === 4 ? i : -1)).filter((i) => i >= 0);
  const same = new Map();
  for (const i of complete) { if (!same.has(full[i])) same.set(full[i], []); same.get(full[i]).push(i); }
  for (const [s, idx] of same) {
    if (idx.length > 1) out.push(capitalFirst(setsWords(idx)) + " are identical (" + colourWords(s) + "); no two sets may be the same (PF-4)");
  }
  const withAll = complete.filter((i) => COLOURS.every((c) => full[i].includes(c)));
  if (!incomplete.length && withAll.length < 5) {
    const lacking = complete.filter((i) => !withAll.includes(i));
    out.push("Only " + withAll.length + " of the 8 sets hold all three colours; at least 5 must (" + setsWords(lacking) + " lack one) (PF-4)");
  }
  for (const i of complete) {
    for (const c of COLOURS) {
      if (full[i].split("").filter((x) => x === c).length === 4) out.push(capitalFirst(setsWords([i])) + " is four " + NAME[c] + "; no set may be all one colour (PF-4)");
    }
  }
  for (const c of COLOURS) {
    const three = complete.filter((i) => full[i].split("").filter((x) => x === c).length === 3);
    if (three.length > 1) out.push(capitalFirst(setsWords(three)) + " each have three " + NAME[c] + "; at most one set may have three of a colour (PF-4)");
  }
  for (const c of COLOURS) {
    const n = full.join("").split("").filter((x) => x === c).length;
    if (n > 13) out.push(n + " " + NAME[c] + " containers in all; at most 13 of one colour (PF-4)");
  }
  return out;
}

function capitalFirst(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

/* ------------------------------------------------------------------ pictures */
function Chip({ colour, big }) {
  if (!colour || colour === ".") return html`<span class="pf-chip pf-empty">·</span>`;
  return html`<span class=${"pf-chip pf-" + colour + (big ? " big" : "")} title=${NAME[colour]}>${colour}</span>`;
}

function SetPicture({ set }) {
  // Bottom first: the container at the bottom enters first (PF-4).
  const order = colourLetters(set).map((c, i) => ({ c, i })).reverse();
  return html`<span class="pf-set" aria-hidden="true">${order.map(({ c, i }) => html`
    <span class="pf-set-row"><${Chip} colour=${c}/><span class="pf-ord">${i + 1}</span></span>`)}</span>`;
}

/* The 5 x 5 grid. ``handles``: {onHandle, sel} adds a tappable handle per row and column;
   ``moved``: end cell -> {from, arrow} of a previewed shove; ``score`` draws chain lengths. */
function Grid({ grid, handles, moved, score, fresh, ghost, label, testid }) {
  const chainAt = new Map();
  const loopedCells = new Set();
  if (score) {
    for (const c of score.chains) if (c.length > 1) chainAt.set(c.cells[0], c.length);
    for (const c of score.looped) for (const i of c.cells) loopedCells.add(i);
  }
  const handle = (name, kind) => {
    const chosen = handles.sel.indexOf(name);
    // A handle that can do nothing now looks off and says why when tapped;
    // it stays focusable so the refusal can be read, and aria-disabled tells assistive tech.
    const off = handles.usable && !handles.usable(name);
    const words = kind === "row" ? "Shove row " + name + " right" : "Shove column " + name + " down";
    return html`<button type="button" class=${"pf-handle pf-handle-" + kind + (chosen >= 0 ? " chosen" : "") + (off ? " off" : "")}
      data-testid=${"pf-" + kind + "-" + name} aria-pressed=${chosen >= 0 ? "true" : "false"} aria-disabled=${off ? "true" : undefined}
      aria-describedby=${off ? "pf-handle-why" : undefined}
      aria-label=${words + (chosen >= 0 ? " (chosen" + (handles.sel.length > 1 ? ", shove " + (chosen + 1) : "") + "; tap again to confirm)" : "")}
      onClick=${() => handles.onHandle(name)}>${kind === "row" ? name + " →" : name + " ↓"}</button>`;
  };
  const cells = [];
  if (handles) {
    cells.push(html`<span class="pf-corner" aria-hidden="true"></span>`);
    for (const c of COLS) cells.push(handle(c, "col"));
  } else {
    cells.push(html`<span class="pf-corner" aria-hidden="true"></span>`);
    for (const c of COLS) cells.push(html`<span class="pf-axis" aria-hidden="true">${c}</span>`);
  }
  for (let r = 0; r < SIZE; r++) {
    cells.push(handles ? handle(ROWS[r], "row") : html`<span class="pf-axis" aria-hidden="true">${r + 1}</span>`);
    for (let c = 0; c < SIZE; c++) {
      const i = r * SIZE + c;
      const colour = grid[i];
      const mv = moved && moved.get(i);
      const vacated = moved && colour === "." && [...moved.values()].some((m) => m.from === i);
      const words = cellName(i) + ": " + (colour === "." ? "empty" : NAME[colour]) + (mv ? ", pushed from " + cellName(mv.from) : "") +
        (fresh === i ? ", just entered" : "") + (loopedCells.has(i) ? ", in a loop" : "") + (chainAt.has(i) ? ", chain of " + chainAt.get(i) : "");
      cells.push(html`<span role="img" aria-label=${words} data-cell=${cellName(i)} data-colour=${colour}
        class=${"pf-cell" + (colour === "." ? " pf-cell-empty" : " pf-" + colour) + (mv ? " moved" : "") + (vacated ? " vacated" : "") + (fresh === i ? " fresh" : "") + (loopedCells.has(i) ? " looped" : "")}>
        ${colour === "." ? "" : html`<span class="pf-letter">${colour}</span>`}
        ${mv ? html`<span class="pf-arrow" aria-hidden="true">${mv.arrow}</span>` : ""}
        ${chainAt.has(i) ? html`<span class="chain-length" aria-hidden="true">${chainAt.get(i)}</span>` : ""}
        ${fresh === i ? html`<span class="pf-new" aria-hidden="true">new</span>` : ""}
      </span>`);
    }
  }
  return html`<div class=${"pf-grid" + (handles ? " with-handles" : "") + (ghost ? " ghost" : "")} role="group" aria-label=${label || "grid"} data-testid=${testid || "pf-grid"}>${cells}</div>`;
}

function ScoreBox({ sc, testid, title }) {
  const long = sc.chains.filter((c) => c.length > 1);
  return html`<div class="pf-score" data-testid=${testid || "pf-score"}>
    <p class="pf-score-line"><b>${title || "Score so far"}: <span data-testid=${(testid || "pf-score") + "-value"}>${fmtNum(sc.score)}</span></b>
      ${" "}<span class="muted">${scoreWords(sc)} (<${RuleText} text="PF-7"/>)</span></p>
    ${long.length ? html`<ul class="pf-chains">${long.map((c) => html`<li><${Chip} colour=${c.colour}/> ${NAME[c.colour]} chain of ${c.length}: ${c.cells.map(cellName).join(", ")}</li>`)}</ul>`
      : html`<p class="muted small">No chain longer than one container yet.</p>`}
    ${sc.looped.length ? html`<p class="small">Loops (score nothing, <${RuleText} text="PF-6"/>): ${sc.looped.map((c) => NAME[c.colour] + " " + c.cells.map(cellName).join(", ")).join("; ")}</p>` : ""}
    <p class="muted small">Non-connected containers: ${sc.nonConnected} (the first tie-break)</p>
  </div>`;
}

/* ------------------------------------------------------------------ stages */
function send(api, text) { return api.submit(text, true, "paint"); }

function Msg() {
  const M = window.Arena && window.Arena.Msg;
  return M ? html`<${M} source="paint" testid="pf-msg" okTestid="pf-msg-ok"/>` : null;
}

const SLOT_STEP = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

function Design({ api }) {
  const [sets, setSets] = useState(() => Array.from({ length: 8 }, () => [null, null, null, null]));
  const problems = designProblems(sets);
  const text = sets.map((s) => s.map((x) => x || "?").join("")).join(",");
  const put = (i, j, colour) => setSets(sets.map((s, a) => (a !== i ? s : s.map((x, b) => (b !== j ? x : colour)))));
  const cycle = (i, j) => {
    const cur = sets[i][j];
    put(i, j, cur == null ? "R" : COLOURS[(COLOURS.indexOf(cur) + 1) % 3]);
  };
  const onKey = (e, i, j) => {
    const k = e.key.toUpperCase();
    if (COLOURS.includes(k)) { e.preventDefault(); put(i, j, k); }
    else if (e.key === "Backspace" || e.key === "Delete") { e.preventDefault(); put(i, j, null); }
    else if (SLOT_STEP[e.key]) {
      // The arrows walk the 8 x 4 slots like a table (Tab still visits them in order).
      e.preventDefault();
      const [di, dj] = SLOT_STEP[e.key];
      const next = document.querySelector(`[data-testid="pf-slot-${i + di + 1}-${j + dj + 1}"]`);
      if (next) next.focus();
    }
  };
  return html`<section class="pf-design" aria-labelledby="pf-design-h">
    <h2 id="pf-design-h">Design eight sets for your opponent</h2>
    <p class="small">Tap a slot to cycle it red → green → blue <span class="kbd-only">(keyboard: R, G or B; the arrow keys move between slots)</span>. Slot 1 enters the grid first.
      Your opponent will be shown three of these sets at a time and must take one.</p>
    <div class="pf-design-grid" role="group" aria-label="eight sets of four">
      <span class="pf-design-head" aria-hidden="true"></span>
      ${[1, 2, 3, 4].map((n) => html`<span class="pf-design-head" aria-hidden="true">${n === 1 ? "1st in" : n === 4 ? "4th" : n + (n === 2 ? "nd" : "rd")}</span>`)}
      ${sets.map((s, i) => html`
        <span class="pf-set-label">Set ${i + 1}</span>
        ${s.map((x, j) => html`<button type="button" class=${"pf-slot" + (x ? " pf-" + x : "")} data-testid=${"pf-slot-" + (i + 1) + "-" + (j + 1)}
          aria-label=${"Set " + (i + 1) + ", container " + (j + 1) + ": " + (x ? NAME[x] : "empty") + ". Tap to change."}
          onClick=${() => cycle(i, j)} onKeyDown=${(e) => onKey(e, i, j)}>
          <span class="pf-slot-letter">${x || "·"}</span><span class="pf-slot-name">${x ? NAME[x] : "empty"}</span></button>`)}`)}
    </div>
    <div class="pf-check" data-testid="pf-design-check" aria-live="polite">
      ${problems.length ? html`<ul class="error-text">${problems.map((p) => html`<li><${RuleText} text=${p}/></li>`)}</ul>`
        : html`<p class="ok-text">These sets follow every <${RuleText} text="PF-4"/> rule.</p>`}
    </div>
    <p class="small">Sends: <code data-testid="pf-design-notation">${text}</code></p>
    <div class="control-row">
      <button type="button" data-testid="pf-design-submit" disabled=${problems.length > 0}
        onClick=${() => { api.setNotation(sets.map((s) => s.join("")).join(",")); send(api, sets.map((s) => s.join("")).join(",")); }}>Send sets</button>
      <button type="button" class="secondary" data-testid="pf-design-example" onClick=${() => setSets(EXAMPLE.map((s) => s.split("")))}>Fill an example</button>
      <button type="button" class="secondary" data-testid="pf-design-clear" onClick=${() => setSets(sets.map(() => [null, null, null, null]))}>Clear</button>
    </div>
    <${Msg}/>
  </section>`;
}

function Pick({ you, api }) {
  const [sel, setSel] = useState(null);
  const go = (n) => { api.setNotation("pick " + n); send(api, "pick " + n); };
  const tap = (n) => (sel === n ? go(n) : setSel(n));
  const chosen = (you.shown || []).find((s) => s.number === sel);
  return html`<section class="pf-pick" aria-labelledby="pf-pick-h">
    <h2 id="pf-pick-h">Take one of these sets</h2>
    <p class="small">Its four containers enter A1 one per turn, the bottom one first. Tap a set to choose it, tap it again to take it.</p>
    <div class="pf-offers">
      ${(you.shown || []).map((s) => html`<button type="button" class=${"pf-offer" + (sel === s.number ? " chosen" : "")} data-testid=${"pf-pick-" + s.number}
        aria-pressed=${sel === s.number ? "true" : "false"} aria-label=${"Set " + s.number + ": " + colourWords(s.colours) + ", first to enter first"} onClick=${() => tap(s.number)}>
        <span class="pf-offer-title">Set ${s.number}</span><${SetPicture} set=${s.colours}/>
        <span class="pf-offer-words small">${colourWords(s.colours)}</span></button>`)}
    </div>
    <div class="control-row">
      <button type="button" data-testid="pf-pick-confirm" disabled=${!chosen} onClick=${() => chosen && go(chosen.number)}>
        ${chosen ? "Take set " + chosen.number : "Choose a set first"}</button>
      ${chosen ? html`<span class="small">First in: ${NAME[colourLetters(chosen.colours)[0]]} on A1.</span>` : ""}
    </div>
    <${Msg}/>
  </section>`;
}

function Shove({ you, api, grid, sc }) {
  const [sel, setSel] = useState([]);
  const [hint, setHint] = useState("");
  const legal = you.legal || [];
  const starts = (n) => legal.filter((a) => a === n || a.startsWith(n + " then "));
  const go = (action) => { setHint(""); api.setNotation(action); send(api, action); };
  const why = (n) => {
    const err = shoveError(grid, n);
    if (err) return capitalFirst(lineWords(n)) + " cannot be shoved: " + err + " (PF-2)";
    return "Shoving " + lineWords(n) + " cannot clear A1 this turn, alone or with one shove of the other kind (PF-3)";
  };
  const onHandle = (n) => {
    setHint("");
    const action = sel.join(" then ");
    if (sel.length && n === sel[sel.length - 1]) {
      if (legal.includes(action)) go(action);
      else setHint("A1 still holds a container after shoving " + namesWords(sel) + ": add " + (ROWS.includes(n) ? "column A" : "row 1") + " (PF-3)");
      return;
    }
    if (sel.length === 1 && legal.includes(sel[0] + " then " + n)) { setSel([sel[0], n]); return; }
    if (sel.length === 2 && n === sel[0]) { setSel([n]); return; }
    if (starts(n).length) { setSel([n]); return; }
    setHint(why(n));
  };
  const usable = (n) => (sel.length && n === sel[sel.length - 1]) || (sel.length === 1 && legal.includes(sel[0] + " then " + n))
    || (sel.length === 2 && n === sel[0]) || starts(n).length > 0;
  const action = sel.join(" then ");
  const pv = sel.length ? previewOf(grid, sel) : null;
  const ok = sel.length > 0 && legal.includes(action);
  const after = pv ? scoreGrid(pv.grid) : null;
  const shown = pv ? pv.grid : grid;
  let words = "Tap a row handle to shove that row right, or a column handle to shove it down. A1 must be empty afterwards.";
  if (pv) {
    const n = pv.moved.size;
    words = "Shoving " + namesWords(sel) + " pushes " + n + " container" + (n === 1 ? "" : "s") + ". " +
      (ok ? "A1 ends empty. Tap the " + lineWords(sel[sel.length - 1]) + " handle again or Confirm to send it." : "A1 still holds a container: now shove " + (ROWS.includes(sel[0]) ? "column A" : "row 1") + ".");
  }
  return html`<section class="pf-shove" aria-labelledby="pf-shove-h">
    <h2 id="pf-shove-h" class="pf-sub">Clear A1</h2>
    <p class="small" data-testid="pf-preview" aria-live="polite">${words}</p>
    <${Grid} grid=${shown} handles=${{ sel, onHandle, usable }} moved=${pv && pv.moved} fresh=${pv ? null : 0} ghost=${!!pv}
      label=${pv ? "your grid after shoving " + namesWords(sel) : "your grid"} score=${pv ? after : sc}/>
    <p class="error-text pf-hint-line" id="pf-handle-why" data-testid="pf-hint-line" role="alert">${hint ? html`<span data-testid="pf-hint"><${RuleText} text=${hint}/></span>`
      : [...ROWS, ...COLS].some((n) => !usable(n)) ? html`<span class="muted small">Greyed handles cannot help clear A1 now; tap one to read why.</span>` : ""}</p>
    <div class="control-row pf-actions">
      <button type="button" data-testid="pf-shove-confirm" disabled=${!ok} onClick=${() => ok && go(action)}>${ok ? "Confirm: " + namesWords(sel) : "Confirm"}</button>
      <button type="button" class="secondary" data-testid="pf-shove-clear" disabled=${!sel.length} onClick=${() => { setSel([]); setHint(""); }}>Clear choice</button>
      ${after ? html`<span class="small" data-testid="pf-preview-score">Score after: <b>${fmtNum(after.score)}</b></span>` : ""}
    </div>
    <p class="muted small" data-testid="pf-legal">Ways to clear A1 now: ${legal.map(shoveWords).join("; ")}.</p>
    <${Msg}/>
  </section>`;
}

function Last({ api, grid }) {
  const [sel, setSel] = useState(null);
  const go = (c) => { api.setNotation(c); send(api, c); };
  const finals = Object.fromEntries(COLOURS.map((c) => [c, scoreGrid(c + grid.slice(1))]));
  const shown = sel ? sel + grid.slice(1) : grid;
  return html`<section class="pf-last" aria-labelledby="pf-last-h">
    <h2 id="pf-last-h" class="pf-sub">Choose the last container</h2>
    <p class="small">It fills A1 and the grid is complete; no shove follows. Tap a colour to see it, tap again to send.</p>
    <div class="control-row">
      ${COLOURS.map((c) => html`<button type="button" class=${"pf-colour" + (sel === c ? " chosen" : "")} data-testid=${"pf-last-" + c}
        aria-pressed=${sel === c ? "true" : "false"} onClick=${() => (sel === c ? go(c) : setSel(c))}>
        <${Chip} colour=${c}/> ${NAME[c]}: score ${fmtNum(finals[c].score)}</button>`)}
    </div>
    <${Grid} grid=${shown} score=${sel ? finals[sel] : null} ghost=${!!sel} fresh=${sel ? 0 : null} label=${sel ? "your grid with " + NAME[sel] + " on A1" : "your grid"} testid="pf-last-grid"/>
    <div class="control-row pf-actions">
      <button type="button" data-testid="pf-last-confirm" disabled=${!sel} onClick=${() => sel && go(sel)}>${sel ? "Send " + NAME[sel] : "Choose a colour first"}</button>
    </div>
    <${Msg}/>
  </section>`;
}

/* ------------------------------------------------------------------ whole boards */
function statusLine(st, view) {
  if (st.stage === "over") return "Both grids are full";
  // A match can end before the grids are full: a seat out of reserve loses (G-3).
  if (view && view.result) {
    if (st.stage === "design") return "The match ended during set design, before any container entered";
    return "The match ended " + (st.turn ? "at turn " + st.turn + " of " + st.turns : "before the first turn");
  }
  if (st.stage === "design") return "Set design: both seats write eight sets for the other";
  if (st.stage === "last") return "Turn " + st.turns + " of " + st.turns + " · the last container";
  const turn = st.stage === "pick" ? "Before turn " + (st.turn + 1) : "Turn " + st.turn;
  return turn + " of " + st.turns + " · showing " + st.showing + " of 6";
}

function OwnBoard({ view, api, you, st }) {
  const grid = (you.grid || []).join("");
  const live = !!view.phase && api.seat != null && !api.replay && !view.result;
  const key = view.phase ? view.phase.no : "none";
  const sc = you.score ? fromServerScore(you.score) : scoreGrid(grid);
  if (st.stage === "design") {
    if (live) return html`<${Design} key=${key} api=${api}/>`;
    return html`<p class="muted">${view.result ? "The match ended before the sets were all designed." : "The sets are being designed."}</p>`;
  }
  const coming = colourLetters(you.coming);
  // Whose grid this is, as its reader says it: "Your grid" on the seat's own page, "Ann’s
  // grid" on a broadcast's seat board (G-15).
  const p = person(view, api.seat);
  const whose = p.self ? "Your" : p.name + "’s";
  const shoving = live && st.stage === "shove";
  const lastStage = live && st.stage === "last";
  return html`<div class="pf-own">
    ${live && st.stage === "pick" ? html`<${Pick} key=${key} you=${you} api=${api}/>` : ""}
    ${shoving ? html`<p class="pf-incoming" data-testid="pf-incoming"><${Chip} colour=${grid[0]}/> A ${NAME[grid[0]]} container has just entered A1.
      ${coming.length ? html` Still to come from this set: ${coming.map((c) => html`<${Chip} colour=${c}/> `)}(${colourWords(coming)}).` : " It is the last of its set."}</p>` : ""}
    ${shoving ? html`<${Shove} key=${key} you=${you} api=${api} grid=${grid} sc=${sc}/>` : ""}
    ${lastStage ? html`<${Last} key=${key} api=${api} grid=${grid}/>` : ""}
    ${!shoving && !lastStage ? html`<h2 class="pf-sub">${whose} grid</h2><${Grid} grid=${grid} score=${sc} label=${(p.self ? "your" : whose) + " grid"} testid="pf-own-grid"/>` : ""}
    <${ScoreBox} sc=${sc}/>
    ${(you.picked || []).length ? html`<p class="small" data-testid="pf-picked">Sets taken so far: ${you.picked.map((p) => html`<span class="pf-taken">set ${p.number} ${colourLetters(p.colours).map((c) => html`<${Chip} colour=${c}/>`)}</span> `)}</p>` : ""}
    <${OpponentProgress} st=${st} api=${api}/>
    ${you.designed ? html`<details class="pf-designed"><summary>${p.self ? "The sets you designed for your opponent" : "The sets " + p.name + " designed for " + api.seatName(1 - api.seat)}</summary>
      <p class="small">${you.designed.map((s, i) => html`<span class="pf-taken">set ${i + 1} ${colourLetters(s).map((c) => html`<${Chip} colour=${c}/>`)}</span> `)}</p></details>` : ""}
  </div>`;
}

function SeatBoard({ view, b, api }) {
  const grid = (b.grid || []).join("");
  const sc = b.score ? fromServerScore(b.score) : scoreGrid(grid);
  const who = person(view, b.seat).self ? "Your grid" : api.seatName(b.seat) + "’s grid";
  return html`<div class="pf-seat-board" data-testid=${"pf-board-" + b.seat}>
    <h2 class="pf-sub">${who}</h2>
    <${Grid} grid=${grid} score=${sc} label=${who} testid=${"pf-grid-" + b.seat}/>
    <${ScoreBox} sc=${sc} testid=${"pf-score-" + b.seat} title="Score"/>
    ${colourLetters(b.coming).length ? html`<p class="small">Still to come from the set taken: ${colourWords(b.coming)}</p>` : ""}
  </div>`;
}

function Board({ view, api }) {
  const st = view.state || {};
  const status = html`<p class="pf-status" data-testid="pf-status">${statusLine(st, view)}</p>`;
  if (st.boards) {
    return html`<div class="paint" data-testid="pf-root">${status}
      ${api.role === "host" && !view.result ? html`<p class="muted small">As host you see both grids (<${RuleText} text="G-9"/>).</p>` : ""}
      <div class="pf-boards">${st.boards.map((b) => html`<${SeatBoard} key=${b.seat} view=${view} b=${b} api=${api}/>`)}</div>
      ${st.designs ? html`<div class="pf-designs" data-testid="pf-designs">${st.designs.map((sets, seat) => html`
        <div><h2 class="pf-sub">Sets ${api.seatName(seat)} designed for ${api.seatName(1 - seat)}</h2>
          <ol class="pf-design-list" data-testid=${"pf-designs-" + seat}>${sets.map((set, i) => html`<li>
            <span class="small">Set ${i + 1}: ${colourWords(set)}</span><${SetPicture} set=${set}/></li>`)}</ol></div>`)}</div>` : ""}</div>`;
  }
  if (st.you) {
    return html`<div class="paint" data-testid="pf-root">${status}<${OwnBoard} view=${view} api=${api} you=${st.you} st=${st}/></div>`;
  }
  const progress = st.progress || [];
  return html`<div class="paint" data-testid="pf-root">${status}
    <p data-testid="pf-spectator-note">Each seat plays its own grid from the sets the other designed. The set being played stays private
      (<${RuleText} text="G-9"/>); at every new showing both grids are shown here as they stand then, and at the end with their chains and final scores.</p>
    ${progress.length ? html`<div class="pf-boards" data-testid="pf-progress">${progress.map((p) => html`<${PublicBoard} key=${p.seat} p=${p} api=${api}/>`)}</div>`
      : st.stage !== "design" ? html`<p class="muted" data-testid="pf-progress-none">The grids are first shown at the second showing, after turn 4.</p>` : ""}</div>`;
}

function PublicBoard({ p, api, compact }) {
  const grid = (p.grid || []).join("");
  const sc = p.score ? fromServerScore(p.score) : scoreGrid(grid);
  const who = api.seatName(p.seat) + "’s grid after turn " + p.turn;
  return html`<div class="pf-seat-board" data-testid=${"pf-progress-" + p.seat}>
    ${compact ? "" : html`<h2 class="pf-sub">${who}</h2>`}
    <${Grid} grid=${grid} score=${sc} label=${who} testid=${"pf-progress-grid-" + p.seat}/>
    <${ScoreBox} sc=${sc} testid=${"pf-progress-score-" + p.seat} title=${"Score after turn " + p.turn}/>
  </div>`;
}

function OpponentProgress({ st, api }) {
  const other = (st.progress || []).find((p) => p.seat !== api.seat);
  if (!other) return null;
  const sc = other.score ? fromServerScore(other.score) : scoreGrid((other.grid || []).join(""));
  return html`<details class="pf-designed" data-testid="pf-opponent">
    <summary>${api.seatName(other.seat)}’s grid after turn ${other.turn}: score ${fmtNum(sc.score)}</summary>
    <p class="muted small">Both grids are shown to everyone at each new showing; the set being played stays private (<${RuleText} text="G-9"/>).</p>
    <${PublicBoard} p=${other} api=${api} compact=${true}/>
  </details>`;
}

/* ------------------------------------------------------------------ the log and header */
/* The phases as a host names them ("Time is up for shoving."). */
const PHASES = { design: "Set design", pick: "Taking a set", shove: "Shoving", last: "The last container" };

function phaseName(name) { return PHASES[name] || null; }

const setWords = (s) => "set " + s.number + " (" + colourWords(s.colours) + ")";

/* A move's facts in words, for "You sent …" and the Private panel: {sets} (PF-4), {set}
   (PF-5), {shoves} (PF-2, PF-3), {colour} (PF-5). */
function moveWords(value) {
  const v = value && typeof value === "object" ? value : {};
  if (Array.isArray(v.sets)) return "eight sets (" + v.sets.map((set, i) => (i + 1) + ": " + colourWords(set)).join("; ") + ")";
  if (v.set != null) return "set " + v.set;
  if (Array.isArray(v.shoves)) return "a shove of " + shovesWords(v.shoves);
  if (v.colour) return (NAME[v.colour] || v.colour) + " for the last container";
  return null;
}

/* One log line from an event's facts. The seat's own events are private (G-9): its reader is
   that seat or the host. */
function describe(e, view, ctx) {
  const d = e.data || {};
  const owner = d.seat != null ? d.seat : e.to && e.to.length === 1 ? e.to[0] : null;
  const mine = owner != null && owner === ctx.you;
  const who = owner == null ? "A seat" : ctx.who(owner);
  const whose = owner == null ? "a" : mine ? "your" : ctx.seatName(owner) + "’s";
  switch (e.kind) {
    // The routine phases are told by what happens in them (shown, entered, shoved).
    case "phase_started": return d.name === "design" ? undefined : false;
    case "phase_resolved": return d.name === "design" || (d.missing && d.missing.length) ? undefined : false;
    case "sets_sealed": return "Both seats have designed their sets for each other; the play begins.";
    case "shown": return "Showing " + d.showing + " of 6 for " + (mine ? "you" : ctx.seatName(owner)) + ": " +
      listWords((d.sets || []).map(setWords)) + ".";
    case "picked": return who + " picked set " + d.number + ": " + colourWords(d.colours) + ".";
    case "entered": return "Turn " + d.turn + ": a " + (NAME[d.colour] || "new") + " container enters " + whose + " grid at A1.";
    case "shoved": return who + " shoved " + shovesWords(d.shoves) + " on turn " + d.turn + ".";
    case "turn": return false;
    case "grids_full": return "Both grids are full: " + listWords((d.scores || []).map((x, i) =>
      (i === ctx.you ? "you score " : ctx.seatName(i) + " scores ") + fmtNum(x))) + " (PF-7).";
    case "defaulted": return "Nothing came from " + (mine ? "you" : ctx.seatName(owner)) + " in time; the rules chose " +
      (moveWords(d.value) || "for " + (mine ? "you" : "them")) + ".";
    default: return undefined;
  }
}

function phaseTitle(view) {
  const st = view.state || {};
  switch (st.stage) {
    case "design": return "Set design";
    case "pick": return "Showing " + st.showing + " of 6 · Take a set";
    case "shove": return "Turn " + st.turn + " of " + st.turns + " · Shove";
    case "last": return "Turn " + st.turns + " · Last container";
    default: return null;
  }
}

registerGame("paint", { Board, describe, moveWords, phaseName, phaseTitle });
