"""Referee actions. Anyone may watch; every change needs the PIN session and its CSRF token, is
validated completely first (so a bad request changes nothing) and is stored as an appended event."""
from __future__ import annotations

import time

from flask import Blueprint, render_template, request, session

from table.cards import CardError, Card, deck
from table.events import Event
from table.game import IllegalAction, Play
from table.rules import Rules, RulesError
from web.auth import (ApiError, check_pin, csrf_required, csrf_token, is_referee, pin_generation,
                      pin_is_set, referee_required, set_pin, valid_pin_format)
from web.util import ctx, int_field, json_body

bp = Blueprint("referee", __name__)


def _who() -> str:
    return "referee"


def _client() -> str:
    return request.remote_addr or "?"


def _append(type_: str, data: dict, key=None) -> dict:
    """Store one referee event; ``key`` (from the client) makes a double-tap idempotent."""
    data.setdefault("by", _who())
    k = None
    if key is not None:
        if not isinstance(key, str) or not 1 <= len(key) <= 64:
            raise ApiError(400, "key must be a short string")
        k = f"web:{key}"
    e = ctx().store.append(Event(type_, data, key=k))
    return {"ok": True, "event": e.to_json()}


def _login() -> None:
    session.permanent = True
    session["referee"] = True
    session["pin_gen"] = pin_generation(ctx().store)
    session["since"] = time.time()


@bp.get("/referee")
def page():
    def read(led):
        h = led.hand
        acts = []
        if h is not None:
            for i, (seat, a) in enumerate(h.record.effective_actions() if h.error is None else h.record.actions):
                acts.append({"index": i, "event": h.action_events[i], "seat": seat, "card": a.card.code,
                             "swap": type(a).__name__ == "Swap"})
        m = led.match
        return {"actions": acts, "seats": m.seats if m else [], "match": m is not None}
    return render_template("referee.html", info=ctx().hub.read(read), presets=Rules.preset_names(),
                           state_json=ctx().hub.state_json())


@bp.get("/api/referee/session")
def session_info():
    return {"referee": is_referee(), "pin_set": pin_is_set(ctx().store), "csrf": csrf_token()}


@bp.post("/api/referee/pin")
@csrf_required
def pin():
    """First run: anyone on the LAN sets the PIN. Afterwards changing it needs the current one."""
    data = json_body()
    store = ctx().store
    new = data.get("pin")
    if not valid_pin_format(new):
        raise ApiError(400, "the PIN must be 4 to 12 digits")
    if pin_is_set(store):
        if not is_referee():
            raise ApiError(401, "the PIN is already set; log in to change it")
        _check_rate_limited_pin(data.get("old_pin"))
    set_pin(store, new)
    _login()
    return {"ok": True, "referee": True}


def _check_rate_limited_pin(pin) -> None:
    lim, store = ctx().limiter, ctx().store
    wait = lim.retry_after(_client())
    if wait > 0:
        raise ApiError(429, f"too many wrong PINs; try again in {int(wait) + 1} s", retry_after=wait)
    if not check_pin(store, pin):
        lim.failed(_client())
        raise ApiError(403, "wrong PIN")
    lim.succeeded(_client())


@bp.post("/api/referee/login")
@csrf_required
def login():
    data = json_body()
    if not pin_is_set(ctx().store):
        raise ApiError(409, "no PIN yet: set one first")
    _check_rate_limited_pin(data.get("pin"))
    _login()
    return {"ok": True, "referee": True}


@bp.post("/api/referee/logout")
@csrf_required
def logout():
    session.pop("referee", None)
    session.pop("pin_gen", None)
    return {"ok": True, "referee": False}


def _card(value, what: str, led) -> Card:
    if not isinstance(value, str):
        raise ApiError(400, f"{what} must be a card code like 3C or 12B, not {value!r}")
    try:
        c = Card.parse(value)
    except CardError as e:
        raise ApiError(400, f"{what}: {e}") from None
    m = led.match
    if m is not None and c not in deck(m.rules.deck_size):
        raise ApiError(400, f"{what}: {c} is not in the {m.rules.deck_size}-card deck of {m.rules.preset}")
    return c


def _why(data) -> str:
    why = data.get("why", "")
    if not isinstance(why, str) or len(why) > 200:
        raise ApiError(400, "why must be a short text")
    return why


@bp.post("/api/referee/correct")
@referee_required
def correct():
    """Replace the reading of one play or swap (by its event id); the hand is rescored from it."""
    data = json_body()
    target = int_field(data, "target", 1, what="an event id")
    why = _why(data)

    def check(led):
        h, idx = led.find_action(target)
        if h is None:
            raise ApiError(404, f"event {target} is not a play or swap of any hand")
        c = _card(data.get("card"), "card", led)
        kind = type(h.record.actions[idx][1]).__name__
        return c, kind
    c, kind = ctx().hub.read(check)
    return _append("correction", {"target": target, ("swap" if kind == "Swap" else "play"): c.code,
                                  "why": why}, data.get("key"))


@bp.post("/api/referee/play")
@referee_required
def play():
    """Enter a card the camera did not count (unreadable, or taken in with its trick): it is played
    for the seat whose turn it is, checked against the rules like any play."""
    data = json_body()
    why = _why(data)

    def check(led):
        g = led.game
        if g is None or g.is_over():
            raise ApiError(409, "no hand is being played")
        if not g.bidding_done():
            raise ApiError(409, "enter the auction first")
        c = _card(data.get("card"), "card", led)
        seat = g.turn
        if "seat" in data and int_field(data, "seat", 0, g.n - 1, what="a seat") != seat:
            raise ApiError(409, f"it is seat {seat}'s turn, not seat {data['seat']}'s")
        try:
            g.check(Play(c), seat)
        except IllegalAction as e:
            raise ApiError(409, f"seat {seat} cannot play {c}: {e}") from None
        return seat, c
    seat, c = ctx().hub.read(check)
    return _append("play", {"seat": seat, "card": c.code, "why": why}, data.get("key"))


@bp.post("/api/referee/undo")
@referee_required
def undo():
    """Undo a play or swap: the given event id, or by default the last action of the current hand."""
    data = json_body()

    def pick(led):
        if "target" in data:
            t = int_field(data, "target", 1, what="an event id")
            if led.find_action(t)[0] is None:
                raise ApiError(404, f"event {t} is not a play or swap of any hand")
            return t
        h = led.hand
        if h is None or not h.action_events:
            raise ApiError(409, "nothing to undo in the current hand")
        return h.action_events[-1]
    return _append("undo", {"target": ctx().hub.read(pick)}, data.get("key"))


@bp.post("/api/referee/hand")
@referee_required
def new_hand():
    data = json_body()

    def check(led):
        m = led.match
        if m is None:
            raise ApiError(409, "start a match first")
        n = m.rules.players
        dealer = int_field(data, "dealer", 0, n - 1, what=f"a seat 0..{n - 1}")
        trump = data.get("trump")
        if m.rules.auction and not trump:
            return dealer, ""
        return dealer, _card(trump, "trump", led).code
    dealer, trump = ctx().hub.read(check)
    return _append("hand_start", {"dealer": dealer, "trump": trump}, data.get("key"))


@bp.post("/api/referee/match")
@referee_required
def new_match():
    data = json_body()
    try:
        rules = Rules.parse(data.get("rules", "classic-2"))
    except RulesError as e:
        raise ApiError(400, f"rules: {e}") from None
    n = rules.players
    seats = data.get("seats")
    if seats is None:
        seats = [f"{i + 1}" for i in range(n)]
    if (not isinstance(seats, list) or len(seats) != n
            or not all(isinstance(s, str) and 0 < len(s.strip()) <= 24 for s in seats)):
        raise ApiError(400, f"seats: {rules.preset} needs {n} names of 1-24 characters, in playing order")
    robot = int_field(data, "robot_seat", 0, n - 1, default=None, what=f"a seat 0..{n - 1}")
    first = int_field(data, "first_dealer", 0, n - 1, default=0, what=f"a seat 0..{n - 1}")
    return _append("match_start", {"rules": rules.to_json(), "seats": [s.strip() for s in seats],
                                   "robot_seat": robot, "first_dealer": first}, data.get("key"))


@bp.post("/api/referee/clear-alerts")
@referee_required
def clear_alerts():
    data = json_body()
    kind = data.get("kind")
    if kind is not None and not isinstance(kind, str):
        raise ApiError(400, "kind must be a text")
    return _append("alert_cleared", {"kind": kind} if kind else {}, data.get("key"))


@bp.post("/api/referee/auction")
@referee_required
def auction():
    """Subastada: the auction is spoken, so the referee enters it (the whole contract so far each
    time: bids in order, then the called card and the declared trump). Checked by replaying the hand
    with it before it is stored."""
    data = json_body()
    bids = data.get("bids")
    if not isinstance(bids, list) or len(bids) > 40:
        raise ApiError(400, "bids must be a list of {seat, bid} or {seat, pass: true}")
    payload = {"bids": bids}
    for k in ("call", "trump"):
        if data.get(k) is not None:
            if not isinstance(data[k], str):
                raise ApiError(400, f"{k} must be a text")
            payload[k] = data[k]

    def check(led):
        import copy

        from table import subastada
        from table.record import RecordError

        m = led.match
        if m is None or not m.rules.auction:
            raise ApiError(409, "the current match is not a Subastada match")
        n = m.rules.players
        for b in bids:
            if not isinstance(b, dict) or not isinstance(b.get("seat"), int) or not 0 <= b["seat"] < n:
                raise ApiError(400, f"each bid needs a seat 0..{n - 1}: {b!r}")
        try:
            extra = subastada.extra_from_event(payload)
        except (CardError, ValueError) as e:
            raise ApiError(400, str(e)) from None
        h = led.hand
        if h is not None and not (h.game is not None and h.game.is_over() and h.error is None):
            rec = copy.deepcopy(h.record)
        else:
            from table.record import Record
            rec = Record(m.rules, m.seats, m.match().dealer, None)
        for k in ("auction", "call", "declared_trump", "bidder"):
            rec.extra.pop(k, None)
        rec.extra.update(extra)
        try:
            rec.replay()
        except RecordError as e:
            raise ApiError(400, f"auction refused: {e}") from None
        except (CardError, ValueError) as e:
            raise ApiError(400, f"auction refused: {e}") from None
    ctx().hub.read(check)
    return _append("auction", payload, data.get("key"))
