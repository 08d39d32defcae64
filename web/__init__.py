"""The web dashboard: live table, trick replay, referee actions and set-up pages.

`create_app(store, config=None, controller=None)` builds the Flask app over an
:class:`table.store.EventStore`. The web only reads the event log and appends events; the optional
``controller`` (camera, zones, deck enrollment) is duck-typed, see :mod:`web.setup`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Optional

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from web.auth import ApiError, RateLimiter, csrf_token, error_response, is_referee, pin_is_set, secret_key, set_pin
from web.hub import Hub
from web.i18n import current_lang, strings

DEFAULTS = {
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_NAME": "brisca_session",
    "PERMANENT_SESSION_LIFETIME": timedelta(hours=12),
    "MAX_CONTENT_LENGTH": 16 * 2 ** 20,   # the enrollment photo is the largest body we accept
    "JSON_MAX_BYTES": 64 * 2 ** 10,       # every JSON API body is far smaller than this
    "SSE_CAP": 40,                        # concurrent live streams; more get a 503
    "SSE_KEEPALIVE": 15.0,                # seconds between comment lines on an idle stream
    "SSE_TICK": 1.0,                      # how often an idle stream checks for shutdown
    "PIN_MAX_FAILURES": 5,
    "PIN_WINDOW": 300.0,
    "PIN_GLOBAL_MAX": 30,
    "REFEREE_PIN": None,                  # seeds the PIN on first run (else set on the referee page)
}


@dataclass
class Ctx:
    """What the blueprints share, kept in ``app.extensions["brisca"]``."""

    store: Any
    hub: Hub
    controller: Optional[Any]
    limiter: RateLimiter


def create_app(store, config: Optional[dict] = None, controller=None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(store)
    if app.config.get("REFEREE_PIN") and not pin_is_set(store):
        set_pin(store, str(app.config["REFEREE_PIN"]))
    app.extensions["brisca"] = Ctx(
        store, Hub(store, int(app.config["SSE_CAP"])), controller,
        RateLimiter(int(app.config["PIN_MAX_FAILURES"]), float(app.config["PIN_WINDOW"]),
                    int(app.config["PIN_GLOBAL_MAX"])))

    from web import live, referee, replay, setup
    for bp in (live.bp, replay.bp, referee.bp, setup.bp):
        app.register_blueprint(bp)

    app.register_error_handler(ApiError, error_response)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        """JSON errors for the API (scripts and curl), the usual page elsewhere."""
        if request.path.startswith("/api/") or request.path == "/events":
            return error_response(ApiError(e.code or 500, e.description or e.name))
        return e

    @app.context_processor
    def page_context():
        lang = current_lang()
        return {"lang": lang, "t": strings(lang), "csrf_token": csrf_token(), "is_referee": is_referee(),
                "pin_set": pin_is_set(store), "other_lang": "en" if lang == "es" else "es",
                "tojson_attr": lambda v: json.dumps(v, ensure_ascii=False)}

    @app.after_request
    def headers(resp):
        lang = request.args.get("lang")
        if lang in ("es", "en"):
            resp.set_cookie("lang", lang, max_age=365 * 86400, samesite="Strict")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
                                "frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
        return resp

    return app
