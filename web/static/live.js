/* The live table: renders /api/state; the stream sends a fresh state after every batch of events. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);

  function render(st) {
    const m = st.match, h = st.hand;
    $("nomatch").hidden = !!m;
    $("live").hidden = !m;
    if (!m) { $("alerts").replaceChildren(); renderDevices(st.devices || {}); return; }
    const names = sideNames(m.seats, m.partnerships, h ? h.points.length : (m.hands_won || []).length);
    $("match-info").textContent = `${T.match} ${m.number}` + (h ? ` · ${T.hand} ${h.number}` : "") + ` · ${typeof m.rules === "string" ? m.rules : m.rules.preset}`;
    if (!h) {
      $("trump").replaceChildren(); $("trump-suit").textContent = ""; $("stock").textContent = "–";
      $("trick").replaceChildren(el("p", { class: "muted", text: T.waiting }));
      renderScores($("scores"), names, names.map(() => 0), m.hands_won, null);
    } else {
      const trumpCode = h.trump_now || h.trump;
      $("trump").replaceChildren(...(trumpCode ? [cardEl(trumpCode)] : []));
      $("trump-suit").textContent = h.trump_suit ? T.suits[h.trump_suit] : "";
      $("trump-suit").className = "suitname" + (h.trump_suit ? ` suit-${h.trump_suit}` : "");
      $("stock").textContent = String(h.stock);
      renderTrick(st, h);
      const turnSide = h.turn === null ? null : (m.partnerships ? h.turn % 2 : h.turn);
      renderScores($("scores"), names, h.points, m.hands_won, turnSide);
      const res = $("result");
      res.hidden = !h.over;
      if (h.over) res.textContent = `${T.hand_over}: ` + (h.winner === null ? T.draw : `${names[h.winner]} ${T.wins}`);
      const err = $("error");
      err.hidden = !h.error;
      err.textContent = h.error ? `${T.error}: ${h.error}` : "";
    }
    const ann = st.announcement;
    $("announce").hidden = !ann;
    if (ann) $("announce").textContent = `${T.robot_says}: ${ann.text}`;
    $("alerts").replaceChildren(...(st.alerts || []).map(a => el("div", { class: "alert", text: `⚠ ${a.message}` })));
    renderDevices(st.devices || {});
  }

  function renderTrick(st, h) {
    const box = $("trick");
    let plays = h.trick, title = T.trick, winner = null;
    if (!plays.length && h.last_trick) { plays = h.last_trick.cards; title = T.last_trick; winner = h.last_trick.winner; }
    $("trick-title").textContent = title;
    $("trick-no").textContent = `${h.tricks + (h.trick.length ? 1 : 0)}`;
    const kids = plays.map(p => el("div", { class: "play" + (p.seat === winner ? " winner" : ""), "data-seat": p.seat },
      cardEl(p.card), el("span", { class: "who", text: seatName(st, p.seat) })));
    if (h.turn !== null && h.turn !== undefined && !h.over) {
      kids.push(el("div", { class: "play next" }, el("div", { class: "slot-empty", text: "?" }),
                   el("span", { class: "who", text: `${T.turn}: ${seatName(st, h.turn)}` })));
    }
    box.replaceChildren(...kids);
  }

  function renderDevices(devs) {
    $("devices").replaceChildren(...Object.entries(devs).map(([name, d]) =>
      el("span", { class: "device" + (d.ok ? "" : " bad"), title: d.detail || "", text: `${name}: ${d.ok ? T.ok : T.fault}` })));
  }

  render(JSON.parse($("state").textContent));
  liveStream({ onState: render });
})();
