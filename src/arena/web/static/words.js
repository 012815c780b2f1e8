/* The match log in words: one line per event, made here from the event's facts (who, what,
   where, how much), never from a sentence the server wrote. A game's page module words its
   own events and may reword any shared one; what neither knows is said as plain "key value"
   pairs rather than JSON.

   Kept apart from shell.js so that the same function the page uses can be run over the events
   of whole matches by the tests (every line in words, no notation, no internal name). */
import { html, capital, fmtSeconds, plainData, seesAll, readerSeat, person } from "/static/ui.js";

const PRIVATE = "host-private-"; // as shell.js names the host's private channels

/* What a game's describe() and moveWords() are handed besides the event: names as the reader
   reads them ("You" for their own seat, never on a broadcast's seat board: ui.js readerSeat). */
export function wordsContext(view) {
  const seatName = (seat) => person(view, seat).name;
  const who = (seat) => person(view, seat).You;
  // The same mid-sentence ("nothing came from you or Bob").
  const whom = (seat) => person(view, seat).you;
  return { view, you: readerSeat(view), seatName, who, whom, person: (seat) => person(view, seat) };
}

/* "Ann", "Ann or Bob", "Ann, Bob or Cid". */
function listOf(items, join) {
  if (items.length < 2) return items.join("");
  return items.slice(0, -1).join(", ") + " " + join + " " + items[items.length - 1];
}

/* A phase's name as a host says it: the game's words when it has them ("Bets for bout 2"),
   else the name itself, capitalised. */
export function phaseName(name, view, impl) {
  if (impl && typeof impl.phaseName === "function") {
    try { const t = impl.phaseName(name, view); if (t) return t; } catch (err) { console.error(err); }
  }
  return capital(String(name || "this phase"));
}

/* A submission's value (its parsed move, as facts) in words; a generic phrase when the game
   has none. */
export function moveWords(value, phase, view, impl) {
  if (impl && typeof impl.moveWords === "function") {
    try { const t = impl.moveWords(value, phase, view, wordsContext(view)); if (t != null && t !== "") return t; } catch (err) { console.error(err); }
  }
  return "an answer for " + phaseName(phase, view, impl).toLowerCase();
}

function channelTitle(id, view, ctx) {
  const known = (view && view.chat) || [];
  const c = known.find((x) => x.id === id);
  if (c) return c.title;
  if (id === "table") return "Table";
  if (id === "spectators") return "Spectators";
  if (String(id).startsWith(PRIVATE)) {
    return seesAll(view) ? "Private: " + ctx.seatName(Number(String(id).slice(PRIVATE.length))) : "Host (private)";
  }
  return capital(String(id));
}

function optionLabel(name, view) {
  const o = view && view.host_options && view.host_options[name];
  return o && o.label ? String(o.label).replace(/ \(.*\)$/, "") : String(name).replace(/_/g, " ");
}

function resultWords(d, view, ctx) {
  if (d.winner == null) {
    if (d.double_loss) return "both seats lose";
    return view && view.seats && view.seats.length === 2 ? "a draw" : "no single winner";
  }
  return ctx.who(d.winner) + (d.winner === ctx.you ? " win" : " wins");
}

/* One log line: a string (rule ids in it become links), a Preact node from the game, or null
   to leave the event out of the log. ``events``, the log it is read in (optional), lets a line
   say what an earlier entry decided: a match the host ended is no draw. */
export function logLine(e, view, impl, events) {
  const d = e.data || {};
  const ctx = wordsContext(view);
  // A game may keep its routine phases out of the log (real-time ticks: its board tells them).
  const quiet = impl && impl.quietPhases;
  if (quiet && ["phase_started", "limit_passed", "phase_resolved"].includes(e.kind)
      && quiet.includes(d.name || d.phase)) return null;
  if (impl && typeof impl.describe === "function") {
    try {
      const t = impl.describe(e, view, ctx);
      if (t === false || t === null) return null;
      if (t !== undefined) return t;
    } catch (err) { console.error(err); }
  }
  const phase = (name) => phaseName(name, view, impl);
  switch (e.kind) {
    case "match_started": return "The match begins.";
    case "seed": return null;
    case "phase_started": return phase(d.name) + ": it begins.";
    // Who sent their own answer, and the host, read it in the "accepted" line below.
    case "seat_acted":
      if (seesAll(view) || d.seat === ctx.you) return null;
      return ctx.seatName(d.seat) + (d.final ? " sent a final answer." : " sent an answer.");
    // The notation a player typed is the replay's record, not the log's words (the notation
    // drawer shows it); the accepted move is said from its facts.
    case "submit": return null;
    case "accepted": {
      if (view && !seesAll(view) && d.seat !== ctx.you) return null;
      const what = moveWords(d.value, d.phase, view, impl);
      return html`${d.seat === ctx.you ? "You sent " : ctx.seatName(d.seat) + " sent "}${what}${d.final ? " as final." : "."}`;
    }
    case "confirm": return ctx.who(d.seat) + " confirmed as final.";
    case "limit_passed": return "Time is up for " + phase(d.phase).toLowerCase() + ".";
    case "reserve_period": return ctx.who(d.seat) + " started reserve period " + d.period + " (" + d.left + " left).";
    case "reserve_exhausted": return ctx.who(d.seat) + " ran out of reserve.";
    case "phase_resolved": return phase(d.name) + " is over" + (d.missing && d.missing.length ? "; nothing came from " + listOf(d.missing.map(ctx.whom), "or") : "") + ".";
    case "match_ended":
      if (d.winner == null && !d.double_loss && (events || []).some((x) => x.kind === "end")) return "Match over: the host ended it without a winner.";
      return "Match over: " + resultWords(d, view, ctx) + ".";
    case "pause": return "The host paused the match.";
    case "resume": return "The host resumed the match.";
    case "server_pause": return "The server paused the match: deadlines fell due faster than it allows (" + (d.rule || "G-5") + "); the host may resume or end it.";
    case "extend": return "The host added " + fmtSeconds(d.seconds) + ".";
    case "deadline": return "The host set the deadline to " + new Date(d.at * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) + (d.resumed ? " and resumed the match." : ".");
    case "end": return "The host ended the match" + (d.reason ? ": " + d.reason : "") + ".";
    case "chat": return null; // shown in the chat panel
    case "act": return null; // a host's step, worded by the page that owns it
    case "host_option": return "The host turned " + optionLabel(d.name, view).toLowerCase() + (d.value ? " on." : " off.");
    case "host_note":
      if (d.what === "seat") return "The host handed " + ctx.seatName(d.seat) + "'s seat to " + (d.bot ? "a bot." : "a person.");
      if (d.what === "reissue") return (view && view.role === "broadcast" ? "The host gave " : "You gave ") + ctx.seatName(d.seat) + " a new link.";
      if (d.what === "spectators") return "The host " + (d.open ? "opened the match to" : "closed the match to") + " spectators.";
      return null;
    case "private":
      // G-13: either of the two may open it ("by" names a seat that did); only the host closes.
      if (view && view.role === "broadcast") return d.by != null ? ctx.seatName(d.seat) + " opened a private channel with the host." : "The host " + (d.open ? "opened" : "closed") + " a private channel with " + ctx.seatName(d.seat) + ".";
      if (view && view.role === "host") return d.by != null ? ctx.seatName(d.seat) + " opened a private channel with you." : "You " + (d.open ? "opened" : "closed") + " a private channel with " + ctx.seatName(d.seat) + ".";
      if (d.by != null) return "You opened a private channel with the host (only the two of you read it).";
      return "The host " + (d.open ? "opened a private channel with you (only the two of you read it)." : "closed the private channel with you.");
    case "mute": return "The host " + (d.muted ? "muted" : "reopened") + " the " + channelTitle(d.channel, view, ctx) + " channel.";
    default: {
      const words = capital(e.kind.replace(/_/g, " "));
      const data = plainData(e.data);
      return data ? words + ": " + data : words;
    }
  }
}
