"""Replay: the list of matches and hands, one hand trick by trick with its frames and the words
that settle a dispute, and the hand's export as a JSON record or PBN-style text."""
from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, send_file, url_for

from table.store import StoreError
from web.auth import ApiError
from web.explain import hand_detail
from web.util import ctx

bp = Blueprint("replay", __name__)


def _frame_url(rel: str) -> str:
    return url_for("replay.frame", rel=rel)


def _matches(led):
    out = []
    for m in led.matches:
        mm = m.match()
        hands = []
        for h in m.hands:
            g = h.game
            hands.append({"number": h.number, "trump": h.record.trump.code if h.record.trump else None,
                          "actions": len(h.record.actions), "tricks": len(g.tricks) if g else 0,
                          "points": g.side_points() if g else [], "over": bool(g and g.is_over()),
                          "winner": g.outcome().winner if g and g.is_over() else None,
                          "corrections": len(h.correction_events), "error": h.error})
        out.append({"number": m.number, "rules": str(m.rules), "seats": m.seats, "robot_seat": m.robot_seat,
                    "hands_won": mm.hands_won, "winner": mm.winner(), "ended": m.ended, "hands": hands})
    return out


def _find(led, m: int, h: int):
    if not 1 <= m <= len(led.matches):
        raise ApiError(404, f"no match {m}")
    ml = led.matches[m - 1]
    if not 1 <= h <= len(ml.hands):
        raise ApiError(404, f"match {m} has no hand {h}")
    return ml, ml.hands[h - 1]


def _detail(m: int, h: int):
    def read(led):
        ml, hl = _find(led, m, h)
        return hand_detail(ml, hl, _frame_url)
    return ctx().hub.read(read)


@bp.get("/replay")
def index():
    return render_template("replay_index.html", matches=ctx().hub.read(_matches))


@bp.get("/replay/<int:m>/<int:h>")
def hand_page(m: int, h: int):
    try:
        detail = _detail(m, h)
    except ApiError:
        abort(404)
    return render_template("replay_hand.html", detail=detail, m=m, h=h)


@bp.get("/api/matches")
def matches():
    return {"matches": ctx().hub.read(_matches)}


@bp.get("/api/hands/<int:m>/<int:h>")
def hand(m: int, h: int):
    return _detail(m, h)


def _record(m: int, h: int):
    def read(led):
        _, hl = _find(led, m, h)
        return hl.record.to_json(), hl.record.to_pbn()
    return ctx().hub.read(read)


@bp.get("/api/hands/<int:m>/<int:h>/record.json")
def record_json(m: int, h: int):
    rec, _ = _record(m, h)
    import json
    return Response(json.dumps(rec, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="brisca-m{m}-h{h}.json"'})


@bp.get("/api/hands/<int:m>/<int:h>/record.pbn")
def record_pbn(m: int, h: int):
    _, pbn = _record(m, h)
    return Response(pbn, mimetype="text/plain",
                    headers={"Content-Disposition": f'attachment; filename="brisca-m{m}-h{h}.pbn"'})


@bp.get("/frame/<path:rel>")
def frame(rel: str):
    """A stored JPEG; the store resolves the path and refuses anything outside its frame archive."""
    try:
        path = ctx().store.frame_path(rel)
    except StoreError:
        abort(404)
    if not path.is_file():
        abort(404)
    return send_file(path, mimetype="image/jpeg", max_age=86400)
