/* Shared by every page: strings, card tiles, the live event stream, and referee POSTs with CSRF. */
"use strict";
const T = JSON.parse(document.getElementById("i18n").textContent);
const LANG = document.documentElement.lang || "es";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function parseCard(code) {
  const m = /^(\d{1,2})([OCEB])$/.exec(String(code || "").toUpperCase());
  return m ? { rank: parseInt(m[1], 10), suit: m[2] } : null;
}

function cardName(code) {
  const c = parseCard(code);
  if (!c) return String(code);
  return LANG === "en" ? `${T.ranks[c.rank]} of ${T.suits[c.suit]}` : `${T.ranks[c.rank]} de ${T.suits[c.suit]}`;
}

/* A card tile: big rank, suit symbol, suit word; data-card carries the code for tests and CSS. */
function cardEl(code) {
  const c = parseCard(code);
  if (!c) return el("div", { class: "card", "data-card": code, text: code });
  const s = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" });
  s.append(svg("use", { href: `#suit-${c.suit}` }));
  return el("div", { class: `card suit-${c.suit}`, "data-card": `${c.rank}${c.suit}`, title: cardName(code),
                     "aria-label": cardName(code) },
    el("span", { class: "rank", text: String(c.rank) }), s, el("span", { class: "sname", text: T.suits[c.suit] }));
}

function seatName(state, seat) {
  const seats = (state && state.match && state.match.seats) || [];
  return seats[seat] !== undefined ? seats[seat] : `${T.seat} ${seat}`;
}

/* Side names: partnerships pair seats {0,2} and {1,3}; otherwise one side per seat. */
function sideNames(seats, partnerships, sides) {
  if (partnerships) return [`${seats[0]} + ${seats[2]}`, `${seats[1]} + ${seats[3]}`];
  const out = [];
  for (let i = 0; i < sides; i++) out.push(seats[i] !== undefined ? seats[i] : `${T.seat} ${i}`);
  return out;
}

function setConn(ok) {
  const c = document.getElementById("conn");
  if (!c) return;
  c.className = "conn " + (ok ? "ok" : "bad");
  c.title = ok ? T.connected : T.reconnecting;
}

/* The live stream. EventSource resumes by itself with Last-Event-ID; when the server refuses (e.g.
   503: too many viewers) it gives up, so we retry with a back-off and poll /api/state meanwhile. */
function liveStream({ onState, onEvent }) {
  let es = null, lastId = null, poll = null, delay = 2000;
  function startPolling() {
    if (poll) return;
    poll = setInterval(() => fetch("/api/state").then(r => r.json()).then(onState).catch(() => {}), 3000);
  }
  function stopPolling() { if (poll) { clearInterval(poll); poll = null; } }
  function connect() {
    const url = lastId === null ? "/events" : `/events?since=${lastId}`;
    es = new EventSource(url);
    es.onopen = () => { setConn(true); delay = 2000; stopPolling(); };
    es.addEventListener("state", m => onState(JSON.parse(m.data)));
    es.onmessage = m => { lastId = parseInt(m.lastEventId, 10); if (onEvent) onEvent(JSON.parse(m.data)); };
    es.onerror = () => {
      setConn(false);
      if (es.readyState === EventSource.CLOSED) {
        startPolling();
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      }
    };
  }
  connect();
  return { close: () => { if (es) es.close(); stopPolling(); } };
}

function csrf() { return document.querySelector('meta[name="csrf-token"]').content; }

/* POST JSON with the session's CSRF token; resolves to {ok, status, data}. */
async function post(url, body) {
  const r = await fetch(url, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
  return { ok: r.ok, status: r.status, data };
}

function say(text, ok) {
  const m = document.getElementById("msg");
  if (!m) return;
  m.textContent = text;
  m.className = "msg " + (ok ? "ok" : "err");
}

/* Scores as big digits, one row per side, the side to play highlighted. */
function renderScores(box, names, points, won, turnSide) {
  box.replaceChildren(...names.map((n, i) => el("div", { class: "side" + (i === turnSide ? " turn" : ""), "data-side": i },
    el("span", { class: "name", text: n }),
    el("span", { class: "pts", "data-points": String(points[i] ?? 0), text: String(points[i] ?? 0) }),
    won ? el("span", { class: "won", text: `${T.hands_won}: ${won[i] ?? 0}` }) : null)));
}
