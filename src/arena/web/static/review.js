/* The post-match review: where each seat gave points (or chances, or moves) away.

   Read once the match is over (the server refuses it before: it would coach the seats, G-9).
   The server judges every decision of every seat against the best one it can compute and
   cuts what this reader may see; the page shows one seat at a time (the reader's own first),
   its three costliest decisions in plain words with their values, each linked to the moment
   in the replay where it was decided, and every other judged decision under them. */
import { html, useState, useEffect, fmtNum, RuleText } from "/static/ui.js";

/* "4 moves" beside "9 moves", "16.7" beside "50" of "% chance to open". */
function Values({ d }) {
  return html`<p class="review-values small" data-testid="review-value">
    Yours <strong>${fmtNum(d.value)}</strong>, best <strong>${fmtNum(d.best)}</strong>
    <span class="muted"> (${d.unit}${d.exact ? "" : "; the best a search found"})</span></p>`;
}

function Decision({ d, goto, testid }) {
  return html`<li class="review-item" data-testid=${testid}>
    <p><${RuleText} text=${d.did}/></p>
    <p class="muted"><${RuleText} text=${d.better}/></p>
    <${Values} d=${d}/>
    <p class="control-row"><button type="button" class="secondary small" data-testid="review-goto"
      onClick=${() => goto(d.replay)}>See it in the replay (${d.phase})</button></p>
  </li>`;
}

function seatWords(seat, n) {
  if (!seat.decisions.length) {
    return seat.hidden ? `${seat.name}'s decisions stay private: the host kept the match's secrets.`
      : `Nothing ${seat.name} decided could be judged against a known best.`;
  }
  const units = new Set(seat.decisions.map((d) => d.unit));
  const over = `${n} judged decision${n === 1 ? "" : "s"}`;
  if (!seat.costliest.length) return `Every one of ${seat.name}'s ${over} was the best there was.`;
  return units.size === 1
    ? `${seat.name} gave away ${fmtNum(seat.lost)} (${[...units][0]}) over ${over}.`
    : `${seat.name}'s ${over}, the costliest first.`;
}

export function ReviewPanel({ view, call, goto }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const you = typeof view.you === "number" ? view.you : null;
  const [pick, setPick] = useState(null);
  useEffect(() => {
    let live = true;
    call("GET", "/review").then((r) => {
      if (!live) return;
      if (r.ok) setData(r);
      else if (r.status !== 409) setError(r.error);
    });
    return () => { live = false; };
  }, [view.match && view.match.id]);
  if (error) return html`<section class="card review" data-testid="review"><p class="eyebrow">Review</p>
    <p class="error-text" role="alert">${error}</p></section>`;
  if (!data) return html`<section class="card review" data-testid="review" aria-busy="true">
    <p class="eyebrow">Review</p><p class="muted" data-testid="review-loading">Working out where each seat lost points…</p></section>`;
  const seats = data.seats;
  const first = you != null ? you : Math.max(0, seats.findIndex((s) => s.decisions.length));
  const chosen = seats[pick == null ? first : pick] || seats[0];
  const top = chosen.costliest.map((i) => chosen.decisions[i]);
  const rest = chosen.decisions.filter((_, i) => !chosen.costliest.includes(i));
  return html`<section class="card review" data-testid="review" data-keep-live>
    <p class="eyebrow">Review</p>
    <h2>Each decision against the best one</h2>
    <label class="inline">Seat <select data-testid="review-seat" value=${String(chosen.seat)}
      onChange=${(e) => setPick(Number(e.currentTarget.value))}>
      ${seats.map((s) => html`<option value=${String(s.seat)}>${s.name}${s.seat === you ? " (you)" : ""}</option>`)}
    </select></label>
    <p data-testid="review-summary">${seatWords(chosen, chosen.decisions.length)}</p>
    ${top.length ? html`<h3>The costliest</h3>
      <ol class="review-list" data-testid="review-costly">${top.map((d) => html`<${Decision} d=${d} goto=${goto} testid="review-costly-item"/>`)}</ol>` : ""}
    ${rest.length ? html`<details data-testid="review-all"><summary>${top.length ? "The other" : "All"} ${rest.length} judged decision${rest.length === 1 ? "" : "s"}</summary>
      <ol class="review-list">${rest.map((d) => html`<${Decision} d=${d} goto=${goto} testid="review-item"/>`)}</ol></details>` : ""}
    ${chosen.hidden && chosen.decisions.length ? html`<p class="muted small" data-testid="review-hidden">${chosen.hidden} more stay private: the host kept the match's secrets.</p>` : ""}
  </section>`;
}
