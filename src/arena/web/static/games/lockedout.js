/* Locked Out!: the vault as the server draws it for this seat (view.svg), the seat's hand,
   lights and deduction helper, the public news, and controls that compose the rule text's own
   notation (LO-10), one command a line:
     Solo, Safe C, Left 3 Right 1
     Dual, Safe C, Left 4 with Alice
     Bargain, Safe C, Claim 1 Gold bars, 0 Keys
     Vote Alice            (the elimination vote, LO-9)
   Drafts survive the re-renders that every live update causes. */
(function () {
  "use strict";

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const draft = { phase: null, solo: false, soloSafe: "", soloL: "1", soloR: "1",
    dual: false, dualSafe: "", dualSide: "left", dualValue: "1", dualPartner: "", claims: {}, vote: "" };

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "testid") node.dataset.testid = v;
      else if (k === "text") node.textContent = v;
      else if (k === "html") node.innerHTML = v;
      else node.setAttribute(k, v);
    }
    for (const c of children || []) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return node;
  }

  function select(testid, options, value, onChange) {
    const s = el("select", { testid: testid });
    for (const [v, label] of options) {
      const o = el("option", { value: v, text: label });
      if (String(v) === String(value)) o.selected = true;
      s.appendChild(o);
    }
    s.addEventListener("change", () => onChange(s.value));
    return s;
  }

  function checkbox(testid, checked, onChange) {
    const c = el("input", { type: "checkbox", testid: testid });
    c.checked = !!checked;
    c.addEventListener("change", () => onChange(c.checked));
    return c;
  }

  const CARDS = [["1", "1"], ["2", "2"], ["3", "3"], ["4", "4"]];

  function infoHtml(st) {
    const seats = st.seats.map((s) =>
      "<tr" + (st.you && st.you.seat === s.seat ? ' class="me"' : "") + "><td>" + esc(s.name) + "</td><td>" +
      (s.inside ? "inside" : "escaped (round " + s.escaped_round + ")") + "</td><td>" + s.keys + "</td><td>" +
      s.bars + "</td><td>" + s.cards + "</td><td>" + s.safes_opened + "</td></tr>").join("");
    let mine = "";
    if (st.you) {
      const hand = Object.entries(st.you.hand).map(([v, n]) => n + "× " + v).join(", ");
      const lights = st.you.lights.map((x) =>
        '<li><span class="lo-dot" style="background:' + esc(x.colour) + '"></span> ' + esc(x.note) + "</li>").join("");
      const ded = st.you.deduction;  /* present only when the host enables the helper (LO-12) */
      const rows = !ded ? "" : Object.entries(ded.safes).filter(([, s]) => s.status === "closed").map(([name, s]) =>
        "<tr><td>" + name + "</td><td>" + s.possible.length + "</td><td>" +
        (s.possible.length <= 6 ? s.possible.map((c) => c[0] + "-" + c[1]).join(" ") : "…") + "</td></tr>").join("");
      mine = '<div class="lo-you"><h4>Your hand</h4><p data-testid="lo-hand">' + esc(hand || "no cards") + "</p>" +
        "<h4>Your lights</h4><ul data-testid=\"lo-lights\">" + (lights || '<li class="muted">none yet</li>') + "</ul>" +
        (!ded ? '<p class="muted small" data-testid="lo-helper-off">The deduction helper is off in this match (the host can allow it, LO-12).</p></div>' :
        '<h4>Deduction helper</h4><p class="muted small" data-testid="lo-mappings">Mappings still possible (colours of C1, C2, C3): ' +
        esc(ded.mappings.join(", ")) + '</p><table class="lo-ded" data-testid="lo-deduction"><tr><th>Safe</th><th>#</th><th>Still possible</th></tr>' +
        rows + "</table>" + (ded.suggestions && ded.suggestions.length ? '<p class="small" data-testid="lo-suggest">Best solo guesses: ' +
        ded.suggestions.map((g) => "Safe " + esc(g.safe) + " " + g.guess.join("-") + " (" + Math.round(g.p_open * 100) + "%)").join(", ") + "</p>" : "") + "</div>");
    }
    let end = "";
    if (st.end_reason) {
      const ec = st.ec == null ? "" : " Elimination Candidate: <b>" + esc(st.names[st.ec]) + "</b>.";
      const win = (st.winners || []).map((w) => esc(st.names[w])).join(", ");
      end = '<p class="lo-end" data-testid="lo-end">The vault is done: ' + esc(st.end_reason) + "." +
        (win ? " Most gold among the escaped: <b>" + win + "</b>." : "") + ec + "</p>";
    }
    const news = st.news.slice(-12).map((n) => "<li>" + esc(n) + "</li>").join("");
    return '<div class="lo-info">' + end + '<table class="lo-seats" data-testid="lo-seats"><tr><th>Player</th><th></th><th>Keys</th><th>Bars</th><th>Cards</th><th>Opened</th></tr>' +
      seats + "</table>" + mine + '<h4>Announcements</h4><ul data-testid="lo-news">' +
      (news || '<li class="muted">nothing yet</li>') + "</ul></div>";
  }

  function controls(view, api) {
    const st = view.state;
    const you = st.you;
    const box = el("div", { class: "lo-controls", testid: "lo-controls" });
    if (!view.phase || api.seat == null || !you || api.replay) return box;
    if (draft.phase !== view.phase.no) {
      draft.phase = view.phase.no;
      draft.solo = false; draft.dual = false; draft.claims = {};
    }
    const msg = el("p", { class: "lo-msg", testid: "lo-msg" });
    const me = st.seats[you.seat];
    const closed = st.safes.filter((s) => s.status === "closed").map((s) => [s.safe, "Safe " + s.safe]);
    if (!draft.soloSafe && closed.length) draft.soloSafe = closed[0][0];
    if (!draft.dualSafe && closed.length) draft.dualSafe = closed[0][0];
    const partners = st.seats.filter((s) => s.inside && s.seat !== you.seat).map((s) => [s.name, s.name]);
    if (!draft.dualPartner && partners.length) draft.dualPartner = partners[0][0];

    const compose = () => {
      const lines = [];
      if (st.stage === "vote") return draft.vote ? "Vote " + draft.vote : "";
      for (const safe of you.bargains) {
        const c = draft.claims[safe] || { bars: "0", keys: "0" };
        lines.push("Bargain, Safe " + safe + ", Claim " + c.bars + " Gold bars, " + c.keys + " Keys");
      }
      if (st.stage === "round" && draft.solo) lines.push("Solo, Safe " + draft.soloSafe + ", Left " + draft.soloL + " Right " + draft.soloR);
      if (st.stage === "round" && draft.dual) lines.push("Dual, Safe " + draft.dualSafe + ", " +
        (draft.dualSide === "left" ? "Left" : "Right") + " " + draft.dualValue + " with " + draft.dualPartner);
      return lines.join("\n") || "pass";
    };
    const send = async () => {
      const text = compose();
      api.setNotation(text);
      const r = await api.submit(text, true);
      msg.textContent = r.ok ? "Sent: " + text.replace(/\n/g, " · ") : r.error;
    };

    if (st.stage === "vote") {
      if (!me.inside && !(st.winners || []).includes(you.seat)) return box;
      const inside = st.seats.filter((s) => s.inside).map((s) => [s.name, s.name]);
      if (!draft.vote && inside.length) draft.vote = inside[0][0];
      box.appendChild(el("h4", { text: me.inside ? "Vote for the Elimination Candidate" : "Break a tie: your choice" }));
      box.appendChild(el("div", { class: "row" }, [select("lo-vote-target", inside, draft.vote, (v) => { draft.vote = v; })]));
    } else if (me.inside) {
      if (st.stage === "round" && closed.length) {
        const soloOn = checkbox("lo-solo-on", draft.solo, (v) => { draft.solo = v; });
        const solo = (key) => (v) => { draft[key] = v; draft.solo = true; soloOn.checked = true; };
        box.appendChild(el("div", { class: "row lo-row" }, [
          el("label", {}, [soloOn, " Solo"]),
          select("lo-solo-safe", closed, draft.soloSafe, solo("soloSafe")),
          " Left ", select("lo-solo-left", CARDS, draft.soloL, solo("soloL")),
          " Right ", select("lo-solo-right", CARDS, draft.soloR, solo("soloR")),
        ]));
        if (partners.length) {
          const dualOn = checkbox("lo-dual-on", draft.dual, (v) => { draft.dual = v; });
          const dual = (key) => (v) => { draft[key] = v; draft.dual = true; dualOn.checked = true; };
          box.appendChild(el("div", { class: "row lo-row" }, [
            el("label", {}, [dualOn, " Dual"]),
            select("lo-dual-safe", closed, draft.dualSafe, dual("dualSafe")),
            select("lo-dual-side", [["left", "Left"], ["right", "Right"]], draft.dualSide, dual("dualSide")),
            select("lo-dual-value", CARDS, draft.dualValue, dual("dualValue")),
            " with ", select("lo-dual-partner", partners, draft.dualPartner, dual("dualPartner")),
          ]));
        }
      }
      for (const safe of you.bargains) {
        const c = draft.claims[safe] || (draft.claims[safe] = { bars: "0", keys: "0" });
        box.appendChild(el("div", { class: "row lo-row" }, [
          "Bargain, Safe " + safe + ": claim ",
          select("lo-claim-bars-" + safe, [["0", "0"], ["1", "1"], ["2", "2"]], c.bars, (v) => { c.bars = v; }),
          " gold bars, ",
          select("lo-claim-keys-" + safe, [["0", "0"], ["1", "1"]], c.keys, (v) => { c.keys = v; }),
          " keys",
        ]));
      }
    } else {
      box.appendChild(el("p", { class: "muted", text: "You have escaped; you take no further part." }));
      return box;
    }
    const sendBtn = el("button", { type: "button", testid: "lo-send", text: st.stage === "vote" ? "Vote" : "Send (final)" });
    sendBtn.addEventListener("click", send);
    const passBtn = el("button", { type: "button", class: "secondary", testid: "lo-pass", text: "Pass" });
    passBtn.addEventListener("click", async () => {
      api.setNotation("pass");
      const r = await api.submit("pass", true);
      msg.textContent = r.ok ? "Sent: pass" : r.error;
    });
    box.appendChild(el("div", { class: "row" }, st.stage === "vote" ? [sendBtn] : [sendBtn, passBtn]));
    box.appendChild(msg);
    return box;
  }

  function describe(e, view) {
    const d = e.data || {};
    const names = (view && view.state && view.state.names) || [];
    const who = (seat) => esc(names[seat] != null ? names[seat] : "Seat " + (seat + 1));
    const list = (seats) => (seats || []).map(who).join(", ");
    switch (e.kind) {
      case "light": return "Light: " + esc(d.note);
      case "safe_opened": return "Safe " + esc(d.safe) + " opened by " + list(d.seats);
      case "safe_taken": return who(d.seat) + " took Safe " + esc(d.safe) + "'s 2 gold bars and key";
      case "safe_closed": return "Safe " + esc(d.safe) + " closed: combination " + d.combination.join("-");
      case "bargain_opened": return list(d.seats) + " bargain over Safe " + esc(d.safe);
      case "bargain_resolved": return "Bargain for Safe " + esc(d.safe) + (d.agreed ? " agreed" : " failed");
      case "escaped": return "<b>" + esc(d.name) + " escaped</b> with " + d.bars + " gold bars";
      case "round_over": return "Round " + d.round + " over";
      case "vault_done": return "The vault is done: " + esc(d.reason);
      case "ec_chosen": return "Elimination Candidate: <b>" + esc(d.name) + "</b> (" + esc(d.how) + ")";
      default: return null;
    }
  }

  Arena.registerGame("lockedout", {
    describe: describe,
    render(root, view, api) {
      const st = view.state;
      root.innerHTML = "";
      const style = el("style", { text:
        ".lo-wrap{display:flex;flex-wrap:wrap;gap:16px}.lo-board svg{max-width:100%;height:auto}" +
        ".lo-dot{display:inline-block;width:12px;height:12px;border-radius:50%;border:1px solid #888;vertical-align:middle}" +
        ".lo-seats td,.lo-seats th,.lo-ded td,.lo-ded th{padding:2px 8px;text-align:left}.lo-seats tr.me{font-weight:bold}" +
        ".lo-row{margin:6px 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}" });
      root.appendChild(style);
      const board = el("div", { class: "lo-board", testid: "lo-board", html: view.svg || "" });
      const info = el("div", { class: "lo-side", html: st && st.seats ? infoHtml(st) : "" });
      root.appendChild(el("div", { class: "lo-wrap" }, [board, info]));
      if (st && st.seats) root.appendChild(controls(view, api));
    },
  });
})();
