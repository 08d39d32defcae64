"""Referee authentication: a PIN stored hashed in the store's meta, a SameSite=Strict session
cookie signed with a secret key kept in the store (so sessions survive a restart), a CSRF token per
session, and a rate limit on PIN attempts so four digits cannot be brute-forced over the LAN."""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from functools import wraps

from flask import current_app, jsonify, request, session
from werkzeug.security import check_password_hash, generate_password_hash

PIN_KEY = "web.referee_pin"
SECRET_KEY = "web.secret_key"


class ApiError(Exception):
    """A refused request: becomes ``{"error": message}`` with the status code."""

    def __init__(self, status: int, message: str, **extra) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def secret_key(store) -> str:
    """The persistent session signing key, created once per data directory."""
    key = store.get_meta(SECRET_KEY)
    if not key:
        key = secrets.token_hex(32)
        store.set_meta(SECRET_KEY, key)
    return key


def pin_is_set(store) -> bool:
    return bool(store.get_meta(PIN_KEY))


def valid_pin_format(pin) -> bool:
    return isinstance(pin, str) and pin.isdigit() and 4 <= len(pin) <= 12


def set_pin(store, pin: str) -> None:
    if not valid_pin_format(pin):
        raise ApiError(400, "the PIN must be 4 to 12 digits")
    store.set_meta(PIN_KEY, generate_password_hash(pin))


def check_pin(store, pin) -> bool:
    h = store.get_meta(PIN_KEY)
    return bool(h) and isinstance(pin, str) and check_password_hash(h, pin)


class RateLimiter:
    """At most ``max_failures`` wrong PINs per client in ``window`` seconds, and ``global_max`` in
    total (so rotating addresses does not help); then refuse until the oldest failure ages out."""

    def __init__(self, max_failures: int = 5, window: float = 300.0, global_max: int = 30) -> None:
        self.max_failures, self.window, self.global_max = max_failures, window, global_max
        self._per: dict = defaultdict(deque)
        self._all: deque = deque()
        self._lock = threading.Lock()

    def _trim(self, q: deque, now: float) -> None:
        while q and now - q[0] > self.window:
            q.popleft()

    def retry_after(self, client: str) -> float:
        """Seconds until this client may try again (0 = now)."""
        now = time.monotonic()
        with self._lock:
            q = self._per[client]
            self._trim(q, now)
            self._trim(self._all, now)
            waits = [0.0]
            if len(q) >= self.max_failures:
                waits.append(self.window - (now - q[0]))
            if len(self._all) >= self.global_max:
                waits.append(self.window - (now - self._all[0]))
            return max(waits)

    def failed(self, client: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._per[client].append(now)
            self._all.append(now)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._per.pop(client, None)


def csrf_token() -> str:
    tok = session.get("csrf")
    if not tok:
        tok = session["csrf"] = secrets.token_urlsafe(24)
    return tok


def check_csrf() -> None:
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    tok = session.get("csrf")
    if not tok or not hmac.compare_digest(str(sent), tok):
        raise ApiError(403, "missing or wrong CSRF token (reload the page)")


def pin_generation(store) -> str:
    """Changes when the PIN changes, so old referee sessions stop working."""
    return (store.get_meta(PIN_KEY) or "")[-12:]


def is_referee() -> bool:
    store = current_app.extensions["brisca"].store
    return bool(session.get("referee")) and session.get("pin_gen") == pin_generation(store)


def referee_required(view):
    """Changes need the referee session (PIN) and the CSRF token of that session."""
    @wraps(view)
    def wrapper(*a, **kw):
        check_csrf()
        if not is_referee():
            raise ApiError(401, "referee PIN required: log in on the referee page")
        return view(*a, **kw)
    return wrapper


def csrf_required(view):
    @wraps(view)
    def wrapper(*a, **kw):
        check_csrf()
        return view(*a, **kw)
    return wrapper


def error_response(e: ApiError):
    resp = jsonify({"error": e.message, **e.extra})
    resp.status_code = e.status
    if e.status == 429 and "retry_after" in e.extra:
        resp.headers["Retry-After"] = str(int(e.extra["retry_after"]) + 1)
    return resp
