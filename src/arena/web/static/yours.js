/* "Your matches and seasons": every link this browser has used, kept in
   its localStorage so a player who closes every tab finds their season and matches again in
   the lobby.

   Any page opened with a token (a match page /m/ID?token=T or a season page /s/ID?token=T)
   records itself here, so a reissued link, a rematch the page moved to, a seat reached from a
   season page all land in the list without the lobby having seen them. What a token is (whose
   seat, which player) only the server knows: the lobby asks when it shows the list, and then
   files the entry under its match or season and seat, where a newer link for the same seat
   replaces the older one.

   Nothing here imports the view library: match and season pages load it as a plain module. */

const KEY = "arena.yours";
const OLD_KEY = "arena.myMatches"; // the lobby's older list (matches it created)
const MAX = 300;

function read(key) {
  try { const v = JSON.parse(localStorage.getItem(key) || "[]"); return Array.isArray(v) ? v : []; }
  catch (e) { return []; }
}

function write(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX))); return true; }
  catch (e) { return false; /* private mode or full: the list lives as long as the page */ }
}

function tokenOf(url) {
  try { return new URL(url, location.origin).searchParams.get("token") || ""; } catch (e) { return ""; }
}

/* The older list held matches created here, each with every link: its host link is the entry. */
function migrate(old) {
  return old.filter((m) => m && m.id && m.host).map((m) => ({
    key: "m:" + m.id + ":host", kind: "match", id: m.id, role: "host", seat: null, player: null,
    token: tokenOf(m.host), url: m.host, title: m.title || m.game || "Match", game: m.game,
    created: m.created || Date.now() / 1000, opened: m.created || Date.now() / 1000,
    names: (m.seats || []).map((s) => s.name), bots: (m.seats || []).map((s) => !!s.bot),
    links: { seats: (m.seats || []).map((s) => ({ name: s.name, bot: !!s.bot, link: s.url || null })),
      spectator: m.spectator || null, host: m.host },
  }));
}

export function loadYours() {
  let list = read(KEY);
  const old = read(OLD_KEY);
  if (old.length) {
    const have = new Set(list.map((e) => e.key));
    list = list.concat(migrate(old).filter((e) => !have.has(e.key)));
    if (write(list)) { try { localStorage.removeItem(OLD_KEY); } catch (e) { /* kept */ } }
  }
  return list.filter((e) => e && e.key && e.kind && e.id);
}

export function saveYours(list) { write(list); }

/* Put ``entry`` in the list: an entry of the same key (same match or season, same seat) is
   replaced, keeping what the new one does not say (its links, its title) from the old. */
export function keep(entry) {
  const list = loadYours();
  const old = list.find((e) => e.key === entry.key);
  const merged = Object.assign({}, old && old.token === entry.token ? old : {}, entry);
  if (old && !merged.created) merged.created = old.created;
  write([merged].concat(list.filter((e) => e.key !== entry.key)));
  return merged;
}

export function forget(key) { write(loadYours().filter((e) => e.key !== key)); }

/* A page opened with a token: an entry not yet checked, filed under its token until the lobby
   learns whose it is. Opening it again only moves it up. */
export function recordOpened(loc) {
  const m = /^\/(m|s)\/([^/?#]+)$/.exec(loc.pathname);
  const token = new URLSearchParams(loc.search).get("token");
  if (!m || !token) return null;
  const kind = m[1] === "m" ? "match" : "season";
  const id = decodeURIComponent(m[2]);
  const list = loadYours();
  const now = Date.now() / 1000;
  const known = list.find((e) => e.token === token && e.id === id);
  if (known) {
    known.opened = now;
    write([known].concat(list.filter((e) => e !== known)));
    return known;
  }
  const url = loc.origin + loc.pathname + "?token=" + encodeURIComponent(token);
  const entry = { key: "t:" + token, kind, id, token, url, role: null, seat: null, player: null,
    title: kind === "season" ? "Season" : "Match", created: now, opened: now, unchecked: true };
  write([entry].concat(list));
  return entry;
}

if (typeof location !== "undefined" && /^\/(m|s)\//.test(location.pathname)) recordOpened(location);
