/* The match part of a create-match form: the game, its options from its settings schema, the
   match settings and the seats. The lobby's "New match" and the season host's "Start the
   Death Match" are this one component (docs/season-engine.md 3), so a Death Match is set up
   exactly as a lobby match is and the season can forward the very body POST /api/matches
   takes. What happens with that body (the lobby's POST and links, the season's act) stays
   with the page that uses the form.

   Fields are uncontrolled (read from the form on submit, as the lobby always did): a page
   that re-renders on every update (the season board) never resets half-typed values. */
import { html, useState, useEffect, useRef, RuleText } from "/static/ui.js";

const HEAD = /^((?:[A-Z]{1,4}-\d{1,3})(?:,\s*[A-Z]{1,4}-\d{1,3})*):\s*/;

/* A field's help reads "LO-11: seconds per round"; a host reads the words first, so the forms
   put them first and link the rule after them. */
export function Help({ text, id }) {
  const s = String(text || "");
  const m = HEAD.exec(s);
  const words = m ? s.slice(m[0].length) : s;
  return html`<span class="opt-help" id=${id}><${RuleText} text=${words.charAt(0).toUpperCase() + words.slice(1)}/>${m
    ? html` (<${RuleText} text=${m[1]}/>)` : ""}</span>`;
}

/* G-5 in plain words: the time scale multiplies every duration. */
export const TIME_SCALE_HELP = "multiplies every duration: 2 doubles each one, 0.5 halves it, 1 keeps the rule texts' durations";

const LEVELS = [["easy", "Easy"], ["normal", "Normal"], ["hard", "Hard"]];

/* The named values of a setting whose game lists them at an address of its own (the option's
   choices_from, e.g. a game's saved puzzles by name), for the setting's select, its default
   first. Module state, loaded once before the form mounts: the options are uncontrolled, so a
   select that replaced a text box after the first render would drop what the host had typed. */
const optionChoices = new Map();
export async function loadOptionChoices(games) {
  const wanted = new Map();
  for (const g of games) for (const o of g.options) if (o.choices_from) wanted.set(o.choices_from, o);
  await Promise.all([...wanted].map(async ([url, o]) => {
    const r = await fetch(url, { headers: { Accept: "application/json" } })
      .then(async (res) => ({ ok: res.ok, data: await res.json().catch(() => null) }))
      .catch(() => ({ ok: false }));
    if (!r.ok || !Array.isArray(r.data)) return;
    optionChoices.set(url, [{ name: o.default, label: o.default_words || "" },
      ...r.data.filter((s) => s.name !== o.default).map((s) => ({ name: s.name, label: s.title || s.note || "" }))]);
  }));
}

/* The name the server gives a seat left blank, the one its page will show ("Alice", "Bot 2"). */
function defaultName(game, i, kind) {
  const d = (game.default_names || [])[i];
  return d ? d[kind === "bot" ? 1 : 0] : (kind === "bot" ? "Bot " : "Seat ") + (i + 1);
}

const roleOf = (game, i) => (game.seats === 2 ? (i === 0 ? " (EC)" : " (DMO)") : "");

function LevelSelect({ p, i, level, setLevel }) {
  return html`<select name=${"seat-level-" + i} data-testid=${p + "seat-level-" + i}
    aria-label=${"Seat " + (i + 1) + " bot level"} value=${level}
    onChange=${(e) => setLevel(i, e.currentTarget.value)}>
    ${LEVELS.map(([v, t]) => html`<option value=${v}>${t}</option>`)}</select>`;
}

function SeatRow({ p, i, game, kind, level, setKind, setLevel }) {
  return html`<div class="seat-row">
    <span class="seat-no" aria-hidden="true">${i + 1}</span>
    <input name=${"seat-name-" + i} data-testid=${p + "seat-name-" + i} aria-label=${"Seat " + (i + 1) + " name"}
      placeholder=${defaultName(game, i, kind) + roleOf(game, i)} maxlength="40"/>
    <select name=${"seat-kind-" + i} data-testid=${p + "seat-kind-" + i} aria-label=${"Seat " + (i + 1) + " played by"}
      value=${kind} onChange=${(e) => setKind(i, e.currentTarget.value)}>
      <option value="human">Human</option><option value="bot">Bot</option>
    </select>
    ${kind === "bot" ? html`<${LevelSelect} p=${p} i=${i} level=${level} setLevel=${setLevel}/>` : ""}
  </div>`;
}

/* A seat whose player the page has already decided (the season's Death Match: the nominee
   and the one they named): only a bot's level is left to choose. */
function FixedSeatRow({ p, i, game, seat, level, setLevel }) {
  return html`<div class="seat-row">
    <span class="seat-no" aria-hidden="true">${i + 1}</span>
    <span class="seat-fixed" data-testid=${p + "seat-name-" + i}>${seat.name}<span class="muted">${roleOf(game, i)}</span>
      ${seat.bot ? html`<span class="tag">bot</span>` : ""}</span>
    ${seat.bot ? html`<${LevelSelect} p=${p} i=${i} level=${level} setLevel=${setLevel}/>` : ""}
  </div>`;
}

function listText(value) { return Array.isArray(value) ? value.join(", ") : ""; }

function Option({ o, p }) {
  const id = "opt-" + o.name;
  const helpId = p + "help-" + o.name;
  const unit = o.unit === "s" ? (o.scaled === false ? " (real seconds)" : " (seconds)") : "";
  const common = { name: id, "data-testid": p + id, "data-opt": o.name, "data-type": o.type, "aria-describedby": helpId };
  let input;
  if (o.type === "bool") {
    return html`<label class="check opt" title=${o.help}>
      <input type="checkbox" ...${common} defaultChecked=${!!o.default}/>
      <span><span class="opt-label">${o.label || o.name}</span><br/><${Help} text=${o.help} id=${helpId}/></span></label>`;
  } else if (o.type === "int" || o.type === "float") {
    input = html`<input type="number" step=${o.type === "int" ? "1" : "any"} min=${o.min} max=${o.max}
      ...${common} defaultValue=${String(o.default)}/>`;
  } else if (o.type === "list") {
    input = html`<input type="text" ...${common} defaultValue=${listText(o.default)} placeholder="separated by commas"/>`;
  } else if (o.type === "str" && (o.choices || (optionChoices.get(o.choices_from) || []).length)) {
    // A setting with named choices is a select (a difficulty; a puzzle by name: a new one,
    // the shipped ones and the library's, LF-12).
    const named = optionChoices.get(o.choices_from) || [];
    const choices = o.choices || named.map((c) => c.name);
    const title = (c) => { const found = named.find((x) => x.name === c); return found && found.label ? c + " — " + found.label : c; };
    input = html`<select ...${common} defaultValue=${o.default}>${choices.map((c) => html`<option value=${c} selected=${c === o.default}>${title(c)}</option>`)}</select>`;
  } else if (o.type === "str") {
    input = html`<input type="text" maxlength=${o.max_length} ...${common} defaultValue=${o.default}/>`;
  } else {
    input = html`<input type="text" ...${common} defaultValue=${JSON.stringify(o.default)}/>`;
  }
  return html`<label class="opt" title=${o.help}><span class="opt-label">${o.label || o.name}${unit}</span>${input}<${Help} text=${o.help} id=${helpId}/></label>`;
}

function readOption(o, input) {
  const t = input.dataset.type;
  if (t === "bool") return input.checked;
  if (t === "int" || t === "float") return Number(input.value);
  if (t === "str") return input.value;
  if (t === "list") {
    const parts = input.value.split(",").map((x) => x.trim()).filter((x) => x !== "");
    return o.item_type === "integer" || o.item_type === "number" ? parts.map(Number) : parts;
  }
  try { return JSON.parse(input.value); } catch (e) { throw new Error((o.label || o.name) + ": not valid JSON"); }
}

/* Only the options the host changed go in ``config``: a default the server later changes is
   then the server's, not a copy this page made. */
function readForm(form, game, kinds, levels, fixedSeats) {
  const seats = [];
  for (let i = 0; i < game.seats; i++) {
    const seat = fixedSeats ? { name: fixedSeats[i].name, bot: !!fixedSeats[i].bot }
      : { name: form["seat-name-" + i].value.trim(), bot: kinds[i] === "bot" };
    if (seat.bot) seat.level = levels[i] || "normal";
    seats.push(seat);
  }
  const config = {};
  for (const input of form.querySelectorAll("[data-opt]")) {
    const o = game.options.find((x) => x.name === input.dataset.opt);
    if (!o) continue;
    const value = readOption(o, input);
    if (JSON.stringify(value) !== JSON.stringify(o.default)) config[o.name] = value;
  }
  const body = {
    game: game.name, seats, config,
    settings: { time_scale: Number(form.time_scale.value || 1), early_close: form.early_close.checked,
      reveal_at_end: form.reveal_at_end.checked, bot_pace: form.bot_pace.value },
  };
  if (form.seed && form.seed.value !== "") body.seed = form.seed.value.trim();
  return body;
}

/* ``games``: /api/games entries to offer (the season passes its Death Match games). With
   ``fixedSeats`` ([{name, bot, level?}]) only games of that many seats are offered.
   ``onSubmit(body)`` may return (or resolve to) a refusal to show beside the button; a throw
   reads as the server being out of reach. ``testidPrefix`` prefixes every data-testid and
   element id, so the lobby (prefix "") and another form can share a page. ``initial`` is the
   game chosen first; ``onChooser(fn)`` hands out the form's game chooser (null on unmount)
   for buttons outside it, the lobby's game cards. ``settings`` ({time_scale, early_close,
   reveal_at_end, bot_pace}) are the settings' first values (a season's Death Match starts
   from the season's); ``seed: false`` leaves the seed out (the season seeds its matches). */
export function MatchForm({ games, fixedSeats, onSubmit, submitLabel, testidPrefix, initial, onChooser,
  settings, seed }) {
  const p = testidPrefix || "";
  const first = Object.assign({ time_scale: 1, early_close: true, reveal_at_end: true, bot_pace: "human" }, settings || {});
  const offered = fixedSeats ? games.filter((g) => g.seats === fixedSeats.length) : games;
  const [name, setName] = useState(offered.some((g) => g.name === initial) ? initial : (offered[0] || {}).name);
  const game = offered.find((g) => g.name === name);
  const fresh = (g) => Array.from({ length: g.seats }, (_, i) => (i > 0 ? "bot" : "human"));
  const freshLevels = (g) => (fixedSeats ? fixedSeats.map((s) => s.level || "normal")
    : Array.from({ length: g.seats }, () => "normal"));
  const [kinds, setKinds] = useState(() => (game ? fresh(game) : []));
  const [levels, setLevels] = useState(() => (game ? freshLevels(game) : []));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const formRef = useRef(null);

  const choose = (n) => {
    const g = offered.find((x) => x.name === n);
    if (!g) return;
    setName(n);
    // A fixed seat keeps its player and level whatever the game; the lobby's seats start over.
    if (!fixedSeats) { setKinds(fresh(g)); setLevels(freshLevels(g)); }
  };
  useEffect(() => {
    if (onChooser) onChooser(choose);
    return () => { if (onChooser) onChooser(null); };
  }, []);

  if (!game) return html`<p class="muted" data-testid=${p + "no-games"}>No game can be played with these seats.</p>`;

  const setKind = (i, k) => setKinds(kinds.map((x, j) => (j === i ? k : x)));
  const setLevel = (i, l) => setLevels(levels.map((x, j) => (j === i ? l : x)));

  async function submit(ev) {
    ev.preventDefault();
    setError("");
    let body;
    try { body = readForm(formRef.current, game, kinds, levels, fixedSeats); } catch (e) { setError(e.message); return; }
    setBusy(true);
    try {
      const refused = await onSubmit(body);
      if (refused) setError(String(refused));
    } catch (e) {
      setError("The server could not be reached; try again.");
    } finally {
      setBusy(false);
    }
  }

  return html`<form id=${p + "new-match"} data-testid=${p + "new-match"} autocomplete="off" ref=${formRef} onSubmit=${submit}>
      <div class="form-grid">
        <label>Game
          <select name="game" data-testid=${p + "new-game"} value=${name} onChange=${(e) => choose(e.currentTarget.value)}>
            ${offered.map((g) => html`<option value=${g.name}>${g.title}</option>`)}
          </select>
        </label>
        ${seed === false ? "" : html`<label>Seed <span class="muted">(blank = random)</span>
          <input name="seed" type="number" min="0" step="1" data-testid=${p + "new-seed"} placeholder="random"/>
        </label>`}
        <label>Time scale
          <input name="time_scale" type="number" min="0.001" max="1000" step="any" defaultValue=${String(first.time_scale)}
            data-testid=${p + "new-time-scale"} list=${p + "scales"} aria-describedby=${p + "help-time-scale"}/>
          <${Help} id=${p + "help-time-scale"} text=${"G-5: " + TIME_SCALE_HELP}/>
          <datalist id=${p + "scales"}><option value="1"/><option value="0.5"/><option value="0.25"/><option value="0.1"/><option value="0.05"/></datalist>
        </label>
        <label class="check"><input name="early_close" type="checkbox" defaultChecked=${!!first.early_close} data-testid=${p + "new-early-close"}/>
          <span>Early close: end a phase once every seat has confirmed (<a href="/rulings#G-4">G-4</a>)</span></label>
        <label class="check"><input name="reveal_at_end" type="checkbox" defaultChecked=${!!first.reveal_at_end} data-testid=${p + "new-reveal"}/>
          <span>Reveal everything private when the match ends (<a href="/rulings#G-9">G-9</a>)</span></label>
        <label>Bots answer <span class="muted">(<a href="/rulings#G-11">G-11</a>)</span>
          <select name="bot_pace" data-testid=${p + "new-bot-pace"}>
            <option value="human" selected=${first.bot_pace !== "instant"}>at a human pace</option>
            <option value="instant" selected=${first.bot_pace === "instant"}>at once</option>
          </select>
        </label>
      </div>
      <h3>Seats</h3>
      <p class="muted small">A bot's level: easy plays like a beginner, hard as well as it can.</p>
      <div id=${p + "seats"} class="seat-rows" key=${"seats-" + name}>
        ${fixedSeats
          ? fixedSeats.map((s, i) => html`<${FixedSeatRow} key=${i} p=${p} i=${i} game=${game} seat=${s} level=${levels[i] || "normal"} setLevel=${setLevel}/>`)
          : kinds.map((k, i) => html`<${SeatRow} key=${i} p=${p} i=${i} game=${game} kind=${k} level=${levels[i]} setKind=${setKind} setLevel=${setLevel}/>`)}
      </div>
      <details id=${p + "options-box"} open>
        <summary>Game options and durations (in seconds at time scale 1)</summary>
        <div id=${p + "options"} class="form-grid options" key=${"opts-" + name}>
          ${game.options.length ? game.options.map((o) => html`<${Option} key=${o.name} o=${o} p=${p}/>`)
            : html`<p class="muted">This game has no options.</p>`}
        </div>
      </details>
      <p class="form-actions">
        <button type="submit" data-testid=${p + "create"} disabled=${busy}>${submitLabel || "Create match"}</button>
        <span class="error-text" id=${p + "create-error"} data-testid=${p + "create-error"} role="alert">${error ? html`<${RuleText} text=${error}/>` : ""}</span>
      </p>
    </form>`;
}
