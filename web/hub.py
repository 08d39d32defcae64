"""The web's view of the event log: one ledger folded incrementally and shared by every request.

Folding the whole log per request would cost O(events) on every `/api/state`; instead a single
ledger catches up with the store under a lock, and the state JSON is cached per last event id so
thirty phones polling at once share one serialisation.
"""
from __future__ import annotations

import json
import threading
from typing import Optional

from table.ledger import Ledger


class Hub:
    """Shared ledger + cached state + the cap on concurrent SSE streams."""

    def __init__(self, store, sse_cap: int = 40) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._ledger = Ledger()
        self._applied = 0
        self._state_json: Optional[str] = None
        self._state_at = -1
        self.sse_cap = sse_cap
        self._streams = threading.BoundedSemaphore(sse_cap)
        self.open_streams = 0
        self.stopping = threading.Event()

    def ledger(self) -> Ledger:
        """The ledger, caught up with the store. Callers must only read it (under `locked`)."""
        with self._lock:
            self._catch_up()
            return self._ledger

    def _catch_up(self) -> None:
        if self.store.last_id > self._applied:
            for e in self.store.events(since=self._applied):
                self._ledger.apply(e)
                self._applied = e.id
                self._ledger.last_id = max(self._ledger.last_id, e.id)

    @property
    def lock(self) -> threading.Lock:
        return self._lock

    def read(self, fn):
        """Run ``fn(ledger)`` under the lock with the ledger caught up (a consistent snapshot)."""
        with self._lock:
            self._catch_up()
            return fn(self._ledger)

    def state_json(self) -> str:
        """`/api/state` as JSON text, recomputed only when a new event has been folded."""
        with self._lock:
            self._catch_up()
            if self._state_json is None or self._state_at != self._applied:
                st = self._ledger.state()
                st["last_event"] = self._applied
                self._state_json = json.dumps(st, ensure_ascii=False, separators=(",", ":"))
                self._state_at = self._applied
            return self._state_json

    # -- SSE stream slots -------------------------------------------------------------------
    def try_open_stream(self) -> bool:
        if self.stopping.is_set() or not self._streams.acquire(blocking=False):
            return False
        with self._lock:
            self.open_streams += 1
        return True

    def close_stream(self) -> None:
        with self._lock:
            self.open_streams -= 1
        self._streams.release()
