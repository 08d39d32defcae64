"""Set-up pages: the camera view with zones and detected cards drawn over it, zone calibration by
dragging corners, and the deck enrollment wizard.

The camera belongs to the service, so these pages talk to an optional ``controller`` object
(duck-typed; every method optional, each page says so when one is missing):

- ``camera_jpeg() -> bytes | None``: the newest camera frame as JPEG.
- ``zones() -> {name: [[x, y], ...]}``: zone polygons as fractions (0..1) of the image width/height,
  or ``{"units": "mm", "table": [w, h], "zones": {...}}`` in table millimetres (see `_read_zones`).
- ``detections() -> [{"code": str, "confidence": float, "polygon": [[x, y], ...]}]`` (same units).
- ``set_zones(zones)``: store new zone polygons, in the same shape zones() gave; ValueError refuses.
- ``enroll(jpeg: bytes | None) -> [{"code": str | None, "jpeg": bytes, "confidence": float}]``: cut
  the enrollment photo (None: take one now) into card crops with their proposed codes.
- ``save_enrollment([{"index": int, "code": str}])``: keep the reviewed crops as the deck templates.
"""
from __future__ import annotations

import base64
import math

from flask import Blueprint, Response, render_template, request

from table.cards import Card, CardError
from table.events import Event
from web.auth import ApiError, referee_required
from web.util import ctx, json_body

bp = Blueprint("setup", __name__)

MAX_ZONES = 16
MAX_POINTS = 12


def _method(name: str):
    c = ctx().controller
    fn = getattr(c, name, None) if c is not None else None
    if fn is None:
        raise ApiError(503, f"no camera controller with {name}() is attached to this dashboard")
    return fn


@bp.get("/setup")
def page():
    c = ctx().controller
    return render_template("setup.html", has_camera=c is not None and hasattr(c, "camera_jpeg"),
                           can_save=c is not None and hasattr(c, "set_zones"))


@bp.get("/setup/enroll")
def enroll_page():
    c = ctx().controller
    return render_template("enroll.html", can_enroll=c is not None and hasattr(c, "enroll"))


@bp.get("/setup/camera.jpg")
def camera():
    jpeg = _method("camera_jpeg")()
    if not jpeg:
        raise ApiError(503, "the camera has no frame yet")
    return Response(bytes(jpeg), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _read_zones(c):
    """The controller's zones as image fractions, and the table size (mm) when it speaks mm.

    Two shapes are understood: ``{name: polygon}`` in fractions of the image, or
    ``{"units": "mm", "table": [w, h], "zones": {name: polygon}}`` in table millimetres (the view is
    then taken to be the rectified table, so fractions are mm / table size)."""
    fn = getattr(c, "zones", None) if c is not None else None
    raw = fn() if fn else None
    if not raw:
        return {}, None
    if isinstance(raw, dict) and raw.get("units") == "mm":
        w, h = raw.get("table") or (0, 0)
        if not (isinstance(w, (int, float)) and isinstance(h, (int, float)) and w > 0 and h > 0):
            raise ApiError(500, "the controller's zones in mm come without the table size")
        zones = {k: [[x / w, y / h] for x, y in poly] for k, poly in (raw.get("zones") or {}).items()}
        return _clean_zones(zones), (float(w), float(h))
    if isinstance(raw, dict) and "zones" in raw:
        raw = raw["zones"]
    return _clean_zones(raw), None


@bp.get("/api/setup/overlay")
def overlay():
    c = ctx().controller
    dets = getattr(c, "detections", None) if c is not None else None
    out = {"available": c is not None, "zones": {}, "detections": list(dets() or []) if dets else []}
    try:
        out["zones"], _ = _read_zones(c)
    except ApiError as e:  # a controller we cannot draw: show the picture anyway
        out["zones_error"] = e.message
    return out


def _clean_zones(zones) -> dict:
    """Validate zone polygons: names to lists of 3..12 [x, y] points with 0 <= x, y <= 1."""
    if not isinstance(zones, dict) or not 1 <= len(zones) <= MAX_ZONES:
        raise ApiError(400, f"zones must be an object of 1..{MAX_ZONES} named polygons")
    out = {}
    for name, poly in zones.items():
        if not isinstance(name, str) or not 0 < len(name) <= 32:
            raise ApiError(400, f"zone name {name!r} must be 1-32 characters")
        if not isinstance(poly, list) or not 3 <= len(poly) <= MAX_POINTS:
            raise ApiError(400, f"zone {name}: a polygon of 3..{MAX_POINTS} points")
        pts = []
        for p in poly:
            ok = (isinstance(p, (list, tuple)) and len(p) == 2
                  and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                          and 0 <= v <= 1 for v in p))
            if not ok:
                raise ApiError(400, f"zone {name}: each point is [x, y] with fractions 0..1, not {p!r}")
            pts.append([float(p[0]), float(p[1])])
        out[name] = pts
    return out


@bp.post("/api/setup/zones")
@referee_required
def save_zones():
    data = json_body()
    zones = _clean_zones(data.get("zones"))
    fn = _method("set_zones")
    try:
        _, table_mm = _read_zones(ctx().controller)
    except ApiError:
        table_mm = None
    try:
        if table_mm:  # answer in the units the controller speaks
            w, h = table_mm
            fn({"units": "mm", "table": [w, h],
                "zones": {k: [[round(x * w, 1), round(y * h, 1)] for x, y in poly] for k, poly in zones.items()}})
        else:
            fn(zones)
    except ValueError as e:
        raise ApiError(400, f"zones refused: {e}") from None
    ctx().store.append(Event("device", {"name": "calibration", "ok": True,
                                        "detail": f"zones set by the referee: {', '.join(zones)}"}))
    return {"ok": True, "zones": zones}


@bp.post("/api/setup/enroll")
@referee_required
def enroll():
    """The enrollment photo (multipart field ``photo``; none: the controller takes one)."""
    fn = _method("enroll")
    f = request.files.get("photo")
    jpeg = f.read() if f else None
    if jpeg is not None and not jpeg.startswith(b"\xff\xd8"):
        raise ApiError(400, "the photo must be a JPEG")
    try:
        crops = fn(jpeg)
    except ValueError as e:
        raise ApiError(400, f"enrollment failed: {e}") from None
    out = []
    for i, c in enumerate(crops):
        img = c.get("jpeg") or b""
        out.append({"index": i, "code": c.get("code"), "confidence": c.get("confidence"),
                    "image": "data:image/jpeg;base64," + base64.b64encode(img).decode()})
    return {"ok": True, "crops": out}


@bp.post("/api/setup/enroll/save")
@referee_required
def enroll_save():
    data = json_body()
    crops = data.get("crops")
    if not isinstance(crops, list) or not 1 <= len(crops) <= 48:
        raise ApiError(400, "crops must be a list of 1..48 {index, code}")
    clean, seen = [], set()
    for c in crops:
        if not isinstance(c, dict) or not isinstance(c.get("index"), int) or isinstance(c.get("index"), bool):
            raise ApiError(400, "each crop is {index: integer, code: card code}")
        try:
            code = Card.parse(c.get("code")).code
        except CardError as e:
            raise ApiError(400, f"crop {c['index']}: {e}") from None
        if code in seen:
            raise ApiError(400, f"{code} is given to two crops")
        seen.add(code)
        clean.append({"index": c["index"], "code": code})
    fn = _method("save_enrollment")
    try:
        fn(clean)
    except ValueError as e:
        raise ApiError(400, f"enrollment refused: {e}") from None
    ctx().store.append(Event("device", {"name": "deck", "ok": True,
                                        "detail": f"{len(clean)} cards enrolled by the referee"}))
    return {"ok": True, "saved": len(clean)}
