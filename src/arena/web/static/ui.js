/* What the match shell and every game page share: the view library (Preact + htm, vendored
   and pinned in package.json, no build step), the registry of game boards, and the small
   helpers that keep the page in plain words (numbers, clocks, rule links).

   Preact diffs the page instead of rebuilding it, so a clock tick or a new event never pulls a
   control, its focus or half-typed text from under the player. */
import { h, render, Fragment } from "preact";
import { useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect };

/* ------------------------------------------------------------------ registry */
export const games = {};
const listeners = new Set();

/* A game registers ``{Board, describe?, phaseTitle?}`` (a Preact component drawing the board
   and its controls), or the older ``{render(root, view, api), describe?}``. */
export function registerGame(name, impl) {
  games[name] = impl;
  for (const fn of listeners) fn(name);
}
export function onRegister(fn) { listeners.add(fn); }

/* ------------------------------------------------------------------ numbers and words */
/* Whole numbers grouped (10,948,400), fractions to at most two places (2.5), never an
   exponent. */
export function fmtNum(x) {
  const n = Number(x);
  if (!Number.isFinite(n)) return String(x);
  if (Number.isInteger(n)) return n.toLocaleString("en-US");
  return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/* A count with its noun in the right number: "1 key", "3 keys", "-1 Token of Life" (the noun
   is singular for one either way; ``many`` when adding an s is wrong). */
export function plural(n, one, many) {
  return fmtNum(n) + " " + (Math.abs(Number(n)) === 1 ? one : (many || one + "s"));
}

export function fmtClock(sec) {
  if (!(sec > 0)) sec = 0;
  if (sec < 10) return sec.toFixed(1) + "s";
  const s = Math.floor(sec);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return (h ? h + ":" + two(m) : String(m)) + ":" + two(r);
}

export function fmtSeconds(sec) {
  const n = Math.round(Number(sec) || 0);
  if (n < 60) return n + " s";
  return fmtClock(n);
}

export function capital(s) { s = String(s || ""); return s.charAt(0).toUpperCase() + s.slice(1); }

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

/* Anything a game logged that no describe() knows, said as "key value" pairs, never JSON. */
export function plainData(data) {
  if (data == null) return "";
  if (typeof data === "number") return fmtNum(data);
  if (typeof data !== "object") return String(data);
  if (Array.isArray(data)) return data.map(plainData).join(", ");
  return Object.keys(data)
    .filter((k) => data[k] !== null && data[k] !== undefined && data[k] !== "")
    .map((k) => k.replace(/_/g, " ") + " " + (typeof data[k] === "object" ? "(" + plainData(data[k]) + ")" : plainData(data[k])))
    .join(", ");
}

/* ------------------------------------------------------------------ rule links */
/* The prefixes /rulings has a section for, as the server read them from the games
   (base.html's data-rulings): a game's own rule ids that are no ruling go to its rules page. */
const RULING_PREFIXES = new Set(((typeof document !== "undefined" &&
  document.documentElement.dataset.rulings) || "G SE").split(/\s+/).filter(Boolean));
export const RULE_ID = /\b([A-Z]{1,4})-(\d{1,3})\b/g;

/* The project's rulings live on /rulings; a game's own rule ids on its rules page. */
export function ruleHref(id, game) {
  const prefix = id.split("-")[0];
  if (RULING_PREFIXES.has(prefix)) return "/rulings#" + id;
  return "/games/" + encodeURIComponent(game || "") + "#" + id;
}

let currentGame = "";
export function setGameForLinks(name) { currentGame = name; }

/* A plain string with every rule id turned into a link. */
export function RuleText({ text, game }) {
  const s = String(text == null ? "" : text);
  const parts = [];
  let last = 0;
  for (const m of s.matchAll(RULE_ID)) {
    if (m.index > last) parts.push(s.slice(last, m.index));
    parts.push(html`<a class="rule-link" href=${ruleHref(m[0], game || currentGame)}>${m[0]}</a>`);
    last = m.index + m[0].length;
  }
  if (last < s.length) parts.push(s.slice(last));
  return html`${parts}`;
}

/* Markup the server drew (a board's SVG), as Preact nodes: parsed by the browser's DOMParser, which runs nothing, then each
   element and text copied into the page by Preact like any other node, so an update diffs
   them instead of replacing the whole picture, and no script, handler or unknown markup
   passes through (the pages' CSP forbids inline script and style anyway). */
const DROPPED = new Set(["script", "style", "iframe", "object", "embed", "foreignobject"]);
function toNodes(node, key) {
  if (node.nodeType === 3) return node.nodeValue;
  if (node.nodeType !== 1 || DROPPED.has(node.localName.toLowerCase())) return null;
  const props = { key };
  for (const a of node.attributes) {
    if (!/^on/i.test(a.name) && !/^\s*javascript:/i.test(a.value)) props[a.name] = a.value;
  }
  return h(node.localName, props, ...Array.from(node.childNodes, (c, i) => toNodes(c, i)));
}
export function markup(text, { svg = false } = {}) {
  const source = String(text || "");
  if (!source) return null;
  const doc = new DOMParser().parseFromString(source, svg ? "image/svg+xml" : "text/html");
  const root = svg ? [doc.documentElement] : Array.from(doc.body.childNodes);
  if (svg && doc.getElementsByTagName("parsererror").length) return null;
  return root.map((n, i) => toNodes(n, i));
}

/* An error from the server reads "LM-5: the key ..."; say the words first, then the rule. */
export function splitRule(message) {
  const m = /^([A-Z]{1,4}-\d{1,3}):\s*(.*)$/s.exec(String(message || ""));
  // Non-rule categories ("access: ...", "request: ...") are for programs, not players.
  if (!m) return { rule: null, text: String(message || "").replace(/^[a-z_]+:\s*/, "") };
  return { rule: m[1], text: m[2] };
}

export function ErrorText({ message, game }) {
  const { rule, text } = splitRule(message);
  return html`<span>${capital(text)}${rule ? html` <span class="rule-ref">(rule <${RuleText} text=${rule} game=${game}/>)</span>` : ""}</span>`;
}

/* The host, and a delayed broadcast's audience (G-15), read every seat's private entries. */
export function seesAll(view) {
  return !!view && (view.role === "host" || view.role === "broadcast");
}

/* ------------------------------------------------------------------ who reads */
/* Whether the one reading ``view`` is seat ``seat`` itself, the only reader a page may call
   "you". A delayed broadcast draws each seat's board from that seat's own view (G-15), but its
   reader is the audience, not the seat: the view says so with its ``broadcast`` field, and
   there the board names the seat ("Ann is inside the vault", "Ann's cards"). ``you`` and not
   ``role`` says who reads: a seat's revealed replay is drawn as the host saw it. */
export function readerIsSeat(view, seat) {
  return !!view && seat != null && view.you === seat && !view.broadcast && view.role !== "broadcast";
}

/* The seat the page says "you" to: its reader's own seat, or null (the host, a spectator, a
   broadcast's audience, and so every seat board of a broadcast). */
export function readerSeat(view) {
  return view && readerIsSeat(view, view.you) ? view.you : null;
}

/* ``seat`` as the reader of ``view`` is told of it: "You are" / "Ann is", "Your cards" /
   "Ann's cards", verbs agreeing. ``self`` says the reader is that seat; ``name`` is its name
   whoever reads. One rule for every game page, so a broadcast's seat boards never speak to
   their audience as the seat. */
export function person(view, seat) {
  const names = (view && view.match && view.match.names) || [];
  const name = names[seat] || "Seat " + (Number(seat) + 1);
  const self = readerIsSeat(view, seat);
  return {
    self, name,
    You: self ? "You" : name, you: self ? "you" : name,
    Your: self ? "Your" : name + "'s", your: self ? "your" : name + "'s",
    are: self ? "are" : "is", have: self ? "have" : "has", were: self ? "were" : "was",
    /* A verb (or any words) in the reader's form or the third person: verb("hold", "holds"). */
    verb: (mine, theirs) => (self ? mine : theirs),
  };
}
