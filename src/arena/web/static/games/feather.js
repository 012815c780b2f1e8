/* Light as a Feather, played on the board:
   - the basins as tubs (water, schedule, what the next tick adds), each seat's buckets drawn
     to scale (water level, capacity marks, locks of LF-9), points, the ankh (LF-5), the fill
     cooldown (LF-4) and the powerups held (LF-9); objectives as cards (requirement and reward)
     with the queue behind them (LF-7);
   - actions by tap: a basin then a bucket fills (or a bucket then a basin); buckets selected
     then an objective completes; the action buttons (Drain, Transfer, powerups) act on the
     selection or ask for what is missing. Once an action is whole it is sent; the queued action
     for the next boundary is shown with a countdown and can be replaced or withdrawn until then
     (LF-2: only the latest counts);
   - the last boundary in words ("You filled A with 10 from basin Z; the ankh let Robo go
     first");
   - keyboard shortcuts (listed on the page under "Keys").
   The composition lives in component state: a tick redraws the board around it and never
   resets a choice, the focus or the typing in the notation drawer. */
import { html, useState, useEffect, useRef, fmtNum, fmtClock, plural, registerGame, RuleText, person, readerSeat } from "/static/ui.js";

const POWERUPS = ["exchange", "modify", "sip", "lock", "accelerate"];
const VERB_WORD = {
  fill: "Fill", drain: "Drain", transfer: "Transfer", complete: "Complete", exchange: "Exchange",
  modify: "Modify", sip: "Sip", lock: "Lock", accelerate: "Accelerate",
};
const KEY_OF = { fill: "f", drain: "d", transfer: "t", complete: "c", exchange: "x", modify: "m", sip: "s", lock: "l", accelerate: "a" };
const VERB_OF_KEY = Object.fromEntries(Object.entries(KEY_OF).map(([v, k]) => [k, v]));
const EMPTY = { verb: null, picks: [], basin: null, into: undefined, target: null, number: null, toObjective: false };
const DELTAS = [-2, -1, 1, 2];
const TICKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/* ------------------------------------------------------------------ helpers */
const pointsText = (n) => plural(n, "point");
function rewardText(reward) {
  const parts = [];
  if (reward && reward.points) parts.push(pointsText(reward.points));
  for (const p of POWERUPS) if (reward && reward[p]) parts.push(fmtNum(reward[p]) + " " + p);
  return parts.join(" + ") || "nothing";
}
function nextAdd(basin) {
  return basin.forecast && basin.forecast.length ? basin.forecast[0] - basin.amount : 0;
}
function serverNow() {
  const S = window.Arena && window.Arena.state;
  return Date.now() / 1000 + ((S && S.offset) || 0);
}
/* The action the seat has queued for the next boundary, as facts ({act, bucket, ...}), or null
   for none or a pass. */
function queuedAct(view, seat) {
  const me = view.seats && view.seats[seat];
  const subs = (me && me.submissions) || [];
  if (!subs.length) return null;
  const v = subs[subs.length - 1].value;
  return v && typeof v === "object" && v.act && v.act !== "pass" ? v : null;
}

const and = (xs) => (xs.length < 2 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1]);
const byWhat = (n) => String(Math.abs(Number(n)));

/* One action's words from its facts (the server's Action.to_json): the past tense for what a
   seat did ({verb, obj}) and the imperative for what it sends ({...do}). ``actor`` and ``you``
   say whose buckets a Sip or Lock names ("your bucket A", "Robo's bucket A"). */
export function actWords(a, actor, you, nameOf) {
  a = a || {};
  const other = 1 - actor;
  const theirs = (b) => (other === you ? "your bucket " + b : nameOf(other) + "'s bucket " + b);
  const own = actor === you ? "your own bucket " : "their own bucket ";
  switch (a.act) {
    case "fill": return { verb: "filled", obj: "bucket " + a.bucket + " from basin " + a.basin, do: "fill bucket " + a.bucket + " from basin " + a.basin };
    case "drain": {
      const obj = "bucket " + a.bucket + (a.into ? " into basin " + a.into : "");
      return { verb: "drained", obj, do: "drain " + obj + (a.into ? "" : " (spill it)") };
    }
    case "transfer": return { verb: "poured", obj: "bucket " + a.from + " into bucket " + a.to, do: "pour bucket " + a.from + " into bucket " + a.to };
    case "complete": return { verb: "completed", obj: "objective " + a.objective + " with " + and(a.buckets || []), do: "complete objective " + a.objective + " with " + and(a.buckets || []) };
    case "exchange": return { verb: "swapped", obj: "buckets " + and(a.buckets || []), do: "swap buckets " + and(a.buckets || []) };
    case "modify": {
      const way = Number(a.change) >= 0 ? "raised" : "lowered";
      return { verb: way, obj: "the capacity of bucket " + a.bucket + " by " + byWhat(a.change), do: (way === "raised" ? "raise" : "lower") + " the capacity of bucket " + a.bucket + " by " + byWhat(a.change) };
    }
    case "sip": {
      const obj = "1 water from " + (a.opponent ? theirs(a.bucket) : own + a.bucket);
      return { verb: "sipped", obj, do: "sip " + obj.replace("their own", "your own") };
    }
    case "lock": return { verb: "locked", obj: theirs(a.bucket), do: "lock " + (other === you ? "your bucket " + a.bucket : nameOf(other) + "'s bucket " + a.bucket) };
    case "accelerate": return { verb: "sped up", obj: "basin " + a.basin + " by " + plural(a.ticks, "tick"), do: "speed up basin " + a.basin + " by " + plural(a.ticks, "tick") };
    default: return { verb: "passed", obj: "", do: "pass" };
  }
}

/* Why an action was void, from the server's facts ({rule, why, ...}): words, then the rule. */
export function voidWords(v, actor, you, nameOf) {
  v = v || {};
  let why;
  switch (v.why) {
    case "no_powerup": why = (actor === you ? "you hold" : "they hold") + " no " + v.powerup + " powerup"; break;
    case "locked": why = (v.theirs ? (1 - actor === you ? "your" : nameOf(1 - actor) + "'s") : (actor === you ? "your" : "their")) + " bucket " + v.bucket + " was locked"; break;
    case "cooldown": why = "the last fill was at tick " + v.filled + ", so the next can be at tick " + v.ready; break;
    case "unavailable": why = "objective " + v.objective + " was no longer there"; break;
    case "unmet": why = and(v.buckets || []) + " holding " + and((v.waters || []).map(String)) + " did not meet objective " + v.objective; break;
    case "below_water": why = "bucket " + v.bucket + " holds " + v.water + ", more than a capacity of " + v.capacity; break;
    default: why = "it could not be done";
  }
  return why + (v.rule ? ", " + v.rule : "");
}

function rewardWords(r) {
  if (!r) return "";
  const parts = [];
  if (r.points) parts.push(pointsText(r.points));
  for (const p of POWERUPS) if (r[p]) parts.push(fmtNum(r[p]) + " " + p);
  return and(parts) || "nothing";
}

/* The last boundary as sentences: [{text, seat}] (rule ids become links through RuleText).
   ``st.ankh`` is the ankh after the boundary (null when unknown: the log's tick events). */
function resolutionWords(st, you, nameOf) {
  const last = st.last || [];
  const who = (s) => (s === you ? "You" : nameOf(s));
  const mine = (s, text) => text.replace("their own", s === you ? "your own" : "their own");
  const out = [];
  for (const o of last) {
    const a = o.action || {};
    const w = actWords(a, o.seat, you, nameOf);
    if (!o.done) {
      out.push({ seat: o.seat, text: who(o.seat) + " tried to " + mine(o.seat, w.do.replace(" (spill it)", "")) + ": nothing happened (" + voidWords(o.void, o.seat, you, nameOf) + ")." });
      continue;
    }
    let s = who(o.seat) + " " + w.verb + " " + mine(o.seat, w.obj);
    const amount = o.water;
    if (a.act === "fill" && amount != null) s = who(o.seat) + " filled bucket " + a.bucket + " with " + fmtNum(amount) + " from basin " + a.basin;
    else if (a.act === "transfer" && amount != null) s = who(o.seat) + " poured " + fmtNum(amount) + " from " + w.obj;
    else if (a.act === "drain" && amount != null) s += " (" + fmtNum(amount) + " water" + (a.into ? "" : " spilled") + ")";
    else if (a.act === "complete" && o.reward) s += " and won " + rewardWords(o.reward);
    else if (a.act === "accelerate" && amount != null) s += " (+" + fmtNum(amount) + " water)";
    out.push({ seat: o.seat, text: s + "." });
  }
  const fills = last.filter((o) => o.done && o.action && o.action.act === "fill");
  if (st.ankh != null && fills.length === 2 && fills[0].action.basin === fills[1].action.basin) {
    const first = 1 - st.ankh;
    out.push({ seat: first, text: "Both filled from basin " + fills[0].action.basin + ": the ankh let " + (first === you ? "you" : nameOf(first)) + " go first and passed to " + (st.ankh === you ? "you" : nameOf(st.ankh)) + " (LF-5)." });
  }
  return out;
}

/* What the queued action (its facts) would make of the buckets and basins if nothing
   interferes. */
function predict(st, seat, a) {
  const out = { buckets: {}, basins: {} };
  if (!a || seat == null || !st.seats || !st.seats[seat]) return out;
  const bk = (s, name) => (st.seats[s].buckets.find((b) => b.name === name));
  const set = (s, name, water, capacity) => {
    const b = bk(s, name);
    if (!b) return;
    const cur = out.buckets[s + "-" + name] || { water: b.water, capacity: b.capacity };
    out.buckets[s + "-" + name] = { water: water == null ? cur.water : water, capacity: capacity == null ? cur.capacity : capacity };
  };
  const basin = (name) => st.basins.find((b) => b.name === name);
  const pair = a.buckets || [];
  if (a.act === "fill") {
    const b = bk(seat, a.bucket); const z = basin(a.basin);
    if (b && z) { const amount = Math.min(b.capacity - b.water, z.amount); set(seat, a.bucket, b.water + amount); out.basins[a.basin] = -amount; }
  } else if (a.act === "drain") {
    const b = bk(seat, a.bucket);
    if (b) { set(seat, a.bucket, 0); if (a.into) out.basins[a.into] = b.water; }
  } else if (a.act === "transfer") {
    const x = bk(seat, a.from), y = bk(seat, a.to);
    if (x && y) { const moved = Math.min(x.water, y.capacity - y.water); set(seat, a.from, x.water - moved); set(seat, a.to, y.water + moved); }
  } else if (a.act === "exchange") {
    const x = bk(seat, pair[0]), y = bk(seat, pair[1]);
    if (x && y) { set(seat, pair[0], Math.min(y.water, x.capacity)); set(seat, pair[1], Math.min(x.water, y.capacity)); }
  } else if (a.act === "complete") {
    for (const n of pair) set(seat, n, 0);
  } else if (a.act === "modify") {
    const b = bk(seat, a.bucket);
    if (b) set(seat, a.bucket, null, b.capacity + Number(a.change));
  } else if (a.act === "sip") {
    const s = a.opponent ? 1 - seat : seat;
    const b = bk(s, a.bucket);
    if (b) set(s, a.bucket, Math.max(0, b.water - 1));
  }
  return out;
}

/* ------------------------------------------------------------------ composing an action */
/* The step a composition waits for: {kind, prompt}, or {kind: "ready", text}. */
function stepOf(d, st, you, nameOf) {
  const opp = nameOf(1 - you);
  switch (d.verb) {
    case null:
      if (!d.picks.length) return { kind: "picks", prompt: "Tap a basin to fill from it, or select buckets (then an objective to complete it, or an action)." };
      return { kind: "picks", prompt: "Selected " + and(d.picks) + ": tap an objective to complete it, a basin to fill " + d.picks[0] + ", or an action." };
    case "fill":
      if (!d.basin) return { kind: "basin", prompt: "Fill: tap the basin to fill from" + (d.picks.length ? " into bucket " + d.picks[0] : "") + "." };
      if (!d.picks.length) return { kind: "bucket", prompt: "Fill from basin " + d.basin + ": tap one of your buckets." };
      return { kind: "ready", text: "fill " + d.basin + " " + d.picks[0] };
    case "drain":
      if (!d.picks.length) return { kind: "bucket", prompt: "Drain: tap the bucket to empty." };
      if (d.into === undefined) return { kind: "into", prompt: "Drain bucket " + d.picks[0] + ": spill the water, or tap a basin to pour it into." };
      return { kind: "ready", text: "drain " + d.picks[0] + (d.into ? " -> " + d.into : "") };
    case "transfer":
    case "exchange":
      if (d.picks.length < 2) {
        const word = d.verb === "transfer" ? "Transfer" : "Exchange";
        return { kind: "bucket", prompt: d.picks.length ? word + " " + d.picks[0] + (d.verb === "transfer" ? ": tap the bucket to pour into." : ": tap the bucket to swap with.") : word + ": tap the " + (d.verb === "transfer" ? "bucket to pour from." : "first bucket.") };
      }
      return { kind: "ready", text: d.verb === "transfer" ? "transfer " + d.picks[0] + " -> " + d.picks[1] : "exchange " + d.picks[0] + " " + d.picks[1] };
    case "complete":
      if (!d.picks.length) return { kind: "picks", prompt: "Complete: select the buckets to use, then tap the objective." };
      if (d.number == null) return { kind: d.toObjective ? "objective" : "picks", prompt: "Complete with " + and(d.picks) + ": tap the objective (or select more buckets)." };
      return { kind: "ready", text: "complete " + d.picks.slice().sort().join("+") + " " + d.number };
    case "modify":
      if (!d.picks.length) return { kind: "bucket", prompt: "Modify: tap the bucket whose capacity changes." };
      if (d.number == null) return { kind: "delta", prompt: "Modify bucket " + d.picks[0] + ": change its capacity by how much?" };
      return { kind: "ready", text: "modify " + d.picks[0] + " " + (d.number > 0 ? "+" : "") + d.number };
    case "sip":
      if (!d.target) return { kind: "sip", prompt: "Sip: tap a bucket of " + opp + "'s (or one of yours) to take 1 water from." };
      return { kind: "ready", text: "sip " + (d.target.opp ? "opp " : "") + d.target.name };
    case "lock":
      if (!d.target) return { kind: "opp", prompt: "Lock: tap one of " + opp + "'s buckets." };
      return { kind: "ready", text: "lock " + d.target.name };
    case "accelerate":
      if (!d.basin) return { kind: "basin", prompt: "Accelerate: tap the basin to speed up." };
      if (d.number == null) return { kind: "ticks", prompt: "Accelerate basin " + d.basin + " by how many ticks?" };
      return { kind: "ready", text: "accelerate " + d.basin + " " + d.number };
    default:
      return { kind: "picks", prompt: "" };
  }
}

/* The choices of a step, in the order the number keys pick them. */
function choicesOf(kind, st, you) {
  const mine = st.seats[you].buckets.map((b) => b.name);
  const theirs = st.seats[1 - you].buckets.map((b) => b.name);
  switch (kind) {
    case "basin": return st.basins.map((b) => ({ type: "basin", value: b.name }));
    case "bucket": case "picks": return mine.map((n) => ({ type: "own", value: n }));
    case "into": return [{ type: "spill", value: "" }].concat(st.basins.map((b) => ({ type: "basin", value: b.name })));
    case "objective": return st.objectives.map((o) => ({ type: "objective", value: o.id }));
    case "delta": return DELTAS.map((n) => ({ type: "number", value: n }));
    case "ticks": return TICKS.map((n) => ({ type: "number", value: n }));
    case "sip": return theirs.map((n) => ({ type: "opp", value: n })).concat(mine.map((n) => ({ type: "own", value: n })));
    case "opp": return theirs.map((n) => ({ type: "opp", value: n }));
    default: return [];
  }
}
const keyLabel = (i, kind) => (kind === "ticks" && i === 9 ? "0" : String(i + 1));

/* ------------------------------------------------------------------ drawing */
function Countdown({ view }) {
  const [, setNow] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setNow((x) => x + 1), 250);
    return () => clearInterval(id);
  }, []);
  const dl = view.phase && view.phase.next_deadline;
  if (dl == null || view.paused) return html`<span class="lf-count" data-testid="feather-countdown">paused</span>`;
  return html`<span class="lf-count" data-testid="feather-countdown">${fmtClock(dl - serverNow())}</span>`;
}

function Basin({ b, top, state, keyHint, onTap, interactive, change, over, whose }) {
  const add = nextAdd(b);
  const Tag = interactive ? "button" : "div";
  const after = b.amount + (change || 0);
  // Whose queued action ``change`` comes from: the reader's ("Yours"), or on a broadcast's
  // seat board that seat's ("Ann's", G-15).
  const own = !whose || whose.self ? "Yours" : whose.your;
  const label = "Basin " + b.name + ": " + fmtNum(b.amount) + " water; " + b.schedule + (add ? "; next tick adds " + add : "; nothing added next tick")
    + (change ? "; with " + (whose ? whose.your : "your") + " queued action " + fmtNum(after + add) + " after the next tick" : "");
  return html`<${Tag} type=${interactive ? "button" : undefined} class=${"lf-basin" + (state === "target" ? " lf-target" : "")} data-testid=${"feather-basin-" + b.name}
      aria-pressed=${interactive ? String(state === "picked") : undefined} aria-label=${interactive ? label : undefined} onClick=${interactive ? onTap : undefined}>
    ${keyHint ? html`<span class="lf-key" aria-hidden="true">${keyHint}</span>` : ""}
    <span class="lf-line"><span class="lf-big">Basin ${b.name}</span></span>
    <span class="lf-line"><span data-testid=${"feather-basin-amount-" + b.name}>${fmtNum(b.amount)}</span> water</span>
    <span class="lf-tub" aria-hidden="true"><span class="lf-water" style=${"height:" + Math.round(100 * Math.min(1, b.amount / top)) + "%"}></span></span>
    <span class="lf-sub">${b.schedule}</span>
    ${over ? "" : html`<span class="lf-sub lf-line">Next tick: +${fmtNum(add)}</span>
    <span class=${"lf-sub lf-line" + (change ? "" : " lf-hide")} data-testid=${"feather-basin-change-" + b.name}>${own + ": " + (change ? (change > 0 ? "+" : "−") + fmtNum(Math.abs(change)) + " → " + fmtNum(after + add) : "none")}</span>`}
  </${Tag}>`;
}

function Bucket({ seat, b, top, st, you, nameOf, state, keyHint, onTap, interactive, next }) {
  const h = 28 + Math.round(68 * b.capacity / top);
  const locked = b.locked_until != null;
  const whose = seat === you ? "Your bucket " : nameOf(seat) + "'s bucket ";
  const changes = next && (next.water !== b.water || next.capacity !== b.capacity);
  const label = whose + b.name + ": " + fmtNum(b.water) + " of " + fmtNum(b.capacity) + (locked ? "; locked through tick " + b.locked_until : "")
    + (changes ? "; after the next boundary " + fmtNum(next.water) + " of " + fmtNum(next.capacity) : "") + (state === "picked" ? "; selected" : "");
  const Tag = interactive ? "button" : "div";
  const cap = Math.max(1, b.capacity);
  return html`<${Tag} type=${interactive ? "button" : undefined}
      class=${"lf-bucket" + (interactive ? " lf-pick" : "") + (locked ? " locked" : "") + (state === "target" ? " lf-target" : "")}
      data-testid=${"feather-tap-" + seat + "-" + b.name} aria-pressed=${interactive ? String(state === "picked") : undefined}
      aria-label=${interactive ? label : undefined} onClick=${interactive ? onTap : undefined}>
    ${keyHint ? html`<span class="lf-key" aria-hidden="true">${keyHint}</span>` : html`<span class="lf-key" aria-hidden="true" style="visibility:hidden">0</span>`}
    <span class="lf-tank" aria-hidden="true" style=${"height:" + h + "px"}>
      <span class="lf-water" style=${"height:" + Math.round(100 * Math.min(1, b.water / cap)) + "%"}></span>
      <span class="lf-marks" style=${"background: repeating-linear-gradient(to top, transparent 0 calc(" + (100 / cap) + "% - 1px), rgba(40,50,70,.35) calc(" + (100 / cap) + "% - 1px) " + (100 / cap) + "%)"}></span>
    </span>
    <span class="lf-name" data-testid=${"feather-bucket-" + seat + "-" + b.name}>${b.name} ${fmtNum(b.water)}/${fmtNum(b.capacity)}</span>
    <span class=${"lf-sub" + (state === "picked" ? "" : " lf-hide")}>✓ selected</span>
    ${changes ? html`<span class="lf-next" data-testid=${"feather-next-" + seat + "-" + b.name}>next: ${fmtNum(next.water)}/${fmtNum(next.capacity)}</span>` : html`<span class="lf-next lf-hide" aria-hidden="true">next</span>`}
    <span class=${"lf-lock" + (locked ? "" : " lf-hide")}>${locked ? "🔒 to tick " + b.locked_until : "🔒"}</span>
  </${Tag}>`;
}

function SeatPanel({ st, seat, you, nameOf, pressed, targetKind, hints, onBucket, interactive, next, onPower }) {
  const me = st.seats[seat];
  const top = Math.max(1, ...st.seats.flatMap((s) => s.buckets.map((b) => b.capacity)));
  const held = POWERUPS.filter((p) => me.powerups[p]);
  const title = seat === you ? "You (" + nameOf(seat) + ")" : nameOf(seat);
  const colour = seat === 0 ? "red" : "blue";
  return html`<section class=${"lf-panel lf-seat seat" + seat} data-testid=${"feather-seat-" + seat} aria-label=${title + "'s buckets"}>
    <div class="lf-seat-head">
      <h3>${title} <span class="muted small">(${colour} side)</span></h3>
      <span class="lf-points" data-testid=${"feather-points-" + seat}>${pointsText(me.points)}</span>
    </div>
    <div class="lf-seat-sub">
      <span class=${"lf-cool" + (me.can_fill_next ? "" : " blocked")} data-testid=${"feather-cool-" + seat}>
        ${st.stage !== "tick" ? "" : me.can_fill_next ? "Fill ready" : html`Next fill at tick ${me.fill_ready_at} (<${RuleText} text="LF-4"/>)`}
      </span>
      ${st.ankh === seat ? html`<span class="lf-ankh" data-testid="feather-ankh">☥ holds the ankh (<${RuleText} text="LF-5"/>)</span>` : ""}
    </div>
    <div class="lf-buckets">
      ${me.buckets.map((b) => {
        const kindOk = seat === you ? ["bucket", "picks", "sip"].includes(targetKind) : ["sip", "opp"].includes(targetKind);
        const state = pressed(seat, b.name) ? "picked" : kindOk && interactive ? "target" : "";
        return html`<${Bucket} key=${b.name} seat=${seat} b=${b} top=${top} st=${st} you=${you} nameOf=${nameOf} state=${state}
          keyHint=${hints[(seat === you ? "own:" : "opp:") + b.name]} interactive=${interactive} onTap=${() => onBucket(seat, b.name)}
          next=${next[seat + "-" + b.name]}/>`;
      })}
    </div>
    <div class="lf-powers" data-testid=${"feather-powers-" + seat}>
      <span>Powerups (<${RuleText} text="LF-9"/>):</span>
      ${held.length ? held.map((p) => seat === you && onPower && st.stage === "tick"
        ? html`<button type="button" class="secondary lf-chip" data-testid=${"feather-power-" + p} onClick=${() => onPower(p)}>${VERB_WORD[p]} ×${me.powerups[p]}</button>`
        : html`<span class="lf-chip" data-testid=${"feather-held-" + seat + "-" + p}>${VERB_WORD[p]} ×${me.powerups[p]}</span>`) : html`<span class="muted">none</span>`}
    </div>
  </section>`;
}

/* Each objective keeps its place on the page for the session: the server lists the available
   ones in order and appends the queue's next at the end, so a completed objective would slide
   the cards after it under the player's finger. A replacement takes the
   freed place; with none, a "completed" card holds it. Pure: the slots before and the ids now
   give the slots now. */
export function objectiveSlots(before, ids) {
  const slots = (before || []).map((x) => ({ id: x.id, done: !ids.includes(x.id) }));
  const placed = new Set(slots.filter((x) => !x.done).map((x) => x.id));
  for (const id of ids) {
    if (placed.has(id)) continue;
    const free = slots.findIndex((x) => x.done);
    if (free >= 0) slots[free] = { id, done: false }; else slots.push({ id, done: false });
    placed.add(id);
  }
  return slots;
}

function Objectives({ st, pressed, hints, onTap, interactive, target, you, nameOf }) {
  const mem = useRef({ key: null, slots: [], queue: [] });
  const sess = st.session || {};
  const key = JSON.stringify([sess.index, sess.name, sess.label]);
  const slots = objectiveSlots(mem.current.key === key ? mem.current.slots : [], st.objectives.map((o) => o.id));
  // The queue keeps its rows for the session too: one that went to the board is struck
  // through in place, so the panels below it do not move up.
  const before = mem.current.key === key ? mem.current.queue : [];
  const queue = before.concat(st.queue.filter((o) => !before.some((x) => x.id === o.id)));
  const inQueue = new Set(st.queue.map((o) => o.id));
  mem.current = { key, slots, queue };
  const byId = Object.fromEntries(st.objectives.map((o) => [o.id, o]));
  const doneBy = (id) => {
    const o = (st.last || []).find((x) => x.done && x.action && x.action.act === "complete" && x.action.objective === id);
    return o ? (o.seat === you ? "by you" : "by " + nameOf(o.seat)) : "earlier this session";
  };
  return html`<section class="lf-panel" data-testid="feather-objectives" aria-label="Objectives">
    <h3>Objectives (<${RuleText} text="LF-6"/>, <${RuleText} text="LF-7"/>)</h3>
    <div class="lf-cards">
      ${slots.map((x) => {
        if (x.done || !byId[x.id]) {
          return html`<div key=${"done" + x.id} class="lf-card lf-done" data-testid=${"feather-objective-done-" + x.id}>
            <span class="lf-id">Objective ${x.id}</span><span class="lf-req">Completed ${doneBy(x.id)}.</span></div>`;
        }
        const o = byId[x.id];
        const Tag = interactive ? "button" : "div";
        return html`<${Tag} key=${o.id} type=${interactive ? "button" : undefined} class=${"lf-card" + (target ? " lf-target" : "")} data-testid=${"feather-objective-" + o.id}
            aria-pressed=${interactive ? String(pressed(o.id)) : undefined} onClick=${interactive ? () => onTap(o.id) : undefined}>
          ${hints["obj:" + o.id] ? html`<span class="lf-key" aria-hidden="true">${hints["obj:" + o.id]}</span>` : ""}
          <span class="lf-id">Objective ${o.id}</span>
          <span class="lf-req">${o.text}</span>
          <span class="lf-reward">Reward: ${rewardText(o.reward)}</span>
        </${Tag}>`;
      })}
      ${slots.length ? "" : html`<p class="muted" style="grid-column: 1 / -1">No objective left this session.</p>`}
    </div>
    <h3 style="margin-top:8px">Queue (${st.queue.length})</h3>
    ${queue.length ? html`<div class="lf-queue-box" tabindex="0" role="region" aria-label="Objectives still queued"><ol class="lf-queue" data-testid="feather-queue">
      ${queue.map((o) => html`<li key=${o.id} class=${inQueue.has(o.id) ? "" : "lf-gone"}>Objective ${o.id}: ${o.text} (${rewardText(o.reward)})${inQueue.has(o.id) ? "" : html`<span class="sr-only"> (now on the board)</span>`}</li>`)}
    </ol></div>` : html`<p class="muted small" data-testid="feather-queue">Nothing queued: a completed objective is not replaced.</p>`}
  </section>`;
}

/* One label per session everywhere: the view's "Session 2 of 3" or
   "Practice session (not scored)"; an older view without it falls back to the name. */
export function sessionLabel(sess) {
  sess = sess || {};
  if (sess.label) return sess.label;
  return capitalise(sess.name || "session") + (sess.practice ? " (practice)" : "");
}

function Status({ st, api }) {
  const sess = st.session || {};
  let line = sessionLabel(sess);
  if (st.stage === "tick") line += " · tick " + st.tick + " of " + st.ticks;
  else if (st.stage === "study") line += " · study time";
  else line += " · over";
  const pts = (st.seats || []).map((s, i) => api.seatName(i) + " " + fmtNum(s.points)).join(" · ");
  return html`<p class="lf-status" data-testid="feather-status">${line} · points <span class="lf-num">${pts}</span></p>`;
}

/* The last boundary in words. Between sessions (the study screen, or tick 0 of the next) it is
   the boundary that closed the session before, with its final points, so a score that changed
   after the last tick is explained. Its height is fixed: a tick with more
   to say scrolls inside it instead of moving the controls below. */
function Resolution({ st, you, nameOf }) {
  const between = st.ended && (st.stage === "study" || (st.stage === "tick" && st.tick === 0));
  if (st.stage === "study" && !between) return null;
  const lines = resolutionWords(st, you, nameOf);
  const who = (s) => (s === you ? "You" : nameOf(s));
  const title = between ? "How " + st.ended.label.replace(/ \(not scored\)$/, "").replace(/^S/, "s").replace(/^P/, "p") + " ended"
    : st.stage === "over" ? "The last boundary" : "At the start of tick " + st.tick;
  return html`<section class="lf-panel lf-last" data-testid="feather-last" aria-label="Last boundary" tabindex="0">
    <h3>${capitalise(title)}</h3>
    ${lines.length ? html`<ul>${lines.map((l, i) => html`<li key=${i}><${RuleText} text=${l.text}/></li>`)}</ul>`
      : html`<p class="muted">${st.tick === 0 && !between ? "The session has just begun: nothing has been processed yet." : "Nobody acted at the last boundary."}</p>`}
    ${between ? html`<p class="small" data-testid="feather-ended">Final points: ${st.ended.points.map((p, i) => who(i) + " " + fmtNum(p)).join(" · ")}${st.ended.practice
      ? " (practice: they count for nothing, LF-1)." : "; water at the end: " + st.ended.water.map((w, i) => who(i) + " " + fmtNum(w)).join(" · ") + " (the tie-break, LF-11)."}</p>` : ""}
  </section>`;
}

/* The action queued for the next boundary, in words (LF-2: the latest one counts). ``late``
   says the last send was refused because its tick had closed before it arrived (G-2): the
   new tick has nothing queued, and the panel says why. */
function Queued({ view, st, api, send, late }) {
  const q = queuedAct(view, api.seat);
  const at = st.tick + 1;
  const words = q ? capitalise(actWords(q, api.seat, api.seat, api.seatName).do) : "";
  return html`<section class=${"lf-panel lf-queued" + (q ? "" : " none")} data-testid="feather-queued" aria-label="Your action for the next boundary">
    <p>Next boundary (tick ${at}) in <${Countdown} view=${view}/></p>
    ${q ? html`<p class="lf-action lf-one">Queued: <span data-testid="feather-queued-action">${words}</span>.</p>`
      : html`<p class="lf-action lf-one" data-testid="feather-queued-none">Nothing queued: you pass.${late ? html` <span data-testid="feather-queued-late">Your last action came after its tick closed (<${RuleText} text="G-2"/>).</span>` : ""}</p>`}
    <div class="lf-qrow"><button type="button" class="secondary" data-testid=${q ? "feather-pass" : "feather-pass-none"} disabled=${!q} onClick=${() => send("pass")}>Withdraw (pass)</button>
      <span class="lf-one small">${q ? html`Another action replaces it (<${RuleText} text="LF-2"/>).` : "Tap a basin or a bucket."}</span></div>
  </section>`;
}

/* What became of the board's last send, in words: the shell's own message line says the
   notation that was sent ("Sent: fill Z A"), so the board says it from the accepted move's
   facts instead. A message belongs to the tick it was made in (a refusal as late, G-2, to the
   tick that followed) and goes when another tick starts. */
function sentWords(r, text, seat, nameOf, tick) {
  if (r.stale && tick != null) return "G-2: your action arrived after tick " + tick + " had closed, so it was not sent; send it again for this tick.";
  if (!r.ok) return r.error || "Not sent.";
  const v = r.value;
  if (v === "ready" || text === "ready") return "You are ready: the session starts when both seats are ready or the study time is up.";
  if (!v || typeof v !== "object" || v.act === "pass") return "Withdrawn: you pass at the next boundary unless you send another action.";
  return "Sent: " + actWords(v, seat, seat, nameOf).do + " (you can change it until the tick ends).";
}

function FeatherMsg({ msg }) {
  return html`<div class="msg-slot">
    <p class="error-text" data-testid="feather-msg" role="alert">${msg && !msg.ok ? html`<${RuleText} text=${msg.text}/>` : ""}</p>
    <p class="ok-text" data-testid="feather-msg-ok" role="status">${msg && msg.ok ? msg.text : ""}</p>
  </div>`;
}

function Keys() {
  return html`<details class="lf-panel lf-keys" data-testid="feather-keys">
    <summary>Keys</summary>
    <dl>
      <dt><kbd class="lf-key">f</kbd> <kbd class="lf-key">d</kbd> <kbd class="lf-key">t</kbd> <kbd class="lf-key">c</kbd></dt><dd>Fill, Drain, Transfer, Complete</dd>
      <dt><kbd class="lf-key">x</kbd> <kbd class="lf-key">m</kbd> <kbd class="lf-key">s</kbd> <kbd class="lf-key">l</kbd> <kbd class="lf-key">a</kbd></dt><dd>powerups: Exchange, Modify, Sip, Lock, Accelerate</dd>
      <dt><kbd class="lf-key">1</kbd>–<kbd class="lf-key">9</kbd>, <kbd class="lf-key">0</kbd></dt><dd>pick the choice with that number (shown in the corner of basins, buckets and objectives); with no action chosen they select your buckets</dd>
      <dt><kbd class="lf-key">c</kbd> after selecting buckets</dt><dd>go on to the objectives</dd>
      <dt><kbd class="lf-key">p</kbd></dt><dd>withdraw the queued action (pass)</dd>
      <dt><kbd class="lf-key">Esc</kbd></dt><dd>clear the action being composed</dd>
      <dt><kbd class="lf-key">r</kbd></dt><dd>Ready, in the study time before a session</dd>
    </dl>
    <p class="small muted">Example: <kbd class="lf-key">f</kbd> <kbd class="lf-key">2</kbd> <kbd class="lf-key">1</kbd> fills your first bucket from the second basin. Keys do nothing while you type in a text field.</p>
  </details>`;
}

/* ------------------------------------------------------------------ the board */
/* ------------------------------------------------------------------ the puzzle (LF-12) */
/* The scenario this match plays is data (LF-7, LF-12) every viewer may read (G-9): anyone can
   download it as TOML to keep or replay it, and the host can open it in the scenario editor.
   The text goes to the editor through this browser's own storage (same origin only), so no
   token or long text travels in an address; the editor reads it for ``?from=match``. */
export const EDITOR_HANDOFF = "arena.feather.editor";

export function puzzleFile(scenario, match) {
  const named = scenario.name && scenario.name !== "generated" && scenario.name !== "host scenario";
  const label = match.seed != null ? match.seed : named ? scenario.name : match.id || "scenario";
  return "feather-" + String(label).replace(/[^A-Za-z0-9_-]+/g, "-") + ".toml";
}

function Puzzle({ view, api }) {
  const sc = (view.state || {}).scenario;
  if (!sc || !sc.toml) return "";
  const match = view.match || {};
  const toEditor = (e) => {
    try {
      localStorage.setItem(EDITOR_HANDOFF, JSON.stringify({ match: match.id || "", name: sc.name, text: sc.toml }));
    } catch (err) {
      e.preventDefault();
      api.showError("This browser keeps no storage for the editor; download the puzzle and paste it into the editor instead.");
    }
  };
  return html`<section class="lf-panel lf-puzzle" data-testid="feather-puzzle" aria-label="This match's puzzle">
    <h3>The puzzle (<${RuleText} text="LF-12"/>)</h3>
    <p class="lf-row">
      <a data-testid="feather-download" download=${puzzleFile(sc, match)}
        href=${"data:application/toml;charset=utf-8," + encodeURIComponent(sc.toml)}>Download this puzzle to replay it later</a>
      <span class="small muted" data-testid="feather-download-note">(a text file the scenario editor opens)</span>
      ${api.role === "host" ? html`<a data-testid="feather-open-editor" href="/feather/editor?from=match" target="_blank" rel="noopener" onClick=${toEditor}>Open in the editor</a>` : ""}
    </p>
  </section>`;
}

function Board({ view, api }) {
  const st = view.state || {};
  const [d, setD] = useState(EMPTY);
  const [hint, setHint] = useState("");
  const [msg, setMsg] = useState(null);
  // ``you`` is the seat this board draws (its buckets, its queued action); ``addr`` the one its
  // words call "you": the same seat on its own page, nobody on a broadcast's seat board (G-15).
  const you = api.seat;
  const addr = readerSeat(view);
  const nameOf = (s) => api.seatName(s);
  const canAct = !!view.phase && you != null && !api.replay && st.stage === "tick" && api.role === "seat";
  const isSeat = you != null && st.seats && st.seats[you];

  const phaseNo = view.phase ? view.phase.no : null;
  const deliver = async (text, final) => {
    const made = phaseNo;
    const tick = st.stage === "tick" ? st.tick : null;
    setMsg(null);
    const r = await api.submit(text, final, "feather");
    const late = !r.ok && !!r.stale;
    setMsg({ ok: !!r.ok, late, text: sentWords(r, text, you, nameOf, tick), phase: late && made != null ? made + 1 : made });
    return r;
  };
  const send = (text) => deliver(text, false);
  // Ready is final: the study phase ends early once both seats are final (G-4).
  const ready = () => deliver("ready", true);
  const shown = msg && msg.phase === phaseNo ? msg : null;
  // Drop choices that no longer exist (a new session has other buckets, an objective was taken).
  const valid = (x) => {
    if (!isSeat) return EMPTY;
    const mine = st.seats[you].buckets.map((b) => b.name);
    const picks = x.picks.filter((p) => mine.includes(p));
    const basin = x.basin && st.basins.some((b) => b.name === x.basin) ? x.basin : null;
    if (picks.length === x.picks.length && basin === x.basin) return x;
    return Object.assign({}, x, { picks, basin });
  };
  const dd = valid(d);
  const step = isSeat && st.stage === "tick" ? stepOf(dd, st, you, nameOf) : { kind: "none", prompt: "" };
  const choices = isSeat && st.stage === "tick" ? choicesOf(step.kind, st, you) : [];
  const hints = {};
  choices.forEach((c, i) => { hints[(c.type === "objective" ? "obj:" : c.type + ":") + c.value] = keyLabel(i, step.kind); });

  const commit = (nd) => {
    const s = stepOf(nd, st, you, nameOf);
    setHint("");
    if (s.kind === "ready") { setD(EMPTY); send(s.text); } else setD(nd);
  };
  const pick = (c) => {
    const x = dd;
    switch (step.kind) {
      case "basin": return commit(Object.assign({}, x, { basin: c.value }));
      case "bucket":
        if (x.picks.includes(c.value)) return commit(Object.assign({}, x, { picks: x.picks.filter((p) => p !== c.value) }));
        return commit(Object.assign({}, x, { picks: x.picks.concat([c.value]) }));
      case "picks": {
        const picks = x.picks.includes(c.value) ? x.picks.filter((p) => p !== c.value) : x.picks.concat([c.value]);
        return commit(Object.assign({}, x, { picks, toObjective: false }));
      }
      case "into": return commit(Object.assign({}, x, { into: c.value }));
      case "objective": return commit(Object.assign({}, x, { verb: "complete", number: c.value }));
      case "delta": case "ticks": return commit(Object.assign({}, x, { number: c.value }));
      case "sip": case "opp": return commit(Object.assign({}, x, { target: { opp: c.type === "opp", name: c.value } }));
      default: return null;
    }
  };
  const tapBasin = (name) => {
    if (step.kind === "basin" || step.kind === "into") return pick({ type: "basin", value: name });
    const picks = dd.verb == null && dd.picks.length === 1 ? dd.picks : [];
    return commit(Object.assign({}, EMPTY, { verb: "fill", basin: name, picks }));
  };
  const tapBucket = (seat, name) => {
    if (seat !== you) {
      if (step.kind === "sip" || step.kind === "opp") return pick({ type: "opp", value: name });
      setHint("To act on " + nameOf(seat) + "'s bucket " + name + ", choose Sip or Lock first (powerups, LF-9).");
      return null;
    }
    if (["bucket", "picks", "sip"].includes(step.kind)) return pick({ type: "own", value: name });
    if (dd.verb === "complete") return commit(Object.assign({}, dd, { picks: dd.picks.includes(name) ? dd.picks.filter((p) => p !== name) : dd.picks.concat([name]), toObjective: false, number: null }));
    return commit(Object.assign({}, EMPTY, { picks: [name] }));
  };
  const tapObjective = (id) => {
    if (dd.picks.length && (dd.verb == null || dd.verb === "complete")) return commit(Object.assign({}, dd, { verb: "complete", number: id }));
    setD(Object.assign({}, EMPTY, { verb: "complete" }));
    setHint("Select the buckets to complete objective " + id + " with first, then tap it.");
    return null;
  };
  const chooseVerb = (verb) => {
    const x = dd;
    if (verb === "complete") {
      if (x.picks.length) return commit(Object.assign({}, EMPTY, { verb, picks: x.picks, toObjective: true }));
      return commit(Object.assign({}, EMPTY, { verb }));
    }
    if (x.verb === verb) return commit(EMPTY);
    let picks = [];
    if (["drain", "modify", "fill"].includes(verb) && x.picks.length === 1) picks = x.picks;
    if (["transfer", "exchange"].includes(verb) && x.picks.length <= 2) picks = x.picks;
    const nd = Object.assign({}, EMPTY, { verb, picks });
    if (verb === "fill" && x.basin) nd.basin = x.basin;
    return commit(nd);
  };

  // Keyboard shortcuts: the latest handlers are read through a ref, the listener stays put.
  const keys = useRef(null);
  keys.current = { canAct, step, choices, pick, chooseVerb, clear: () => { setD(EMPTY); setHint(""); }, pass: () => send("pass"), ready, study: st.stage === "study" && you != null && !api.replay };
  useEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      if (t && (t.closest && t.closest("input, textarea, select, [contenteditable]"))) return;
      const k = keys.current;
      if (!k) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (k.study && key === "r") { e.preventDefault(); k.ready(); return; }
      if (!k.canAct) return;
      if (key === "Escape") { k.clear(); return; }
      if (key === "p") { e.preventDefault(); k.pass(); return; }
      if (VERB_OF_KEY[key]) { e.preventDefault(); k.chooseVerb(VERB_OF_KEY[key]); return; }
      if (/^[0-9]$/.test(key)) {
        const i = key === "0" ? 9 : Number(key) - 1;
        if (k.choices[i]) { e.preventDefault(); k.pick(k.choices[i]); }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const queued = isSeat ? queuedAct(view, you) : null;
  const pred = isSeat && st.stage === "tick" ? predict(st, you, queued) : { buckets: {}, basins: {} };
  const basinTop = Math.max(10, ...(st.basins || []).map((b) => Math.max(b.amount, ...(b.forecast || []))));
  const pressed = (seat, name) => (seat === you ? dd.picks.includes(name) : !!(dd.target && dd.target.opp && dd.target.name === name));
  const held = isSeat ? st.seats[you].powerups : {};

  const seats = (st.seats || []).map((_, s) => s);
  const order = you != null ? [you, 1 - you] : seats;
  const seatPanels = order.map((s) => html`<${SeatPanel} key=${"seat" + s} st=${st} seat=${s} you=${addr} nameOf=${nameOf} pressed=${pressed}
    targetKind=${step.kind} hints=${hints} onBucket=${tapBucket} interactive=${canAct} next=${pred.buckets} onPower=${chooseVerb}/>`);

  const choiceButtons = () => {
    if (step.kind === "into") return html`<div class="lf-choices"><button type="button" data-testid="feather-spill" onClick=${() => pick({ type: "spill", value: "" })}><span class="lf-key" aria-hidden="true">1</span> Spill it</button></div>`;
    if (step.kind === "delta" || step.kind === "ticks") {
      return html`<div class="lf-choices" role="group" aria-label=${step.kind === "delta" ? "Capacity change" : "Ticks"}>
        ${choices.map((c, i) => html`<button type="button" data-testid=${"feather-num-" + c.value} onClick=${() => pick(c)}><span class="lf-key" aria-hidden="true">${keyLabel(i, step.kind)}</span> ${step.kind === "delta" && c.value > 0 ? "+" : ""}${String(c.value).replace("-", "−")}</button>`)}
      </div>`;
    }
    if (step.kind === "picks" && dd.picks.length && dd.verb === "complete") {
      return html`<div class="lf-choices"><button type="button" data-testid="feather-to-objective" onClick=${() => setD(Object.assign({}, dd, { toObjective: true }))}><span class="lf-key" aria-hidden="true">c</span> Choose the objective</button></div>`;
    }
    return "";
  };

  const actions = canAct ? html`<section class="lf-panel lf-actions" data-testid="feather-controls" aria-label="Actions">
    <h3>Your action</h3>
    <div class="lf-verbs" role="group" aria-label="Actions">
      ${["fill", "drain", "transfer", "complete"].map((v) => html`<button type="button" data-testid=${"feather-verb-" + v} aria-pressed=${String(dd.verb === v)} aria-keyshortcuts=${KEY_OF[v]} onClick=${() => chooseVerb(v)}>${VERB_WORD[v]} <span class="lf-key" aria-hidden="true">${KEY_OF[v]}</span></button>`)}
      ${POWERUPS.filter((p) => held[p]).map((p) => html`<button type="button" data-testid=${"feather-verb-" + p} aria-pressed=${String(dd.verb === p)} aria-keyshortcuts=${KEY_OF[p]} onClick=${() => chooseVerb(p)}>${VERB_WORD[p]} ×${held[p]} <span class="lf-key" aria-hidden="true">${KEY_OF[p]}</span></button>`)}
      ${dd.verb || dd.picks.length ? html`<button type="button" class="secondary" data-testid="feather-clear" onClick=${() => { setD(EMPTY); setHint(""); }}>Clear <span class="lf-key" aria-hidden="true">Esc</span></button>` : ""}
    </div>
    <p class="lf-prompt" data-testid="feather-prompt" data-kind=${step.kind} data-verb=${dd.verb || ""} data-picks=${dd.picks.join("+")}>${step.prompt}</p>
    ${choiceButtons()}
    ${hint ? html`<p class="lf-hint" data-testid="feather-hint"><${RuleText} text=${hint}/></p>` : ""}
    <div class="lf-msg"><${FeatherMsg} msg=${shown}/></div>
  </section>` : "";

  const study = st.stage === "study" && you != null && !api.replay && api.role === "seat" && view.phase ? html`<section class="lf-panel lf-actions" data-testid="feather-controls">
    <p>Study time: look at the buckets, basins and objectives of ${(st.session || {}).name || "this session"}. The session starts when both seats are ready or the time is up.</p>
    <button type="button" data-testid="feather-ready" aria-keyshortcuts="r" onClick=${ready}>Ready <span class="lf-key" aria-hidden="true">r</span></button>
    <${FeatherMsg} msg=${shown}/>
  </section>` : "";

  // A wide screen (the shell gives this board the whole width, see wideBoard below) shows
  // three columns: your queued action and buckets; the basins and the actions; the
  // objectives (then the last boundary, the opponent and the keys), which is also the Tab
  // order. At 1280x800 your buckets,
  // the basins and the objectives are all in the first screen, so nobody scrolls during a
  // 10-second tick (before, your buckets started at y=765). Narrower: one
  // column in play order, controls first.
  return html`<div class="lf" data-testid="feather-board">
    <${Status} st=${st} api=${api}/>
    ${study}
    <div class="lf-grid">
      <div class="lf-col lf-left">
        ${canAct ? html`<div class="lf-o-queued"><${Queued} view=${view} st=${st} api=${api} send=${send} late=${!!(shown && shown.late)}/></div>` : ""}
        <div class="lf-o-mine">${seatPanels[0]}</div>
      </div>
      <div class="lf-col lf-mid">
        <section class="lf-panel lf-o-basins" aria-label="Basins" data-testid="feather-basins">
          <h3>Basins (<${RuleText} text="LF-8"/>)</h3>
          <div class="lf-row">
            ${(st.basins || []).map((b) => html`<${Basin} key=${b.name} b=${b} top=${basinTop} interactive=${canAct} keyHint=${hints["basin:" + b.name]}
              state=${dd.basin === b.name ? "picked" : step.kind === "basin" || step.kind === "into" ? "target" : ""} onTap=${() => tapBasin(b.name)} change=${pred.basins[b.name]} over=${st.stage === "over"}
              whose=${isSeat ? person(view, you) : null}/>`)}
          </div>
        </section>
        <div class="lf-o-actions">${actions}</div>
      </div>
      <div class="lf-col lf-right">
        <div class="lf-o-objectives"><${Objectives} st=${st} you=${addr} nameOf=${nameOf} interactive=${canAct} hints=${hints} target=${step.kind === "objective" || (step.kind === "picks" && dd.picks.length > 0)}
          pressed=${(id) => dd.number === id} onTap=${tapObjective}/></div>
        <div class="lf-o-last"><${Resolution} st=${st} you=${addr} nameOf=${nameOf}/></div>
        <div class="lf-o-theirs">${seatPanels.slice(1)}</div>
        <div class="lf-o-keys">${isSeat && api.role === "seat" && !api.replay && st.stage !== "over" ? html`<${Keys}/>` : ""}</div>
      </div>
    </div>
    <${Puzzle} view=${view} api=${api}/>
  </div>`;
}

/* ------------------------------------------------------------------ header and log */
function phaseTitle(view) {
  const st = view.state || {};
  const sess = st.session || {};
  const name = sess.count > 1 ? sessionLabel(sess).replace(/ \(not scored\)$/, "") + " · " : "";
  if (st.stage === "study") return name + "Study time";
  if (st.stage === "tick") return name + "Tick " + st.tick + " of " + st.ticks;
  return "Over";
}
const capitalise = (s) => String(s).charAt(0).toUpperCase() + String(s).slice(1);

/* A session as the events name it ({index, practice, number, of}), in words. */
function sessionWords(d) {
  if (d.practice) return "the practice session";
  return d.of > 1 ? "session " + d.number + " of " + d.of : "the session";
}
const seatList = (xs, ctx, unit) => xs.map((x, i) => ctx.who(i) + " " + (unit ? plural(x, unit) : fmtNum(x))).join(", ");

/* The match log in words (the contract of words.js): Feather's own events, and the shared
   ones of a tick kept out (the tick's line says what became of each action; the board shows
   the rest), "ready" said as such. */
function describe(e, view, ctx) {
  const d = e.data || {};
  const names = (view && view.match && view.match.names) || [];
  const nameOf = (s) => names[s] || "Seat " + (s + 1);
  const you = ctx ? ctx.you : null;
  ctx = ctx || { you: null, who: nameOf, seatName: nameOf };
  switch (e.kind) {
    // Ticks run every few seconds: their phases stay out of the log (the board tells them).
    case "phase_started": return d.name === "tick" ? null : undefined;
    case "limit_passed": return d.phase === "tick" ? null : undefined;
    case "phase_resolved": return d.name === "tick" ? null : undefined;
    case "tick": {
      if (!d.outcomes || !d.outcomes.length) return null; // nobody acted: the board tells it
      const lines = resolutionWords({ last: d.outcomes, ankh: null }, you, nameOf).map((l) => l.text);
      return "Tick " + d.tick + ": " + lines.join(" ");
    }
    case "session_started": return capitalise(sessionWords(d)) + " begins" + (d.practice ? " (it is not scored, LF-1)." : ".");
    case "session_over":
      return capitalise(sessionWords(d)) + " is over: " + seatList(d.points, ctx, "point") + (d.practice
        ? " (practice counts for nothing, LF-1)." : "; water at the end " + seatList(d.water, ctx) + ".");
    case "accepted":
      if (d.phase === "tick") return null;
      if (d.value === "ready") return ctx.who(d.seat) + (d.seat === you ? " are ready." : " is ready.");
      return undefined;
    // Every reader reads the "accepted" entry (nothing is hidden, G-9): it says the send.
    case "seat_acted": return null;
    default: return undefined;
  }
}

/* A submission's facts in words, for "You sent ..." and the private panel's list. */
function moveWords(value, phase, view, ctx) {
  if (value === "ready") return "ready";
  if (!value || typeof value !== "object") return null;
  const you = ctx ? ctx.you : null;
  const nameOf = ctx ? ctx.seatName : (s) => "Seat " + (s + 1);
  return actWords(value, you, you, nameOf).do;
}

function phaseName(name) {
  if (name === "study") return "Study time";
  if (name === "tick") return "Tick";
  return null;
}

registerGame("feather", { Board, describe, moveWords, phaseName, phaseTitle, wideBoard: true });
