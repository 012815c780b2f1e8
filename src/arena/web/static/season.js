/* The season page (SE-1..SE-5): sends its forms to the season API, shows a refusal next to the
   form's button, counts a step's clock down, and reloads the page when the season moves on
   (a new version, or one of its matches ending), never while a form is being filled in. */
(function () {
  "use strict";
  const root = document.getElementById("season");
  if (!root) return;
  const boot = JSON.parse(root.dataset.boot);
  const q = boot.token ? "?token=" + encodeURIComponent(boot.token) : "";
  const api = "/api/seasons/" + encodeURIComponent(boot.id);
  let busy = false;

  const endpoints = {
    gift: "/gift", nominate: "/nominate", start_main: "/host/start_main",
    record_main: "/host/record_main", name_ec: "/host/name_ec", start_death: "/host/start_death",
    record_death: "/host/record_death", decide: "/host/decide", adjust: "/host/adjust",
    end: "/host/end", close_vault: "/host/close_vault", mm_rounds: "/host/mm_rounds",
    pause: "/host/pause", resume: "/host/resume", extend: "/host/extend", deadline: "/host/deadline",
  };

  // SE-7: a local date and time from the form, sent as ISO 8601 with this browser's offset.
  function withOffset(local) {
    const d = new Date(local);
    if (isNaN(d.getTime())) return local;
    const off = -d.getTimezoneOffset(), sign = off >= 0 ? "+" : "-", a = Math.abs(off);
    const two = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:` +
      `${two(d.getMinutes())}:00${sign}${two(Math.floor(a / 60))}:${two(a % 60)}`;
  }

  function body(kind, form) {
    const fd = new FormData(form);
    const out = {};
    if (kind === "record_main") {
      const result = { escaped: [], trapped: [], bars: {}, ec: null, opal: null };
      for (const [k, v] of fd.entries()) {
        if (k.startsWith("status:")) result[v === "escaped" ? "escaped" : "trapped"].push(k.slice(7));
        else if (k.startsWith("bars:")) result.bars[k.slice(5)] = parseInt(v, 10) || 0;
      }
      result.ec = fd.get("ec") || null;
      result.opal = fd.get("opal") || null;
      return { result, reason: fd.get("reason") || "" };
    }
    if (kind === "extend") return { seconds: Math.round(parseFloat(fd.get("minutes")) * 60) };
    if (kind === "deadline") return { at: withOffset(fd.get("at")) };
    if (kind === "start_death") {
      const settings = { bot_pace: fd.get("bot_pace") };
      const scale = fd.get("time_scale");
      if (scale) settings.time_scale = Number(scale);
      let config = {};
      const raw = (fd.get("config") || "").trim();
      if (raw) { try { config = JSON.parse(raw); } catch (e) { config = raw; } }
      return { game: fd.get("game"), settings, config };
    }
    for (const [k, v] of fd.entries()) out[k] = v;
    if (kind === "adjust") out.amount = parseInt(out.amount, 10);
    if (kind === "mm_rounds") out.max_rounds = parseInt(out.max_rounds, 10);
    if (kind === "record_death" && !out.game) delete out.game;
    return out;
  }

  async function send(kind, form) {
    const err = form.querySelector(".error-text");
    const button = form.querySelector("button[type=submit]");
    if (err) err.textContent = "";
    if (button) button.disabled = true;
    busy = true;
    try {
      const r = await fetch(api + endpoints[kind] + q, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body(kind, form)),
      });
      const data = await r.json().catch(() => ({ ok: false, error: "the server did not answer" }));
      if (r.ok && data.ok) { location.reload(); return; }
      if (err) err.innerHTML = linkRules(data.error || "refused");
    } catch (e) {
      if (err) err.textContent = "The server could not be reached; try again.";
    } finally {
      if (button) button.disabled = false;
      busy = false;
    }
  }

  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function linkRules(text) {
    const t = escapeHtml(text);
    return t.charAt(0).toUpperCase() + t.slice(1).replace(/\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b/g,
      (id) => '<a href="/rulings#' + id + '">' + id + "</a>");
  }

  for (const form of document.querySelectorAll("form[data-form]")) {
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send(form.dataset.form, form); });
  }

  // The step's clock: text only, counted against the server's time at render.
  const skew = (() => {
    const el = document.querySelector(".se-countdown");
    return el ? parseFloat(el.dataset.now) * 1000 - Date.now() : 0;
  })();
  function tick() {
    for (const el of document.querySelectorAll(".se-countdown")) {
      const left = Math.max(0, Math.round(parseFloat(el.dataset.deadline) - (Date.now() + skew) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
    }
  }
  tick();
  setInterval(tick, 1000);
  // SE-7: a deadline in the viewer's own clock time.
  for (const el of document.querySelectorAll("time.se-local")) {
    const d = new Date(parseFloat(el.dataset.at) * 1000);
    el.textContent = d.toLocaleString([], { weekday: "short", year: "numeric", month: "short",
      day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  }

  // Follow the season: reload on a new version or a match's end, unless a form is being used.
  let seen = null;
  function signature(data) {
    const statuses = [];
    for (const ep of data.episodes) {
      for (const block of [ep.main, ep.death_match]) {
        if (block && block.links) statuses.push(block.links.status || "");
      }
    }
    return data.version + ":" + data.stage + ":" + statuses.join(",");
  }
  function editing() {
    const a = document.activeElement;
    if (a && a.closest && a.closest("form")) return true;
    return [...document.querySelectorAll("form[data-form] input[type=radio]")].some((r) => r.checked);
  }
  async function poll() {
    try {
      const r = await fetch(api + q, { headers: { Accept: "application/json" } });
      if (r.ok) {
        const data = await r.json();
        const sig = signature(data);
        if (seen === null) { seen = sig; if (data.version !== boot.version && !editing()) { location.reload(); return; } }
        else if (sig !== seen && !busy && !editing()) { location.reload(); return; }
      }
    } catch (e) { /* the next poll tries again */ }
    setTimeout(poll, 1500);
  }
  poll();
})();
