"""The SQLite event log (append-only, WAL) and the frame archive beside it.

An event is committed (fsynced) before :meth:`EventStore.append` returns, so anything shown or acted
on is already durable. Appends carry an optional idempotency key: replaying the same observation
after a crash finds the stored event instead of writing a second one.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional

from table.events import Event

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2

_MIGRATIONS = {
    1: """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL NOT NULL, type TEXT NOT NULL,
                         data TEXT NOT NULL, frame TEXT);
    CREATE INDEX events_type ON events(type);
    """,
    2: """
    ALTER TABLE events ADD COLUMN key TEXT;
    CREATE UNIQUE INDEX events_key ON events(key) WHERE key IS NOT NULL;
    CREATE TABLE frames (path TEXT PRIMARY KEY, ts REAL NOT NULL, bytes INTEGER NOT NULL, kind TEXT);
    """,
}


class StoreError(RuntimeError):
    """The data directory cannot be used (permissions, a newer schema, a corrupt file)."""


class DiskFull(StoreError):
    """Too little free space to store a frame; events are still stored."""


class EventStore:
    """Append-only event log in ``DATA_DIR/events.sqlite3`` with frames in ``DATA_DIR/frames/``."""

    def __init__(self, data_dir, *, min_free_bytes: int = 50 * 2 ** 20) -> None:
        self.dir = Path(data_dir)
        self.frames_dir = self.dir / "frames"
        self.min_free_bytes = min_free_bytes
        try:
            self.frames_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot use data directory {self.dir}: {e.strerror}") from None
        self.path = self.dir / "events.sqlite3"
        self._lock = threading.RLock()
        self._new = threading.Condition(self._lock)
        self._listeners: List[Callable[[Event], None]] = []
        self._local = threading.local()
        self._db = self._connect()
        self._migrate()
        self._last_id = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()[0]

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(str(self.path), timeout=10, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot open {self.path}: {e}") from None
        return db

    def _reader(self) -> sqlite3.Connection:
        """One connection per reading thread: WAL lets readers run beside the writer."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = sqlite3.connect(str(self.path), timeout=10, check_same_thread=False)
        return db

    def _migrate(self) -> None:
        with self._lock:
            has_meta = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
            version = 0
            if has_meta:
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema {version}, newer than this program ({SCHEMA_VERSION})")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in _MIGRATIONS[v].split(";"):
                        if stmt.strip():
                            self._db.execute(stmt)
                    self._db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(v),))
                    self._db.execute("COMMIT")
                except Exception:
                    self._db.execute("ROLLBACK")
                    raise

    @property
    def schema_version(self) -> int:
        return int(self.get_meta("schema", "0"))

    # -- events -------------------------------------------------------------------------------
    def append(self, event: Event) -> Event:
        """Store an event durably and return it with its id. With a key already stored, return the
        stored event instead (idempotent replays after a crash)."""
        with self._lock:
            if event.key is not None:
                row = self._db.execute("SELECT id, ts, type, data, frame, key FROM events WHERE key=?",
                                       (event.key,)).fetchone()
                if row:
                    return _row(row)
            cur = self._db.execute(
                "INSERT INTO events (ts, type, data, frame, key) VALUES (?, ?, ?, ?, ?)",
                (event.ts, event.type, json.dumps(event.data, ensure_ascii=False), event.frame, event.key))
            event.id = cur.lastrowid
            self._last_id = event.id
            self._new.notify_all()
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(event)
            except Exception:  # a failing display must not stop the game
                log.exception("event listener %r failed on event %s", fn, event.id)
        return event

    def events(self, since: int = 0, limit: Optional[int] = None, types=None) -> List[Event]:
        q = "SELECT id, ts, type, data, frame, key FROM events WHERE id > ?"
        args: list = [since]
        if types:
            q += " AND type IN (%s)" % ",".join("?" * len(types))
            args += list(types)
        q += " ORDER BY id"
        if limit:
            q += " LIMIT ?"
            args.append(limit)
        return [_row(r) for r in self._reader().execute(q, args)]

    def get(self, event_id: int) -> Optional[Event]:
        r = self._reader().execute("SELECT id, ts, type, data, frame, key FROM events WHERE id=?",
                                   (event_id,)).fetchone()
        return _row(r) if r else None

    @property
    def last_id(self) -> int:
        return self._last_id

    def wait_for(self, after_id: int, timeout: float) -> bool:
        """Block until an event newer than ``after_id`` is stored (True) or the timeout passes."""
        with self._new:
            return self._new.wait_for(lambda: self._last_id > after_id, timeout)

    def add_listener(self, fn: Callable[[Event], None]) -> None:
        """Called in the appending thread after each new event is durable."""
        with self._lock:
            self._listeners.append(fn)

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str, default: Optional[str] = None) -> Optional[str]:
        r = self._reader().execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return r[0] if r else default

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- frames -------------------------------------------------------------------------------
    def save_frame(self, jpeg: bytes, kind: str = "frame", name: Optional[str] = None) -> str:
        """Write a JPEG durably (temp file, fsync, rename) and return its path relative to the store."""
        if self.free_bytes() < self.min_free_bytes + len(jpeg):
            raise DiskFull(f"less than {self.min_free_bytes // 2 ** 20} MiB free in {self.dir}")
        name = name or f"{time.time():.6f}-{kind}.jpg"
        day = time.strftime("%Y%m%d")
        rel = f"frames/{day}/{name}"
        path = self.dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(jpeg)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO frames VALUES (?, ?, ?, ?)", (rel, time.time(), len(jpeg), kind))
        return rel

    def frame_path(self, rel: str) -> Path:
        p = (self.dir / rel).resolve()
        if self.frames_dir.resolve() not in p.parents:
            raise StoreError(f"not a frame of this store: {rel}")
        return p

    def free_bytes(self) -> int:
        return shutil.disk_usage(self.dir).free

    def prune_frames(self, max_age_s: Optional[float] = None, max_bytes: Optional[int] = None) -> int:
        """Delete old frames (by age, then oldest first past a byte budget). Events are kept."""
        removed = 0
        with self._lock:
            rows = self._db.execute("SELECT path, ts, bytes FROM frames ORDER BY ts").fetchall()
            total = sum(r[2] for r in rows)
            now = time.time()
            for path, ts, size in rows:
                too_old = max_age_s is not None and now - ts > max_age_s
                too_big = max_bytes is not None and total > max_bytes
                if not (too_old or too_big):
                    continue
                try:
                    (self.dir / path).unlink()
                except FileNotFoundError:
                    pass
                self._db.execute("DELETE FROM frames WHERE path=?", (path,))
                total -= size
                removed += 1
        return removed

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _row(r) -> Event:
    e = Event.__new__(Event)
    e.id, e.ts, e.type, e.frame, e.key = r[0], r[1], r[2], r[4], r[5]
    e.data = json.loads(r[3])
    return e
