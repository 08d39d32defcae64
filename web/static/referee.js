/* Referee forms: every change is a POST with the CSRF token; the server appends one event. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  let state = JSON.parse($("state").textContent);

  async function act(url, body, done) {
    const r = await post(url, body);
    if (r.ok) { say(done || T.done, true); } else { say(`${T.error} ${r.status}: ${r.data.error || ""}`, false); }
    return r;
  }

  function formData(form) { return Object.fromEntries(new FormData(form).entries()); }

  const pinForm = $("pin-form");
  if (pinForm) pinForm.addEventListener("submit", async e => {
    e.preventDefault();
    const r = await act("/api/referee/pin", { pin: formData(pinForm).pin });
    if (r.ok) location.reload();
  });
  const loginForm = $("login-form");
  if (loginForm) loginForm.addEventListener("submit", async e => {
    e.preventDefault();
    const r = await act("/api/referee/login", { pin: formData(loginForm).pin });
    if (r.ok) location.reload();
  });
  if (!$("ref-scores")) return;

  $("logout").addEventListener("click", async () => { await post("/api/referee/logout"); location.reload(); });

  async function loadActions() {
    const sel = $("actions");
    const m = state.match, h = state.hand;
    if (!m || !h) { sel.replaceChildren(); return; }
    const r = await fetch(`/api/hands/${m.number}/${h.number}`);
    if (!r.ok) return;
    const d = await r.json();
    const plays = d.tricks.flatMap(t => t.cards).concat(d.pending || [], d.swaps || [])
      .filter(p => p.event).sort((a, b) => b.index - a.index);
    const keep = sel.value;
    sel.replaceChildren(...plays.map(p => el("option", { value: p.event,
      text: `#${p.index + 1} · ${seatName(state, p.seat)} · ${p.card} (${cardName(p.card)})` })));
    if (keep && [...sel.options].some(o => o.value === keep)) sel.value = keep;
  }

  function renderState(st) {
    state = st;
    const m = st.match, h = st.hand;
    if (!m) { $("ref-scores").replaceChildren(el("p", { class: "muted", text: T.no_match })); return; }
    const pts = h ? h.points : m.hands_won.map(() => 0);
    renderScores($("ref-scores"), sideNames(m.seats, m.partnerships, pts.length), pts, m.hands_won,
                 h && h.turn !== null ? (m.partnerships ? h.turn % 2 : h.turn) : null);
    loadActions();
  }

  $("correct-form").addEventListener("submit", e => {
    e.preventDefault();
    const f = formData(e.target);
    act("/api/referee/correct", { target: parseInt(f.target, 10), card: f.card.trim(), why: f.why });
  });
  $("play-form").addEventListener("submit", e => {
    e.preventDefault();
    act("/api/referee/play", { card: formData(e.target).card.trim(), why: "entered by the referee" });
  });
  $("undo").addEventListener("click", () => act("/api/referee/undo", {}));
  $("clear-alerts").addEventListener("click", () => act("/api/referee/clear-alerts", {}));
  $("hand-form").addEventListener("submit", e => {
    e.preventDefault();
    const f = formData(e.target);
    act("/api/referee/hand", { dealer: parseInt(f.dealer, 10), trump: f.trump.trim() });
  });
  $("match-form").addEventListener("submit", async e => {
    e.preventDefault();
    const f = formData(e.target);
    const body = { rules: f.rules, seats: f.seats.split(",").map(s => s.trim()).filter(Boolean),
                   first_dealer: parseInt(f.first_dealer || "0", 10) };
    if (f.robot_seat !== "") body.robot_seat = parseInt(f.robot_seat, 10);
    const r = await act("/api/referee/match", body);
    if (r.ok) location.reload();
  });

  renderState(state);
  liveStream({ onState: renderState });
})();
