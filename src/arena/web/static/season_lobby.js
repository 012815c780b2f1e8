/* The lobby's "New season" form (issue 19): cast names, which of them are bots, the match
   settings; creates the season over the JSON API and lists the host's and players' links. */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const form = $("season-form");
  if (!form) return;
  const names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"];
  let count = 0;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function addRow(name, bot) {
    const i = count++;
    const row = document.createElement("div");
    row.className = "seat-row";
    row.innerHTML = '<span class="seat-no">' + (i + 1) + "</span>" +
      '<input name="cast-name-' + i + '" data-testid="season-name-' + i + '" aria-label="Player ' + (i + 1) + ' name" maxlength="40" value="' + esc(name || "") + '">' +
      '<select name="cast-kind-' + i + '" data-testid="season-kind-' + i + '" aria-label="Player ' + (i + 1) + ' played by"><option value="human">Human</option><option value="bot"' + (bot ? " selected" : "") + ">Bot</option></select>";
    $("season-cast").appendChild(row);
  }
  names.forEach((n, i) => addRow(n, i > 0));
  $("season-add").addEventListener("click", () => { if (count < 26) addRow("", true); });

  function linkRules(text) {
    const t = esc(text);
    return t.charAt(0).toUpperCase() + t.slice(1).replace(/\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b/g,
      (id) => '<a href="/rulings#' + id + '">' + id + "</a>");
  }

  async function listSeasons() {
    try {
      const r = await fetch("/api/seasons");
      const seasons = r.ok ? await r.json() : [];
      $("season-list").innerHTML = seasons.length ? seasons.map((s, i) =>
        '<li><a data-testid="season-row-' + i + '" href="/s/' + encodeURIComponent(s.id) + '">' +
        esc((s.cast || []).slice(0, 6).join(", ") + ((s.cast || []).length > 6 ? ", …" : "")) + "</a> · " +
        esc(s.winner ? s.winner + " won" : "episode " + s.episode + ": " + (s.stage || "")) + "</li>").join("")
        : '<li class="muted">No seasons yet.</li>';
    } catch (e) {
      $("season-list").innerHTML = '<li class="muted">The seasons could not be loaded.</li>';
    }
  }
  listSeasons();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fd = new FormData(form);
    const cast = [];
    for (let i = 0; i < count; i++) {
      const name = (fd.get("cast-name-" + i) || "").trim();
      if (name) cast.push({ name, bot: fd.get("cast-kind-" + i) === "bot" });
    }
    const scale = parseFloat(fd.get("time_scale")) || 1;
    const hours = parseFloat(fd.get("step_hours")) || 24;
    const body = {
      cast,
      settings: { time_scale: scale, bot_pace: fd.get("bot_pace") },
      step_seconds: hours * 3600,
      mm_config: {
        round_seconds: parseFloat(fd.get("round_seconds")) || 86400,
        vote_seconds: parseFloat(fd.get("round_seconds")) || 86400,
        // SE-6: a limit by default (the form shows 20); a blank field keeps the server's.
        ...(fd.get("max_rounds") === "" ? {} : { max_rounds: parseInt(fd.get("max_rounds"), 10) }),
      },
    };
    const seed = (fd.get("seed") || "").trim();
    if (seed) body.seed = seed;
    $("season-error").textContent = "";
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const r = await fetch("/api/seasons", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await r.json().catch(() => ({ error: "the server did not answer" }));
      if (!r.ok) { $("season-error").innerHTML = linkRules(data.error || "refused"); return; }
      const items = ['<li><b>Host:</b> <a data-testid="season-host-link" href="' + esc(data.links.host) + '">season page for the host</a></li>'];
      let i = 0;
      for (const [name, url] of Object.entries(data.links.players)) {
        const bot = cast.find((c) => c.name === name && c.bot);
        if (!bot) items.push('<li>' + esc(name) + ': <a data-testid="season-player-link-' + i + '" href="' + esc(url) + '">season link</a></li>');
        i++;
      }
      items.push('<li>Everyone: <a data-testid="season-public-link" href="' + esc(data.links.public) + '">public season page</a></li>');
      $("season-links").innerHTML = items.join("");
      $("season-created").hidden = false;
      listSeasons();
    } catch (e) {
      $("season-error").textContent = "The server could not be reached; try again.";
    } finally {
      button.disabled = false;
    }
  });
})();
