/* Paint Factory: your own grid (the server's SVG: colours, letters and patterns), what you
   know (the sets shown, the rest of the set you picked, your score so far) and the controls of
   each decision, which compose the notation and submit it:
   - design: 8 sets for your opponent, first-entering colour first ("GRBR,RGBB,...", PF-4);
   - pick: one button per shown set ("pick 5", PF-5);
   - shove: one button per legal action ("1", "A", "B then 1", PF-2/PF-3);
   - last: R, G or B for the last container on A1 (PF-5). */
(function () {
  "use strict";

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const slug = (text) => String(text).replace(/\s+/g, "_");
  const NAMES = { R: "red", G: "green", B: "blue" };
  const EXAMPLE = "RGBR,GBRG,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR";
  const draft = { design: "" };

  function chip(colour) {
    return '<span class="paint-chip paint-' + esc(colour) + '" title="' + esc(NAMES[colour] || colour) +
      '" style="display:inline-block;min-width:1.4em;text-align:center;font-weight:bold;border:1px solid #333;' +
      "border-radius:4px;margin:0 1px;color:#fff;background:" +
      ({ R: "#D55E00", G: "#009E73", B: "#0072B2" }[colour] || "#999") + '">' + esc(colour) + "</span>";
  }
  const chips = (text) => String(text).split("").map(chip).join("");

  function infoHtml(st) {
    const you = st.you || {};
    const lines = [];
    const stage = { design: "Set design", pick: "Pick a set", shove: "Shove", last: "Last container", over: "Game over" }[st.stage] || st.stage;
    lines.push('<p data-testid="paint-status">' + esc(stage) + (st.stage !== "design" ? " · turn " + st.turn + " of " + st.turns + " · showing " + st.showing + " of 6" : "") + "</p>");
    if (you.score && st.stage !== "design") {
      lines.push('<p data-testid="paint-score">Score so far: <b>' + esc(you.score.score) + "</b> · non-connected " + esc(you.score.non_connected) + "</p>");
    }
    if (you.coming) lines.push("<p>Still to enter from this set: " + chips(you.coming) + "</p>");
    if (you.picked && you.picked.length) {
      lines.push("<p>Picked: " + you.picked.map((p) => "#" + p.number + " " + chips(p.set)).join(" · ") + "</p>");
    }
    if (you.designed) lines.push('<p class="muted">Sets you designed for your opponent: ' + esc(String(you.designed).replace(/^seat \d+ designed /, "")) + "</p>");
    return '<div class="paint-info" data-testid="paint-info">' + lines.join("") + "</div>";
  }

  function controls(root, view, api) {
    const st = view.state || {};
    const you = st.you;
    const box = document.createElement("div");
    box.className = "paint-controls";
    box.dataset.testid = "paint-controls";
    if (!view.phase || api.seat == null || !you || api.replay) return box;
    const msg = document.createElement("p");
    msg.className = "paint-msg";
    msg.dataset.testid = "paint-msg";
    const send = async (text) => {
      if (api.setNotation) api.setNotation(text);
      const r = await api.submit(text, true);
      msg.textContent = r.ok ? "Sent: " + text : r.error;
    };
    const button = (label, testid, fn, cls) => {
      const b = document.createElement("button");
      b.type = "button";
      b.innerHTML = label;
      b.dataset.testid = testid;
      if (cls) b.className = cls;
      b.addEventListener("click", fn);
      return b;
    };

    if (st.stage === "design") {
      box.insertAdjacentHTML("beforeend", "<p>Eight sets of four for your opponent, the first colour to enter first, " +
        "separated by commas. At least five sets hold all three colours; no two sets are the same; at most one set " +
        "has three of a colour; none has four; at most 13 of a colour in all.</p>");
      const input = document.createElement("input");
      input.type = "text";
      input.size = 48;
      input.placeholder = EXAMPLE;
      input.value = draft.design;
      input.dataset.testid = "paint-design";
      input.addEventListener("input", () => { draft.design = input.value; });
      box.appendChild(input);
      box.appendChild(button("Submit sets", "paint-design-submit", () => send(input.value.trim())));
      box.appendChild(button("Fill an example", "paint-design-example", () => { draft.design = EXAMPLE; input.value = EXAMPLE; }, "secondary"));
    } else if (st.stage === "pick") {
      box.insertAdjacentHTML("beforeend", "<p>Pick one set; its containers enter one per turn, left first.</p>");
      for (const s of you.shown || []) {
        box.appendChild(button("Set " + s.number + ": " + chips(s.set), "paint-pick-" + s.number, () => send("pick " + s.number)));
      }
    } else if (st.stage === "shove") {
      box.insertAdjacentHTML("beforeend", "<p>Clear A1: shove a row right (1-5), a column down (A-E), or one of each.</p>");
      const list = document.createElement("div");
      list.className = "paint-actions";
      for (const a of you.legal || []) {
        const b = button(esc(a), "paint-shove-" + slug(a), () => send(a), "small");
        const after = (you.previews || {})[a];
        if (after) b.title = "leaves:\n" + after.join("\n");
        list.appendChild(b);
      }
      box.appendChild(list);
    } else if (st.stage === "last") {
      box.insertAdjacentHTML("beforeend", "<p>Choose the colour of the last container (it fills A1).</p>");
      for (const c of ["R", "G", "B"]) {
        box.appendChild(button(chip(c) + " " + NAMES[c], "paint-last-" + c, () => send(c)));
      }
    }
    box.appendChild(msg);
    return box;
  }

  function render(root, view, api) {
    const st = view.state || {};
    root.innerHTML = (view.svg ? '<div class="svg-board" data-testid="paint-board">' + view.svg + "</div>" : "") + infoHtml(st);
    root.appendChild(controls(root, view, api));
  }

  function describe(e, view) {
    const d = e.data || {};
    switch (e.kind) {
      case "sets_sealed": return "Both designs are in.";
      case "shown": return "Showing " + d.showing + ": " + d.sets.map((s) => "#" + s.number + " " + chips(s.set)).join(" · ");
      case "picked": return "You picked set " + d.number + " " + chips(d.set);
      case "entered": return "Turn " + d.turn + ": " + chip(d.colour) + " enters A1";
      case "shoved": return "Turn " + d.turn + ": shoved <code>" + esc(d.action) + "</code>";
      case "grids_full": return "Both grids are full: scores " + d.scores.map(esc).join(" / ");
      case "turn": return "Turn " + d.turn + " of 25";
      case "defaulted": return "Seat " + (d.seat + 1) + " had no decision; it was made for them: <code>" + esc(d.value) + "</code>";
      default: return null;
    }
  }

  window.Arena.registerGame("paint", { render: render, describe: describe });
})();
