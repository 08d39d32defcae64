"""The live view: the page, `/api/state`, `/api/events?since=ID` and the `/events` SSE stream.

The stream carries every stored event with its id, so a phone that sleeps resumes from the
browser's Last-Event-ID without missing or repeating anything; after each batch it also sends the
folded state (an ``event: state`` message without an id, which leaves the resume point alone).
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from table.events import SCHEMA
from web.auth import ApiError
from web.util import ctx

bp = Blueprint("live", __name__)

BATCH = 500


@bp.get("/")
def page():
    return render_template("live.html", state_json=ctx().hub.state_json())


@bp.get("/api/state")
def state():
    return Response(ctx().hub.state_json(), mimetype="application/json",
                    headers={"Cache-Control": "no-store"})


def _event_id(text, name: str) -> int:
    try:
        v = int(text)
    except (TypeError, ValueError):
        raise ApiError(400, f"{name} must be an event id (a whole number), not {text!r}") from None
    if v < 0:
        raise ApiError(400, f"{name} must not be negative")
    return v


@bp.get("/api/events")
def events():
    args = request.args
    since = _event_id(args.get("since", "0"), "since")
    limit = _event_id(args.get("limit", str(BATCH)), "limit")
    if not 1 <= limit <= BATCH:
        raise ApiError(400, f"limit must be 1..{BATCH}")
    types = [t for t in args.get("types", "").split(",") if t]
    unknown = [t for t in types if t not in SCHEMA]
    if unknown:
        raise ApiError(400, f"unknown event type(s): {', '.join(unknown)}")
    store = ctx().store
    evs = store.events(since=since, limit=limit, types=types or None)
    last = evs[-1].id if evs else since
    return {"events": [e.to_json() for e in evs], "last_id": last, "store_last_id": store.last_id,
            "more": len(evs) == limit}


@bp.get("/events")
def stream():
    c = ctx()
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        since = _event_id(header.strip(), "Last-Event-ID")
    elif "since" in request.args:
        since = _event_id(request.args["since"], "since")
    else:
        since = c.store.last_id  # a new viewer: the state, then whatever happens next
    if not c.hub.try_open_stream():
        resp = Response(f"too many live viewers (limit {c.hub.sse_cap}); retry shortly\n", status=503,
                        mimetype="text/plain")
        resp.headers["Retry-After"] = "5"
        return resp
    cfg = current_app.config
    body = _Stream(c.hub, since, float(cfg["SSE_KEEPALIVE"]), float(cfg["SSE_TICK"]))
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


class _Stream:
    """The SSE body. An object with close() (not a bare generator) so the stream slot is released
    even when the client goes away before the first byte is written."""

    def __init__(self, hub, since: int, keepalive: float, tick: float) -> None:
        self.hub, self.since, self.keepalive, self.tick = hub, since, keepalive, tick
        self._closed = False

    def _state(self) -> str:
        return f"event: state\ndata: {self.hub.state_json()}\n\n"

    def __iter__(self):
        store, hub = self.hub.store, self.hub
        last = self.since
        yield ("retry: 2000\n\n" + self._state()).encode()
        idle = 0.0
        while not hub.stopping.is_set():
            evs = store.events(since=last, limit=BATCH)
            if evs:
                last = evs[-1].id
                chunk = "".join(f"id: {e.id}\ndata: {e.dumps()}\n\n" for e in evs)
                if len(evs) < BATCH:
                    chunk += self._state()
                yield chunk.encode()
                idle = 0.0
                continue
            if not store.wait_for(last, self.tick):
                idle += self.tick
                if idle >= self.keepalive:
                    idle = 0.0
                    yield b": keepalive\n\n"

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.hub.close_stream()
