/* Box within a Box within a Box, played on the board:
   - both 7x7 boards as tiles with their number and colour (the colour also as a filled or
     hollow dot and in words for screen readers), each box, and the tiles landed on this bout;
   - the bout's cards as pictures with a legend (type, movement, special figures, BX-8/BX-9);
   - study phases: Ready ("ready");
   - betting: a builder with a trait picker per condition that shows the uses left of each
     trait (BX-3), the stake with the points left and the payout per landing (BX-4, BX-5);
     it composes "black and 2: 3; 6: 1; 7 or 9: 2" (or "none");
   - picks: tap a card to light every legal landing of the box it moves, tap a landing to see
     its path and what it lands on, tap it again (or Play) to send "17 R2D1"; Pass is enabled
     only when BX-7 allows it, and the page says why;
   - the odds helper: the host always, seats only when the host enabled it (LO-12, whose last
     lines cover Boxes' odds helper too);
   - the match log: every event and every submission said in words from the facts the server
     sends (cards as legs and figures, bets as traits and stakes, plays as legs and tiles):
     "Bob bet 2 on black", "You played card 8 on board B, moving the box down three squares".
   Choices live in component state, so live updates never rebuild a control under the player. */
import { html, useState, fmtNum, plural, registerGame, RuleText, ErrorText, seesAll, person, readerSeat } from "/static/ui.js";

const COLS = "ABCDEFG";
const SIZE = 7;
const TRAITS = ["black", "white", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
const LIMIT = (t) => (t === "black" || t === "white" ? 2 : 3);
const MULT = { "": 2, and: 4, or: 1.5 };
const DISP_GLYPH = { orthogonal: "✚", diagonal: "✖", straight: "✳", knightwise: "♞" };

/* ------------------------------------------------------------------ helpers */
const cellName = (i) => COLS[i % SIZE] + (Math.floor(i / SIZE) + 1);
const cellIndex = (name) => (Number(name.slice(1)) - 1) * SIZE + COLS.indexOf(name[0]);
const parseTile = (tok) => ({ number: Number(tok[0]), black: tok[1] === "b" });
/* A tile as a host says it: "a black 8". */
const tileWords = (t) => "a " + t.colour + " " + t.number;
const parseBoard = (rows) => rows.flat().map(parseTile);
/* Points come as numbers (20, 23.5), or "41/3" for a fraction no decimal writes. */
const pts = (p) => (String(p).includes("/") ? String(p) : fmtNum(p));
const pct = (p) => fmtNum(Math.round(Number(p) * 100)) + "%";
const boardNo = (letter) => (letter === "B" ? 1 : 0);
function seatNameOf(view, seat) {
  const names = (view && view.match && view.match.names) || [];
  return names[seat] || "Seat " + (Number(seat) + 1);
}
/* A condition in the server's canonical order: colour first, then numbers ascending (BX-3). */
function canon(a, op, b) {
  if (!op || !b) return a;
  const rank = (t) => (t === "black" || t === "white" ? "0" + t : "1" + t);
  const [x, y] = [a, b].sort((p, q) => (rank(p) < rank(q) ? -1 : 1));
  return x + " " + op + " " + y;
}

/* ------------------------------------------------------------------ boards */
function landedCounts(plays) {
  const out = [{}, {}];
  for (const p of plays || []) {
    const b = boardNo(p.board);
    for (const x of p.landed || []) out[b][x.cell] = (out[b][x.cell] || 0) + 1;
  }
  return out;
}

const cellOrder = Array.from({ length: SIZE * SIZE }, (_, i) => cellName(i));
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
/* Arrow keys move the focus to the neighbouring cell of the same grid (stopping at the edge). */
function gridKey(e, i) {
  const d = ARROWS[e.key];
  if (!d) return;
  e.preventDefault();
  const c = (i % SIZE) + d[0], r = Math.floor(i / SIZE) + d[1];
  if (c < 0 || c >= SIZE || r < 0 || r >= SIZE) return;
  const grid = e.currentTarget.closest(".bx-grid");
  const next = grid && grid.querySelector(`[data-cell="${cellName(r * SIZE + c)}"]`);
  if (next) next.focus();
}
/* Arrow keys move the focus along the enabled cards (the row of cards is one Tab stop). */
function cardKey(e) {
  const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
  if (!step) return;
  e.preventDefault();
  const list = [...e.currentTarget.closest(".bx-cards").querySelectorAll("button.bx-card:not([disabled])")];
  const k = list.indexOf(e.currentTarget);
  const next = list[(k + step + list.length) % list.length];
  if (next) next.focus();
}

/* One board. ``pick`` (only on the board whose box the seat moves, with a card chosen) makes
   every cell a button: legal landings highlighted, the chosen one's path numbered. */
function BoardGrid({ index, rows, box, landed, title, target, pick }) {
  const tiles = parseBoard(rows);
  const letter = "AB"[index];
  // One Tab stop for the whole grid (the chosen landing, else the first legal one); the arrow
  // keys walk the cells, Enter or Space taps one (keyboard play without 49 stops).
  const anchor = pick ? (pick.to || cellOrder.find((n) => pick.dests.has(n)) || null) : null;
  const header = [html`<span class="bx-lbl" aria-hidden="true"></span>`].concat(
    COLS.split("").map((c) => html`<span class="bx-lbl" aria-hidden="true">${c}</span>`));
  const cells = [];
  for (let r = 0; r < SIZE; r++) {
    cells.push(html`<span class="bx-lbl" aria-hidden="true">${r + 1}</span>`);
    for (let c = 0; c < SIZE; c++) {
      const i = r * SIZE + c;
      const name = cellName(i);
      const t = tiles[i];
      const colour = t.black ? "black" : "white";
      const isBox = name === box;
      const times = landed[name] || 0;
      const dest = pick && pick.dests.has(name);
      const step = pick && pick.steps[name];
      const willLand = pick && pick.lands.has(name);
      let words = name + ": " + t.number + " " + colour;
      if (isBox) words += ", the box is here";
      if (times) words += ", landed on " + (times > 1 ? times + " times" : "once") + " this bout";
      if (dest) words += ", legal landing for card " + pick.card;
      if (step) words += ", step " + step + " of the path";
      const cls = "bx-cell " + colour + (isBox ? " box" : "") + (dest ? " dest" : "") +
        (pick && pick.to === name ? " chosen" : "") + (willLand ? " willland" : "");
      const inner = html`<span class="bx-dot" aria-hidden="true">${t.black ? "●" : "○"}</span><span aria-hidden="true">${t.number}</span>
        ${isBox ? html`<span class="bx-boxmark" aria-hidden="true">BOX</span>` : ""}
        ${times ? html`<span class="bx-land" aria-hidden="true">✓${times > 1 ? times : ""}</span>` : ""}
        ${step ? html`<span class="bx-step" aria-hidden="true">${step}</span>` : ""}`;
      if (pick) {
        cells.push(html`<button type="button" class=${cls} data-testid=${"bx-cell-" + letter + "-" + name}
          data-dest=${dest ? "yes" : "no"} data-cell=${name} aria-label=${words} tabindex=${name === anchor ? 0 : -1}
          onClick=${() => pick.onCell(name)} onKeyDown=${(e) => gridKey(e, i)}>${inner}</button>`);
      } else {
        cells.push(html`<div class=${cls} data-testid=${"bx-cell-" + letter + "-" + name} role="img" aria-label=${words}>${inner}</div>`);
      }
    }
  }
  return html`<section class=${"bx-board" + (target ? " target" : "")} data-testid=${"bx-board-" + letter} aria-label=${"Board " + letter}>
    <h3>${title}</h3>
    <div class="bx-grid">${header}${cells}</div>
  </section>`;
}

function BoardKey() {
  return html`<ul class="bx-key" data-testid="bx-board-key" aria-label="how to read the boards">
    <li><span class="sw" style="background:#1d2330;color:#fff">● 3</span>black tile</li>
    <li><span class="sw" style="background:#fff;color:#1d2330;border:1px solid #8a90a0">○ 3</span>white tile</li>
    <li><span class="sw" style="background:#b3261e;color:#fff">BOX</span>where the box is</li>
    <li><span class="sw" style="background:#f5c542;color:#1d2330">✓2</span>landed on this bout (twice)</li>
    <li><span class="sw" style="outline:2px dashed #3f5bd8;outline-offset:-2px;color:#1d2330">▨</span>legal landing of the chosen card</li>
    <li><span class="sw" style="background:#3f5bd8;color:#fff">1</span>path step (green: a landing)</li>
  </ul>`;
}

/* ------------------------------------------------------------------ cards */
/* The card's face as printed (BX-8): "1+2 Orthogonal", "1 Orthogonal + 2 Diagonal" (legs
   sharing a displacement figure grouped), and its special figures, "Increase 2, Wrap". */
function cardFace(card) {
  const groups = [];
  card.legs.forEach((n, i) => {
    const d = card.displacements[i];
    if (groups.length && groups[groups.length - 1].d === d) groups[groups.length - 1].ns.push(n);
    else groups.push({ d, ns: [n] });
  });
  return groups.map((g) => g.ns.join("+") + " " + g.d.charAt(0).toUpperCase() + g.d.slice(1)).join(" + ");
}
function cardSpecial(card) {
  const parts = [];
  if (card.add > 0) parts.push("Increase " + card.add);
  if (card.add < 0) parts.push("Decrease " + -card.add);
  if (card.invert) parts.push("Invert");
  if (card.wrap) parts.push("Wrap");
  return parts.join(", ");
}

function CardPic({ card, left, selected, canMove, onPick, testid, stop }) {
  const face = cardFace(card);
  const special = cardSpecial(card);
  const glyphs = [...new Set(card.displacements)].map((d) => DISP_GLYPH[d] || "").join("");
  const gone = left <= 0;
  const note = gone ? "played" : onPick && !canMove ? "cannot move the box" : left > 1 ? left + " copies left" : "";
  const body = html`
    <span class="bx-card-top"><span>#${card.number}</span><span class="bx-type" title="type">${card.type}</span></span>
    <span class="bx-card-move"><span class="bx-card-glyph" aria-hidden="true">${glyphs}</span>${face}</span>
    <span class="bx-card-special">${special || html`<span class="bx-card-note">no special</span>`}</span>
    ${note ? html`<span class="bx-card-note">${note}</span>` : ""}`;
  const label = "Card " + card.number + ", type " + card.type + ", " + face + (special ? ", " + special : "") + (note ? ", " + note : "");
  if (onPick && !gone) {
    return html`<li><button type="button" class="bx-card" data-testid=${testid} aria-pressed=${selected ? "true" : "false"}
      aria-label=${label} disabled=${!canMove} tabindex=${stop ? 0 : -1} onClick=${onPick} onKeyDown=${cardKey}>${body}</button></li>`;
  }
  return html`<li><div class=${"bx-card" + (gone ? " gone" : "")} data-testid=${testid} role="img" aria-label=${label}>${body}</div></li>`;
}

function Legend() {
  return html`<details class="bx-legend bx-panel" data-testid="bx-legend" open>
    <summary>How to read a card</summary>
    <dl>
      <dt>#17</dt><dd>The card's number: a pick names it.</dd>
      <dt>Type A</dt><dd>The box lands only on the cell where the move ends.</dd>
      <dt>Type A+</dt><dd>It lands at the end of each part of the move.</dd>
      <dt>Type B</dt><dd>It lands on every cell it enters, the last one included.</dd>
      <dt>Type C</dt><dd>It lands on every cell it enters except the last one.</dd>
      <dt>1+2</dt><dd>The path: parts of 1 then 2 steps; the player chooses the direction of each part.</dd>
      <dt>✚ Orthogonal</dt><dd>Up, down, left or right.</dd>
      <dt>✖ Diagonal</dt><dd>One of the four diagonals.</dd>
      <dt>✳ Straight</dt><dd>Any of those eight directions.</dd>
      <dt>♞ Knightwise</dt><dd>A knight's jump (two one way, one at a right angle), once per step.</dd>
      <dt>Wrap</dt><dd>The box may leave one edge and come back in at the opposite edge; without Wrap the whole path stays on the board.</dd>
      <dt>Increase / Decrease N</dt><dd>After the move, every tile the box passed over gains (or loses) N; 9 + 1 is 0.</dd>
      <dt>Invert</dt><dd>After the move, the tiles the box passed over swap colour.</dd>
    </dl>
    <p class="muted small">Tiles count as they were when the box landed; the special acts after the move (<${RuleText} text="BX-8"/>, <${RuleText} text="BX-9"/>).</p>
  </details>`;
}

function Cards({ st, pickCards, chosen, onPick }) {
  const left = {};
  for (const n of st.hand || []) left[n] = (left[n] || 0) + 1;
  const movable = {};
  for (const c of (pickCards || [])) movable[c.card] = c.moves.length > 0;
  const shown = new Set();
  const items = [];
  // The Tab stop of the row: the chosen card, else the first card that can move the box.
  const firstMovable = (st.cards || []).find((c) => movable[c.number] && (left[c.number] || 0) > 0);
  const stop = chosen != null && movable[chosen] ? chosen : firstMovable ? firstMovable.number : null;
  for (const c of st.cards || []) {
    if (shown.has(c.number)) continue; // a card drawn twice is one picture with "2 copies left"
    shown.add(c.number);
    const l = left[c.number] || 0;
    items.push(html`<${CardPic} card=${c} left=${l} selected=${chosen === c.number} canMove=${!!movable[c.number]}
      onPick=${onPick ? () => onPick(c.number) : null} testid=${"bx-card-" + c.number} stop=${stop === c.number}/>`);
  }
  return html`<ul class="bx-cards" data-testid="bx-cards" aria-label="this bout's cards">${items}</ul>`;
}

/* ------------------------------------------------------------------ picks */
function pickModel(you, sel) {
  const pick = you && you.pick;
  if (!pick || sel.card == null) return null;
  const card = pick.cards.find((c) => c.card === sel.card);
  if (!card) return null;
  const dests = new Set(card.moves.map((m) => m.to));
  const options = sel.to ? card.moves.filter((m) => m.to === sel.to) : [];
  const move = options.find((m) => m.text === sel.move) || options[0] || null;
  const steps = {};
  const lands = new Set();
  if (move) {
    move.path.split("-").slice(1).forEach((cell, k) => { steps[cell] = steps[cell] ? steps[cell] + "," + (k + 1) : String(k + 1); });
    for (const x of move.landings) lands.add(x);
  }
  return { pick, card, dests, options, move, steps, lands };
}

function PickPanel({ st, you, model, sel, setSel, send, localErr }) {
  const pick = you.pick;
  const movable = pick.cards.filter((c) => c.moves.length);
  const boardWord = "board " + pick.board + (pick.board === you.board ? " (your own box)" : " (your opponent's box)");
  const tiles = parseBoard(st.boards[boardNo(pick.board)]);
  const tileAt = (cell) => { const t = tiles[cellIndex(cell)]; return t.number + " " + (t.black ? "black" : "white"); };
  let body;
  if (!model) {
    body = html`<p data-testid="bx-pick-hint">${movable.length ? html`Tap a card to light up every cell the box can reach with it<span class="kbd-only"> (keyboard: the arrow keys walk the cards, Enter chooses)</span>.` : ""}</p>`;
  } else if (!model.move) {
    body = html`<p data-testid="bx-pick-hint">Card ${model.card.card}: ${model.dests.size} legal landing${model.dests.size === 1 ? "" : "s"} lit on board ${pick.board}. Tap one to see its path<span class="kbd-only"> (keyboard: Tab to the board, walk it with the arrow keys, Enter)</span>.</p>`;
  } else {
    const m = model.move;
    const landings = m.landings.length ? m.landings.map((c) => c + " (" + tileAt(c) + ")").join(", ") : "nothing (a type C card moving one cell)";
    body = html`<div data-testid="bx-preview">
      <p>Card ${model.card.card} to <b>${m.to}</b>: path ${m.path.split("-").join(" → ")}; lands on ${landings}.</p>
      ${model.options.length > 1 ? html`<p class="small">Several paths end on ${m.to}; choose one:</p>
        <div class="bx-choices" role="group" aria-label="paths to this cell">${model.options.map((o) => html`
          <button type="button" class=${o.text === m.text ? "" : "secondary"} aria-pressed=${o.text === m.text ? "true" : "false"}
            data-testid=${"bx-path-" + o.text.replace(/\s+/g, "_")} onClick=${() => setSel({ ...sel, move: o.text })}>
            ${o.path.split("-").join(" → ")} <span class="muted small">(${o.text}; lands ${o.landings.join(", ") || "nowhere"})</span></button>`)}
        </div>` : ""}
      <div class="bx-actions">
        <button type="button" data-testid="bx-play" onClick=${() => send(m.text)}>Play ${m.text}</button>
        <span class="muted small">or tap ${m.to} again</span>
      </div>
    </div>`;
  }
  const why = pick.may_pass
    ? "No remaining card can move the box on board " + pick.board + ", so you pass this round (BX-7)."
    : "Pass is possible only when no remaining card can move the box (BX-7); " +
      (movable.length === 1 ? "card " + movable[0].card + " can." : "cards " + movable.map((c) => c.card).join(", ") + " can.");
  return html`<div class="bx-panel" data-testid="bx-pick">
    <h3>Round ${st.round}: your card moves the box on ${boardWord}, now on ${pick.box}</h3>
    ${body}
    ${localErr ? html`<p class="error-text" role="alert" data-testid="bx-local-error"><${ErrorText} message=${localErr}/></p>` : ""}
    <div class="bx-actions">
      <button type="button" class="secondary" data-testid="bx-pass" disabled=${!pick.may_pass} onClick=${() => send("pass")}>Pass</button>
      <span class="small" data-testid="bx-pass-why"><${RuleText} text=${why}/></span>
    </div>
  </div>`;
}

/* ------------------------------------------------------------------ bets */
/* A first draft the player edits: different single traits that still have uses left. */
function emptyRows(need, usage) {
  const free = TRAITS.filter((x) => LIMIT(x) - (usage[x] || 0) > 0);
  const rows = [];
  for (let i = 0; i < need; i++) rows.push({ a: free[i] || "", op: "", b: "", stake: "1" });
  return rows;
}

function betProblem(rows, usage, points) {
  const seen = new Map();
  const uses = {};
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const n = i + 1;
    if (!r.a) return "BX-3: choose a trait for bet " + n;
    if (r.op && !r.b) return "BX-3: choose the second trait of bet " + n;
    if (r.op && r.a === r.b) return "BX-3: bet " + n + " joins " + traitWords(r.a) + " with itself";
    if (r.op === "or" && new Set([r.a, r.b]).size === 2 && [r.a, r.b].every((t) => t === "black" || t === "white")) return "BX-3: black or white is not a condition: every tile is one of the two";
    const c = canon(r.a, r.op, r.b);
    if (seen.has(c)) return "BX-4: bets " + seen.get(c) + " and " + n + " are on the same condition, " + conditionWords(conditionOf(r)) + "; the conditions must all differ";
    seen.set(c, n);
    for (const t of r.op ? [r.a, r.b] : [r.a]) uses[t] = (uses[t] || 0) + 1;
    const s = Number(r.stake);
    if (!Number.isInteger(s) || s < 1) return "BX-4: the stake of bet " + n + " must be a whole number of at least 1";
    total += s;
  }
  for (const t of TRAITS) {
    if ((usage[t] || 0) + (uses[t] || 0) > LIMIT(t)) return "BX-3: " + traitWords(t) + " would be in more of your conditions than allowed over the match (" + (LIMIT(t) === 2 ? "two" : "three") + ")";
  }
  if (total > points) return "BX-4: the stakes total " + fmtNum(total) + ", more than your " + fmtNum(points) + " points";
  return null;
}

function BetPanel({ st, you, rows, setRows, send }) {
  const need = you.bets_needed || 0;
  const usage = you.usage || {};
  const points = Number(evalPoints(st.points[you.seat]));
  const oddsAll = st.odds && st.odds[you.board];
  if (need === 0) {
    return html`<div class="bx-panel" data-testid="bx-bets">
      <h3>Bets for bout ${st.bout}</h3>
      <p>You have nothing left to bet with this bout (<${RuleText} text="BX-4"/>).</p>
      <button type="button" data-testid="bx-bet-none" onClick=${() => send("none")}>Bet nothing</button>
    </div>`;
  }
  const inRows = (skip) => {
    const u = {};
    rows.forEach((r, k) => { if (k === skip) return; for (const t of r.op ? [r.a, r.b] : [r.a]) if (t) u[t] = (u[t] || 0) + 1; });
    return u;
  };
  const total = rows.reduce((s, r) => s + (Number(r.stake) || 0), 0);
  const problem = betProblem(rows, usage, points);
  const set = (i, patch) => setRows(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const text = rows.map((r) => canon(r.a, r.op, r.b) + ": " + r.stake).join("; ");
  const traitOptions = (i, current) => {
    const other = inRows(i);
    return TRAITS.map((t) => {
      const left = LIMIT(t) - (usage[t] || 0) - (other[t] || 0);
      return html`<option value=${t} disabled=${left <= 0 && t !== current}>${t} (${left > 0 ? left + " use" + (left === 1 ? "" : "s") + " left" : "used up"})</option>`;
    });
  };
  return html`<div class="bx-panel" data-testid="bx-bets">
    <h3>Bets for bout ${st.bout}: ${need} different condition${need === 1 ? "" : "s"}</h3>
    <p class="small">Your box on board ${you.board} pays each bet every time it lands on a matching tile this bout:
      one trait 2 × the stake, two joined by "and" 4 ×, by "or" 1.5 × (<${RuleText} text="BX-5"/>). Each colour may appear in 2 of your conditions
      over the match, each number in 3 (<${RuleText} text="BX-3"/>).</p>
    <p data-testid="bx-points-left">Points: ${pts(st.points[you.seat])} · staked ${fmtNum(total)} · <b>${fmtNum(points - total)} left</b></p>
    ${rows.map((r, i) => {
      const pay = (Number(r.stake) || 0) * MULT[r.op || ""];
      const odds = oddsAll && !r.op && r.a ? oddsAll[r.a] : null;
      return html`<div class="bx-row" data-testid=${"bx-bet-row-" + i}>
        <label class="field"><span class="field-label">Bet ${i + 1}: trait</span>
          <select data-testid=${"bx-trait-" + i} value=${r.a} onChange=${(e) => set(i, { a: e.currentTarget.value })}>
            ${r.a ? "" : html`<option value="">choose…</option>`}${traitOptions(i, r.a)}</select></label>
        <label class="field"><span class="field-label">joined</span>
          <select data-testid=${"bx-op-" + i} value=${r.op} onChange=${(e) => set(i, { op: e.currentTarget.value, b: e.currentTarget.value ? r.b : "" })}>
            <option value="">alone</option><option value="and">and</option><option value="or">or</option></select></label>
        ${r.op ? html`<label class="field"><span class="field-label">second trait</span>
          <select data-testid=${"bx-trait2-" + i} value=${r.b} onChange=${(e) => set(i, { b: e.currentTarget.value })}>
            ${r.b ? "" : html`<option value="">choose…</option>`}${traitOptions(i, r.b)}</select></label>` : ""}
        <div class="field"><span class="field-label" id=${"bx-stake-l-" + i}>Stake</span>
          <span class="bx-stake">
            <button type="button" class="secondary" aria-label=${"lower the stake of bet " + (i + 1)} data-testid=${"bx-stake-down-" + i}
              onClick=${() => set(i, { stake: String(Math.max(1, (Number(r.stake) || 1) - 1)) })}>−</button>
            <input type="number" min="1" step="1" inputmode="numeric" aria-labelledby=${"bx-stake-l-" + i} data-testid=${"bx-stake-" + i}
              value=${r.stake} onInput=${(e) => set(i, { stake: e.currentTarget.value })}/>
            <button type="button" class="secondary" aria-label=${"raise the stake of bet " + (i + 1)} data-testid=${"bx-stake-up-" + i}
              onClick=${() => set(i, { stake: String((Number(r.stake) || 0) + 1) })}>+</button>
          </span></div>
        <span class="bx-pay" data-testid=${"bx-pay-" + i}>pays ${fmtNum(pay)} per landing${odds ? html`<span class="muted"> · odds: ${plural(odds.expected, "landing")} expected, ${pct(odds.p_any)} at least one</span>` : ""}</span>
      </div>`;
    })}
    ${problem ? html`<p class="bx-problem" role="status" data-testid="bx-bet-problem"><${ErrorText} message=${problem}/></p>` : ""}
    <div class="bx-actions">
      <button type="button" data-testid="bx-bet-submit" disabled=${!!problem} onClick=${() => send(text)}>Place bets</button>
      ${problem ? "" : html`<span class="muted small">sends <code data-testid="bx-bet-text">${text}</code></span>`}
    </div>
    ${you.sealed ? html`<p class="muted small" data-testid="bx-sealed">Sealed so far: ${betsWords(you.sealed.bets)}</p>` : ""}
  </div>`;
}

/* "41/3" -> 13.67 for sums; "20" -> 20 */
function evalPoints(p) {
  const s = String(p);
  if (s.includes("/")) { const [a, b] = s.split("/"); return Number(a) / Number(b); }
  return Number(s);
}

function OddsPanel({ st, view, api }) {
  const isSeat = api.role === "seat";
  if (st.stage !== "bet") return null;
  if (!st.odds) {
    if (!isSeat) return null;
    return html`<p class="muted small" data-testid="bx-odds-off">The odds helper is off in this match; the host can allow it for the seats.</p>`;
  }
  const boards = Object.keys(st.odds).sort();
  return html`<div class="bx-panel" data-testid="bx-odds">
    <h3>Odds helper</h3>
    <p class="small muted">For each trait: the landings to expect for the box this bout and the chance of at least one, if the opponent steers it
      against the trait in rounds 1 and 3 and its owner for it in rounds 2 and 4.</p>
    <div class="bx-scroll" tabindex="0" role="region" aria-label="odds table"><table class="bx-table">
      <thead><tr><th scope="col">Trait</th>${boards.map((b) => html`<th scope="col" class="n">Board ${b}: expected</th><th scope="col" class="n">at least one</th>`)}</tr></thead>
      <tbody>${TRAITS.map((t) => html`<tr><th scope="row">${t}</th>${boards.map((b) => html`<td class="n">${fmtNum(st.odds[b][t].expected)}</td><td class="n">${pct(st.odds[b][t].p_any)}</td>`)}</tr>`)}</tbody>
    </table></div>
  </div>`;
}

/* ------------------------------------------------------------------ words */
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const numberWord = (n) => NUMBER_WORDS[n] || fmtNum(n);
const squares = (n) => numberWord(n) + (n === 1 ? " square" : " squares");
const DIRECTIONS = { U: "up", D: "down", L: "left", R: "right", UL: "up and left", UR: "up and right", DL: "down and left", DR: "down and right" };
const timesWords = (n) => (n === 1 ? "once" : n === 2 ? "twice" : numberWord(n) + " times");
const pointsWords = (p) => pts(p) + (Number(p) === 1 ? " point" : " points");

/* Names as the reader reads them: "You" for their own seat (ui.js person: never on a
   broadcast's seat board, G-15). */
function whoOf(view, seat) {
  return person(view, seat).You;
}

/* "and"-joined list: "a, b and c"; with ``serial`` "a, b, and c" (bets whose conditions
   hold an "and" of their own read apart). */
function listWords(items, serial) {
  if (items.length <= 1) return items.join("");
  if (items.length === 2) return items[0] + (serial ? ", and " : " and ") + items[1];
  return items.slice(0, -1).join(", ") + (serial ? ", and " : " and ") + items[items.length - 1];
}

/* A trait as a host says it: a colour stays a colour, a number is a tile's number. */
function traitWords(t) {
  return t === "black" || t === "white" ? String(t) : "number " + t;
}

/* The builder's row as a condition's facts. */
function conditionOf(r) {
  return { traits: r.op ? [r.a, r.b] : [r.a], op: r.op || null };
}

/* A condition from its facts: "black and number 2", "number 7 or 9", "white", and "number 3
   and number 9" (two numbers joined by "and" said in full: "number 3 and 9" reads as a list). */
function conditionWords(c) {
  const traits = c.traits || [];
  if (traits.length === 2 && c.op === "or" && !traits.some((t) => t === "black" || t === "white")) return "number " + traits[0] + " or " + traits[1];
  return traits.map(traitWords).join(" " + c.op + " ");
}

/* Bets from their facts: "3 on black and number 2, 1 on number 6 and 2 on number 7 or 9". */
function betsWords(bets) {
  if (!bets || !bets.length) return "nothing";
  return listWords(bets.map((b) => fmtNum(b.stake) + " on " + conditionWords(b)), bets.some((b) => b.op === "and"));
}

/* One leg of a move: "down three squares", "a knight's jump, two right then one down". */
function legWords(leg) {
  if (leg.knight) {
    const [a, b] = leg.knight;
    const jumps = leg.jumps === 1 ? "a knight's jump" : numberWord(leg.jumps) + " knight's jumps";
    return jumps + ", " + numberWord(a.squares) + " " + DIRECTIONS[a.dir] + " then " + numberWord(b.squares) + " " + DIRECTIONS[b.dir];
  }
  return DIRECTIONS[leg.dir] + " " + squares(leg.squares);
}
const legsWords = (legs) => legs.map(legWords).join(", then ");

/* A Wrap card's box crosses an edge (BX-8): two cells in a row of its path lie further apart
   than any step or knight's segment. */
function wrapped(from, path) {
  const cells = [from].concat(path);
  for (let i = 1; i < cells.length; i++) {
    const a = cellIndex(cells[i - 1]), b = cellIndex(cells[i]);
    if (Math.abs((a % SIZE) - (b % SIZE)) > 2 || Math.abs(Math.floor(a / SIZE) - Math.floor(b / SIZE)) > 2) return true;
  }
  return false;
}

/* How the box moved: "down three squares, from D4 to D7" (", across the board's edge"). */
function movedWords(m) {
  const to = m.path && m.path.length ? m.path[m.path.length - 1] : m.from;
  return "moving the box " + legsWords(m.legs) + (wrapped(m.from, m.path || []) ? " across the board's edge" : "") +
    ", from " + m.from + (to === m.from ? " back to " : " to ") + to;
}

/* Where a box landed: "landing on a white 2 at D3 and a black 8 at D2". */
function landedWords(landed) {
  if (!landed.length) return "landing on no tile";
  return "landing on " + listWords(landed.map((x) => tileWords(x.tile) + " at " + x.cell));
}

/* One seat's play of a round (BX-6, BX-13), from its facts. */
function playWords(view, p) {
  const name = whoOf(view, p.seat);
  if (p.card == null) return name + " moved no box on board " + p.board + " this round";
  return name + " played card " + p.card + " on board " + p.board + ", " + movedWords(p) + ", " + landedWords(p.landed);
}

/* One settled bet: the bet, how often the box landed on it, what it paid (BX-5). */
function settledWords(x) {
  const bet = fmtNum(x.stake) + " on " + conditionWords(x);
  return bet + (x.hits ? " landed " + timesWords(x.hits) + " and paid " + pointsWords(x.payout) : " never landed and paid nothing");
}

function History({ st, view, api }) {
  const last = st.last_round || [];
  const done = st.bouts_done || [];
  const sealed = (st.sealed || []).filter(Boolean);
  return html`${last.length ? html`<div class="bx-panel" data-testid="bx-last-round"><h3>Last round</h3>
      <ul>${last.map((p) => html`<li>${playWords(view, p)}</li>`)}</ul></div>` : ""}
    ${sealed.length ? html`<div class="bx-panel" data-testid="bx-host-sealed"><h3>Sealed bets (host)</h3><ul>${sealed.map((s) => html`<li>${seatNameOf(view, s.seat)}, bout ${s.bout}: ${betsWords(s.bets)}</li>`)}</ul></div>` : ""}
    ${done.length ? html`<div class="bx-panel" data-testid="bx-bouts"><h3>Finished bouts</h3>
      <div class="bx-scroll" tabindex="0" role="region" aria-label="bets of the finished bouts"><table class="bx-table">
        <thead><tr><th scope="col">Bout</th><th scope="col">Seat</th><th scope="col">Bet</th><th scope="col" class="n">Stake</th><th scope="col" class="n">Landings</th><th scope="col" class="n">Paid</th></tr></thead>
        <tbody>${done.map((b) => b.bets.map((side, s) => (side.length ? side : [null]).map((x, k) => html`<tr>
          <td>${k === 0 ? b.bout : ""}</td><td>${k === 0 ? seatNameOf(view, s) : ""}</td>
          ${x ? html`<td>${conditionWords(x)}</td><td class="n">${fmtNum(x.stake)}</td><td class="n">${fmtNum(x.hits)}</td><td class="n">${pts(x.payout)}</td>`
            : html`<td>no bets</td><td></td><td></td><td></td>`}</tr>`)))}</tbody>
      </table></div>
      <p class="small">Points after bout ${done[done.length - 1].bout}: ${done[done.length - 1].points.map((p, i) => seatNameOf(view, i) + " " + pts(p)).join(" · ")}</p>
    </div>` : ""}`;
}

/* How the match really ended: all its bouts played, or stopped by the host
   in a bout (the stage is then not "over": the state stands where the host stopped it). */
export function overWords(st, view) {
  const n = (k) => fmtNum(k) + " bout" + (k === 1 ? "" : "s");
  if (st.stage === "over") return "Match over: all " + n(st.bouts) + " played";
  const reason = view.result && view.result.reason ? view.result.reason : "the match was stopped";
  const where = !st.bout ? "before bout 1 began" : "in bout " + fmtNum(st.bout) + " of " + fmtNum(st.bouts) +
    (st.stage === "pick" ? ", round " + st.round + " of 4" : "");
  return "Match over " + where + ": " + reason;
}

/* ------------------------------------------------------------------ the board */
function Board({ view, api }) {
  const st = view.state || {};
  const you = st.you && api.seat != null ? st.you : null;
  const phase = view.phase ? view.phase.no : null;
  const [selState, setSelState] = useState({ phase: null, card: null, to: null, move: null });
  const [betState, setBetState] = useState({ phase: null, rows: null });
  const [errState, setErrState] = useState({ phase: null, text: "" });
  const live = !!(view.phase && you && !api.replay && !view.result);
  const sel = selState.phase === phase ? selState : { phase, card: null, to: null, move: null };
  const setSel = (s) => { setSelState({ ...s, phase }); setErrState({ phase, text: "" }); };
  const localErr = errState.phase === phase ? errState.text : "";
  const send = (text) => { setErrState({ phase, text: "" }); return api.submit(text, true, "boxes"); };
  const Msg = window.Arena && window.Arena.Msg;

  const model = live && st.stage === "pick" ? pickModel(you, sel) : null;
  const counts = landedCounts(st.plays_this_bout);
  const target = model ? boardNo(model.pick.board) : you && you.pick && st.stage === "pick" ? boardNo(you.pick.board) : null;
  const onCell = (name) => {
    if (!model) return;
    if (!model.dests.has(name)) {
      setErrState({ phase, text: "BX-9: card " + model.card.card + " cannot bring the box from " + model.pick.box + " to " + name + "; nothing was sent" });
      return;
    }
    if (sel.to === name && model.move) { send(model.move.text); return; }
    setSel({ ...sel, to: name, move: null });
  };
  const pickProps = model ? { card: model.card.card, dests: model.dests, steps: model.steps, lands: model.lands, to: sel.to, onCell } : null;

  let rows = null;
  if (live && st.stage === "bet") {
    rows = betState.phase === phase && betState.rows ? betState.rows : emptyRows(you.bets_needed || 0, you.usage || {});
  }
  const setRows = (r) => setBetState({ phase, rows: r });

  const status = [];
  if (st.stage === "over" || view.result) status.push(overWords(st, view));
  else if (st.bout) status.push("Bout " + fmtNum(st.bout) + " of " + fmtNum(st.bouts) + (st.stage === "pick" ? " · round " + st.round + " of 4" : ""));
  else status.push("A match of " + fmtNum(st.bouts) + " bout" + (st.bouts === 1 ? "" : "s") + ", each of 4 rounds");

  const boardEl = (b) => html`<${BoardGrid} index=${b} rows=${st.boards[b]} box=${st.boxes[b]} landed=${counts[b]}
    target=${target === b}
    title=${"Board " + "AB"[b] + " · " + seatNameOf(view, b) + (person(view, b).self ? " (you)" : "") + " · " + pts(st.points[b]) + " points"}
    pick=${target === b ? pickProps : null}/>`;
  const picking = live && st.stage === "pick" && you.pick;
  const betting = live && st.stage === "bet";
  const msg = live && Msg ? html`<${Msg} source="boxes" testid="bx-msg" okTestid="bx-msg-ok"/>` : "";
  const cards = st.cards && st.cards.length ? html`<div>
      <h3 class="small-head">Cards of bout ${st.bout}${st.stage === "pick" ? " (" + (st.hand || []).length + " left)" : ""}</h3>
      <${Cards} st=${st} pickCards=${picking ? you.pick.cards : null} chosen=${sel.card}
        onPick=${picking ? (n) => setSel({ card: sel.card === n ? null : n, to: null, move: null }) : null}/>
    </div>` : "";
  const ready = live && (st.stage === "study boards" || st.stage === "study cards") ? html`<div class="bx-actions">
      <button type="button" data-testid="bx-ready" onClick=${() => send("ready")}>Ready</button>
      <span class="small muted">${st.stage === "study boards" ? "Study the boards; the cards are drawn next." : "Study this bout's cards; betting comes next."}</span>
    </div>` : "";
  const mine = you && you.sealed && st.stage === "pick" ? html`<p class="small" data-testid="bx-my-bets">${person(view, api.seat).Your} sealed bets: ${betsWords(you.sealed.bets)}</p>` : "";
  const rest = html`<${BoardKey}/><${Legend}/>${betting ? "" : html`<${OddsPanel} st=${st} view=${view} api=${api}/>`}<${History} st=${st} view=${view} api=${api}/>`;
  let body;
  if (picking) {
    // Cards, then the board they move, then the preview and Play: a short reach on a phone.
    body = html`${cards}<div class="bx-boards">${boardEl(target)}</div>
      <${PickPanel} st=${st} you=${you} model=${model} sel=${sel} setSel=${setSel} send=${send} localErr=${localErr}/>
      ${msg}${mine}<div class="bx-boards">${boardEl(1 - target)}</div>${rest}`;
  } else if (betting) {
    body = html`<${BetPanel} st=${st} you=${you} rows=${rows} setRows=${setRows} send=${send}/>${msg}
      <${OddsPanel} st=${st} view=${view} api=${api}/>
      <div class="bx-boards">${boardEl(0)}${boardEl(1)}</div>${cards}${rest}`;
  } else {
    body = html`<div class="bx-boards">${boardEl(0)}${boardEl(1)}</div>${ready}${msg}${cards}${mine}${rest}`;
  }
  return html`<div class="bx" data-testid="bx-root">
    <p class="bx-status" data-testid="bx-status">${status.join("")}</p>
    ${body}
  </div>`;
}

/* ------------------------------------------------------------------ header and log */
function phaseTitle(view) {
  const st = view.state || {};
  const of = " of " + fmtNum(st.bouts);
  switch (st.stage) {
    case "study boards": return "Study the boards";
    case "study cards": return "Bout " + st.bout + of + " · Study the cards";
    case "bet": return "Bout " + st.bout + of + " · Bets";
    case "pick": return "Bout " + st.bout + of + " · Round " + st.round + " of 4";
    default: return null;
  }
}

/* A phase's name ("bout 2: round 3", "bout 2: bet") as a host says it. */
const PHASE = /^bout (\d+): (study cards|bet|round (\d+))$/;
function phaseName(name) {
  if (name === "study boards") return "Studying the boards";
  const m = PHASE.exec(String(name || ""));
  if (!m) return null;
  if (m[2] === "study cards") return "Studying the cards of bout " + m[1];
  if (m[2] === "bet") return "Betting in bout " + m[1];
  return "Round " + m[3] + " of bout " + m[1];
}

/* A submission's facts in words: "ready", bets, a pick or a pass. */
function moveWords(value) {
  if (value === "ready") return "ready to go on";
  if (value === "pass") return "a pass, as no card could move the box";
  if (Array.isArray(value)) return value.length ? "bets of " + betsWords(value) : "no bets, having nothing to bet with";
  if (value && typeof value === "object" && value.card != null) {
    return "card " + value.card + " for board " + value.board + ", " + movedWords(value);
  }
  return null;
}

function describe(e, view) {
  const d = e.data || {};
  const who = (seat) => whoOf(view, seat);
  switch (e.kind) {
    case "phase_started": {
      if (d.name === "study boards") return "Both seats study the boards before bout 1; the cards come next.";
      const m = PHASE.exec(String(d.name || ""));
      if (!m || !m[3]) return null; // the bout's cards and the betting have their own lines
      const own = Number(m[3]) % 2 === 0;
      const seat = readerSeat(view) != null;
      return "Round " + m[3] + " of bout " + m[1] + " begins: " + (seat ? (own ? "your card moves your own box" : "your card moves your opponent's box")
        : (own ? "each seat's card moves its own box" : "each seat's card moves the other seat's box")) + " (BX-6).";
    }
    case "accepted":
      if (d.value !== "ready") return undefined; // words.js: "You sent <moveWords>."
      if (view && !seesAll(view) && d.seat !== view.you) return null;
      return who(d.seat) + " " + person(view, d.seat).are + " ready.";
    case "phase_resolved": return d.missing && d.missing.length ? undefined : null; // the round's plays say it
    case "bout_started": {
      const numbers = [...new Set(d.cards.map((c) => c.number))];
      const bonus = d.bonus ? "each seat gets " + pointsWords(d.bonus) + ", " : "";
      return "Bout " + d.bout + " begins: " + bonus + listWords(d.points.map((p, s) => who(s) + " " + person(view, s).have + " " + pointsWords(p))) +
        ". Its cards are " + listWords(numbers.map(String)) + ".";
    }
    case "betting_opened": return "Betting opens for bout " + d.bout + ": each seat bets on three different conditions (BX-4).";
    case "bets_sealed": return "The bets of bout " + d.bout + " are sealed; the rounds begin.";
    case "your_bets": return who(d.seat) + " bet " + betsWords(d.bets) + " in bout " + d.bout + ".";
    case "round_played":
      return "Round " + d.round + " of bout " + d.bout + ": " + d.plays.map((p) => playWords(view, p)).join("; ") + ".";
    case "bout_settled": {
      const sides = d.bets.map((side, s) => who(s) + ": " + (side.length ? side.map(settledWords).join("; ") : "no bets"));
      return "Bout " + d.bout + " is settled (BX-5). " + sides.join(". ") + ". Points now: " +
        listWords(d.points.map((p, s) => who(s) + " " + pts(p))) + ".";
    }
    default: return undefined;
  }
}

registerGame("boxes", { Board, describe, moveWords, phaseName, phaseTitle });
