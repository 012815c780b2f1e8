/* Box within a Box within a Box: both boards (the server's SVG), the bout's cards, and the
   controls of each phase, which compose the game's notation and submit it:
   - study phases: a Ready button ("ready");
   - betting: three condition + stake rows ("black and 2: 3; 6: 1; 7 or 9: 2"), or "none";
   - picks: the remaining cards, then each legal movement of the chosen card ("17 R2D1"),
     and Pass only when no card can move the box (BX-7).
   Drafts survive the re-renders that every live update causes. */
(function () {
  "use strict";

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const draft = { phase: null, conds: ["", "", ""], stakes: ["1", "1", "1"], card: null };
  const slug = (text) => String(text).replace(/\s+/g, "_");

  function cardLabel(c) {
    return "#" + c.number + " " + c.type + " · " + c.move + (c.special ? " · " + c.special : "");
  }

  function infoHtml(st) {
    const hand = new Set(st.hand || []);
    const left = {};
    for (const n of st.hand || []) left[n] = (left[n] || 0) + 1;
    const cards = (st.cards || []).map((c) => {
      const live = left[c.number] > 0;
      if (live) left[c.number] -= 1;
      return '<li class="' + (live ? "" : "muted") + '" data-testid="boxes-hand-' + c.number + '">' +
        (live ? "" : "<s>") + esc(cardLabel(c)) + (live ? "" : "</s>") + "</li>";
    }).join("");
    const pts = (st.points || []).map((p, i) => "Board " + "AB"[i] + ": <b>" + esc(p) + "</b>").join(" · ");
    let round = "";
    if (st.stage === "pick") round = " · round " + st.round + " of 4";
    const last = (st.last_round || []).map((p) =>
      "<li>Seat " + (p.seat + 1) + " → board " + p.board + ": <code>" + esc(p.move) + "</code>" +
      (p.landed.length ? " landed " + p.landed.map((x) => esc(x.cell + " " + x.tile)).join(", ") : "") + "</li>").join("");
    const done = (st.bouts_done || []).map((b) =>
      "<li>Bout " + b.bout + ": " + b.bets.map((side, i) => "seat " + (i + 1) + " " +
        (side.length ? side.map((x) => esc(x.condition + ": " + x.stake + " → " + x.hits + " hit(s), paid " + x.payout)).join("; ") : "no bets")).join(" | ") + "</li>").join("");
    return '<div class="boxes-info" data-testid="boxes-info">' +
      '<p data-testid="boxes-status">Bout ' + st.bout + " of " + st.bouts + round + " · " + pts + "</p>" +
      (cards ? "<h4>This bout's cards</h4><ul class=\"boxes-cards\">" + cards + "</ul>" : "") +
      (last ? "<h4>Last round</h4><ul>" + last + "</ul>" : "") +
      (done ? "<h4>Finished bouts</h4><ul data-testid=\"boxes-bouts\">" + done + "</ul>" : "") +
      "</div>";
  }

  function controls(root, view, api) {
    const st = view.state;
    const you = st.you;
    const box = document.createElement("div");
    box.className = "boxes-controls";
    box.dataset.testid = "boxes-controls";
    if (!view.phase || api.seat == null || !you || api.replay) return box;
    const phaseNo = view.phase.no;
    if (draft.phase !== phaseNo) {
      draft.phase = phaseNo;
      draft.card = null;
    }
    const msg = document.createElement("p");
    msg.className = "boxes-msg";
    msg.dataset.testid = "boxes-msg";
    const send = async (text) => {
      api.setNotation(text);
      const r = await api.submit(text, true);
      msg.textContent = r.ok ? "Sent: " + text : r.error;
    };
    const button = Arena.button;

    if (st.stage === "study boards" || st.stage === "study cards") {
      box.appendChild(button("Ready", "boxes-ready", () => send("ready")));
    } else if (st.stage === "bet") {
      const need = you.bets_needed;
      const sealed = you.sealed ? '<p class="muted">' + esc(you.sealed) + "</p>" : "";
      box.insertAdjacentHTML("beforeend", "<p>Bet on " + need + " different condition(s) " +
        '(e.g. <code>black and 2</code>, <code>6</code>, <code>7 or 9</code>).</p>' + sealed);
      if (need === 0) {
        box.appendChild(button("Nothing to bet", "boxes-none", () => send("none")));
      }
      for (let i = 0; i < need; i++) {
        const row = document.createElement("div");
        row.className = "boxes-bet-row";
        const cond = document.createElement("input");
        cond.type = "text";
        cond.placeholder = "condition";
        cond.value = draft.conds[i];
        cond.dataset.testid = "boxes-cond-" + i;
        cond.addEventListener("input", () => { draft.conds[i] = cond.value; });
        const stake = document.createElement("input");
        stake.type = "number";
        stake.min = "1";
        stake.step = "1";
        stake.value = draft.stakes[i];
        stake.style.width = "5em";
        stake.dataset.testid = "boxes-stake-" + i;
        stake.addEventListener("input", () => { draft.stakes[i] = stake.value; });
        row.appendChild(cond);
        row.appendChild(document.createTextNode(" stake "));
        row.appendChild(stake);
        box.appendChild(row);
      }
      if (need > 0) {
        box.appendChild(button("Place bets", "boxes-bet", () => {
          const parts = [];
          for (let i = 0; i < need; i++) parts.push(draft.conds[i].trim() + ": " + String(draft.stakes[i]).trim());
          send(parts.join("; "));
        }));
      }
    } else if (st.stage === "pick" && you.pick) {
      const pick = you.pick;
      box.insertAdjacentHTML("beforeend", "<p>Your card moves the box on board <b>" + pick.board +
        "</b> (now on " + esc(pick.box) + ").</p>");
      const cards = document.createElement("div");
      cards.className = "boxes-card-buttons";
      for (const c of pick.cards) {
        const b = button("#" + c.card + (c.moves.length ? "" : " (cannot move)"), "boxes-card-" + c.card,
          () => { draft.card = c.card; if (root.boxesDraw) root.boxesDraw(); },
          draft.card === c.card ? "" : "secondary");
        b.disabled = !c.moves.length;
        cards.appendChild(b);
      }
      box.appendChild(cards);
      const chosen = pick.cards.find((c) => c.card === draft.card);
      if (chosen) {
        const list = document.createElement("div");
        list.className = "boxes-moves";
        list.dataset.testid = "boxes-moves";
        for (const m of chosen.moves) {
          const b = button(m.text + " → " + m.to, "boxes-move-" + slug(m.text), () => send(m.text), "small secondary");
          b.title = "path " + m.path + "; lands on " + (m.landings.join(", ") || "nothing");
          list.appendChild(b);
        }
        box.appendChild(list);
      }
      if (pick.may_pass) box.appendChild(button("Pass (no card can move the box)", "boxes-pass", () => send("pass")));
    }
    box.appendChild(msg);
    return box;
  }

  function render(root, view, api) {
    const st = view.state || {};
    const draw = () => {
      root.innerHTML = (view.svg ? '<div class="svg-board" data-testid="boxes-board">' + view.svg + "</div>" : "") + infoHtml(st);
      root.appendChild(controls(root, view, api));
    };
    root.boxesDraw = draw;  // a card click redraws with the latest view
    draw();
  }

  function describe(e, view) {
    const d = e.data || {};
    const mine = view && view.you === d.seat;
    switch (e.kind) {
      case "bout_started":
        return "<b>Bout " + d.bout + "</b> cards: " + d.cards.map((c) => "#" + c.number).join(", ") + (d.bonus ? " (+" + d.bonus + " points each)" : "");
      case "betting_opened": return "Betting opens for bout " + d.bout;
      case "bets_sealed": return "Bets sealed for bout " + d.bout;
      case "your_bets": return (mine ? "Your" : "Seat " + (d.seat + 1) + "'s") + " bets for bout " + d.bout + ": <code>" + esc(d.bets) + "</code>";
      case "round_played":
        return "Bout " + d.bout + " round " + d.round + ": " + d.plays.map((p) => "seat " + (p.seat + 1) + " <code>" + esc(p.move) + "</code> on " + p.board + (p.landed.length ? " (landed " + p.landed.map((x) => esc(x.cell + " " + x.tile)).join(", ") + ")" : "")).join("; ");
      case "bout_settled":
        return "Bout " + d.bout + " settled: points " + d.points.map(esc).join(" / ");
      default: return null;
    }
  }

  window.Arena.registerGame("boxes", { render: render, describe: describe });
})();
