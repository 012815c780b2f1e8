/* Lockmaker on its board. A Preact ``Board`` whose every control composes the game's
   own notation and sends it through the shell:
   - study: Ready, or in round 1 the DMO's "first" / "second" (LM-13);
   - draft: the pool as pictures, tap pieces then Take / Take and stop / Stop (LM-14); both
     hands, the snake order and whose pick it is in words;
   - build: the drafted pieces, the key and the keyhole placed, moved and removed by tap or
     keyboard; a live check names the first rule the lock breaks (LM-1..LM-8, LM-15, an already
     open lock included) and nothing is sent until it passes; the lock goes as a one-line lock
     file (LM-10, rows separated by "/");
   - solve and countersolve: select a piece, slide it by arrow keys, by the slide buttons or by
     tapping a highlighted cell along its axis; turn an axis by its own buttons; a move counter,
     undo, reset and the move list in notation (LM-11); "declare impossible" asks first and says
     what it risks (LM-16, LM-18);
   - pick and decide: which solution counts, countersolve or pass (LM-16, LM-17).
   Spectators see both locks and the public move counts. No solver output is ever shown.
   Choices live in component state, so a clock tick never rebuilds a control under the player. */
import { html, useState, useEffect, useRef, fmtNum, fmtSeconds, RuleText, registerGame, capital, seesAll, person, readerIsSeat, readerSeat } from "/static/ui.js";

const LETTERS = "ABCDEFGHIJK";
const BAR_LETTERS = "ABCDEFGHIJLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BAR_COLOURS = ["#2f5d8a", "#3d7a36", "#7a4f8c", "#8a5a2b", "#2e7672", "#6b5b2e", "#7a3b52", "#4b5563"];
/* A bar's colour follows its kind (H2, V3, ...), on the board, in the pool and in the hands
   alike, so a piece in a hand can be matched with the same piece on a board. */
export function kindColour(kind) {
  const m = /^([HV])(\d+)$/.exec(String(kind));
  if (!m) return BAR_COLOURS[0];
  return BAR_COLOURS[((m[1] === "H" ? 0 : 4) + Math.max(0, Number(m[2]) - 2)) % BAR_COLOURS.length];
}
/* Under this many seconds a countersolve window cannot be used by a person (LM-17). */
export const SHORTEST_USABLE_WINDOW = 2;
const DIR_WORDS = { L: "left", R: "right", U: "up", D: "down" };
const TURN_WORDS = { CW: "clockwise", CCW: "counter-clockwise", "180": "half a turn" };
const STAGE_WORDS = {
  study: "Study", draft: "Draft", build: "Build your lock", solve: "Solve", pick: "Pick a solution",
  decide: "Countersolve or pass", counter: "Countersolve", over: "Over",
};

/* ------------------------------------------------------------------ the lock model
   Cells are ints, row * w + col (A1 = 0), as on the server (board.py). A model is
   {w, h, blocked: Set, keyhole, key: {cell, len, hor} | null, bars: [{cell, len, hor}], axes: [cell]}. */
function rowsOf(text) {
  const s = String(text || "");
  return (s.includes("\n") ? s.split("\n") : s.split("/")).map((l) => l.replace(/\s+$/, "")).filter((l) => l.length && l[0] !== ";");
}

function parseLock(text) {
  const rows = rowsOf(text);
  const w = rows.length ? rows[0].length : 0, h = rows.length;
  const m = { w, h, blocked: new Set(), keyhole: null, key: null, bars: [], axes: [] };
  const letters = {};
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = r * w + c;
    if (ch === "#") m.blocked.add(cell);
    else if (ch === "@") m.keyhole = cell;
    else if (ch === "+") m.axes.push(cell);
    else if (/[A-Za-z]/.test(ch)) (letters[ch] = letters[ch] || []).push(cell);
  }));
  for (const ch of Object.keys(letters)) {
    const cs = letters[ch].sort((a, b) => a - b);
    const hor = cs.length < 2 || Math.floor(cs[0] / w) === Math.floor(cs[cs.length - 1] / w);
    const bar = { cell: cs[0], len: cs.length, hor };
    if (ch === "K") m.key = bar; else m.bars.push(bar);
  }
  return m;
}

function writeLock(m) {
  const g = [];
  for (let r = 0; r < m.h; r++) { const row = []; for (let c = 0; c < m.w; c++) row.push(m.blocked.has(r * m.w + c) ? "#" : "."); g.push(row); }
  const put = (cell, ch) => { g[Math.floor(cell / m.w)][cell % m.w] = ch; };
  if (m.keyhole != null) put(m.keyhole, "@");
  m.axes.forEach((a) => put(a, "+"));
  if (m.key) cellsOf(m, m.key).forEach((c) => put(c, "K"));
  m.bars.forEach((b, i) => cellsOf(m, b).forEach((c) => put(c, BAR_LETTERS[i])));
  return g.map((r) => r.join("")).join("/");
}

const colOf = (m, c) => c % m.w;
const rowOf = (m, c) => Math.floor(c / m.w);
const nameOf = (m, c) => LETTERS[colOf(m, c)] + (rowOf(m, c) + 1);
function cellsOf(m, bar) { const step = bar.hor ? 1 : m.w; const out = []; for (let i = 0; i < bar.len; i++) out.push(bar.cell + i * step); return out; }
function pieces(m) { return m.key ? [m.key, ...m.bars] : [...m.bars]; }
function withPiece(m, p, bar) {
  if (p === 0) return Object.assign({}, m, { key: bar });
  const bars = m.bars.slice(); bars[p - 1] = bar;
  return Object.assign({}, m, { bars });
}

/* G-1 name of a run: BC1 (horizontal), C34 or C9-11 (vertical). */
function runName(m, cells) {
  const cs = cells.slice().sort((a, b) => a - b);
  if (cs.length === 1) return nameOf(m, cs[0]);
  if (rowOf(m, cs[0]) === rowOf(m, cs[cs.length - 1])) return cs.map((c) => LETTERS[colOf(m, c)]).join("") + (rowOf(m, cs[0]) + 1);
  const nums = cs.map((c) => rowOf(m, c) + 1);
  if (nums[nums.length - 1] >= 10) return LETTERS[colOf(m, cs[0])] + nums[0] + "-" + nums[nums.length - 1];
  return LETTERS[colOf(m, cs[0])] + nums.join("");
}

/* LM-6: a 1-unit end of the bar is next to the axis and the bar extends away from it. */
function attached(m, axis, bar) {
  const ac = colOf(m, axis), ar = rowOf(m, axis), bc = colOf(m, bar.cell), br = rowOf(m, bar.cell);
  if (bar.hor) return br === ar && (bc - 1 === ac || bc + bar.len === ac);
  return bc === ac && (br - 1 === ar || br + bar.len === ar);
}

function occupied(m, skip) {
  const occ = new Map();
  if (m.keyhole != null) occ.set(m.keyhole, "the keyhole");
  m.axes.forEach((a) => occ.set(a, "the axis on " + nameOf(m, a)));
  pieces(m).forEach((b, p) => { if (p !== skip) cellsOf(m, b).forEach((c) => occ.set(c, p === 0 && m.key ? "the key" : "bar " + runName(m, cellsOf(m, b)))); });
  return occ;
}

function unattachedAxis(m) {
  const ps = pieces(m);
  return m.axes.find((a) => !ps.some((b) => attached(m, a, b)));
}

/* LM-3: the key placements that touch the keyhole end-on (label edges top and left, LM-1). */
function keyTargets(m) {
  if (m.keyhole == null) return [];
  const kc = colOf(m, m.keyhole), kr = rowOf(m, m.keyhole), out = [];
  if (kc === m.w - 1 && kc - 2 >= 0) out.push({ cell: kr * m.w + kc - 2, hor: true });
  if (kr === m.h - 1 && kr - 2 >= 0) out.push({ cell: (kr - 2) * m.w + kc, hor: false });
  return out;
}
function isSolved(m) { return !!m.key && keyTargets(m).some((t) => t.cell === m.key.cell && t.hor === m.key.hor); }
function onKeyholeSide(m, cell) { return colOf(m, cell) === m.w - 1 || rowOf(m, cell) === m.h - 1; }

const pieceWord = (m, p) => (p === 0 && m.key ? "the key" : "bar " + runName(m, cellsOf(m, pieces(m)[p])));

/* One slide (LM-4, LM-5, LM-8): {pos, text} or {rule, reason}. */
function slide(m, p, dir, dist) {
  const bar = pieces(m)[p];
  const name = pieceWord(m, p);
  if ((dir === "L" || dir === "R") !== bar.hor) return { rule: "LM-4", reason: name + " slides only " + (bar.hor ? "left and right" : "up and down") };
  if (dist < 1) return { rule: "LM-5", reason: "a slide moves at least one cell" };
  const dc = dir === "L" ? -1 : dir === "R" ? 1 : 0, dr = dir === "U" ? -1 : dir === "D" ? 1 : 0;
  const occ = occupied(m, p);
  const cells = cellsOf(m, bar);
  for (let d = 1; d <= dist; d++) {
    for (const cell of cells) {
      const c = colOf(m, cell) + dc * d, r = rowOf(m, cell) + dr * d;
      if (c < 0 || r < 0 || c >= m.w || r >= m.h) return { rule: "LM-5", reason: name + " would slide off the board" };
      const n = r * m.w + c;
      if (m.blocked.has(n)) return { rule: "LM-5", reason: name + " would slide into blocked cell " + nameOf(m, n) };
      if (occ.has(n)) return { rule: "LM-5", reason: name + " cannot pass " + occ.get(n) + " on " + nameOf(m, n) };
    }
  }
  const pos = withPiece(m, p, { cell: bar.cell + (dc + dr * m.w) * dist, len: bar.len, hor: bar.hor });
  const lost = unattachedAxis(pos);
  if (lost != null) return { rule: "LM-8", reason: "sliding " + name + " would leave the axis on " + nameOf(m, lost) + " with no attached piece" };
  return { pos, text: (p === 0 ? "K" : runName(m, cells)) + " " + dir + dist };
}

/* One turn of an axis (LM-7, LM-8). */
function rotate(m, axis, turn) {
  const ps = pieces(m);
  const turning = ps.map((b, p) => [b, p]).filter(([b]) => attached(m, axis, b));
  const where = nameOf(m, axis);
  if (!turning.length) return { rule: "LM-8", reason: "nothing is attached to the axis on " + where };
  const moving = new Set();
  turning.forEach(([b]) => cellsOf(m, b).forEach((c) => moving.add(c)));
  const occ = occupied(m, -1);
  let pos = m;
  const ac = colOf(m, axis), ar = rowOf(m, axis);
  for (const [b, p] of turning) {
    const out = [];
    for (const cell of cellsOf(m, b)) {
      let dc = colOf(m, cell) - ac, dr = rowOf(m, cell) - ar;
      if (turn === "CW") [dc, dr] = [-dr, dc]; else if (turn === "CCW") [dc, dr] = [dr, -dc]; else [dc, dr] = [-dc, -dr];
      const c = ac + dc, r = ar + dr;
      if (c < 0 || r < 0 || c >= m.w || r >= m.h) return { rule: "LM-7", reason: "turning " + where + " " + turn + " would take a piece off the board" };
      const n = r * m.w + c;
      if (m.blocked.has(n)) return { rule: "LM-7", reason: "turning " + where + " " + turn + " would put a piece on blocked cell " + nameOf(m, n) };
      if (occ.has(n) && !moving.has(n)) return { rule: "LM-7", reason: "turning " + where + " " + turn + ": " + nameOf(m, n) + " is taken by " + occ.get(n) };
      out.push(n);
    }
    out.sort((a, b2) => a - b2);
    pos = withPiece(pos, p, { cell: out[0], len: b.len, hor: turn === "180" ? b.hor : !b.hor });
  }
  const lost = unattachedAxis(pos);
  if (lost != null) return { rule: "LM-8", reason: "turning " + where + " would leave the axis on " + nameOf(m, lost) + " with no attached piece" };
  return { pos, text: where + " " + turn };
}

/* Every legal slide of piece p: target cell (the leading cell after the slide) -> {dir, dist}. */
function slideTargets(m, p) {
  const out = new Map();
  const bar = pieces(m)[p];
  const cells = cellsOf(m, bar);
  for (const dir of bar.hor ? ["L", "R"] : ["U", "D"]) {
    for (let d = 1; d <= Math.max(m.w, m.h); d++) {
      const r = slide(m, p, dir, d);
      if (r.rule === "LM-8") continue;
      if (!r.pos) break;
      const step = dir === "L" ? -1 : dir === "R" ? 1 : dir === "U" ? -m.w : m.w;
      const lead = (step < 0 ? cells[0] : cells[cells.length - 1]) + step * d;
      out.set(lead, { dir, dist: d });
    }
  }
  return out;
}

/* ------------------------------------------------------------------ pieces as pictures */
function PiecePic({ kind, unit }) {
  const u = unit || 12;
  if (kind === "X") {
    return html`<svg class="lm-pic" width=${u * 1.6} height=${u * 1.6} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="8.5" fill="#fff" stroke="#222" stroke-width="2"/><path d="M5 10H15M10 5V15" stroke="#222" stroke-width="2.2"/></svg>`;
  }
  if (kind === "KEY-H" || kind === "KEY-V" || kind === "KEYHOLE") {
    if (kind === "KEYHOLE") {
      return html`<svg class="lm-pic" width=${u * 1.6} height=${u * 1.6} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <rect x="1" y="1" width="18" height="18" rx="3" fill="#111"/><circle cx="10" cy="8" r="3.4" fill="#ddd"/><rect x="8.4" y="8" width="3.2" height="7" fill="#ddd"/></svg>`;
    }
    const hor = kind === "KEY-H";
    const w = hor ? 2 * u : u, h = hor ? u : 2 * u;
    return html`<svg class="lm-pic" width=${w} height=${h} viewBox=${"0 0 " + w + " " + h} aria-hidden="true" focusable="false">
      <rect x="1" y="1" width=${w - 2} height=${h - 2} rx="3" fill="#b71c1c" stroke="#222" stroke-width="1.5"/></svg>`;
  }
  const hor = kind[0] === "H";
  const n = Number(kind.slice(1)) || 2;
  const w = hor ? n * u : u, h = hor ? u : n * u;
  const joints = [];
  for (let i = 1; i < n; i++) joints.push(hor ? html`<path d=${"M" + i * u + " 3V" + (u - 3)} stroke="#fff" stroke-opacity=".55"/>` : html`<path d=${"M3 " + i * u + "H" + (u - 3)} stroke="#fff" stroke-opacity=".55"/>`);
  return html`<svg class="lm-pic" width=${w} height=${h} viewBox=${"0 0 " + w + " " + h} aria-hidden="true" focusable="false">
    <rect x="1" y="1" width=${w - 2} height=${h - 2} rx="3" fill=${kindColour(kind)} stroke="#222" stroke-width="1.5"/>${joints}</svg>`;
}

function pieceWords(kind) {
  if (kind === "X") return "axis";
  return (kind[0] === "H" ? "horizontal" : "vertical") + " bar of " + kind.slice(1) + " cells";
}
/* "a horizontal bar of 3 cells", "an axis": a piece code (data, LM-22) as the page says it. */
const aPiece = (kind) => (kind === "X" ? "an " : "a ") + pieceWords(kind);

/* ------------------------------------------------------------------ the board grid
   A CSS grid: letters along the top, numbers down the left (G-1), one cell per board cell and
   the pieces laid over the cells they cover. When ``onCell`` is given the cells are buttons
   with one tab stop (roving focus): arrow keys move the cursor unless ``onArrow`` takes them. */
function LockGrid({ m, label, prefix, onCell, onArrow, onKey, selected, targets, ghost, cellWords }) {
  const interactive = !!onCell;
  const [cursor, setCursor] = useState(0);
  const ref = useRef(null);
  const dragRef = useRef({});
  const cur = Math.min(cursor, m.w * m.h - 1);
  /* The cells never change under the cursor, so focus moves at once, not after a render. */
  const moveTo = (cell) => {
    setCursor(cell);
    const el = ref.current && ref.current.querySelector('[data-cell="' + cell + '"]');
    if (el) el.focus();
  };
  const keyDown = (e, cell) => {
    const dirs = { ArrowLeft: "L", ArrowRight: "R", ArrowUp: "U", ArrowDown: "D" };
    const dir = dirs[e.key];
    if (dir) {
      e.preventDefault();
      if (onArrow) {
        const moved = onArrow(dir, cell);
        if (moved != null) { moveTo(moved); return; }
      }
      let c = colOf(m, cell), r = rowOf(m, cell);
      if (dir === "L") c = Math.max(0, c - 1); else if (dir === "R") c = Math.min(m.w - 1, c + 1);
      else if (dir === "U") r = Math.max(0, r - 1); else r = Math.min(m.h - 1, r + 1);
      moveTo(r * m.w + c);
      return;
    }
    if (onKey && onKey(e, cell)) e.preventDefault();
  };
  const occ = new Map();
  if (m.keyhole != null) occ.set(m.keyhole, "keyhole");
  m.axes.forEach((a) => occ.set(a, "axis"));
  pieces(m).forEach((b, p) => cellsOf(m, b).forEach((c) => occ.set(c, p === 0 && m.key ? "key" : "bar " + runName(m, cellsOf(m, b)) + (b.hor ? ", horizontal" : ", vertical"))));
  const cells = [];
  for (let r = 0; r < m.h; r++) {
    for (let c = 0; c < m.w; c++) {
      const cell = r * m.w + c;
      const blocked = m.blocked.has(cell);
      const what = blocked ? "blocked" : occ.get(cell) || "open";
      const target = targets && targets.has(cell);
      const words = nameOf(m, cell) + ": " + what + (cellWords ? cellWords(cell) : "") + (target ? ", move here" : "");
      const cls = "lm-cell" + (blocked ? " blocked" : "") + (target ? " target" : "");
      const style = "grid-column:" + (c + 2) + ";grid-row:" + (r + 2);
      if (interactive) {
        cells.push(html`<button type="button" class=${cls} style=${style} data-cell=${cell} data-testid=${prefix + nameOf(m, cell)}
          tabindex=${cell === cur ? 0 : -1} aria-label=${words} onClick=${() => { setCursor(cell); onCell(cell); }}
          onKeyDown=${(e) => keyDown(e, cell)}></button>`);
      } else {
        cells.push(html`<div class=${cls} style=${style} role="img" aria-label=${words} data-testid=${prefix ? prefix + nameOf(m, cell) : null}></div>`);
      }
    }
  }
  const over = [];
  const place = (cell, wide, tall) => "grid-column:" + (colOf(m, cell) + 2) + " / span " + wide + ";grid-row:" + (rowOf(m, cell) + 2) + " / span " + tall;
  const drawBar = (b, p, extra) => {
    const isKey = p === 0 && m.key;
    const sel = selected && selected.type === "piece" && selected.p === p;
    over.push(html`<div class=${"lm-piece " + (isKey ? "key" : "bar") + (sel ? " selected" : "") + (extra || "")} aria-hidden="true"
      style=${place(b.cell, b.hor ? b.len : 1, b.hor ? 1 : b.len) + (isKey ? "" : ";background:" + kindColour((b.hor ? "H" : "V") + b.len))}>${isKey ? "KEY" : ""}</div>`);
  };
  pieces(m).forEach((b, p) => drawBar(b, p));
  if (ghost) ghost.forEach((g) => over.push(html`<div class="lm-piece ghost bar" aria-hidden="true" style=${place(g.cell, g.hor ? g.len : 1, g.hor ? 1 : g.len) + ";background:#6b7385"}></div>`));
  m.axes.forEach((a) => {
    const sel = selected && selected.type === "axis" && selected.cell === a;
    over.push(html`<div class=${"lm-piece axis" + (sel ? " selected" : "")} aria-hidden="true" style=${place(a, 1, 1)}>+</div>`);
  });
  if (m.keyhole != null) {
    const sel = selected && selected.type === "keyhole";
    over.push(html`<div class=${"lm-piece keyhole" + (sel ? " selected" : "")} aria-hidden="true" style=${place(m.keyhole, 1, 1)}>HOLE</div>`);
  }
  const labels = [];
  for (let c = 0; c < m.w; c++) labels.push(html`<div class="lm-lab" aria-hidden="true" style=${"grid-column:" + (c + 2) + ";grid-row:1"}>${LETTERS[c]}</div>`);
  for (let r = 0; r < m.h; r++) labels.push(html`<div class="lm-lab" aria-hidden="true" style=${"grid-column:1;grid-row:" + (r + 2)}>${r + 1}</div>`);
  const cursorBox = interactive ? html`<div class="lm-cursor" aria-hidden="true" style=${place(cur, 1, 1)}></div>` : "";
  /* Drag: pressing on a cell is a tap on it (it picks up the piece there); letting go over
     another cell is a tap on that one (the piece goes or slides there). The click that
     follows a drag is swallowed so it does not undo the pick. */
  const cellAt = (e) => {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const btn = el && el.closest ? el.closest("[data-cell]") : null;
    return btn && ref.current && ref.current.contains(btn) ? Number(btn.dataset.cell) : null;
  };
  // One drag record for the grid's life: a record made per render (the first render has no
  // element yet) was lost when the page redrew between pointer down and up (a view update
  // from the other seat), and the drag did nothing.
  const drag = dragRef.current;
  const down = (e) => {
    if (!interactive || e.button > 0) return;
    const cell = cellAt(e);
    drag.from = cell;
    drag.moved = false;
  };
  const move = (e) => {
    if (drag.from == null) return;
    const cell = cellAt(e);
    if (cell != null && cell !== drag.from) drag.moved = true;
  };
  const up = (e) => {
    const from = drag.from;
    drag.from = null;
    if (from == null || !drag.moved) return;
    const to = cellAt(e);
    drag.swallow = true;
    // Real clicks on the two cells, each after the page has drawn the last one's effect, so
    // the second sees the piece the first picked up.
    const clickCell = (cell) => {
      const el = ref.current && ref.current.querySelector('[data-cell="' + cell + '"]');
      if (el) el.click();
    };
    setTimeout(() => {
      drag.swallow = false;
      if (to == null || to === from) return;
      clickCell(from);
      setTimeout(() => clickCell(to), 0);
    }, 0);
  };
  const clickCapture = (e) => { if (drag.swallow) { e.stopPropagation(); e.preventDefault(); drag.swallow = false; } };
  return html`<div class="lm-gridwrap"><div class=${"lm-grid" + (interactive ? " lm-draggable" : "")} ref=${ref} role="group" aria-label=${label}
    onPointerDown=${down} onPointerMove=${move} onPointerUp=${up} onClickCapture=${clickCapture}
    style=${"grid-template-columns:24px repeat(" + m.w + ", var(--lm-cell));grid-template-rows:24px repeat(" + m.h + ", var(--lm-cell))"}>
    ${labels}${cells}${over}${cursorBox}</div></div>`;
}

/* ------------------------------------------------------------------ small pieces of page */
function Note({ note, testid }) {
  return html`<p class=${"lm-note " + (note && note.ok ? "ok-text" : "error-text")} data-testid=${testid || "lm-note"} role="status">${note ? html`<${RuleText} text=${note.text}/>` : ""}</p>`;
}

/* The shell's message for what this board sent, named per round and stage: an answer that
   arrives just after the phase moved on stays with the control that sent it. */
let lmSource = "lm";
function ShellMsg() {
  const Msg = window.Arena && window.Arena.Msg;
  return Msg ? html`<${Msg} source=${lmSource} testid="lm-msg" okTestid="lm-msg-ok"/>` : null;
}

function Hand({ kinds }) {
  if (!kinds || !kinds.length) return html`<span class="muted">nothing yet</span>`;
  return html`${kinds.map((k) => html`<span class="lm-mini"><${PiecePic} kind=${k} unit=${9}/>${pieceWords(k)}</span>`)}`;
}

function Status({ view, st, api }) {
  const name = (s) => person(view, s).You;
  return html`<p class="lm-status" data-testid="lm-status">Score: ${(st.scores || []).map((x, i) => html`${i ? " · " : ""}<span data-testid=${"lm-score-" + (i + 1)}>${name(i)} <b>${fmtNum(x)}</b></span>`)}
    <span class="muted small"> (round ${st.round} of ${st.rounds}; ${st.target} points after a round wins, <${RuleText} text="LM-20"/>)</span></p>`;
}

function History({ view, st, api }) {
  const hist = st.history || [];
  if (!hist.length) return null;
  const ctx = { you: readerSeat(view), seatName: api.seatName };
  return html`<section class="lm-section"><h3>Rounds played</h3><ul data-testid="lm-history">
    ${hist.map((h) => html`<li>Round ${h.round}: ${api.seatName(0)} +${h.points[0]}, ${api.seatName(1)} +${h.points[1]}
      ${(h.awards || []).length ? html`<ul>${h.awards.map((a) => html`<li><${RuleText} text=${awardWords(a, ctx)}/></li>`)}</ul>` : ""}</li>`)}
  </ul></section>`;
}

function FinalCounts({ st, api }) {
  if (!st.final && !st.solution_counts) return null;
  const parts = [0, 1].map((s) => {
    if (st.impossible && st.impossible[s]) return api.seatName(s) + " declared the lock impossible";
    if (st.final) {
      const f = st.final[s];
      return api.seatName(s) + ": " + (f ? fmtNum(f.moves) + " move" + (f.moves === 1 ? "" : "s") + " in " + fmtNum(Math.round(f.time * 10) / 10) + " s" : "no solution");
    }
    return api.seatName(s) + ": " + fmtNum(st.solution_counts[s]) + " solution(s) sent";
  });
  return html`<p class="lm-words" data-testid="lm-final"><${RuleText} text=${(st.final ? "Final solutions (LM-16): " : "Solving is over: ") + parts.join(" · ")}/></p>`;
}

/* ------------------------------------------------------------------ study and draft */
function snakeWords(st, api) {
  const first = st.first_drafter;
  if (first == null) return "The DMO chooses who drafts first (LM-13).";
  const A = api.seatName(first), B = api.seatName(1 - first);
  return "Snake order (LM-14): " + A + ", then " + B + " twice, " + A + " twice, and so on; a turn of two may take one or two pieces.";
}

function DraftArea({ view, api, st, canAct }) {
  const [picks, setPicks] = useState([]);
  const [note, setNote] = useState(null);
  const me = api.role === "seat" ? api.seat : null;
  const pool = st.pool || [];
  const turn = st.turn;
  const myTurn = st.stage === "draft" && canAct && turn && turn.seat === me;
  const max = turn ? turn.picks : 0;
  useEffect(() => { setPicks([]); }, [view.phase && view.phase.no]);
  const valid = picks.filter((i) => i < pool.length);
  const chosen = valid.map((i) => pool[i]);
  const send = async (text) => {
    setNote(null);
    const r = await api.submit(text, true, lmSource);
    if (r.ok) setPicks([]);
  };
  const toggle = (i) => {
    if (!myTurn) { setNote({ text: st.stage === "study" ? "The draft starts after the study time." : "It is not your pick." }); return; }
    setNote(null);
    if (valid.includes(i)) setPicks(valid.filter((x) => x !== i));
    else if (max === 1) setPicks([i]);
    else if (valid.length < max) setPicks([...valid, i]);
    else setNote({ text: "This turn takes at most " + max + " pieces (LM-14): tap a chosen piece to put it back." });
  };
  // Once the match is over (a seat ran out of reserve mid-draft, the host ended it) nobody is
  // picking: say so, and the pool is only a picture.
  const over = !!view.result;
  let whose = "";
  if (over) whose = "The match ended during the draft.";
  else if (st.stage === "draft" && turn) {
    whose = turn.seat === me && person(view, me).self ? "Your pick: " + (turn.picks === 1 ? "take one piece" : "take one or two pieces") + ", or stop drafting."
      : api.seatName(turn.seat) + " is picking (" + (turn.picks === 1 ? "one piece" : "up to two pieces") + ").";
  } else if (st.stage === "study") whose = "Study the board and the pool; the draft starts next.";
  const stopped = [0, 1].filter((s) => st.stopped && st.stopped[s]).map((s) => api.seatName(s) + " has stopped drafting.");
  return html`<div>
    <section class="lm-section">
      <h3>The pool</h3>
      <p class="lm-words" data-testid="lm-order"><${RuleText} text=${snakeWords(st, api)}/></p>
      <p class="lm-words" data-testid="lm-turn"><b>${whose}</b> ${stopped.join(" ")}</p>
      <div class="lm-tray lm-pool-tray" role="group" aria-label="pieces in the pool" data-testid="lm-pool">
        ${pool.length ? pool.map((k, i) => html`<button type="button" class="lm-chip" data-testid=${"lm-pool-" + i} aria-pressed=${valid.includes(i) ? "true" : "false"} disabled=${over || api.replay}
          aria-label=${pieceWords(k) + (valid.includes(i) ? ", chosen" : "")} onClick=${() => toggle(i)}>
          <${PiecePic} kind=${k}/><span class="lm-chip-text"><span>${capital(pieceWords(k))}</span></span>
          <span class="lm-chip-check" aria-hidden="true">✓</span></button>`)
          : html`<span class="muted">The pool is empty.</span>`}
      </div>
      ${myTurn ? html`<div class="control-row">
        <button type="button" data-testid="lm-take" disabled=${!chosen.length} onClick=${() => send(chosen.join(","))}>${chosen.length ? "Take " + chosen.map(aPiece).join(" and ") : "Tap a piece to take"}</button>
        <button type="button" class="secondary" data-testid="lm-take-stop" onClick=${() => send(chosen.length ? chosen.join(",") + ",stop" : "stop")}>${chosen.length ? "Take and stop drafting" : "Stop drafting"}</button>
      </div>` : ""}
      <${Note} note=${note}/>
    </section>
    <section class="lm-section">
      <h3>Hands</h3>
      <div class="lm-hands">${[0, 1].map((s) => html`<div class=${"lm-hand" + (turn && turn.seat === s && st.stage === "draft" ? " turn" : "")} data-testid=${"lm-hand-" + (s + 1)}>
        <h4>${api.seatName(s)}${person(view, s).self ? " (you)" : ""}${turn && turn.seat === s && st.stage === "draft" ? " · picking now" : ""}${st.stopped && st.stopped[s] ? " · stopped" : ""}</h4>
        <${Hand} kinds=${(st.hands || [])[s]}/></div>`)}</div>
      <p class="muted small">Every seat also gets a key and a keyhole (<${RuleText} text="LM-22"/>).</p>
    </section>
  </div>`;
}

function StudyControls({ st, api, canAct }) {
  if (!canAct) return null;
  const send = (t) => api.submit(t, true, lmSource);
  if (st.round === 1 && api.seat === 1) {
    return html`<div class="lm-section"><p class="lm-words">You are the DMO: choose whether you draft first or second (<${RuleText} text="LM-13"/>).</p>
      <div class="control-row"><button type="button" data-testid="lm-first" onClick=${() => send("first")}>Draft first</button>
      <button type="button" data-testid="lm-second" onClick=${() => send("second")}>Draft second</button></div></div>`;
  }
  return html`<div class="control-row lm-section"><button type="button" data-testid="lm-ready" onClick=${() => send("ready")}>Ready</button>
    <span class="muted small">Say you have studied the board; the phase also ends on its own.</span></div>`;
}

/* ------------------------------------------------------------------ build */
function buildModel(base, items, placed) {
  const m = { w: base.w, h: base.h, blocked: base.blocked, keyhole: null, key: null, bars: [], axes: [] };
  const owner = [];   // pieces(m) index -> item id
  if (placed.key) { m.key = { cell: placed.key.cell, len: 2, hor: placed.key.hor }; owner.push("key"); }
  if (placed.keyhole) m.keyhole = placed.keyhole.cell;
  items.forEach((k, i) => {
    const at = placed[i];
    if (!at) return;
    if (k === "X") m.axes.push(at.cell);
    else { m.bars.push({ cell: at.cell, len: Number(k.slice(1)), hor: k[0] === "H" }); owner.push(i); }
  });
  return { m, owner };
}

function itemShape(items, id, placed, hor) {
  if (id === "key") return { len: 2, hor: hor };
  if (id === "keyhole") return { len: 1, hor: true };
  const k = items[id];
  if (k === "X") return { len: 1, hor: true };
  return { len: Number(k.slice(1)), hor: k[0] === "H" };
}

/* The first rule the lock breaks, then the others, in the engine's order (validate.py): the
   placement (LM-2 keyhole, LM-3 key, LM-8 axes), an open lock (LM-15), then the pieces (LM-15).
   Blocked cells, the board's edge and overlaps (LM-1, LM-15) are refused as pieces are placed. */
function lockProblems(m, missing) {
  const out = [];
  if (m.keyhole == null) out.push("LM-2: place the keyhole on the bottom row or the right column");
  else if (!onKeyholeSide(m, m.keyhole)) out.push("LM-2: the keyhole on " + nameOf(m, m.keyhole) + " is not on the bottom row or the right column");
  if (!m.key) out.push("LM-3: place the key (two cells, horizontal or vertical)");
  const ps = pieces(m);
  m.axes.forEach((a) => { if (!ps.some((b) => attached(m, a, b))) out.push("LM-8: the axis on " + nameOf(m, a) + " has no attached piece (a bar's end must touch it, in line)"); });
  if (!out.length && isSolved(m)) out.push("LM-15: the lock is already open: the key touches the keyhole (LM-3); every solution needs at least one move");
  if (missing.length) out.push("LM-15: every drafted piece is used; still to place: " + missing.join(", "));
  return out;
}

function BuildArea({ view, api, st, canAct }) {
  const me = api.seat;
  const base = parseLock(st.board);
  const items = (st.hands || [])[me] || [];
  const [placed, setPlaced] = useState({});
  const [sel, setSel] = useState(null);
  const [keyHor, setKeyHor] = useState(true);
  const [note, setNote] = useState(null);
  const [sent, setSent] = useState(null);
  const { m } = buildModel(base, items, placed);
  const problems = lockProblems(m, items.filter((k, i) => !placed[i]));

  const itemAt = (cell) => {
    for (const id of Object.keys(placed)) {
      const at = placed[id];
      if (!at) continue;
      const shape = itemShape(items, id === "key" || id === "keyhole" ? id : Number(id), placed, at.hor);
      const cs = cellsOf(m, { cell: at.cell, len: shape.len, hor: shape.hor });
      if (cs.includes(cell)) return id === "key" || id === "keyhole" ? id : Number(id);
    }
    return null;
  };
  const itemName = (id) => (id === "key" ? "the key" : id === "keyhole" ? "the keyhole" : items[id] === "X" ? "the axis" : "the " + items[id] + " bar");
  const tryPlace = (id, cell, hor) => {
    const shape = itemShape(items, id, placed, hor);
    const c0 = colOf(m, cell), r0 = rowOf(m, cell);
    if ((shape.hor ? c0 + shape.len : r0 + shape.len) > (shape.hor ? m.w : m.h)) {
      return { rule: "LM-1", text: "LM-1: " + itemName(id) + " from " + nameOf(m, cell) + " would leave the board" + (id === "key" ? "" : " (bars keep their drafted orientation, LM-4)") };
    }
    const cs = cellsOf(m, { cell, len: shape.len, hor: shape.hor });
    for (const c of cs) {
      if (m.blocked.has(c)) return { text: "LM-1: " + nameOf(m, c) + " is blocked" };
      const other = itemAt(c);
      if (other != null && String(other) !== String(id)) return { text: "LM-15: " + itemName(id) + " would overlap " + itemName(other) + " on " + nameOf(m, c) };
    }
    return null;
  };
  const put = (id, cell, hor) => {
    const bad = tryPlace(id, cell, hor);
    if (bad) { setNote({ text: "Not placed: " + bad.text }); return false; }
    const next = Object.assign({}, placed);
    next[id] = { cell, hor: id === "key" ? hor : true };
    setPlaced(next);
    setSel(null);
    setNote({ ok: true, text: capital(itemName(id)) + " placed on " + nameOf(m, cell) + "." });
    return true;
  };
  const onCell = (cell) => {
    if (!canAct) return;
    const here = itemAt(cell);
    if (sel != null && here != null && String(here) === String(sel)) { setSel(null); setNote(null); return; }
    if (here != null && (sel == null || placed[sel])) {
      setSel(here);
      setNote({ ok: true, text: capital(itemName(here)) + " selected: tap a cell to move it there, or remove it." });
      return;
    }
    if (sel == null) { setNote({ text: "Choose a piece from your hand first, then tap a cell for its top or left end." }); return; }
    put(sel, cell, keyHor);
  };
  const remove = (id) => {
    if (id == null || !placed[id]) return;
    const next = Object.assign({}, placed);
    delete next[id];
    setPlaced(next);
    setSel(null);
    setNote({ ok: true, text: capital(itemName(id)) + " taken off the board." });
  };
  const onKey = (e, cell) => {
    if (e.key === "Delete" || e.key === "Backspace") { remove(itemAt(cell)); return true; }
    if (e.key === "Escape") { setSel(null); setNote(null); return true; }
    return false;
  };
  const turnKey = () => {
    const hor = !keyHor;
    if (placed.key) {
      const bad = tryPlace("key", placed.key.cell, hor);
      if (bad) { setNote({ text: "Cannot turn the key where it stands: " + bad.text }); return; }
      setPlaced(Object.assign({}, placed, { key: { cell: placed.key.cell, hor } }));
    }
    setKeyHor(hor);
    setNote({ ok: true, text: "The key is now " + (hor ? "horizontal (slides left and right)" : "vertical (slides up and down)") + "." });
  };
  const submit = async () => {
    if (problems.length) { setNote({ text: "Not sent: " + problems[0] }); return; }
    const text = writeLock(m);
    setNote(null);
    const r = await api.submit(text, true, lmSource);
    if (r.ok) setSent(text);
  };
  const chip = (id, kind, label, sub) => {
    const at = placed[id];
    return html`<button type="button" class=${"lm-chip" + (at ? " done" : "")} data-testid=${"lm-tool-" + id} aria-pressed=${String(sel) === String(id) ? "true" : "false"}
      disabled=${!canAct} aria-label=${label + (at ? ", placed on " + nameOf(m, at.cell) : ", not placed") + (String(sel) === String(id) ? ", selected" : "")}
      onClick=${() => { if (String(sel) === String(id)) { setSel(null); setNote(null); } else { setSel(id); setNote({ ok: true, text: capital(label) + " selected: tap a cell for its " + (id === "keyhole" || kind === "X" ? "place" : "top or left end") + "." }); } }}>
      <${PiecePic} kind=${kind}/><span class="lm-chip-text"><span>${label}</span><span class="lm-chip-sub">${at ? "on " + nameOf(m, at.cell) : sub || "not placed"}</span></span></button>`;
  };
  const selected = sel == null ? null : sel === "keyhole" ? { type: "keyhole" } : sel === "key" ? { type: "piece", p: 0 }
    : items[sel] === "X" ? { type: "axis", cell: placed[sel] && placed[sel].cell }
    : placed[sel] ? { type: "piece", p: buildModel(base, items, placed).owner.indexOf(sel) } : null;
  const waiting = !canAct && (view.seats[me] || {}).final;
  return html`<div data-testid="lm-editor">
    <p class="lm-words">Place every drafted piece, the key and the keyhole (<${RuleText} text="LM-15"/>). Tap a piece of your hand, then a cell for its top or left end; tap a placed piece to move or remove it.<span class="kbd-only"> Keyboard: arrow keys move the cursor, Enter places, Delete removes, Escape lets go.</span></p>
    <div class="lm-tray" role="group" aria-label="your pieces" data-testid="lm-tray">
      ${items.map((k, i) => chip(i, k, pieceWords(k)))}
      ${chip("key", keyHor ? "KEY-H" : "KEY-V", "key, " + (keyHor ? "horizontal" : "vertical"))}
      ${chip("keyhole", "KEYHOLE", "keyhole", "bottom row or right column")}
    </div>
    <div class="control-row">
      <button type="button" class="secondary" data-testid="lm-key-turn" disabled=${!canAct} onClick=${turnKey}>Turn the key to ${keyHor ? "vertical" : "horizontal"}</button>
      <button type="button" class="secondary" data-testid="lm-remove" disabled=${!canAct || sel == null || !placed[sel]} onClick=${() => remove(sel)}>Remove ${sel != null && placed[sel] ? itemName(sel) : "the selected piece"}</button>
      <button type="button" class="secondary" data-testid="lm-clear" disabled=${!canAct} onClick=${() => { setPlaced({}); setSel(null); setNote(null); }}>Clear the board</button>
    </div>
    <${LockGrid} m=${m} label="your lock under construction" prefix="lm-cell-" onCell=${canAct ? onCell : null} onKey=${onKey} selected=${selected}/>
    <${Note} note=${note}/>
    <div class=${"lm-check " + (problems.length ? "bad" : "good")} id="lm-check" data-testid="lm-check" role="status">
      ${problems.length ? html`<b>Not ready: <${RuleText} text=${problems[0]}/></b>${problems.length > 1 ? html`<ul>${problems.slice(1).map((p) => html`<li><${RuleText} text=${p}/></li>`)}</ul>` : ""}`
        : html`<b>The lock is valid (<${RuleText} text="LM-15"/>): ready to send.</b> Whether it can be solved is for your opponent to find out.`}
    </div>
    ${canAct ? html`<div class="control-row"><button type="button" data-testid="lm-submit-lock" aria-describedby="lm-check" onClick=${submit}>Send this lock</button></div>` : ""}
    ${waiting ? html`<p class="turn done" data-testid="lm-lock-sent">Your lock is sent${sent ? ": " : "."}${sent ? html`<code>${sent}</code>` : ""} Waiting for the other lock.</p>` : ""}
    <${ShellMsg}/>
  </div>`;
}

/* ------------------------------------------------------------------ solve and countersolve */
function Mover({ api, lockText, mode, canAct, final }) {
  const start = parseLock(lockText);
  const [hist, setHist] = useState([]);           // [{text, pos, step: {p, dir, dist} | null}]
  const [sel, setSel] = useState(null);           // {type: "piece", p} | {type: "axis", cell}
  const [note, setNote] = useState(null);
  const [asking, setAsking] = useState(false);
  const pos = hist.length ? hist[hist.length - 1].pos : start;
  const solved = isSolved(pos);
  const targets = sel && sel.type === "piece" ? slideTargets(pos, sel.p) : null;
  const pieceAt = (cell) => pieces(pos).findIndex((b) => cellsOf(pos, b).includes(cell));

  const play = (r, step) => {
    if (!r.pos) { setNote({ text: "Not played: " + r.rule + ": " + r.reason }); return false; }
    setNote(null);
    const last = hist[hist.length - 1];
    // A one-cell step right after a slide of the same piece extends that slide (LM-9: one
    // slide of any distance is one move); stepping back to where it started takes it back.
    if (step && step.merge && last && last.step && last.step.p === step.p) {
      const before = hist.length > 1 ? hist[hist.length - 2].pos : start;
      const sign = (d) => (d === "R" || d === "D" ? 1 : -1);
      const net = sign(last.step.dir) * last.step.dist + sign(step.dir) * step.dist;
      const rest = hist.slice(0, -1);
      if (net === 0) { setHist(rest); return true; }
      const bar = pieces(before)[step.p];
      const dir = bar.hor ? (net > 0 ? "R" : "L") : (net > 0 ? "D" : "U");
      const merged = slide(before, step.p, dir, Math.abs(net));
      if (merged.pos) { setHist([...rest, { text: merged.text, pos: merged.pos, step: { p: step.p, dir, dist: Math.abs(net) } }]); return true; }
    }
    setHist([...hist, { text: r.text, pos: r.pos, step: step || null }]);
    return true;
  };
  const slideBy = (p, dir, dist, merge) => play(slide(pos, p, dir, dist), { p, dir, dist, merge });
  const onCell = (cell) => {
    if (!canAct) return;
    if (targets && targets.has(cell)) { const t = targets.get(cell); slideBy(sel.p, t.dir, t.dist, false); return; }
    if (pos.axes.includes(cell)) {
      setSel(sel && sel.type === "axis" && sel.cell === cell ? null : { type: "axis", cell });
      setNote(null);
      return;
    }
    const p = pieceAt(cell);
    if (p >= 0) {
      setSel(sel && sel.type === "piece" && sel.p === p ? null : { type: "piece", p });
      setNote(null);
      return;
    }
    if (sel && sel.type === "piece") {
      const bar = pieces(pos)[sel.p];
      const inLine = bar.hor ? rowOf(pos, cell) === rowOf(pos, bar.cell) : colOf(pos, cell) === colOf(pos, bar.cell);
      setNote({ text: inLine ? pieceWord(pos, sel.p) + " cannot get to " + nameOf(pos, cell) + " in one slide (LM-5: it cannot pass pieces or blocked cells)"
        : pieceWord(pos, sel.p) + " slides only " + (bar.hor ? "left and right" : "up and down") + " (LM-4); tap a marked cell" });
      return;
    }
    if (cell === pos.keyhole) { setNote({ text: "The keyhole never moves (LM-2)." }); return; }
    setSel(null);
  };
  const onArrow = (dir, cell) => {
    if (!canAct || !sel || sel.type !== "piece") return null;
    const bar = pieces(pos)[sel.p];
    if ((dir === "L" || dir === "R") !== bar.hor) return null;
    const r = slide(pos, sel.p, dir, 1);
    if (!play(r, { p: sel.p, dir, dist: 1, merge: true })) return cell;
    const step = dir === "L" ? -1 : dir === "R" ? 1 : dir === "U" ? -pos.w : pos.w;
    return cell + step;
  };
  const onKey = (e) => {
    if (e.key === "Escape") { setSel(null); return true; }
    if (e.key === "Backspace" || (e.key === "z" && (e.ctrlKey || e.metaKey))) { undo(); return true; }
    return false;
  };
  const undo = () => { if (hist.length) { setHist(hist.slice(0, -1)); setNote(null); } };
  const reset = () => { setHist([]); setSel(null); setNote(null); };
  const turn = (t) => {
    if (!sel || sel.type !== "axis") return;
    const r = rotate(pos, sel.cell, t);
    play(r, null);
  };
  const step = (dir) => {
    if (!sel || sel.type !== "piece") return;
    slideBy(sel.p, dir, 1, true);
  };
  const text = hist.map((x) => x.text).join(", ");
  const submit = async () => {
    if (!hist.length) { setNote({ text: "Play at least one move first (LM-15: no lock is open from the start)." }); return; }
    if (!solved) { setNote({ text: "Not sent: after " + hist.length + " move" + (hist.length === 1 ? "" : "s") + " the key does not touch the keyhole (LM-3)." }); return; }
    setNote(null);
    await api.submit(text, final, lmSource);
  };
  const declare = async () => { setAsking(false); await api.submit("impossible", true, lmSource); };
  const selWords = !sel ? "Nothing selected: tap the key, a bar or an axis." : sel.type === "axis" ? "Selected: the axis on " + nameOf(pos, sel.cell) + ". Turn it with the buttons below (LM-7)."
    : "Selected: " + pieceWord(pos, sel.p) + ". Tap a marked cell, use the arrow keys or the slide buttons.";
  const bar = sel && sel.type === "piece" ? pieces(pos)[sel.p] : null;
  return html`<div data-testid="lm-mover">
    <${LockGrid} m=${pos} label=${mode === "counter" ? "your own lock, to countersolve" : "the lock to solve"} prefix="lm-sim-" onCell=${canAct ? onCell : null}
      onArrow=${onArrow} onKey=${onKey} selected=${sel} targets=${targets}/>
    <p class="lm-words" data-testid="lm-selected"><${RuleText} text=${selWords}/></p>
    ${bar && canAct ? html`<div class="control-row" role="group" aria-label="slide the selected piece one cell">
      ${(bar.hor ? ["L", "R"] : ["U", "D"]).map((d) => html`<button type="button" class="secondary" data-testid=${"lm-slide-" + d} onClick=${() => step(d)}>${{ L: "◀", R: "▶", U: "▲", D: "▼" }[d]} one cell ${DIR_WORDS[d]}</button>`)}
    </div>` : ""}
    ${sel && sel.type === "axis" && canAct ? html`<div class="control-row" role="group" aria-label="turn the selected axis">
      ${["CW", "CCW", "180"].map((t) => html`<button type="button" class="secondary" data-testid=${"lm-turn-" + t} onClick=${() => turn(t)}>Turn ${TURN_WORDS[t]} (${t})</button>`)}
    </div>` : ""}
    <${Note} note=${note}/>
    <p class="lm-words" id="lm-sim-status" data-testid="lm-sim-status" role="status"><span class="lm-counter" data-testid="lm-move-count">${hist.length} move${hist.length === 1 ? "" : "s"}</span>
      ${solved ? " · the key touches the keyhole: the lock is open." : " · the key is not at the keyhole yet."}</p>
    ${hist.length ? html`<ol class="lm-moves" data-testid="lm-move-list" aria-label="your moves in notation">${hist.map((x) => html`<li><code>${x.text}</code></li>`)}</ol>` : ""}
    ${canAct ? html`<div class="control-row">
      <button type="button" class="secondary" data-testid="lm-undo" disabled=${!hist.length} onClick=${undo}>Undo</button>
      <button type="button" class="secondary" data-testid="lm-reset" disabled=${!hist.length} onClick=${reset}>Reset</button>
      <button type="button" data-testid="lm-submit-moves" aria-describedby="lm-sim-status" onClick=${submit}>${mode === "counter" ? "Send countersolve" : "Send solution"}${hist.length ? " (" + hist.length + " move" + (hist.length === 1 ? "" : "s") + ")" : ""}</button>
      ${mode === "solve" ? html`<button type="button" class="danger" data-testid="lm-impossible" onClick=${() => setAsking(true)}>Declare impossible…</button>` : ""}
    </div>` : ""}
    ${asking ? html`<div class="lm-confirm" role="alertdialog" aria-labelledby="lm-confirm-head" data-testid="lm-impossible-box">
      <p id="lm-confirm-head"><b>Declare this lock impossible?</b></p>
      <p>The call is final: you cannot send a solution for this lock afterwards (<${RuleText} text="LM-16"/>). Its maker then has 5 minutes to open it (<${RuleText} text="LM-18"/>):
        if they cannot, you get 5 points; if they can, they get 1 point and you get nothing for this lock.</p>
      <div class="control-row"><button type="button" class="danger" data-testid="lm-impossible-confirm" onClick=${declare}>Yes, declare impossible</button>
      <button type="button" class="secondary" data-testid="lm-impossible-cancel" onClick=${() => setAsking(false)}>Keep solving</button></div>
    </div>` : ""}
    <${ShellMsg}/>
  </div>`;
}

function StaticLocks({ st, api, order, captions }) {
  if (!st.locks) return null;
  return html`<div class="lm-locks" data-testid="lm-locks">${order.map((s) => html`<figure data-testid=${"lm-lock-" + (s + 1)}>
    <figcaption>${captions[s]}</figcaption>
    <${LockGrid} m=${parseLock(st.locks[s])} label=${captions[s]}/></figure>`)}</div>`;
}

/* One played move of a solution, from its facts (LM-11 as the rules count it, LM-9): which
   piece (the key, or a bar by shape, length and where it stood), which way and how far; a
   turn by its axis and how far it turns. Places are said as column and row (G-1). */
const placeWords = (at) => "column " + LETTERS[at[0]] + ", row " + (at[1] + 1);
function stepWords(x) {
  if (!x || typeof x !== "object") return "a move";
  if (x.turn) return (x.turn === "half" ? "a half turn" : "a " + x.turn + " turn") + (x.axis ? " about the axis at " + placeWords(x.axis) : "");
  const cells = x.cells || [];
  const shape = cells.length > 1 ? (cells[0][1] === cells[1][1] ? "horizontal " : "vertical ") : "";
  const what = x.key ? "the key" : cells.length ? "the " + shape + "bar of " + numberWord(cells.length) + " cells at " + placeWords(cells[0]) : "a bar";
  return capital(what) + " " + x.slide + " " + fmtNum(x.distance) + " cell" + (x.distance === 1 ? "" : "s");
}

/* LM-16: the solutions the seat sent, from the view's facts (number, move count, when sent,
   the moves played), to choose the one that counts. */
function PickArea({ st, api }) {
  const rows = (st.my_solutions || []).filter((r) => r && typeof r === "object");
  return html`<section class="lm-section"><h3>Which solution counts? (<${RuleText} text="LM-16"/>)</h3>
    <p class="lm-words">Its time and move count become final; without a choice the last one counts.</p>
    <ul>${rows.map((r) => html`<li data-testid=${"lm-solution-" + r.number}><b>Solution ${r.number}</b>: ${movesWords(r.moves)}, sent ${fmtSeconds(r.at)} after the locks were shown${" "}
      <button type="button" class="secondary small" data-testid=${"lm-pick-" + r.number} onClick=${() => api.submit(String(r.number), true, lmSource)}>Use solution ${r.number}</button>
      ${(r.steps || []).length ? html`<details><summary>Its moves</summary><ol>${r.steps.map((x) => html`<li>${stepWords(x)}</li>`)}</ol></details>` : ""}</li>`)}</ul>
    <${ShellMsg}/></section>`;
}

/* Why a countersolve window is too short to use (LM-17): the window is as long as the solver
   took, but never shorter than the match's shortest window, which is then what it is. */
function counterOffWords(f, offer, floor, solver) {
  const secs = (x) => fmtNum(Math.round(x * 10) / 10) + " s";
  const took = f ? solver + " opened your lock in " + secs(f.time) : solver + " opened your lock";
  const window = floor != null && f && f.time < floor
    ? ", so you would get the shortest window, " + secs(floor) + " (LM-17)"
    : ", so you would have only " + secs(offer) + " (LM-17)";
  return "Countersolve is off: " + took + window + ", too little to move a piece. Pass instead.";
}

function DecideArea({ st, api }) {
  const other = 1 - api.seat;
  const f = st.final && st.final[other];
  const offer = st.counter_offer ? st.counter_offer[api.seat] : null;
  const tooShort = offer != null && offer < SHORTEST_USABLE_WINDOW;
  return html`<section class="lm-section" data-testid="lm-decide"><h3>Countersolve your own lock? (<${RuleText} text="LM-17"/>)</h3>
    <p class="lm-words">${api.seatName(other)} opened your lock${f ? " in " + f.moves + " move" + (f.moves === 1 ? "" : "s") + " and " + fmtNum(Math.round(f.time * 10) / 10) + " s" : ""}.
      If you countersolve you get as long as they took: open it in fewer moves and you get 1 point; open it in as many or more and they get 2; fail in time and they get 3. Passing scores nothing.</p>
    <div class="control-row"><button type="button" data-testid="lm-countersolve" disabled=${tooShort} aria-describedby=${tooShort ? "lm-counter-why" : undefined}
        onClick=${() => api.submit("countersolve", true, lmSource)}>Countersolve</button>
      <button type="button" class="secondary" data-testid="lm-pass" onClick=${() => api.submit("pass", true, lmSource)}>Pass</button></div>
    ${tooShort ? html`<p class="lm-words" id="lm-counter-why" data-testid="lm-counter-why"><${RuleText} text=${counterOffWords(f, offer, st.counter_floor, api.seatName(other))}/></p>` : ""}
    <${ShellMsg}/></section>`;
}

/* ------------------------------------------------------------------ the board */
function Board({ view, api }) {
  const st = view.state || {};
  const me = api.role === "seat" && !api.replay ? api.seat : null;
  const phase = view.phase;
  const canAct = me != null && !view.result && !!phase && (phase.waiting_for || []).includes(me);
  const stage = st.stage;
  lmSource = "lm-" + st.round + "-" + stage;
  const other = me == null ? null : 1 - me;
  let body;
  const lockCaptions = [0, 1].map((s) => (me === s ? person(view, s).Your : api.seatName(s) + "'s") + " lock");
  if (stage === "study" || stage === "draft") {
    body = html`<div>
      <${LockGrid} m=${parseLock(st.board)} label=${"the round's board, " + st.width + " by " + st.height}/>
      ${stage === "study" ? html`<${StudyControls} st=${st} api=${api} canAct=${canAct}/>` : ""}
      <${DraftArea} key=${"draft-" + st.round} view=${view} api=${api} st=${st} canAct=${canAct}/>
      ${stage === "study" ? html`<${ShellMsg}/>` : ""}
    </div>`;
  } else if (stage === "build") {
    if (me != null) body = html`<${BuildArea} key=${"build-" + st.round} view=${view} api=${api} st=${st} canAct=${canAct}/>`;
    else {
      body = html`<div><${LockGrid} m=${parseLock(st.board)} label="the round's board"/>
        <p class="lm-words" data-testid="lm-building">Both seats are building their locks (<${RuleText} text="LM-15"/>).</p>
        <div class="lm-hands">${[0, 1].map((s) => html`<div class="lm-hand" data-testid=${"lm-hand-" + (s + 1)}><h4>${api.seatName(s)}</h4><${Hand} kinds=${(st.hands || [])[s]}/></div>`)}</div></div>`;
    }
  } else if (me != null && st.locks && stage === "solve") {
    body = html`<div>
      <h3>${api.seatName(other)}'s lock: open it (<${RuleText} text="LM-16"/>)</h3>
      <${Mover} key=${"solve-" + st.round} api=${api} lockText=${st.locks[other]} mode="solve" canAct=${canAct} final=${true}/>
      <details class="lm-section"><summary>Your own lock (${api.seatName(other)} is solving it)</summary>
        <${LockGrid} m=${parseLock(st.locks[me])} label="your lock"/></details>
    </div>`;
  } else if (me != null && st.locks && (stage === "pick" || stage === "decide" || stage === "counter")) {
    const forced = st.impossible && st.impossible[other];
    const countering = canAct && (stage === "counter" || forced);
    const mayDecide = stage === "decide" && canAct && (phase.may || []).includes(me) && st.final && st.final[other];
    const mayPick = stage === "pick" && canAct && (st.my_solutions || []).length > 1;
    body = html`<div>
      <${FinalCounts} st=${st} api=${api}/>
      ${mayPick ? html`<${PickArea} st=${st} api=${api}/>` : ""}
      ${mayDecide && !forced ? html`<${DecideArea} st=${st} api=${api}/>` : ""}
      ${countering ? html`<div class="lm-section"><h3>Countersolve your own lock (${forced ? html`it was declared impossible, <${RuleText} text="LM-18"/>` : html`<${RuleText} text="LM-17"/>`})</h3>
        <${Mover} key=${"counter-" + st.round} api=${api} lockText=${st.locks[me]} mode="counter" canAct=${canAct} final=${stage === "counter"}/></div>`
        : html`<p class="lm-words" data-testid="lm-wait">${canAct ? "" : "Waiting for " + (stage === "counter" ? "the countersolve" : "the other seat") + "."}</p>
          <${StaticLocks} st=${st} api=${api} order=${[other, me]} captions=${lockCaptions}/>`}
    </div>`;
  } else {
    body = html`<div>
      ${st.locks ? html`<${StaticLocks} st=${st} api=${api} order=${[0, 1]} captions=${lockCaptions}/>` : html`<${LockGrid} m=${parseLock(st.board)} label="the round's board"/>`}
      ${stage === "solve" ? html`<p class="lm-words" data-testid="lm-solving">Both seats are solving each other's lock (<${RuleText} text="LM-16"/>); solutions stay private until they are announced.</p>` : ""}
      ${stage === "pick" ? html`<p class="lm-words">The solvers pick which of their solutions counts (<${RuleText} text="LM-16"/>).</p>` : ""}
      ${stage === "decide" ? html`<p class="lm-words">The makers decide whether to countersolve (<${RuleText} text="LM-17"/>).</p>` : ""}
      ${stage === "counter" ? html`<p class="lm-words">Countersolving: ${(st.countersolvers || []).map((s) => api.seatName(s)).join(" and ") || "nobody"}.</p>` : ""}
      <${FinalCounts} st=${st} api=${api}/>
    </div>`;
  }
  return html`<div class="lm" data-testid="lm-board" data-stage=${stage} data-can-act=${canAct ? "yes" : "no"}
      data-my-turn=${stage === "draft" && canAct && st.turn && st.turn.seat === me ? "yes" : "no"}>
    <${Status} view=${view} st=${st} api=${api}/>
    ${body}
    <${History} view=${view} st=${st} api=${api}/>
  </div>`;
}

/* ------------------------------------------------------------------ log lines in words
   Every line is made here from the events' facts (pieces by shape and length, locks as
   pieces, solutions as counted moves, a round's awards with their rule ids): no piece code,
   lock picture or move notation reaches the log (that stays in the notation drawer). */
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const numberWord = (n) => NUMBER_WORDS[n] || fmtNum(n);
const movesWords = (n) => fmtNum(n) + " move" + (n === 1 ? "" : "s");
const pointsWords = (n) => (n >= 0 ? "+" : "") + n;
function andList(xs) {
  if (xs.length <= 1) return xs.join("");
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}

/* Names as the reader reads them: "you"/"your" for their own seat (capitalised where a
   sentence starts), the player's name otherwise; verbs agree. */
function people(ctx) {
  const you = (s) => ctx.you != null && s === ctx.you;
  return {
    name: (s) => (you(s) ? "you" : ctx.seatName(s)),
    whose: (s) => (you(s) ? "your" : ctx.seatName(s) + "'s"),
    verb: (s, one, many) => (you(s) ? many : one),
  };
}

/* One drafted piece (LM-22), as a host says it. */
function pieceFactWords(p, n) {
  const many = n && n > 1;
  if (p.shape === "axis") return many ? numberWord(n) + " axes" : "an axis";
  const bar = p.shape + (many ? " bars" : " bar") + " of " + numberWord(p.length) + " cells";
  return (many ? numberWord(n) + " " : "a ") + bar;
}
/* A list of pieces, like kinds counted together: "two horizontal bars of two cells and an axis". */
function piecesWords(list) {
  const groups = [];
  for (const p of list || []) {
    const g = groups.find((x) => x.p.shape === p.shape && x.p.length === p.length);
    if (g) g.n += 1; else groups.push({ p, n: 1 });
  }
  return groups.length ? andList(groups.map((g) => pieceFactWords(g.p, g.n))) : "nothing";
}
function countWords(n, one, many) { return n === 1 ? (one === "axis" ? "an axis" : "a " + one) : numberWord(n) + " " + (many || one + "s"); }
/* A lock (LM-10) by what it holds. */
function lockWords(l) {
  if (!l || typeof l !== "object") return "a lock";
  const parts = ["the key", "the keyhole"];
  const bars = (l.bars || []).length, axes = (l.axes || []).length;
  if (bars) parts.push(countWords(bars, "bar"));
  if (axes) parts.push(countWords(axes, "axis", "axes"));
  return andList(parts) + " on a board of " + l.width + " by " + l.height + " cells";
}

/* A submission's facts as a noun phrase ("a solution in 5 moves"); the log and the Private
   panel both use it. */
function moveWords(value, phase) {
  if (value === "ready") return "ready";
  if (value === "first" || value === "second") return "the choice to draft " + value;
  if (!value || typeof value !== "object") return null;
  switch (value.kind) {
    case "take": {
      const took = (value.pieces || []).length ? piecesWords(value.pieces) : "";
      return took ? (value.stop ? "a pick of " + took + ", then a stop" : "a pick of " + took) : "a stop to drafting";
    }
    case "lock": return "a lock with " + lockWords(value);
    case "impossible": return "the call that the lock is impossible";
    case "solution": return "a solution in " + movesWords(value.moves);
    case "counter": return "a countersolve in " + movesWords(value.moves);
    case "pick": return "solution " + value.solution + " as the one that counts";
    case "decide": return value.countersolve ? "the choice to countersolve" : "the choice to pass";
    default: return null;
  }
}

const PHASE_WORDS = {
  study: "Study time", draft: "Draft turn", build: "Lock building", solve: "Solving",
  pick: "Choosing the solution that counts", decide: "Deciding on countersolves", counter: "Countersolving",
};
function phaseName(name) { return PHASE_WORDS[name] || null; }

/* One award of a round (LM-17..LM-19), the same words as the server's (words.py). */
function awardWords(a, ctx) {
  const P = people(ctx);
  const s = a.seat, m = a.lock;
  const pts = pointsWords(a.points) + " (" + a.rule + ")";
  switch (a.why) {
    case "solved": return capital(P.name(s)) + " opened " + P.whose(m) + " lock: " + pts;
    case "faster": return capital(P.name(s)) + " opened " + P.whose(m) + " lock faster: " + pts;
    case "fewer_moves": return capital(P.name(s)) + " opened " + P.whose(m) + " lock in fewer moves: " + pts;
    case "call_right": return capital(P.name(s)) + " declared " + P.whose(m) + " lock impossible: correct, " + pts;
    case "call_wrong": return capital(P.name(1 - s)) + " declared " + P.whose(s) + " lock impossible: wrong, " + P.name(s) + " opened it, " + pts;
    case "counter_failed": return capital(P.name(m)) + " did not countersolve in time: " + pointsWords(a.points) + " for " + P.name(s) + " (" + a.rule + ")";
    case "counter_fewer": return capital(P.name(s)) + " countersolved in fewer moves: " + pts;
    case "counter_not_fewer": return capital(P.name(m)) + " countersolved, not in fewer moves: " + pointsWords(a.points) + " for " + P.name(s) + " (" + a.rule + ")";
    case "capped": return capital(P.whose(s)) + " points this round are held to 1 after the correct impossible call (" + a.rule + ")";
    default: return capital(P.name(s)) + " " + pts;
  }
}

function resultWords(d, ctx) {
  const P = people(ctx);
  const det = d.detail || {};
  const win = d.winner == null ? null : capital(P.name(d.winner)) + P.verb(d.winner, " wins", " win");
  if (win == null) return undefined;
  const after = det.after === "target" ? "once a seat reached the target" : "after the last round";
  switch (det.decided) {
    case "reserve": return "Match over: " + capital(P.name(det.seat)) + " ran out of reserve (LM-21): " + P.name(d.winner) + P.verb(d.winner, " wins.", " win.");
    case "points": return "Match over: " + win + " with more points " + after + " (LM-20).";
    case "leader": return "Match over: " + win + ": tied " + after + ", and " + P.name(det.seat) + " led most recently (LM-20).";
    case "dmo": return "Match over: " + win + ": tied " + after + " and nobody ever led, so the DMO wins (LM-20).";
    default: return undefined;
  }
}

function describe(e, view, ctx) {
  const d = e.data || {};
  const P = people(ctx);
  const Name = (s) => capital(P.name(s));
  const left = d.deadline != null && e.t != null ? fmtSeconds(d.deadline - e.t) : null;
  switch (e.kind) {
    case "phase_started":
      switch (d.name) {
        case "study": return "Study time: the round's board and pool are shown" + (left ? ", " + left + " to look at them" : "") + " (LM-13).";
        case "draft": return (d.must || []).length ? "Draft: " + P.whose(d.must[0]) + " turn to pick (LM-14)." : "Draft turn.";
        case "build": return "Lock building: every drafted piece goes into a lock" + (left ? ", " + left + " to build it" : "") + " (LM-15).";
        case "solve": return "Solving: both locks are open to pick" + (left ? ", " + left + " to do it" : "") + " (LM-16).";
        case "pick": return "Choosing the solution that counts (LM-16).";
        case "decide": return "Deciding whether to countersolve (LM-17).";
        case "counter": {
          const makers = d.must || [];
          if (makers.length !== 1) return "Countersolving (LM-17): each maker opens their own lock.";
          return "Countersolving (LM-17): " + P.name(makers[0]) + P.verb(makers[0], " opens ", " open ") + P.whose(makers[0]) + " own lock.";
        }
        default: return undefined;
      }
    case "phase_resolved":
      if (d.name === "draft" && !(d.missing || []).length) return null; // the drafted line says it
      return undefined;
    case "accepted": {
      if (view && !seesAll(view) && d.seat !== ctx.you) return null;
      const v = d.value;
      const who = Name(d.seat);
      const fin = d.final ? "." : " (not final yet).";
      if (v === "ready") return who + P.verb(d.seat, " is", " are") + " ready" + fin;
      if (v === "first" || v === "second") return who + " chose to draft " + v + fin;
      if (!v || typeof v !== "object") return undefined;
      switch (v.kind) {
        case "take": return who + ((v.pieces || []).length ? " picked " + piecesWords(v.pieces) + (v.stop ? " and stopped drafting" : "") : " stopped drafting") + fin;
        case "lock": return who + " built a lock with " + lockWords(v) + fin;
        case "impossible": return who + " declared the lock impossible (LM-16)" + fin;
        case "solution": return who + " sent a solution in " + movesWords(v.moves) + fin;
        case "counter": return who + " sent a countersolve in " + movesWords(v.moves) + fin;
        case "pick": return who + " chose solution " + v.solution + " to count" + fin;
        case "decide": return who + (v.countersolve ? " chose to countersolve" : " chose to pass") + fin;
        default: return undefined;
      }
    }
    case "draft_order": return Name(1) + " (the DMO) chose to draft " + d.dmo_chose + (d.first === 1 ? "" : ": " + P.name(d.first) + P.verb(d.first, " drafts", " draft") + " first") + " (LM-13).";
    case "drafted": {
      const took = d.took || [];
      if (!took.length) return Name(d.seat) + (d.stopped ? " stopped drafting." : " took nothing.");
      const count = took.length === 1 ? "" : numberWord(took.length) + " pieces: ";
      return Name(d.seat) + " drafted " + count + piecesWords(took) + (d.stopped ? ", then stopped drafting." : ".");
    }
    case "draft_over": return "The draft is over: " + (d.hands || []).map((h, i) => P.name(i) + P.verb(i, " holds ", " hold ") + piecesWords(h)).join("; ") + ", besides the key and the keyhole (LM-22).";
    case "locks_shown": return "Both locks are shown (LM-16): " + (d.locks || []).map((l, i) => P.whose(i) + " lock holds " + lockWords(l)).join("; ") + ".";
    case "solving_over": return d.impossible ? "Solving is over: " + P.name(d.seat) + " declared " + P.whose(1 - d.seat) + " lock impossible (LM-16)."
      : "Solving is over: " + P.name(d.seat) + " sent " + numberWord(d.solutions) + " solution" + (d.solutions === 1 ? "" : "s") + ".";
    case "your_solutions": {
      const seat = e.to && e.to.length === 1 ? e.to[0] : null;
      const whose = seat == null ? "Solutions: " : capital(P.whose(seat)) + " solutions: ";
      return whose + (d.solutions || []).map((x, i) => "number " + (i + 1) + " in " + movesWords(x.moves) + " at " + fmtSeconds(x.at)).join("; ") + ".";
    }
    case "solutions_announced": return "Final solutions (LM-16): " + [0, 1].map((s) => {
      const x = d["seat_" + (s + 1)];
      if (x == null) return P.name(s) + P.verb(s, " has", " have") + " no valid solution";
      if (x.impossible) return P.name(s) + " declared " + P.whose(1 - s) + " lock impossible";
      return P.name(s) + " opened " + P.whose(1 - s) + " lock in " + movesWords(x.moves) + " and " + fmtSeconds(x.time);
    }).join("; ") + ".";
    case "countersolve_decisions": return "Countersolving (LM-17): " + [0, 1].map((s) => P.name(s) + (d["seat_" + (s + 1)] ? P.verb(s, " countersolves", " countersolve") : P.verb(s, " does not", " do not"))).join(", ") + ".";
    case "countersolved": return Name(d.seat) + (d.solved ? " countersolved in " + movesWords(d.moves) : " did not countersolve in time") + ".";
    case "round_scored": {
      const head = "Round " + d.round + " scored: " + [0, 1].map((s) => P.name(s) + " " + pointsWords(d.points[s])).join(", ") + "; the score is " + d.scores.join(" to ") + ".";
      const why = (d.awards || []).map((a) => awardWords(a, ctx) + ".");
      return [head, ...why].join(" ");
    }
    case "no_lock": return Name(d.seat) + " sent no lock in time and " + P.verb(d.seat, "loses", "lose") + " (LM-21).";
    case "match_ended": return resultWords(d, ctx);
    default: return undefined;
  }
}

function phaseTitle(view) {
  const st = view.state || {};
  if (!st.stage) return null;
  let words = STAGE_WORDS[st.stage] || capital(st.stage);
  if (st.stage === "draft" && st.turn) words += " · " + (readerIsSeat(view, st.turn.seat) ? "your pick" : ((view.match && view.match.names) || [])[st.turn.seat] + "'s pick");
  // A phone's header has one line beside the clock: "Round 1 of 1 · Draft ·
  // your pick" wrapped onto three. There the round shrinks to "Round 2/3" and goes when the
  // match has one round; the full words stay in the turn banner and the tab's title.
  const phone = typeof matchMedia === "function" && matchMedia("(max-width: 600px)").matches;
  if (phone) return (st.rounds > 1 ? "Round " + st.round + "/" + st.rounds + " · " : "") + words;
  return "Round " + st.round + " of " + st.rounds + " · " + words;
}

/* The page's own rules, for the tests that hold them to the engine's (moves.py, validate.py). */
function problemsOf(text, hand) {
  const m = parseLock(text);
  const left = hand.slice();
  const used = m.bars.map((b) => (b.hor ? "H" : "V") + b.len).concat(m.axes.map(() => "X"));
  const extra = [];
  for (const k of used) { const i = left.indexOf(k); if (i >= 0) left.splice(i, 1); else extra.push(k); }
  const out = lockProblems(m, left);
  if (extra.length) out.push("LM-15: more pieces than drafted: " + extra.join(", "));
  return out;
}
window.ArenaLockmaker = { parseLock, writeLock, pieces, slide, rotate, isSolved, problemsOf };

registerGame("lockmaker", { Board, describe, phaseTitle, moveWords, phaseName });
