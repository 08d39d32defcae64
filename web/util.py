"""Small helpers shared by the blueprints: the shared context and strict JSON input."""
from __future__ import annotations

from flask import current_app, request

from web.auth import ApiError


def ctx():
    return current_app.extensions["brisca"]


def json_body() -> dict:
    """The request's JSON object, or a 4xx naming what is wrong (nothing is changed on error)."""
    limit = current_app.config["JSON_MAX_BYTES"]
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, f"request body too large ({request.content_length} bytes; at most {limit})")
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise ApiError(413, f"request body too large (at most {limit} bytes)")
    if not raw.strip():
        return {}
    data = request.get_json(silent=True, force=True)
    if data is None:
        raise ApiError(400, "the body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def int_field(data: dict, name: str, lo: int = None, hi: int = None, default=..., what: str = None) -> int:
    """An integer field within [lo, hi]; booleans and strings are refused."""
    if name not in data or data[name] is None:
        if default is ...:
            raise ApiError(400, f"missing field {name!r}")
        return default
    v = data[name]
    if not isinstance(v, int) or isinstance(v, bool):
        raise ApiError(400, f"{name} must be an integer, not {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ApiError(400, f"{name} {v} is out of range ({what or f'{lo}..{hi}'})")
    return v
