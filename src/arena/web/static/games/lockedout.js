/* Locked Out! as a board: one name per seat everywhere (the name the match was
   created with, api.seatName), the sixteen safes as a grid, the seat's own attempts as a history
   per safe with every light named in words, a notes grid per safe (the sixteen combinations, tap
   to strike one out, kept in this browser for now), an attempt planner (Solo and Dual, cards
   from the hand, bargain claims) that composes the rule text's notation (LO-10):
     Solo, Safe C, Left 3 Right 1
     Dual, Safe C, Left 4 with Alice
     Bargain, Safe C, Claim 1 Gold bars, 0 Keys
     Vote Alice            (the elimination vote and its tie-break, LO-9)
   A plan is sent as an ordinary (not final) submission: it stands unless the player sends
   another before the deadline (G-2), so the board never locks a player in.
   The planner keeps its own state, so the clock ticks and live updates never rebuild a choice
   under the player. */
import { html, useState, useEffect, useRef, RuleText, registerGame, fmtNum, plural, capital, seesAll, person, readerSeat } from "/static/ui.js";

const SAFES = "ABCDEFGHIJKLMNOP".split("");
const VALUES = [1, 2, 3, 4];
const SOURCE = "lockedout";
const FILL = {
  black: "#111111", red: "#e53935", green: "#43a047", blue: "#1e88e5",
  magenta: "#d81b60", yellow: "#fdd835", cyan: "#00acc1", white: "#fafafa",
};

/* ------------------------------------------------------------------ small helpers */
function listWords(items) {
  if (!items.length) return "";
  if (items.length === 1) return items[0];
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}


/* "2 days 3 h 10 min", "5 h 2 min", "12 min", "under a minute (40 s)". */
export function fmtDeadline(sec) {
  if (!(sec > 0)) return "now";
  const s = Math.floor(sec);
  if (s < 60) return "under a minute (" + s + " s)";
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const parts = [];
  if (d) parts.push(d + (d === 1 ? " day" : " days"));
  if (h || d) parts.push(h + " h");
  parts.push(m + " min");
  return parts.join(" ");
}

function now() {
  const S = window.Arena && window.Arena.state;
  return Date.now() / 1000 + ((S && S.offset) || 0);
}

/* The events this view may show (a replay shows the log up to its own version). */
function eventsOf(view, api) {
  const all = api.events || [];
  const upto = view.version;
  return upto == null ? all : all.filter((e) => e.version <= upto);
}

/* What the log says about safes: who opened each (public), the bargains' outcomes, and for this
   seat its failed Duals (LO-3) and successful openings, each with the round it happened in. */
function history(events, seat) {
  let round = 1, final = false;
  const openers = {}, opened = {}, failed = [], bargains = [], lightsByEvent = [];
  let tally = null, vault = null, chosen = null;
  for (const e of events) {
    const d = e.data || {};
    switch (e.kind) {
      case "round_over": round = (d.round || round) + 1; break;
      case "safe_opened":
        openers[d.safe] = { seats: d.seats || [], round };
        if (seat != null && (d.seats || []).includes(seat)) opened[d.safe] = round;
        break;
      case "dual_failed":
        if (seat != null && (d.seat === seat || d.partner === seat)) failed.push({ safe: d.safe, round, data: d });
        break;
      case "bargain_resolved": bargains.push(Object.assign({ when: final ? "settled in the final bargaining" : "settled at the end of round " + round }, d)); break;
      case "vault_done": final = true; vault = d; break;
      case "light":
        if (seat != null && d.seat === seat) lightsByEvent.push({ safe: d.safe, colour: d.colour, left: d.left, right: d.right, partner: d.partner, round: d.round || round });
        break;
      case "ec_chosen": chosen = d; break;
      case "vote_counted": tally = d; break;
      default: break;
    }
  }
  return { openers, opened, failed, bargains, lightsByEvent, tally, vault, chosen };
}

/* A failed Dual told to the reader (LO-3): "you" for the reader, the other partner by name. */
export function dualFailedWords(d, you, nameOf) {
  if (!d || !d.why || d.seat == null || d.partner == null) return null;
  const mine = you === d.seat, theirs = you === d.partner;
  const actor = mine ? "you" : nameOf(d.seat), partner = theirs ? "you" : nameOf(d.partner);
  const head = (mine ? "Your dual try" : nameOf(d.seat) + "'s dual try") + " at Safe " + d.safe + " with " + partner + " did not happen: ";
  let why;
  switch (d.why) {
    case "gone": why = partner + (theirs ? " are" : " is") + " no longer in the vault"; break;
    case "not_named": why = partner + " did not name " + actor + " as partner this round"; break;
    case "other_safe": why = partner + " named Safe " + d.other_safe + ", not Safe " + d.safe; break;
    default: why = "both partners chose the " + (d.side || "same") + " side";
  }
  return { head, why: capital(why), text: head + why + " (LO-3)." };
}

/* A light's guess in words, never in the notation: "solo try of 3 on the left and 1 on the
   right", "dual try of 4 on the left with Bob on the right" (a seat sees only its own number). */
function guessWords(x, nameOf) {
  if (x.partner == null) return "solo try of " + x.left + " on the left and " + x.right + " on the right";
  const partner = nameOf(x.partner);
  return x.left != null ? "dual try of " + x.left + " on the left with " + partner + " on the right"
    : "dual try of " + x.right + " on the right with " + partner + " on the left";
}

function Mark({ colour }) {
  const fill = FILL[colour] || "#999";
  return html`<span class="lo-mark-wrap"><span class="lo-mark" style=${"background:" + fill} aria-hidden="true"></span>${colour}</span>`;
}

/* What a light's colour says, in the page's own words: three tests of a
   wrong guess, each with its own primary colour (secret, the same on every safe), mixed. */
const MIXES = [["black", "no test"], ["red", "one test"], ["green", "one test"], ["blue", "one test"],
  ["yellow", "red + green"], ["magenta", "red + blue"], ["cyan", "green + blue"], ["white", "all three"]];
function LightLegend() {
  return html`<div class="lo-legend" data-testid="lo-legend">
    <p class="small"><b>Lights:</b> a wrong guess flashes a light that mixes the colours of the tests it passed
      (<${RuleText} text="LO-4"/>); a right guess opens the safe.</p>
    <ul class="lo-legend-list">${MIXES.map(([c, w]) => html`<li><${Mark} colour=${c}/> <span class="small">${w}</span></li>`)}</ul>
    <details><summary class="small">The three tests</summary>
      <p class="small"><b>1</b> the guess's two numbers are as far apart as the combination's two; <b>2</b> the guess's right
        number is one away from the combination's right number; <b>3</b> the guess's left number is one of the combination's
        two numbers. Each test has its own colour,
        red, green or blue: the same on every safe but secret, so finding out which is which is part of the game. Only the
        players in an attempt see its light.</p></details>
  </div>`;
}

/* ------------------------------------------------------------------ notes
   A seat's notes live on the server (they follow the player to another device); this browser
   keeps a copy so a page without a connection still shows them. */
function notesKey(view, api) {
  const id = (view.match && view.match.id) || "match";
  const who = api.seat != null ? "seat" + api.seat : (api.role || "viewer");
  return "arena.lockedout.notes:" + id + ":" + who;
}

function loadNotes(key) {
  try { return JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { return {}; }
}

function useNotes(key, api) {
  const [notes, setNotes] = useState(() => loadNotes(key));
  const [saved, setSaved] = useState("");
  const server = api.seat != null && !api.replay && typeof api.loadNotes === "function";
  useEffect(() => {
    if (!server) return;
    api.loadNotes().then((r) => {
      if (r.ok && r.notes && typeof r.notes === "object") {
        setNotes(r.notes);
        try { localStorage.setItem(key, JSON.stringify(r.notes)); } catch (e) { /* private mode */ }
      }
    });
  }, [key]);
  const store = (next) => {
    setNotes(next);
    try { localStorage.setItem(key, JSON.stringify(next)); } catch (e) { /* private mode */ }
    if (server) {
      setSaved("saving…");
      api.saveNotes(next).then((r) => setSaved(r.ok ? "saved" : "not saved: " + r.error));
    }
  };
  const toggle = (safe, combo) => {
    const cur = new Set(notes[safe] || []);
    if (cur.has(combo)) cur.delete(combo); else cur.add(combo);
    store(Object.assign({}, notes, { [safe]: Array.from(cur).sort() }));
  };
  const clear = (safe) => {
    const next = Object.assign({}, notes);
    delete next[safe];
    store(next);
  };
  return { notes, toggle, clear, saved };
}

/* ------------------------------------------------------------------ the plan */
function emptyPlan() {
  return {
    solo: { on: false, safe: "", left: 0, right: 0 },
    dual: { on: false, safe: "", side: "left", value: 0, partner: null },
    claims: {},
  };
}

/* The plan a standing submission describes, so a reload shows what was sent. */
function planFromValue(value) {
  const p = emptyPlan();
  for (const c of value || []) {
    if (c.kind === "solo") p.solo = { on: true, safe: c.safe, left: c.left, right: c.right };
    else if (c.kind === "dual") p.dual = { on: true, safe: c.safe, side: c.side, value: c.value, partner: c.partner };
    else if (c.kind === "claim") p.claims[c.safe] = { bars: c.bars, keys: c.keys };
  }
  return p;
}

function claimOf(plan, safe) { return plan.claims[safe] || { bars: 0, keys: 0 }; }

function planLines(plan, st, api, bargains) {
  const lines = [];
  for (const safe of bargains) {
    const c = claimOf(plan, safe);
    lines.push("Bargain, Safe " + safe + ", Claim " + c.bars + " Gold bars, " + c.keys + " Keys");
  }
  if (st.stage === "round") {
    const s = plan.solo, d = plan.dual;
    if (s.on && s.safe && s.left && s.right) lines.push("Solo, Safe " + s.safe + ", Left " + s.left + " Right " + s.right);
    if (d.on && d.safe && d.value && d.partner != null) {
      lines.push("Dual, Safe " + d.safe + ", " + (d.side === "right" ? "Right" : "Left") + " " + d.value + " with " + api.seatName(d.partner));
    }
  }
  return lines;
}

/* Which parts of the plan are not complete yet, in words. */
function planGaps(plan, st) {
  const gaps = [];
  if (st.stage !== "round") return gaps;
  const s = plan.solo, d = plan.dual;
  if (s.on && (!s.safe || !s.left || !s.right)) gaps.push("the Solo needs a safe and a card on each side");
  if (d.on && (!d.safe || !d.value || d.partner == null)) gaps.push("the Dual needs a safe, a card and a partner");
  return gaps;
}

/* Cards of each value still free for one slot of the plan (LO-2: one physical card per safe). */
function freeCards(hand, plan, slot) {
  const used = [0, 0, 0, 0, 0];
  if (plan.solo.on) {
    if (slot !== "solo-left" && plan.solo.left) used[plan.solo.left] += 1;
    if (slot !== "solo-right" && plan.solo.right) used[plan.solo.right] += 1;
  }
  if (plan.dual.on && slot !== "dual" && plan.dual.value) used[plan.dual.value] += 1;
  return VALUES.map((v) => Math.max(0, (hand[String(v)] || 0) - used[v]));
}

function CardPicker({ label, testid, hand, plan, slot, value, onPick }) {
  const free = freeCards(hand, plan, slot);
  return html`<div class="lo-pick" role="group" aria-label=${label}>
    <span class="lo-pick-label">${label}</span>
    ${VALUES.map((v) => {
      const n = free[v - 1];
      const chosen = value === v;
      return html`<button type="button" class=${"lo-card" + (chosen ? " chosen" : "")} data-testid=${testid + "-" + v}
        aria-pressed=${chosen ? "true" : "false"} disabled=${!chosen && n < 1} onClick=${() => onPick(v)}
        title=${n + " card" + (n === 1 ? "" : "s") + " of " + v + " free"}>
        <span class="lo-card-v">${v}</span><span class="lo-card-n">${n} free</span>
      </button>`;
    })}
  </div>`;
}

function Seg({ label, testid, options, value, onPick }) {
  return html`<div class="lo-pick" role="group" aria-label=${label}>
    <span class="lo-pick-label">${label}</span>
    ${options.map(([v, text]) => html`<button type="button" class=${"lo-seg" + (value === v ? " chosen" : "")}
      data-testid=${testid + "-" + v} aria-pressed=${value === v ? "true" : "false"} onClick=${() => onPick(v)}>${text}</button>`)}
  </div>`;
}

function SafeSelect({ label, testid, safes, value, onChange, avoid }) {
  return html`<label class="field lo-field"><span class="field-label">${label}</span>
    <select data-testid=${testid} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      <option value="">choose a safe</option>
      ${safes.map((s) => html`<option value=${s} disabled=${s === avoid}>Safe ${s}${s === avoid ? " (has your other attempt)" : ""}</option>`)}
    </select></label>`;
}

function Planner({ view, api, st, plan, setPlan, bargains }) {
  const Msg = window.Arena.Msg;
  const you = st.you;
  const hand = you.hand || {};
  const closed = st.safes.filter((s) => s.status === "closed").map((s) => s.safe);
  const partners = st.seats.filter((s) => s.inside && s.seat !== api.seat).map((s) => s.seat);
  const set = (part, patch) => setPlan(Object.assign({}, plan, { [part]: Object.assign({}, plan[part], patch) }));
  const setClaim = (safe, patch) => setPlan(Object.assign({}, plan, { claims: Object.assign({}, plan.claims, { [safe]: Object.assign({}, claimOf(plan, safe), patch) }) }));
  const lines = planLines(plan, st, api, bargains);
  const text = lines.join("\n") || "pass";
  const gaps = planGaps(plan, st);
  const me = (view.seats || [])[api.seat] || {};
  const subs = me.submissions || [];
  const last = subs.length ? subs[subs.length - 1].text : null;
  const same = last != null && last.trim() === text.trim();
  const send = (t) => api.submit(t, false, SOURCE);
  const round = st.stage === "round";
  const held = VALUES.flatMap((v) => Array(hand[String(v)] || 0).fill(v));
  const handWords = held.length ? held.join(", ") : "none";
  return html`<section class="lo-card-box lo-planner" data-testid="lo-planner" aria-labelledby="lo-plan-h">
    <h3 id="lo-plan-h">${round ? "Your plan for round " + st.round : "Your claims"}</h3>
    <p class="lo-hand" data-testid="lo-hand">Your cards: <b>${handWords}</b> (${plural(held.length, "card")}). A card is used up only when it opens a safe; one card cannot go on two safes in a round (<${RuleText} text="LO-2"/>).</p>
    ${bargains.map((safe) => {
      const c = claimOf(plan, safe);
      const b = st.safes.find((x) => x.safe === safe) || { bargainers: [] };
      const others = b.bargainers.filter((x) => x !== api.seat).map((x) => api.seatName(x));
      return html`<fieldset class="lo-part" data-testid=${"lo-claim-" + safe}>
        <legend>Claim from Safe ${safe}</legend>
        <p class="small">You bargain with ${listWords(others) || "nobody else"} over 2 gold bars and 1 key.</p>
        <${Seg} label="Gold bars" testid=${"lo-claim-bars-" + safe} options=${[[0, "0"], [1, "1"], [2, "2"]]} value=${c.bars} onPick=${(v) => setClaim(safe, { bars: v })}/>
        <${Seg} label="Keys" testid=${"lo-claim-keys-" + safe} options=${[[0, "0"], [1, "1"]]} value=${c.keys} onPick=${(v) => setClaim(safe, { keys: v })}/>
      </fieldset>`;
    })}
    ${round ? html`
      <fieldset class="lo-part" data-testid="lo-solo">
        <legend><label class="check"><input type="checkbox" data-testid="lo-solo-on" checked=${plan.solo.on}
          onChange=${(e) => set("solo", { on: e.currentTarget.checked })}/> Solo attempt (both sides, your cards)</label></legend>
        ${plan.solo.on ? html`
          <${SafeSelect} label="Safe" testid="lo-solo-safe" safes=${closed} value=${plan.solo.safe} avoid=${plan.dual.on ? plan.dual.safe : ""}
            onChange=${(v) => set("solo", { safe: v })}/>
          <${CardPicker} label="Left card" testid="lo-solo-left" hand=${hand} plan=${plan} slot="solo-left" value=${plan.solo.left} onPick=${(v) => set("solo", { left: v })}/>
          <${CardPicker} label="Right card" testid="lo-solo-right" hand=${hand} plan=${plan} slot="solo-right" value=${plan.solo.right} onPick=${(v) => set("solo", { right: v })}/>` : ""}
      </fieldset>
      <fieldset class="lo-part" data-testid="lo-dual">
        <legend><label class="check"><input type="checkbox" data-testid="lo-dual-on" checked=${plan.dual.on} disabled=${!partners.length}
          onChange=${(e) => set("dual", { on: e.currentTarget.checked })}/> Dual attempt (one side, with a partner)</label></legend>
        ${plan.dual.on ? html`
          <${SafeSelect} label="Safe" testid="lo-dual-safe" safes=${closed} value=${plan.dual.safe} avoid=${plan.solo.on ? plan.solo.safe : ""}
            onChange=${(v) => set("dual", { safe: v })}/>
          <${Seg} label="Your side" testid="lo-dual-side" options=${[["left", "Left"], ["right", "Right"]]} value=${plan.dual.side} onPick=${(v) => set("dual", { side: v })}/>
          <${CardPicker} label="Your card" testid="lo-dual-card" hand=${hand} plan=${plan} slot="dual" value=${plan.dual.value} onPick=${(v) => set("dual", { value: v })}/>
          <label class="field lo-field"><span class="field-label">Partner</span>
            <select data-testid="lo-dual-partner" value=${plan.dual.partner == null ? "" : String(plan.dual.partner)}
              onChange=${(e) => set("dual", { partner: e.currentTarget.value === "" ? null : Number(e.currentTarget.value) })}>
              <option value="">choose a partner</option>
              ${partners.map((p) => html`<option value=${String(p)}>${api.seatName(p)}</option>`)}
            </select></label>
          <p class="small muted">It happens only if ${plan.dual.partner != null ? api.seatName(plan.dual.partner) : "your partner"} names you back for the same safe and takes the ${plan.dual.side === "left" ? "right" : "left"} side; otherwise neither of you tries it and both are told (<${RuleText} text="LO-3"/>).</p>` : ""}
      </fieldset>` : ""}
    <div class="lo-send">
      <p class="small">In short: <b data-testid="lo-preview">${lines.length ? lines.join(" · ") : round ? "no attempt" : "no claim"}</b></p>
      ${gaps.length ? html`<p class="small lo-gap" data-testid="lo-gaps">Not complete: ${gaps.join("; ")}.</p>` : ""}
      <div class="control-row">
        <button type="button" data-testid="lo-submit" disabled=${gaps.length > 0} onClick=${() => send(text)}>${last == null ? "Submit plan" : same ? "Submit again" : "Submit changed plan"}</button>
        <button type="button" class="secondary" data-testid="lo-pass" onClick=${() => { setPlan(emptyPlan()); send("pass"); }}>${round ? "Attempt nothing" : "Claim nothing"}</button>
      </div>
      <p class=${"lo-submitted" + (same ? " ok" : "")} data-testid="lo-submitted" role="status">${
        last == null ? "Nothing submitted yet: without a plan you attempt nothing and claim nothing this round."
        : same ? "✓ Submitted. You can still change it until the deadline; the last plan you submit stands."
        : "You have changed the plan since you submitted it; submit again to replace it. Until then your submitted plan stands: " + last.split("\n").join(" · ")}</p>
      <${Msg} source=${SOURCE} testid="lo-msg" okTestid="lo-msg-ok"/>
    </div>
  </section>`;
}

/* ------------------------------------------------------------------ vote (LO-9) */
function VotePanel({ view, api, st }) {
  const Msg = window.Arena.Msg;
  const [pick, setPick] = useState(null);
  const me = st.seats[api.seat];
  const tie = st.stage === "tie";
  const candidates = tie ? st.tied.map((n) => st.names.indexOf(n)).filter((i) => i >= 0)
    : st.seats.filter((s) => s.inside).map((s) => s.seat);
  const mayVote = tie ? !me.inside : me.inside;
  const tiedWords = listWords(st.tied.map((n) => { const i = st.names.indexOf(n); return i >= 0 ? api.seatName(i) : n; }));
  const subs = ((view.seats || [])[api.seat] || {}).submissions || [];
  const lastValue = subs.length ? subs[subs.length - 1].value : null;
  const lastPick = Array.isArray(lastValue) ? lastValue.find((c) => c.kind === "vote") : null;
  const last = lastPick ? (tie ? "You chose " : "You voted for ") + api.seatName(lastPick.seat) : null;
  let intro;
  if (tie) {
    intro = html`<p data-testid="lo-tie">The vote tied between <b>${tiedWords}</b>. The players who escaped now choose among them by majority; without a majority the fewest keys, then bars, then cards, then season garnets decide, and then a draw (<${RuleText} text="LO-9"/>).</p>`;
  } else {
    intro = html`<p>The rounds are over. The players still inside vote for the Elimination Candidate among themselves; a tie goes to the players who escaped (<${RuleText} text="LO-9"/>).</p>`;
  }
  if (!mayVote) {
    return html`<section class="lo-card-box" data-testid="lo-vote">${intro}
      <p class="muted">${tie ? "Only the players who escaped choose now; wait for their choice." : "You escaped, so you do not vote now; if the vote ties, you will choose among the tied players."}</p></section>`;
  }
  return html`<section class="lo-card-box" data-testid="lo-vote" aria-labelledby="lo-vote-h">
    <h3 id="lo-vote-h">${tie ? "Break the tie: your choice" : "Vote for the Elimination Candidate"}</h3>
    ${intro}
    <div class="lo-pick" role="group" aria-label="Candidates" data-focus-first>
      ${candidates.map((s) => html`<button type="button" class=${"lo-seg" + (pick === s ? " chosen" : "")} data-testid=${"lo-vote-" + s}
        aria-pressed=${pick === s ? "true" : "false"} onClick=${() => setPick(s)}>${api.seatName(s)}${person(view, s).self ? " (you)" : ""}</button>`)}
    </div>
    <div class="control-row">
      <button type="button" data-testid="lo-vote-submit" disabled=${pick == null} onClick=${() => api.submit("Vote " + api.seatName(pick), false, SOURCE)}>
        ${pick == null ? "Choose a player first" : (tie ? "Choose " : "Vote for ") + api.seatName(pick)}</button>
    </div>
    <p class=${"lo-submitted" + (last ? " ok" : "")} data-testid="lo-submitted" role="status">${last ? "✓ " + last + ". You can change it until the deadline." : "Not voted yet."}</p>
    <${Msg} source=${SOURCE} testid="lo-msg" okTestid="lo-msg-ok"/>
  </section>`;
}

/* ------------------------------------------------------------------ the vault */
function SafeGrid({ view, st, api, hist, lightsOf, selected, onSelect, combos }) {
  const saw = api.seat != null ? person(view, api.seat).you + " saw" : "seen";
  return html`<div class="lo-grid" data-testid="lo-safes" role="group" aria-label="The sixteen safes">
    ${st.safes.map((s) => {
      const op = hist.openers[s.safe];
      const who = s.bargainers.length ? s.bargainers : op ? op.seats : [];
      const mine = lightsOf(s.safe).length;
      const status = s.status === "closed" ? "closed" : s.status === "bargaining" ? "open, in bargain" : "emptied";
      const combo = s.combination ? s.combination : combos ? combos[s.safe] : null;
      const comboWords = combo ? combo[0] + "–" + combo[1] : "";
      const label = "Safe " + s.safe + ", " + status + (who.length ? ", opened by " + listWords(who.map(api.seatName)) : "") +
        (combo ? ", combination Left " + combo[0] + " Right " + combo[1] : "") + (mine ? ", " + plural(mine, "light") + " " + saw : "");
      return html`<button type="button" class=${"lo-safe " + s.status + (selected === s.safe ? " selected" : "")} data-testid=${"lo-safe-" + s.safe}
        aria-pressed=${selected === s.safe ? "true" : "false"} aria-label=${label} onClick=${() => onSelect(s.safe)}>
        <span class="lo-safe-top"><span class="lo-safe-letter">${s.safe}</span>${comboWords ? html`<span class="lo-safe-combo">${comboWords}</span>` : ""}</span>
        <span class="lo-safe-status">${s.status === "closed" ? "closed" : s.status === "bargaining" ? "bargain" : "emptied"}</span>
        ${who.length ? html`<span class="lo-safe-who">${who.map(api.seatName).join(", ")}</span>` : ""}
        ${mine ? html`<span class="lo-safe-tries">${plural(mine, "light")}</span>` : ""}
      </button>`;
    })}
  </div>`;
}

function NotesGrid({ safe, notes, toggle, clear, announced, possible, saved }) {
  const struck = new Set(notes[safe] || []);
  return html`<div class="lo-notes" data-testid="lo-notes">
    <h4>Notes for Safe ${safe} <span class="muted small">(tap a combination to strike it out; kept with your seat, on any device)</span>
      ${saved ? html` <span class="small muted" data-testid="lo-notes-saved" role="status">${saved}</span>` : ""}</h4>
    <div class="lo-notes-grid" role="group" aria-label=${"Notes for Safe " + safe}>
      <span class="lo-nh" aria-hidden="true"></span>
      ${VALUES.map((r) => html`<span class="lo-nh" aria-hidden="true">R${r}</span>`)}
      ${VALUES.map((l) => html`
        <span class="lo-nh" aria-hidden="true">L${l}</span>
        ${VALUES.map((r) => {
          const k = l + "-" + r;
          const off = struck.has(k);
          const isIt = announced && announced[0] === l && announced[1] === r;
          const helperOut = possible && !possible.has(k);
          return html`<button type="button" class=${"lo-note" + (off ? " struck" : "") + (isIt ? " answer" : "") + (helperOut ? " helper-out" : "")}
            data-testid=${"lo-note-" + safe + "-" + k} aria-pressed=${off ? "true" : "false"}
            aria-label=${"Left " + l + " Right " + r + (off ? ", struck out" : "") + (isIt ? ", the combination" : "") + (helperOut ? ", ruled out by the helper" : "")}
            onClick=${() => toggle(safe, k)}>${off ? "✕ " : ""}${l}–${r}</button>`;
        })}`)}
    </div>
    <p class="small muted">${fmtNum(16 - struck.size)} of 16 not struck out.${possible ? " Dotted: the helper rules it out." : ""}
      ${struck.size ? html` <button type="button" class="secondary small" data-testid="lo-notes-clear" onClick=${() => clear(safe)}>Clear notes for Safe ${safe}</button>` : ""}</p>
  </div>`;
}

const focusDetail = { current: false };

function SafeDetail({ view, api, st, safe, hist, lightsOf, notesApi, plan, setPlan, helper, combos, onClose }) {
  const s = st.safes.find((x) => x.safe === safe);
  if (!s) return null;
  // The seat whose attempts these are, as this reader says it (a broadcast names it, G-15).
  const p = api.seat != null ? person(view, api.seat) : null;
  const mine = lightsOf(safe);
  const failed = hist.failed.filter((f) => f.safe === safe);
  const openedRound = hist.opened[safe];
  const op = hist.openers[safe];
  const entries = [];
  for (const x of mine) {
    entries.push({ round: x.round, node: html`${capital(guessWords(x, api.seatName))}: <${Mark} colour=${x.colour}/>` });
  }
  for (const f of failed) {
    const w = dualFailedWords(f.data, readerSeat(view), api.seatName);
    if (w) entries.push({ round: f.round, node: html`A dual try did not happen: ${w.why}` });
  }
  if (openedRound) entries.push({ round: openedRound, node: html`<b>${p ? p.you : "the seat"} opened it</b>` });
  entries.sort((a, b) => a.round - b.round);
  const round = st.stage === "round";
  const inside = api.seat != null && st.you && st.seats[api.seat].inside;
  const combo = s.combination || (combos ? combos[safe] : null);
  const possible = helper && helper.safes && helper.safes[safe] ? new Set(helper.safes[safe].possible.map((c) => c[0] + "-" + c[1])) : null;
  const use = (part) => {
    setPlan(Object.assign({}, plan, { [part]: Object.assign({}, plan[part], { on: true, safe }) }));
    // Take the player (and the keyboard focus) to the part of the plan that now names the safe.
    setTimeout(() => {
      const box = document.querySelector('[data-testid="lo-' + part + '"]');
      if (!box) return;
      box.scrollIntoView({ block: "start", behavior: "smooth" });
      const first = box.querySelector("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }, 0);
  };
  // Choosing a safe takes the focus to its detail, so its actions are the next Tab stops
  // ("Solo on Safe A" one Tab press from the safe, not sixteen).
  const box = useRef(null);
  useEffect(() => { if (box.current && focusDetail.current) { focusDetail.current = false; box.current.focus({ preventScroll: true }); box.current.scrollIntoView({ block: "nearest" }); } }, [safe]);
  return html`<section class="lo-card-box lo-detail" data-testid="lo-safe-detail" aria-labelledby="lo-detail-h" tabindex="-1" ref=${box}>
    <div class="lo-detail-head"><h3 id="lo-detail-h">Safe ${safe}</h3></div>
    <p data-testid="lo-safe-state">${s.status === "closed" ? "Closed: nobody has opened it yet." :
      s.status === "bargaining" ? "Opened by " + listWords(s.bargainers.map(api.seatName)) + "; they bargain over its 2 gold bars and key until the next deadline." :
      "Emptied" + (op ? " (opened by " + listWords(op.seats.map(api.seatName)) + " in round " + op.round + ")" : "") + "."}
      ${combo ? " Combination: Left " + combo[0] + " Right " + combo[1] + (s.combination ? " (announced)." : view.result ? " (shown after the match)." : api.role === "host" ? " (you see it as host)." : " (as the host sees it).") : ""}</p>
    ${round && inside && !api.replay && s.status === "closed" ? html`<div class="control-row">
      <button type="button" class="secondary" data-testid="lo-solo-here" onClick=${() => use("solo")}>Solo on Safe ${safe}</button>
      <button type="button" class="secondary" data-testid="lo-dual-here" onClick=${() => use("dual")}>Dual on Safe ${safe}</button>
    </div>` : ""}
    ${p ? html`<h4>${p.Your} attempts on Safe ${safe}</h4>
      ${entries.length ? html`<ol class="lo-history" data-testid="lo-history">${entries.map((e) => html`<li>Round ${e.round}: ${e.node}</li>`)}</ol>`
        : html`<p class="muted small" data-testid="lo-history">${p.self ? "No attempts of yours here yet." : p.name + " has made no attempts here yet."} Only the players in an attempt see its light (<${RuleText} text="LO-4"/>).</p>`}` : ""}
    ${api.seat == null && st.lights ? html`<h4>Lights seen on Safe ${safe}</h4>
      <ul class="lo-list" data-testid="lo-host-lights">${hostLights(st, safe, api.seatName).map((t) => html`<li>${t}</li>`)}</ul>` : ""}
    ${possible ? html`<p class="small" data-testid="lo-helper-safe">Helper (<${RuleText} text="LO-12"/>): ${plural(possible.size, "combination")} still possible${possible.size <= 8 ? ": " + Array.from(possible).join(", ") : ""}.</p>` : ""}
    ${p && p.self ? html`<${NotesGrid} safe=${safe} notes=${notesApi.notes} saved=${notesApi.saved} toggle=${notesApi.toggle} clear=${notesApi.clear} announced=${combo} possible=${possible}/>` : ""}
    <p class="control-row"><button type="button" class="secondary small" data-testid="lo-detail-close" onClick=${onClose}>Close Safe ${safe}</button></p>
  </section>`;
}

/* The host's view (and everyone's after the match) lists each seat's lights on a safe. */
function hostLights(st, safe, nameOf) {
  const out = [];
  (st.lights || []).forEach((lights, seat) => {
    for (const x of lights || []) {
      if (x.safe === safe) out.push("Round " + x.round + ": " + nameOf(seat) + "'s " + guessWords(x, nameOf) + " flashed " + x.colour + ".");
    }
  });
  return out.length ? out : ["None yet."];
}

function Bargains({ view, st, api, hist }) {
  const open = st.safes.filter((s) => s.status === "bargaining");
  const done = hist.bargains.slice(-6).reverse();
  return html`<section class="lo-card-box" data-testid="lo-bargains" aria-labelledby="lo-barg-h">
    <h3 id="lo-barg-h">Bargains</h3>
    <p class="small">When more than one player opens a safe, they share its 2 gold bars and 1 key: each claims 0–2 bars and 0–1 key until the next deadline. If the claims add up to exactly 2 bars and 1 key, each gets what they claimed; otherwise nobody gets anything. A player who claims nothing gets nothing (<${RuleText} text="LO-5"/>).</p>
    ${open.length ? html`<ul class="lo-list">${open.map((s) => html`<li data-testid=${"lo-bargain-" + s.safe}>Safe ${s.safe}: ${listWords(s.bargainers.map((x) => person(view, x).you))} until the next deadline.</li>`)}</ul>`
      : html`<p class="muted small">No bargain is open.</p>`}
    ${done.length ? html`<h4>Settled</h4><ul class="lo-list" data-testid="lo-bargains-done">${done.map((b) => {
      const claims = (b.claims || []).map((c) => person(view, c.seat).you + " claimed " + plural(c.bars, "bar") + " and " + plural(c.keys, "key"));
      return html`<li>Safe ${b.safe}, ${b.when}: ${b.agreed ? "agreed" : "failed, nobody got anything"}${claims.length ? " — " + claims.join("; ") : " — no claims"}.</li>`;
    })}</ul>` : ""}
  </section>`;
}

function Seats({ view, st, api }) {
  return html`<section class="lo-card-box" aria-labelledby="lo-seats-h">
    <h3 id="lo-seats-h">Players</h3>
    <ul class="lo-seats" data-testid="lo-seats">${st.seats.map((s) => html`<li data-testid=${"lo-seat-" + s.seat} class=${s.seat === api.seat ? "mine" : ""}>
      <span class="lo-seat-name">${api.seatName(s.seat)}${person(view, s.seat).self ? " (you)" : ""}</span>
      <span class="lo-seat-where">${s.inside ? "inside" : "escaped in round " + s.escaped_round}</span>
      <span class="lo-seat-nums">${plural(s.keys, "key")} · ${plural(s.bars, "gold bar")} · ${plural(s.cards, "card")} · ${plural(s.safes_opened, "safe")} opened</span>
    </li>`)}</ul>
    <p class="small muted">Three keys and a player escapes at once (<${RuleText} text="LO-7"/>); the escaped player with the most gold bars wins (<${RuleText} text="LO-8"/>).</p>
  </section>`;
}

function News({ st }) {
  const news = (st.news || []).slice(-10).reverse();
  return html`<section class="lo-card-box" aria-labelledby="lo-news-h">
    <h3 id="lo-news-h">Announcements</h3>
    <ul class="lo-list" data-testid="lo-news">${news.length ? news.map((n) => html`<li><${RuleText} text=${n}/></li>`) : html`<li class="muted">Nothing yet.</li>`}</ul>
  </section>`;
}

function End({ view, st, api, hist }) {
  if (!st.end_reason && st.stage !== "over") return null;
  const winners = (st.winners || []).map(api.seatName);
  const ec = st.ec == null ? null : api.seatName(st.ec);
  const tally = hist.tally ? tallyWords(hist.tally, api.seatName) : "";
  return html`<section class="lo-card-box lo-end" data-testid="lo-end">
    <h3>The vault is done</h3>
    <p><${RuleText} text=${"Why: " + (hist.vault ? endWords(hist.vault) : st.end_reason || "the match ended")}/>.</p>
    ${st.stage === "vote" || st.stage === "tie" || st.stage === "over" ? html`<p>${winners.length ? "Most gold bars among the escaped: " + listWords(winners) + "." : "Nobody escaped, so nobody wins."}</p>` : ""}
    ${view.result ? html`<p class="small" data-testid="lo-score-words">In the results, a player who escaped scores their gold bars; a player still inside scores −1, which means they lost (<${RuleText} text="LO-8"/>).</p>` : ""}
    ${tally ? html`<p data-testid="lo-tally">Votes: ${tally}.</p>` : ""}
    ${ec ? html`<p>Elimination Candidate: <b>${ec}</b>${hist.chosen ? html` — <${RuleText} text=${howWords(hist.chosen)}/>` : st.ec_how ? html` — <${RuleText} text=${st.ec_how}/>` : ""}.</p>` :
      st.stage === "over" ? html`<p>No Elimination Candidate: fewer than two players were left inside.</p>` : ""}
  </section>`;
}

function Status({ view, api, st }) {
  const p = view.phase;
  const left = p && p.next_deadline != null ? p.next_deadline - now() : null;
  const stage = { round: "Round " + st.round, bargain: "Final bargaining", vote: "Elimination vote", tie: "Tie-break by the winners", over: "Match over" }[st.stage] || "";
  const seat = api.seat != null ? st.seats[api.seat] : null;
  const self = seat && person(view, api.seat).self;
  return html`<div class="lo-status" data-testid="lo-status">
    <p><b>${stage}</b>${left != null && !view.result ? html` · <span data-testid="lo-deadline">deadline in ${fmtDeadline(left)}</span>` : ""}${view.paused ? " (paused)" : ""}</p>
    ${self ? html`<p class="small">You are <b>${api.seatName(api.seat)}</b>: ${seat.inside ? "inside the vault" : "escaped in round " + seat.escaped_round}, ${plural(seat.keys, "key")}, ${plural(seat.bars, "gold bar")}.</p>` : ""}
    ${seat && !self ? html`<p class="small"><b>${api.seatName(api.seat)}</b> ${seat.inside ? "is inside the vault" : "escaped in round " + seat.escaped_round}, with ${plural(seat.keys, "key")} and ${plural(seat.bars, "gold bar")}.</p>` : ""}
  </div>`;
}

function Helper({ view, st, api }) {
  if (api.seat == null || !st.you) return null;
  const p = person(view, api.seat);
  const ded = st.you.deduction;
  if (!ded) return html`<p class="small muted" data-testid="lo-helper-off">The deduction helper is off in this match; the host can allow it (<${RuleText} text="LO-12"/>).${p.self ? " Your notes are yours to keep." : ""}</p>`;
  const sugg = ded.suggestions || [];
  return html`<section class="lo-card-box" data-testid="lo-helper" aria-labelledby="lo-helper-h">
    <h3 id="lo-helper-h">Deduction helper</h3>
    <p class="small">The host allowed the helper in this match (<${RuleText} text="LO-12"/>). Colour codes still possible (colours of the three conditions): ${(ded.mappings || []).join(", ")}.</p>
    ${sugg.length ? html`<p class="small" data-testid="lo-suggest">Likeliest Solo guesses ${p.you} can play: ${sugg.map((g) => "Safe " + g.safe + " Left " + g.guess[0] + " Right " + g.guess[1] + " (" + Math.round(g.p_open * 100) + "%)").join("; ")}.</p>` : ""}
  </section>`;
}

/* ------------------------------------------------------------------ the board */
function Board({ view, api }) {
  const st = view.state || {};
  const [selected, setSelected] = useState(null);
  const [planState, setPlanState] = useState({ phase: null, plan: emptyPlan() });
  const notesApi = useNotes(notesKey(view, api), api);
  if (!st.seats || !st.safes) return html`<p class="muted">Loading the vault…</p>`;
  const phaseNo = view.phase ? view.phase.no : null;
  const meView = (view.seats || [])[api.seat] || {};
  const subs = meView.submissions || [];
  // A new phase starts from the standing submission (a reload shows what was sent) or empty;
  // a plan whose round closed before it reached the match (G-2: refused as late, or still
  // waiting for the connection) is kept for this round instead of being lost.
  const kept = planState.phase !== phaseNo && api.keepDraft && api.keepDraft(planState.phase);
  const plan = planState.phase === phaseNo || kept ? planState.plan
    : subs.length ? planFromValue(subs[subs.length - 1].value) : emptyPlan();
  const setPlan = (p) => setPlanState({ phase: phaseNo, plan: p });
  const events = eventsOf(view, api);
  const hist = history(events, api.seat);
  const lights = st.you ? st.you.lights || [] : hist.lightsByEvent;
  const lightsOf = (safe) => lights.filter((x) => x.safe === safe);
  const combos = st.combinations || null; // the host's view, and everyone's after the match (G-9)
  const you = st.you;
  const live = view.phase && !view.result && !api.replay && api.seat != null && you;
  const me = api.seat != null ? st.seats[api.seat] : null;
  const bargains = you ? you.bargains || [] : [];
  const helper = you && you.deduction ? you.deduction : null;
  let action = null;
  if (live && (st.stage === "vote" || st.stage === "tie")) {
    action = html`<${VotePanel} key=${"vote" + phaseNo} view=${view} api=${api} st=${st}/>`;
  } else if (live && me && me.inside && (st.stage === "round" || (st.stage === "bargain" && bargains.length))) {
    action = html`<${Planner} view=${view} api=${api} st=${st} plan=${plan} setPlan=${setPlan} bargains=${bargains}/>`;
  } else if (live && me && !me.inside && st.stage === "round") {
    action = html`<p class="lo-card-box" data-testid="lo-escaped">You escaped in round ${me.escaped_round} with ${plural(me.bars, "gold bar")} and take no further part in opening safes (<${RuleText} text="LO-7"/>).</p>`;
  } else if (live && st.stage === "bargain") {
    action = html`<p class="lo-card-box muted">The last bargains are being settled; you are not in any of them.</p>`;
  }
  return html`<div class="lo" data-testid="lo-board">
    <${Status} view=${view} api=${api} st=${st}/>
    <${End} view=${view} st=${st} api=${api} hist=${hist}/>
    <div class=${"lo-cols" + (action ? " two" : "")}>
    <section class="lo-card-box lo-vault" aria-labelledby="lo-vault-h">
      <h3 id="lo-vault-h">The vault</h3>
      <p class="small muted">Tap a safe for its history${api.seat == null ? "" : person(view, api.seat).self ? ", your notes and its attempts" : " and " + person(view, api.seat).your + " attempts on it"}.</p>
      <${SafeGrid} view=${view} st=${st} api=${api} hist=${hist} lightsOf=${lightsOf} selected=${selected} combos=${combos}
        onSelect=${(s) => { focusDetail.current = true; setSelected(s); }}/>
      <${LightLegend}/>
    </section>
    ${selected ? html`<${SafeDetail} view=${view} api=${api} st=${st} safe=${selected} hist=${hist} lightsOf=${lightsOf}
      notesApi=${notesApi} plan=${plan} setPlan=${setPlan} helper=${helper} combos=${combos} onClose=${() => setSelected(null)}/>` : ""}
      ${action ? html`<div class="lo-action">${action}</div>` : ""}
    </div>
    <${Helper} view=${view} st=${st} api=${api}/>
    <${Bargains} view=${view} st=${st} api=${api} hist=${hist}/>
    <${Seats} view=${view} st=${st} api=${api}/>
    <${News} st=${st}/>
  </div>`;
}

/* ------------------------------------------------------------------ log lines
   Every line is made here from the events' facts (seats, safes, numbers, short codes), in a
   host's plain words: never the notation of LO-10 (that stays in the notation drawer). */

/* Why the vault is done (LO-8), from vault_done's facts; as lockedout/words.py says it. */
function endWords(d) {
  const rounds = plural(d.rounds || 0, "round");
  switch (d.reason) {
    case "all_opened": return "every safe has been opened (LO-8)";
    case "all_escaped": return "everyone has escaped (LO-8)";
    case "stuck": return "no closed safe can be opened with the cards left inside (LO-8)";
    case "limit": return "the host's limit of " + rounds + " was reached (LO-8)";
    default: return "the longest a match may run, " + rounds + ", was reached (LO-8 sets no limit of its own; the host may set a shorter one)";
  }
}

/* How LO-9 chose the Elimination Candidate, from ec_chosen's facts. */
const STEP_WORDS = { keys: "fewest keys", bars: "fewest gold bars", cards: "fewest cards", garnets: "fewest season garnets",
  draw: "still tied after keys, bars, cards and garnets: a draw from the match's chance" };
function howWords(d) {
  if (d.how === "votes") return "most votes (LO-9)";
  if (d.how === "majority") return "the winners' majority among the tied (LO-9)";
  const why = d.why === "no_majority" ? "the winners reached no majority" : "no winners to break the tie";
  return why + "; " + (STEP_WORDS[d.step] || STEP_WORDS.draw) + " (LO-9)";
}

/* "Bob got 2 votes, you got 1 vote and Dave none", most votes first. */
function tallyWords(d, who) {
  const rows = (d.tally || []).slice().sort((a, b) => b.votes - a.votes);
  return listWords(rows.map((r) => who(r.seat) + " got " + (r.votes ? plural(r.votes, "vote") : "none")));
}

/* A claim's amount: "2 gold bars", "1 key", "1 gold bar and 1 key", "nothing". */
function amountWords(bars, keys) {
  const parts = [];
  if (bars) parts.push(plural(bars, "gold bar"));
  if (keys) parts.push(plural(keys, "key"));
  return parts.length ? parts.join(" and ") : "nothing";
}

/* One command of a submission (its facts, as Plan.to_json records them) in words. */
function commandWords(c, nameOf) {
  switch (c.kind) {
    case "solo": return "a solo try at Safe " + c.safe + " of " + c.left + " on the left and " + c.right + " on the right";
    case "dual": return "a dual try at Safe " + c.safe + " of " + c.value + " on the " + c.side + " with " + nameOf(c.partner) + " on the " + (c.side === "left" ? "right" : "left");
    case "claim": return "a claim of " + amountWords(c.bars, c.keys) + " from Safe " + c.safe;
    case "vote": return "a ballot naming " + nameOf(c.seat);
    default: return "a command";
  }
}

const VOTE_PHASES = ["elimination vote", "winners break the tie"];

function moveWords(value, phase, view, ctx) {
  const nameOf = ctx ? ctx.seatName : (s) => "Seat " + (s + 1);
  const cmds = Array.isArray(value) ? value : [];
  if (!cmds.length) {
    if (VOTE_PHASES.includes(phase)) return "no ballot";
    return phase === "final bargaining" ? "no claim" : "a plan to try nothing this round";
  }
  return listWords(cmds.map((c) => commandWords(c, nameOf)));
}

function phaseName(name) {
  const m = /^round (\d+)$/.exec(String(name));
  if (m) return "Round " + m[1];
  return { "final bargaining": "Final bargaining", "elimination vote": "Elimination vote",
    "winners break the tie": "Tie-break by the escaped players" }[name];
}

/* Who escaped (the winners first) and who is the Elimination Candidate, from the result's
   facts: what the result leads with (LO-8, LO-9). */
function resultLead(detail, ctx) {
  const d = detail || {};
  const escaped = d.escaped || [], winners = d.winners || [];
  const name = (s) => (s === ctx.you ? "you" : ctx.seatName(s));
  let lead;
  if (!escaped.length) lead = "nobody escaped";
  else {
    lead = listWords(winners.map(name)) + " escaped " + (winners.length > 1 ? "tied for" : "with") + " the most gold bars";
    const others = escaped.filter((s) => !winners.includes(s));
    if (others.length) lead += "; " + listWords(others.map(name)) + " escaped too";
  }
  const ec = d.ec;
  if (ec != null) lead += "; " + name(ec) + (ec === ctx.you ? " are" : " is") + " the Elimination Candidate";
  return capital(lead);
}

/* The result card's heading (the shell's resultTitle hook): the escapes and the EC, not "No single
   winner". */
function resultHeading(view) {
  const r = view && view.result;
  if (!r || !r.detail || !Array.isArray(r.detail.escaped)) return null;
  const names = (view.match && view.match.names) || [];
  return resultLead(r.detail, { you: readerSeat(view), seatName: (s) => names[s] || "Seat " + (s + 1) });
}

function describe(e, view, ctx) {
  const d = e.data || {};
  const you = ctx.you;
  const name = ctx.seatName;
  const low = (s) => (s === you && you != null ? "you" : name(s));
  const list = (seats) => listWords((seats || []).map(low));
  const is = (s) => ctx.who(s) + (s === you && you != null ? " are" : " is");
  switch (e.kind) {
    case "light": {
      const whose = d.seat === you ? "your " : name(d.seat) + "'s ";
      return "Safe " + d.safe + " flashed " + d.colour + " for " + whose + guessWords(d, name) + " (round " + d.round + ", LO-4).";
    }
    case "dual_failed": {
      const w = dualFailedWords(d, you, name);
      return w ? w.text : null;
    }
    case "safe_opened": return capital(list(d.seats)) + " opened Safe " + d.safe + ".";
    case "safe_taken": return ctx.who(d.seat) + " opened Safe " + d.safe + " alone and took its 2 gold bars and its key (LO-5).";
    case "safe_closed": return "Safe " + d.safe + " is closed for good; its combination was " + d.combination[0] + " on the left and " + d.combination[1] + " on the right.";
    case "bargain_opened": return capital(list(d.seats)) + " bargain over Safe " + d.safe + " until the next deadline (LO-5).";
    case "bargain_resolved": {
      const claims = (d.claims || []).map((c) => low(c.seat) + " claimed " + amountWords(c.bars, c.keys));
      const said = claims.length ? listWords(claims) : "nobody claimed anything";
      return d.agreed
        ? "The bargain over Safe " + d.safe + " was agreed: " + said + ", and each gets their claim (LO-5)."
        : "The bargain over Safe " + d.safe + " failed: " + said + ", not exactly 2 gold bars and 1 key, so nobody gets anything (LO-5).";
    }
    case "escaped": return ctx.who(d.seat) + " escaped with " + plural(d.bars, "gold bar") + " (LO-7).";
    // Once the match is over, the results' "How it was decided" lists what decided it (the
    // escapes, the end, the vote), not one line per round.
    case "round_over": return view && view.result ? false : "Round " + d.round + " is over.";
    case "vault_done": return "The vault is done: " + endWords(d) + ".";
    case "vote_counted": {
      const head = "The votes are counted: " + tallyWords(d, low) + ".";
      return d.tied && d.tied.length ? head + " " + capital(list(d.tied)) + " tied, so the players who escaped choose among them (LO-9)." : head;
    }
    case "ec_chosen": return is(d.seat) + " the Elimination Candidate: " + howWords(d) + ".";
    case "accepted": {
      if (!VOTE_PHASES.includes(d.phase)) return undefined;
      if (view && !seesAll(view) && d.seat !== you) return null;
      const pick = (Array.isArray(d.value) ? d.value : []).find((c) => c.kind === "vote");
      const by = ctx.who(d.seat);
      if (!pick) return by + " sent no ballot.";
      const verb = d.phase === "elimination vote" ? " voted for " : " chose ";
      return by + verb + name(pick.seat) + (d.phase === "elimination vote" ? "" : " among the tied players") + (d.final ? " as final." : ".");
    }
    case "match_ended": return d.detail && Array.isArray(d.detail.escaped) ? "Match over: " + resultLead(d.detail, ctx) + "." : undefined;
    default: return undefined;
  }
}

function phaseTitle(view) {
  const st = view.state || {};
  switch (st.stage) {
    case "round": return "Round " + st.round + " · Attempts";
    case "bargain": return "Final bargaining";
    case "vote": return "Elimination vote";
    case "tie": return "Winners break the tie";
    case "over": return "Match over";
    default: return null;
  }
}

/* What a seat sends in this phase, for the page's own words ("your plan was not sent"). */
function sentWord(view) {
  const stage = (view.state || {}).stage;
  return stage === "vote" || stage === "tie" ? "vote" : "plan";
}

/* The rounds' own phase lines stay out of the log: "Round N is over." comes once, from the game,
   and the notation of the phase's prompt belongs in the notation drawer. The
   shell asks ``quietPhases.includes(name)``; the round phases are numbered, so a test, not a list. */
const quietPhases = { includes: (name) => /^round \d+$/.test(String(name)) || name === "final bargaining" };

registerGame("lockedout", { Board, describe, moveWords, phaseName, resultTitle: resultHeading, phaseTitle, sentWord, quietPhases });
