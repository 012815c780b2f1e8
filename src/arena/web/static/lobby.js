/* The lobby: the create-match form (built from /api/games) and the list of matches. */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  let games = [];

  function gameByName(name) { return games.find((g) => g.name === name); }

  function label(name) { return name.replace(/_/g, " "); }

  /* A refusal names its rule (G-5 and the setting, issue 25): the id links to the rulings. */
  function linkRules(text) {
    return esc(text).replace(/\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b/g,
      (id) => '<a href="/rulings#' + id + '">' + id + "</a>");
  }

  function renderSeats(game) {
    const rows = [];
    for (let i = 0; i < game.seats; i++) {
      const role = game.seats === 2 ? (i === 0 ? "EC" : "DMO") : "";
      rows.push('<div class="seat-row"><span class="seat-no">' + (i + 1) + "</span>" +
        '<input name="seat-name-' + i + '" data-testid="seat-name-' + i + '" aria-label="Seat ' + (i + 1) + ' name" placeholder="Seat ' + (i + 1) + (role ? " (" + role + ")" : "") + '" maxlength="40">' +
        '<select name="seat-kind-' + i + '" data-testid="seat-kind-' + i + '" aria-label="Seat ' + (i + 1) + ' played by"><option value="human">Human</option><option value="bot"' + (i > 0 ? " selected" : "") + ">Bot</option></select></div>");
    }
    $("seats").innerHTML = rows.join("");
  }

  /* Each option comes with its schema (issue 25): bounds become min/max/maxlength, the help
     text a tooltip, so the form refuses what the server would refuse before it is sent. */
  function renderOptions(game) {
    const out = [];
    for (const o of game.options) {
      const id = "opt-" + o.name;
      const help = o.help ? ' title="' + esc(o.help) + '"' : "";
      const name = esc(label(o.name)) + (o.unit === "s" ? " (s)" : "");
      if (o.type === "bool") {
        out.push('<label class="check"' + help + '><input type="checkbox" name="' + id + '" data-testid="' + id + '" data-opt="' + o.name + '" data-type="bool"' + (o.default ? " checked" : "") + "> " + name + "</label>");
      } else if (o.type === "int" || o.type === "float") {
        const bounds = (o.min != null ? ' min="' + esc(o.min) + '"' : "") + (o.max != null ? ' max="' + esc(o.max) + '"' : "");
        out.push("<label" + help + ">" + name + '<input type="number" step="' + (o.type === "int" ? "1" : "any") + '"' + bounds + ' name="' + id + '" data-testid="' + id + '" data-opt="' + o.name + '" data-type="' + o.type + '" value="' + esc(o.default) + '"></label>');
      } else {
        const value = o.type === "str" ? o.default : JSON.stringify(o.default);
        const max = o.type === "str" && o.max_length != null ? ' maxlength="' + esc(o.max_length) + '"' : "";
        out.push("<label" + help + ">" + name + '<input type="text"' + max + ' name="' + id + '" data-testid="' + id + '" data-opt="' + o.name + '" data-type="' + o.type + '" value="' + esc(value) + '"></label>');
      }
    }
    $("options").innerHTML = out.join("") || '<p class="muted">This game has no options.</p>';
  }

  function selectGame(name) {
    const game = gameByName(name);
    if (!game) return;
    const sel = document.querySelector('[data-testid="new-game"]');
    sel.value = name;
    renderSeats(game);
    renderOptions(game);
  }

  function readForm() {
    const form = $("new-match");
    const name = form.game.value;
    const game = gameByName(name);
    const seats = [];
    for (let i = 0; i < game.seats; i++) {
      seats.push({ name: form["seat-name-" + i].value.trim(), bot: form["seat-kind-" + i].value === "bot" });
    }
    const config = {};
    for (const input of document.querySelectorAll("[data-opt]")) {
      const o = game.options.find((x) => x.name === input.dataset.opt);
      let value;
      if (input.dataset.type === "bool") value = input.checked;
      else if (input.dataset.type === "int" || input.dataset.type === "float") value = Number(input.value);
      else if (input.dataset.type === "str") value = input.value;
      else { try { value = JSON.parse(input.value); } catch (e) { throw new Error("option " + input.dataset.opt + ": not valid JSON"); } }
      if (JSON.stringify(value) !== JSON.stringify(o.default)) config[o.name] = value;
    }
    const body = {
      game: name, seats: seats, config: config,
      settings: { time_scale: Number(form.time_scale.value || 1), early_close: form.early_close.checked, reveal_at_end: form.reveal_at_end.checked, bot_pace: form.bot_pace.value },
    };
    if (form.seed.value !== "") body.seed = form.seed.value.trim(); // a string: 64 bits exact (issue 27)
    return body;
  }

  async function create(ev) {
    ev.preventDefault();
    $("create-error").textContent = "";
    let body;
    try { body = readForm(); } catch (e) { $("create-error").textContent = e.message; return; }
    const res = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({ error: "HTTP " + res.status }));
    if (!res.ok) { $("create-error").innerHTML = linkRules(data.error || "HTTP " + res.status); return; }
    const game = gameByName(body.game);
    const entry = {
      id: data.id, game: body.game, title: game ? game.title : body.game, created: Date.now() / 1000,
      seats: data.links.seats.map((url, i) => ({ name: body.seats[i].name || "Seat " + (i + 1), bot: body.seats[i].bot, url: body.seats[i].bot ? null : url })),
      spectator: data.links.spectator, host: data.links.host,
    };
    remember(entry);
    $("links").innerHTML = linkItems(entry, "link-");
    $("created").hidden = false;
    renderMine();
    loadMatches();
  }

  /* The lobby remembers the matches created in this browser (issue 15, point 1): a host who
     closes the tab keeps every link. Only this browser's localStorage holds them. */
  const MINE = "arena.myMatches";
  function mine() {
    try { const v = JSON.parse(localStorage.getItem(MINE) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }
  function saveMine(list) { try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 200))); } catch (e) { /* private mode */ } }
  function remember(entry) { saveMine([entry].concat(mine().filter((m) => m.id !== entry.id))); }
  function forget(id) { saveMine(mine().filter((m) => m.id !== id)); renderMine(); }

  // A bot seat has no link: nobody should be handed a seat a bot plays.
  function linkItems(entry, prefix) {
    const items = entry.seats.map((s, i) => {
      const who = "Seat " + (i + 1) + " · " + esc(s.name) + (s.bot ? " (bot)" : "");
      const link = s.url ? '<a data-testid="' + prefix + "seat-" + i + '" href="' + esc(s.url) + '" target="_blank" rel="noopener">' + esc(s.url) + "</a>"
        : '<span class="muted">played by a bot, no link</span>';
      return '<li><span class="who">' + who + "</span>" + link + "</li>";
    });
    items.push('<li><span class="who">Spectator</span><a data-testid="' + prefix + 'spectator" href="' + esc(entry.spectator) + '" target="_blank" rel="noopener">' + esc(entry.spectator) + "</a></li>");
    items.push('<li><span class="who">Host</span><a data-testid="' + prefix + 'host" href="' + esc(entry.host) + '" target="_blank" rel="noopener">' + esc(entry.host) + "</a></li>");
    return items.join("");
  }

  const statusOf = {};
  async function renderMine() {
    const list = mine().sort((a, b) => b.created - a.created);
    const box = $("my-matches");
    if (!box) return;
    if (!list.length) { box.innerHTML = '<li class="muted">None yet: the matches you create here are listed with their links.</li>'; return; }
    box.innerHTML = list.map((m, n) => {
      const when = new Date(m.created * 1000).toLocaleString();
      const st = statusOf[m.id] || "…";
      return '<li class="my-match" data-testid="my-match-' + n + '" data-id="' + esc(m.id) + '">' +
        '<div class="my-head"><b>' + esc(m.title) + '</b> <span class="status ' + esc(st) + '" data-testid="my-match-status-' + n + '">' + esc(st) + "</span>" +
        ' <span class="muted small">' + esc(when) + "</span>" +
        '<a class="button small" data-testid="my-match-host-' + n + '" href="' + esc(m.host) + '">Host page</a>' +
        '<button type="button" class="ghost small" data-testid="my-match-remove-' + n + '" data-forget="' + esc(m.id) + '" aria-label="Remove ' + esc(m.title) + " from this list\">Remove</button></div>" +
        '<details><summary class="small">Links</summary><ul class="links">' + linkItems(m, "my-" + n + "-") + "</ul></details></li>";
    }).join("");
    for (const b of box.querySelectorAll("[data-forget]")) b.addEventListener("click", () => forget(b.dataset.forget));
    await Promise.all(list.filter((m) => statusOf[m.id] !== "finished").map(async (m) => {
      try {
        const res = await fetch("/api/matches/" + encodeURIComponent(m.id), { headers: { Accept: "application/json" } });
        const info = res.ok ? await res.json() : null;
        const st = info ? info.status : "gone";
        if (statusOf[m.id] !== st) { statusOf[m.id] = st; changed = true; }
      } catch (e) { /* offline: keep what we had */ }
    }));
    if (changed) { changed = false; renderMine(); }
  }
  let changed = false;

  async function loadMatches() {
    const res = await fetch("/api/matches", { headers: { Accept: "application/json" } });
    const rows = await res.json().catch(() => []);
    const body = $("match-rows");
    if (!rows.length) { body.innerHTML = '<tr><td colspan="6" class="muted">No matches yet.</td></tr>'; return; }
    body.innerHTML = rows.map((m) => {
      const g = gameByName(m.game);
      const players = m.names.map((n, i) => esc(n) + (m.bots[i] ? ' <span class="tag">bot</span>' : "")).join(", ");
      let result = "";
      if (m.result) result = m.result.winner == null ? "no single winner" : esc(m.names[m.result.winner]) + " won";
      const when = new Date(m.created * 1000).toLocaleString();
      const watch = m.watch ? '<a href="' + esc(m.watch) + '">' + (m.status === "running" ? "Watch" : "Replay") + "</a>" : "";
      return "<tr><td>" + esc(g ? g.title : m.game) + "</td><td>" + players + '</td><td><span class="status ' + esc(m.status) + '">' + esc(m.status) + "</span></td><td>" + result + "</td><td>" + esc(when) + "</td><td>" + watch + "</td></tr>";
    }).join("");
  }

  async function init() {
    const res = await fetch("/api/games", { headers: { Accept: "application/json" } });
    games = await res.json();
    const sel = document.querySelector('[data-testid="new-game"]');
    sel.innerHTML = games.map((g) => '<option value="' + esc(g.name) + '">' + esc(g.title) + "</option>").join("");
    sel.addEventListener("change", () => selectGame(sel.value));
    const wanted = new URLSearchParams(location.search).get("game");
    if (games.length) selectGame(wanted && gameByName(wanted) ? wanted : games[0].name);
    for (const b of document.querySelectorAll("[data-new]")) {
      b.addEventListener("click", () => { selectGame(b.dataset.new); $("new").scrollIntoView({ behavior: "smooth" }); });
    }
    $("new-match").addEventListener("submit", create);
    $("refresh").addEventListener("click", loadMatches);
    loadMatches();
    renderMine();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
