/* Light as a Feather's scenario editor (LF-7, LF-12).

   The host edits a scenario as plain data with form controls (sessions, buckets, basins,
   objectives); no TOML typing is needed. After every change (debounced) the page asks the
   server's checker (POST /api/scenarios/check), which answers every problem with its rule id
   and place, the TOML, each objective in words and the board as a player first sees it.
   The TOML can be pasted in (it is read back into the form) or copied out. A scenario is saved
   under a name with an author's note (POST /api/scenarios) and a match can be started with it.

   The page reads the API like any client; the server stays the only judge of a scenario. */
import { html, render, useState, useEffect, useRef, ErrorText, markup } from "/static/ui.js";

const POWERUPS = ["exchange", "modify", "sip", "lock", "accelerate"];
const MODES = [["any", "any amount"], ["eq", "exactly"], ["min", "at least"], ["max", "at most"], ["range", "between"]];
const CHECK_DELAY = 350;

const clone = (x) => JSON.parse(JSON.stringify(x));

/* A number input's value: a whole number when it reads as one, else the text as typed (the
   checker then names the problem, LF-7). */
function num(v) { return /^-?\d+$/.test(String(v).trim()) ? parseInt(v, 10) : v; }

function letter(i) { return "ABCDEFGH"[i] || "?"; }

/* A constraint (LF-7) is a number (exactly) or a table; the form shows the common shapes. */
function modeOf(c) {
  if (c === undefined) return "any";
  if (typeof c === "number") return "eq";
  if (c && typeof c === "object") {
    const keys = Object.keys(c).sort().join(",");
    if (keys === "eq") return "eq";
    if (keys === "min") return "min";
    if (keys === "max") return "max";
    if (keys === "max,min") return "range";
  }
  return "other";
}

function Constraint({ label, value, onChange, testid }) {
  const mode = modeOf(value);
  const lo = typeof value === "number" ? value : value && (value.eq ?? value.min ?? value.max);
  const hi = value && typeof value === "object" ? value.max : undefined;
  const setMode = (m) => {
    const base = lo ?? 1;
    onChange(m === "any" ? undefined : m === "eq" ? base : m === "range" ? { min: base, max: hi ?? base + 2 } : { [m]: base });
  };
  const setLo = (v) => onChange(mode === "eq" ? num(v) : mode === "range" ? { min: num(v), max: hi } : { [mode]: num(v) });
  if (mode === "other") {
    return html`<div class="fe-constraint"><span class="fe-label">${label}</span><span class="muted small">set in the TOML</span></div>`;
  }
  return html`<div class="fe-constraint" role="group" aria-label=${label}>
    <span class="fe-label">${label}</span>
    <select aria-label=${label + ": how"} data-testid=${testid + "-mode"} value=${mode} onChange=${(e) => setMode(e.target.value)}>
      ${MODES.map(([m, w]) => html`<option value=${m} selected=${m === mode}>${w}</option>`)}
    </select>
    ${mode !== "any" && html`<input type="number" step="1" aria-label=${label + (mode === "range" ? ": from" : "")} data-testid=${testid} value=${lo ?? ""} onInput=${(e) => setLo(e.target.value)}/>`}
    ${mode === "range" && html`<span>and</span><input type="number" step="1" aria-label=${label + ": to"} data-testid=${testid + "-max"} value=${hi ?? ""} onInput=${(e) => onChange({ min: lo, max: num(e.target.value) })}/>`}
  </div>`;
}

function Problems({ problems, where }) {
  const mine = problems.filter((p) => where === undefined || p.where === where || p.where.startsWith(where + ".") || p.where.startsWith(where + "["));
  if (!mine.length) return null;
  return html`<ul class="fe-inline-problems">${mine.map((p) => html`<li><${ErrorText} message=${p.rule + ": " + p.message} game="feather"/></li>`)}</ul>`;
}

/* ------------------------------------------------------------------ one objective */
function ObjectiveEditor({ obj, s, i, words, problems, set, remove }) {
  const where = `sessions[${s}].objectives[${i}]`;
  const field = (k, v) => { const o = clone(obj); if (v === undefined || v === "" || v === false) delete o[k]; else o[k] = v; set(o); };
  const reward = obj.reward && typeof obj.reward === "object" ? obj.reward : {};
  const setReward = (k, v) => { const r = { ...reward }; if (v === 0 || v === "") delete r[k]; else r[k] = v; field("reward", r); };
  const count = obj.buckets;
  const tid = `editor-objective-${s}-${i}`;
  const bad = problems.some((p) => p.where === where || p.where.startsWith(where + "."));
  return html`<fieldset class=${"fe-objective" + (bad ? " fe-bad" : "")} data-testid=${tid}>
    <legend>Objective ${obj.id ?? i + 1}</legend>
    <p class="fe-words" data-testid=${tid + "-words"}>${words ? html`${words.label ? html`<span class="fe-label-words">“${words.label}”: </span>` : ""}${words.text} <span class="muted">— ${words.reward}</span>` : html`<span class="muted">(not readable yet)</span>`}</p>
    <div class="fe-row">
      <label>How many buckets
        ${typeof count === "object" && count !== null ? html`<span class="muted small">set in the TOML</span>` :
          html`<input type="number" step="1" min="1" data-testid=${tid + "-buckets"} value=${count ?? ""} onInput=${(e) => field("buckets", e.target.value === "" ? undefined : num(e.target.value))}/>`}
      </label>
      <label>Own words <span class="muted">(optional)</span>
        <input type="text" maxlength="120" data-testid=${tid + "-text"} value=${obj.text || ""} onInput=${(e) => field("text", e.target.value)}/>
      </label>
    </div>
    <${Constraint} label="Each bucket holds" value=${obj.amount} testid=${tid + "-amount"} onChange=${(v) => field("amount", v)}/>
    <${Constraint} label="In total" value=${obj.sum} testid=${tid + "-sum"} onChange=${(v) => field("sum", v)}/>
    <${Constraint} label="Capacity of each" value=${obj.capacity} testid=${tid + "-capacity"} onChange=${(v) => field("capacity", v)}/>
    <div class="fe-row">
      <label>Exact amounts <span class="muted">(e.g. 1, 5)</span>
        <input type="text" data-testid=${tid + "-amounts"} value=${Array.isArray(obj.amounts) ? obj.amounts.join(", ") : ""}
          onChange=${(e) => field("amounts", e.target.value.trim() ? e.target.value.split(/[,\s]+/).filter(Boolean).map(num) : undefined)}/>
      </label>
      <label class="check"><input type="checkbox" checked=${!!obj.all_equal} onChange=${(e) => field("all_equal", e.target.checked)}/> all equal</label>
      <label class="check"><input type="checkbox" checked=${!!obj.all_different} onChange=${(e) => field("all_different", e.target.checked)}/> all different</label>
      <label class="check"><input type="checkbox" checked=${!!obj.full} onChange=${(e) => field("full", e.target.checked)}/> full</label>
    </div>
    <div class="fe-row fe-reward" role="group" aria-label=${"Reward of objective " + (obj.id ?? i + 1)}>
      <label>Points <input type="number" step="1" min="0" data-testid=${tid + "-points"} value=${reward.points ?? 0} onInput=${(e) => setReward("points", num(e.target.value))}/></label>
      ${POWERUPS.map((p) => html`<label>${p} <input type="number" step="1" min="0" data-testid=${tid + "-" + p} value=${reward[p] ?? 0} onInput=${(e) => setReward(p, num(e.target.value))}/></label>`)}
    </div>
    <${Problems} problems=${problems} where=${where}/>
    <button type="button" class="danger small" onClick=${remove}>Remove objective ${obj.id ?? i + 1}</button>
  </fieldset>`;
}

/* ------------------------------------------------------------------ one basin */
function atText(at) { return Array.isArray(at) ? at.map((p) => Array.isArray(p) ? p.join(":") : String(p)).join(", ") : ""; }
function parseAt(text) {
  return text.split(/[,;]+/).map((x) => x.trim()).filter(Boolean).map((x) => x.split(/[:\s]+/).map(num));
}

function BasinEditor({ basin, s, k, words, problems, set, remove }) {
  const where = `sessions[${s}].basins[${k}]`;
  const field = (key, v) => { const b = clone(basin); if (v === undefined || v === "") delete b[key]; else b[key] = v; set(b); };
  const tid = `editor-basin-${s}-${k}`;
  return html`<fieldset class="fe-basin" data-testid=${tid}>
    <legend>Basin ${basin.name || k + 1}</legend>
    ${words && html`<p class="fe-words">${words.schedule}</p>`}
    <div class="fe-row">
      <label>Name <input type="text" maxlength="12" data-testid=${tid + "-name"} value=${basin.name || ""} onInput=${(e) => field("name", e.target.value)}/></label>
      <label>Water at the start <input type="number" step="1" min="0" value=${basin.amount ?? 0} onInput=${(e) => field("amount", e.target.value === "0" ? undefined : num(e.target.value))}/></label>
    </div>
    <div class="fe-row" role="group" aria-label=${"Schedule of basin " + (basin.name || k + 1)}>
      <label>Adds <input type="number" step="1" min="0" data-testid=${tid + "-add"} value=${basin.add ?? ""} onInput=${(e) => field("add", e.target.value === "" ? undefined : num(e.target.value))}/></label>
      <label>every (ticks) <input type="number" step="1" min="1" data-testid=${tid + "-every"} value=${basin.every ?? ""} placeholder="1" onInput=${(e) => field("every", e.target.value === "" ? undefined : num(e.target.value))}/></label>
      <label>from tick <input type="number" step="1" min="0" data-testid=${tid + "-from"} value=${basin.from ?? ""} placeholder="0" onInput=${(e) => field("from", e.target.value === "" ? undefined : num(e.target.value))}/></label>
      <label>until tick <input type="number" step="1" min="0" value=${basin.until ?? ""} placeholder="the end" onInput=${(e) => field("until", e.target.value === "" ? undefined : num(e.target.value))}/></label>
    </div>
    <label class="fe-wide">Single additions <span class="muted">(tick:amount, e.g. 30:20, 45:5)</span>
      <input type="text" data-testid=${tid + "-at"} value=${atText(basin.at)} onChange=${(e) => field("at", e.target.value.trim() ? parseAt(e.target.value) : undefined)}/>
    </label>
    ${basin.rules && html`<p class="muted small">More rules are set in the TOML.</p>`}
    <${Problems} problems=${problems} where=${where}/>
    <button type="button" class="danger small" onClick=${remove}>Remove basin ${basin.name || k + 1}</button>
  </fieldset>`;
}

/* ------------------------------------------------------------------ one session */
function SessionEditor({ session, s, words, problems, set }) {
  const field = (k, v) => { const x = clone(session); if (v === undefined) delete x[k]; else x[k] = v; set(x); };
  const caps = Array.isArray(session.buckets) ? session.buckets : [];
  const basins = Array.isArray(session.basins) ? session.basins : [];
  const objectives = Array.isArray(session.objectives) ? session.objectives : [];
  const setCap = (i, v) => { const c = caps.slice(); c[i] = num(v); field("buckets", c); };
  const nextId = objectives.reduce((m, o) => Math.max(m, typeof o.id === "number" ? o.id : 0), 0) + 1;
  const where = `sessions[${s}]`;
  const own = problems.filter((p) => p.where === where || p.where === where + ".ticks" || p.where === where + ".name" || p.where === where + ".objectives");
  return html`<div class="fe-session">
    <div class="fe-row">
      <label>Session name <input type="text" maxlength="40" data-testid=${`editor-session-name-${s}`} value=${session.name || ""} onInput=${(e) => field("name", e.target.value)}/></label>
      <label>Ticks <input type="number" step="1" min="1" data-testid=${`editor-ticks-${s}`} value=${session.ticks ?? 60} onInput=${(e) => field("ticks", num(e.target.value))}/></label>
      <label>On the board at once <input type="number" step="1" min="1" value=${session.available ?? 5} onInput=${(e) => field("available", num(e.target.value))}/></label>
      <label class="check"><input type="checkbox" checked=${!!session.practice} onChange=${(e) => field("practice", e.target.checked || undefined)}/> practice (scores nothing, <a href="/rulings#LF-1">LF-1</a>)</label>
    </div>
    <${Problems} problems=${own} />
    <section class="fe-block" aria-labelledby=${`fe-buckets-${s}`}>
      <h3 id=${`fe-buckets-${s}`}>Buckets <span class="muted small">(each seat gets the same, <a href="/rulings#LF-1">LF-1</a>)</span></h3>
      <div class="fe-row">
        ${caps.map((c, i) => html`<label class="fe-cap">Bucket ${letter(i)} capacity
          <input type="number" step="1" min="1" data-testid=${`editor-bucket-cap-${s}-${i}`} value=${c} onInput=${(e) => setCap(i, e.target.value)}/></label>`)}
      </div>
      <p class="fe-row">
        <button type="button" class="secondary small" data-testid=${`editor-add-bucket-${s}`} disabled=${caps.length >= 8} onClick=${() => field("buckets", [...caps, 5])}>Add a bucket</button>
        <button type="button" class="secondary small" disabled=${caps.length <= 1} onClick=${() => field("buckets", caps.slice(0, -1))}>Remove bucket ${letter(caps.length - 1)}</button>
      </p>
      <${Problems} problems=${problems} where=${where + ".buckets"}/>
    </section>
    <section class="fe-block" aria-labelledby=${`fe-basins-${s}`}>
      <h3 id=${`fe-basins-${s}`}>Basins <span class="muted small">(shared; their schedules, <a href="/rulings#LF-8">LF-8</a>)</span></h3>
      <div class="fe-cards">
        ${basins.map((b, k) => html`<${BasinEditor} basin=${b} s=${s} k=${k} words=${words && words.basins[k]} problems=${problems}
          set=${(nb) => { const x = basins.slice(); x[k] = nb; field("basins", x); }}
          remove=${() => field("basins", basins.filter((_, j) => j !== k))}/>`)}
      </div>
      <button type="button" class="secondary small" onClick=${() => field("basins", [...basins, { name: "B" + (basins.length + 1), add: 1 }])}>Add a basin</button>
      <${Problems} problems=${problems.filter((p) => p.where === where + ".basins")} />
    </section>
    <section class="fe-block" aria-labelledby=${`fe-objectives-${s}`}>
      <h3 id=${`fe-objectives-${s}`}>Objectives <span class="muted small">(the first ${session.available ?? 5} on the board, the rest queued, <a href="/rulings#LF-7">LF-7</a>)</span></h3>
      <div class="fe-cards">
        ${objectives.map((o, i) => html`<${ObjectiveEditor} obj=${o} s=${s} i=${i} words=${words && words.objectives[i]} problems=${problems}
          set=${(no) => { const x = objectives.slice(); x[i] = no; field("objectives", x); }}
          remove=${() => field("objectives", objectives.filter((_, j) => j !== i))}/>`)}
      </div>
      <button type="button" class="secondary small" data-testid=${`editor-add-objective-${s}`} onClick=${() => field("objectives", [...objectives, { id: nextId, buckets: 1, amount: 1, reward: { points: 1 } }])}>Add an objective</button>
    </section>
  </div>`;
}

/* ------------------------------------------------------------------ the page */
async function postJson(url, body, signal) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { ok: false, error: "the server answered " + r.status }; }
  return { status: r.status, data };
}

/* ``?from=match``: the puzzle a match page handed over (its "Open in the editor" link, LF-12),
   read from this browser's storage (same origin only: no token or long text in the address).
   It moves into this tab's sessionStorage, so a reload keeps it and other tabs do not see it. */
const HANDOFF = "arena.feather.editor";
function handedOver() {
  try {
    const fresh = localStorage.getItem(HANDOFF);
    if (fresh) { sessionStorage.setItem(HANDOFF, fresh); localStorage.removeItem(HANDOFF); }
    const got = JSON.parse(sessionStorage.getItem(HANDOFF) || "null");
    return got && typeof got.text === "string" ? got : null;
  } catch (e) { return null; }
}

function Editor() {
  const [library, setLibrary] = useState([]);
  const [from, setFrom] = useState(new URLSearchParams(location.search).get("from") || "default");
  const [data, setData] = useState(null);
  const [result, setResult] = useState(null);
  const [toml, setToml] = useState("");
  const [tab, setTab] = useState(0);
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [saved, setSaved] = useState(null);
  const [message, setMessage] = useState(null);
  const [created, setCreated] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  const inflight = useRef(null);
  const fromToml = useRef(false);

  const loadLibrary = () => fetch("/api/scenarios").then((r) => r.json()).then(setLibrary).catch(() => {});
  useEffect(() => { loadLibrary(); }, []);

  /* Ask the checker; ``body`` is {data} (the form changed) or {text} (the TOML was typed). */
  const check = (body, session) => {
    if (inflight.current) inflight.current.abort();
    const ctl = new AbortController();
    inflight.current = ctl;
    return postJson("/api/scenarios/check", { ...body, session }, ctl.signal).then(({ status, data: res }) => {
      if (ctl.signal.aborted) return null;
      if (status !== 200) { setMessage({ error: res.error || "the check failed" }); return null; }
      setResult(res);
      return res;
    }).catch(() => null);
  };

  const load = (text) => check({ text }, 0).then((res) => {
    if (res && res.data) { setData(res.data); setToml(res.toml); setTab(0); setSaved(null); setCreated(null); }
  });
  const start = (scenarioName) => {
    if (scenarioName === "match") {
      const got = handedOver();
      if (!got) { setMessage({ error: "LF-12: no match's puzzle reached this page; use “Open in the editor” on the match page, or paste its TOML below" }); setFrom("default"); return; }
      setMessage({ ok: "The puzzle of match " + got.match + ": edit it, save it under a name to keep it." });
      load(got.text);
      return;
    }
    fetch("/api/scenarios/" + encodeURIComponent(scenarioName)).then((r) => r.json()).then((one) => {
      if (!one.text) { setMessage({ error: one.error || "no such scenario" }); return; }
      if (one.source === "generated") setMessage({ ok: "A new puzzle, " + one.note + ": edit it, save it under a name to keep it." });
      load(one.text);
    });
  };
  useEffect(() => { start(from); }, [from]);

  /* Every form change: the data now, the check after a pause in the typing. */
  const change = (next) => {
    setData(next);
    setSaved(null);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => check({ data: next }, tab).then((res) => { if (res && !fromToml.current) setToml(res.toml); }), CHECK_DELAY);
  };
  useEffect(() => { if (data) check({ data }, tab); }, [tab]);

  const typeToml = (text) => {
    setToml(text);
    setSaved(null);
    clearTimeout(timer.current);
    fromToml.current = true;
    timer.current = setTimeout(() => check({ text }, tab).then((res) => {
      fromToml.current = false;
      if (res && res.data && Array.isArray(res.data.sessions)) { setData(res.data); if (tab >= res.data.sessions.length) setTab(0); }
    }), CHECK_DELAY);
  };

  const copy = () => {
    const done = () => setMessage({ ok: "The TOML is copied." });
    if (navigator.clipboard) navigator.clipboard.writeText(toml).then(done, () => setMessage({ error: "the browser refused to copy; select the text instead" }));
  };

  const save = async () => {
    setBusy(true);
    const { status, data: res } = await postJson("/api/scenarios", { name: name.trim(), note, text: result ? result.toml : toml });
    setBusy(false);
    if (status === 201) { setSaved(res.name); setMessage({ ok: `Saved as “${res.name}”.` }); loadLibrary(); }
    else setMessage({ error: res.error });
  };

  const startMatch = async () => {
    setBusy(true);
    const config = saved ? { scenario: saved } : { scenario_text: result ? result.toml : toml };
    const { status, data: res } = await postJson("/api/matches", {
      game: "feather", seats: [{ name: "", bot: false }, { name: "", bot: true }], config });
    setBusy(false);
    if (status === 201) { setCreated(res); setMessage(null); }
    else setMessage({ error: res.error });
  };

  if (!data) return html`<p class="muted">Loading the scenario…</p>`;
  const sessions = Array.isArray(data.sessions) ? data.sessions : [];
  const problems = result ? result.problems : [];
  const session = sessions[tab];
  const words = result && result.sessions ? result.sessions[tab] : null;
  const setSession = (next) => { const d = clone(data); d.sessions[tab] = next; change(d); };
  const shipped = library.filter((s) => s.source === "shipped");
  const stored = library.filter((s) => s.source === "library");

  return html`<div class="fe">
    <section class="card fe-head">
      <p class="eyebrow">Light as a Feather</p>
      <h1>Scenario editor</h1>
      <p class="muted">Change the buckets, basins and objectives of each session. Every problem is named with its rule as you type; the board shows what a player will see at the start of the session (<a href="/rulings#LF-12">LF-12</a>).</p>
      <div class="fe-row">
        <label>Start from
          <select data-testid="editor-from" value=${from} onChange=${(e) => setFrom(e.target.value)}>
            ${from === "match" && html`<optgroup label="From the match"><option value="match" selected>the puzzle of the match it was opened from</option></optgroup>`}
            <optgroup label="New puzzle"><option value="generated" selected=${from === "generated"}>generated — a new puzzle from a random seed</option></optgroup>
            <optgroup label="Comes with the game">${shipped.map((s) => html`<option value=${s.name} selected=${s.name === from}>${s.name} — ${s.title}</option>`)}</optgroup>
            ${stored.length > 0 && html`<optgroup label="Saved in the library">${stored.map((s) => html`<option value=${s.name} selected=${s.name === from}>${s.name}${s.note ? " — " + s.note : ""}</option>`)}</optgroup>`}
          </select>
        </label>
        ${from === "generated" && html`<button type="button" class="secondary" data-testid="editor-generate-again" onClick=${() => start("generated")}>Another puzzle</button>`}
        <label>Title <input type="text" maxlength="80" data-testid="editor-title" value=${data.title || ""} onInput=${(e) => { const d = clone(data); d.title = e.target.value; change(d); }}/></label>
      </div>
    </section>

    <section class="card fe-problems" aria-labelledby="fe-problems-h">
      <h2 id="fe-problems-h">Problems</h2>
      <div data-testid="editor-problems" aria-live="polite">
        ${!result ? html`<p class="muted">Checking…</p>` : problems.length === 0
          ? html`<p class="ok-text" data-testid="editor-no-problems">No problems: a match can be played with this scenario.</p>`
          : html`<ul class="fe-problem-list">${problems.map((p) => html`<li data-rule=${p.rule}><a href=${"/rulings#" + p.rule}>${p.rule}</a> <span class="muted">${p.where}</span> ${p.message}</li>`)}</ul>`}
      </div>
    </section>

    <div class="fe-main">
      <section class="card fe-form" aria-labelledby="fe-sessions-h">
        <h2 id="fe-sessions-h">Sessions</h2>
        <div class="fe-tabs" role="group" aria-label="Sessions">
          ${sessions.map((s, i) => html`<button type="button" aria-pressed=${i === tab ? "true" : "false"} class=${i === tab ? "" : "secondary"} data-testid=${"editor-session-" + i} onClick=${() => setTab(i)}>${(s && s.name) || "session " + (i + 1)}</button>`)}
          <button type="button" class="secondary" data-testid="editor-add-session" onClick=${() => { const d = clone(data); const last = sessions[sessions.length - 1] || {}; d.sessions = [...sessions, { ...clone(last), name: "session " + (sessions.length + 1), practice: undefined }]; delete d.sessions[d.sessions.length - 1].practice; change(d); setTab(sessions.length); }}>Add a session</button>
          ${sessions.length > 1 && html`<button type="button" class="danger" onClick=${() => { const d = clone(data); d.sessions.splice(tab, 1); change(d); setTab(0); }}>Remove this session</button>`}
        </div>
        ${session && html`<${SessionEditor} session=${session} s=${tab} words=${words} problems=${problems} set=${setSession}/>`}
      </section>

      <aside class="fe-side">
        <section class="card" aria-labelledby="fe-preview-h">
          <h2 id="fe-preview-h">The board at the start</h2>
          <div class="fe-preview" data-testid="editor-preview" role="img" aria-label="the board as a player first sees this session">
            ${result && result.preview ? markup(result.preview, { svg: true })
              : html`<p class="muted">The board appears once this session reads.</p>`}</div>
        </section>
        <section class="card" aria-labelledby="fe-save-h">
          <h2 id="fe-save-h">Save and play</h2>
          <div class="fe-row">
            <label>Name <span class="muted">(letters, digits, spaces, - and _)</span>
              <input type="text" maxlength="40" data-testid="editor-name" value=${name} onInput=${(e) => { setName(e.target.value); setSaved(null); }}/></label>
            <label>Author's note <input type="text" maxlength="500" data-testid="editor-note" value=${note} onInput=${(e) => setNote(e.target.value)}/></label>
          </div>
          <p class="fe-row">
            <button type="button" data-testid="editor-save" disabled=${busy || !name.trim() || !!saved} onClick=${save}>${saved ? "Saved" : "Save in the library"}</button>
            <button type="button" data-testid="editor-start" disabled=${busy || problems.length > 0} onClick=${startMatch}>Start a match with it</button>
          </p>
          <p class="muted small">The match plays against a bot in seat 2 and keeps its own copy of the scenario.</p>
          <div role="status" data-testid="editor-message">
            ${message && message.error && html`<p class="error-text"><${ErrorText} message=${message.error} game="feather"/></p>`}
            ${message && message.ok && html`<p class="ok-text">${message.ok}</p>`}
          </div>
          ${created && html`<div class="fe-created" data-testid="editor-created"><h3>Match created</h3><ul class="links">
            <li>Seat 1 (you): <a data-testid="editor-link-seat-0" href=${created.links.seats[0]}>open the match</a></li>
            <li>Host: <a data-testid="editor-link-host" href=${created.links.host}>host link</a></li></ul></div>`}
        </section>
        <section class="card" aria-labelledby="fe-toml-h">
          <h2 id="fe-toml-h">TOML</h2>
          <p class="muted small">Paste a scenario here to read it into the form, or copy it out.</p>
          <textarea data-testid="editor-toml" aria-labelledby="fe-toml-h" rows="14" spellcheck="false" value=${toml} onInput=${(e) => typeToml(e.target.value)}></textarea>
          <p><button type="button" class="secondary small" data-testid="editor-copy" onClick=${copy}>Copy the TOML</button></p>
        </section>
      </aside>
    </div>
  </div>`;
}

const root = document.getElementById("feather-editor");
if (root) render(html`<${Editor}/>`, root);
