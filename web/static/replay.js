/* Replay one hand trick by trick; refetches the hand whenever the stream brings a new event, so a
   correction made anywhere rescores this page too. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  let d = JSON.parse($("detail").textContent);
  let step = d.tricks.length ? 0 : -1;
  const url = `/api/hands/${d.match}/${d.hand}`;

  function names() { return sideNames(d.seats, d.partnerships, d.points.length); }
  function seat(s) { return d.seats[s] !== undefined ? d.seats[s] : `${T.seat} ${s}`; }

  function renderHead() {
    $("rh-meta").textContent = `${d.rules} · ${d.seats.join(", ")} · ${T.dealer}: ${seat(d.dealer)}`;
    $("rh-trump").replaceChildren(...(d.trump ? [cardEl(d.trump)] : []));
    renderScores($("rh-points"), names(), d.points, null, null);
    const err = $("rh-error");
    err.hidden = !d.error;
    err.textContent = d.error ? `${T.error}: ${d.error}` : "";
    $("corrections").replaceChildren(...(d.corrections.length ? d.corrections.map(c => el("li", { class: "correction" },
      `${c.at.replace("T", " ").replace("Z", "")} · ${T.by} ${c.by}: `, el("span", { class: "mini-card suit-" + c.was.slice(-1), text: c.was }),
      " → ", el("span", { class: "mini-card suit-" + c.now.slice(-1), text: c.now }), c.why ? ` · ${T.why}: ${c.why}` : ""))
      : [el("li", { class: "muted", text: T.no_corrections })]));
  }

  function renderStep() {
    const n = d.tricks.length;
    $("steps").textContent = String(n);
    $("step").textContent = n ? String(step + 1) : "–";
    $("prev").disabled = step <= 0;
    $("next").disabled = step >= n - 1;
    const t = d.tricks[step];
    const img = $("trick-frame");
    if (!t) {
      const pend = d.pending || [];
      $("rtrick").replaceChildren(...pend.map(p => playEl(p, null, null)));
      $("why").textContent = ""; $("trick-score").textContent = "";
      img.hidden = true; $("trick-frame-none").hidden = false;
      renderChart();
      return;
    }
    $("rtrick").replaceChildren(...t.cards.map(p => playEl(p, t.leader, t.winner)));
    $("why").textContent = t.why[LANG] || t.why.es;
    $("trick-score").textContent = t.score.join(" – ");
    if (t.frame) { img.src = t.frame; img.hidden = false; $("trick-frame-none").hidden = true; }
    else { img.hidden = true; img.removeAttribute("src"); $("trick-frame-none").hidden = false; }
    renderChart();
  }

  function playEl(p, leader, winner) {
    return el("div", { class: "play" + (p.seat === winner ? " winner" : ""), "data-seat": p.seat, "data-event": p.event },
      cardEl(p.card), el("span", { class: "who", text: seat(p.seat) }),
      p.seat === leader ? el("span", { class: "tag", text: T.led }) : null,
      p.seat === winner ? el("span", { class: "tag win", text: T.won_by }) : null,
      p.corrected ? el("span", { class: "tag", text: "✎" }) : null,
      p.frame ? el("img", { class: "settle", src: p.frame, alt: cardName(p.card), loading: "lazy" }) : null);
  }

  /* Running points per side after each trick, as an inline SVG line chart. */
  function renderChart() {
    const W = 600, H = 220, L = 36, B = 24, n = d.tricks.length;
    const series = names().map((_, i) => [0].concat(d.tricks.map(t => t.score[i])));
    const top = Math.max(60, ...series.flat()) * 1.12;
    const x = k => L + (W - L - 10) * (n ? k / n : 0), y = v => H - B - (H - B - 10) * v / top;
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": T.score_chart });
    s.append(svg("line", { class: "axis", x1: L, y1: H - B, x2: W - 10, y2: H - B }),
             svg("line", { class: "axis", x1: L, y1: 10, x2: L, y2: H - B }));
    for (const v of [0, 60, 120]) if (v <= top) {
      s.append(svg("line", { class: "axis", x1: L, y1: y(v), x2: W - 10, y2: y(v) }));
      const tx = svg("text", { x: 4, y: y(v) + 4 }); tx.textContent = String(v); s.append(tx);
    }
    if (step >= 0) s.append(svg("line", { class: "cursor", x1: x(step + 1), y1: 10, x2: x(step + 1), y2: H - B }));
    series.forEach((pts, i) => {
      s.append(svg("polyline", { class: `s${i}`, points: pts.map((v, k) => `${x(k)},${y(v)}`).join(" ") }));
      const lab = svg("text", { x: x(pts.length - 1) - 4, y: y(pts[pts.length - 1]) - 6, class: `s${i}`, "text-anchor": "end" });
      lab.textContent = `${names()[i]} ${pts[pts.length - 1]}`; s.append(lab);
    });
    $("chart").replaceChildren(s);
  }

  function go(k) { step = Math.max(0, Math.min(d.tricks.length - 1, k)); renderStep(); }
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowLeft") go(step - 1);
    if (e.key === "ArrowRight") go(step + 1);
  });

  let pending = null;
  function refresh() {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      fetch(url).then(r => r.ok ? r.json() : null).then(nd => {
        if (!nd) return;
        const was = d.tricks.length;
        d = nd;
        if (step < 0 && d.tricks.length) step = 0;
        if (step >= d.tricks.length) step = d.tricks.length - 1;
        if (was === 0 && d.tricks.length) step = 0;
        renderHead(); renderStep();
      }).catch(() => {});
    }, 150);
  }

  renderHead(); renderStep();
  liveStream({ onState: () => {}, onEvent: () => refresh() });
})();
