"""Serve the dashboard with waitress in a thread of the service process.

One process owns the camera, the serial port and the GPIO, so the web server runs beside them rather
than in its own process. Live streams hold a worker thread each; the app caps them (SSE_CAP, 503
beyond) and waitress gets more threads than that cap, so ordinary requests always find a thread.
"""
from __future__ import annotations

import logging
import threading
from typing import Optional

log = logging.getLogger(__name__)


class WebServer:
    """A running server: ``.url``, ``.port``, ``.stop()``. The asyncore loop runs in our own
    thread in short polls so that stop() can end it from outside without racing it."""

    def __init__(self, app, host: str, port: int, threads: int, poll: float = 0.25) -> None:
        from waitress.server import create_server

        self.app = app
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     channel_timeout=120, connection_limit=max(100, threads * 4),
                                     ident="brisca-table", clear_untrusted_proxy_headers=True)
        self.host = host
        self.port = self._server.effective_port
        self.threads = threads
        self._poll = poll
        self._stopping = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        return f"http://{host}:{self.port}"

    def start(self) -> "WebServer":
        self._thread.start()
        return self

    def _run(self) -> None:
        srv = self._server
        try:
            while not self._stopping.is_set():
                srv.asyncore.loop(timeout=self._poll, map=srv._map, use_poll=True, count=1)
        except Exception:  # pragma: no cover - logged, the service keeps running without the web
            log.exception("web server loop failed")
        finally:
            for ch in list(srv._map.values()):
                try:
                    ch.close()
                except Exception:
                    pass
            srv.task_dispatcher.shutdown(timeout=5)
            self._done.set()

    def stop(self, timeout: float = 10.0) -> bool:
        """End the live streams, close every connection, join the worker threads."""
        hub = self.app.extensions["brisca"].hub
        hub.stopping.set()
        self._stopping.set()
        try:
            self._server.pull_trigger()
        except Exception:
            pass
        ok = self._done.wait(timeout)
        self._thread.join(timeout=1)
        return ok

    def __enter__(self) -> "WebServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(app, host: str = "0.0.0.0", port: int = 8080, threads: Optional[int] = None) -> WebServer:
    """Start ``app`` (from :func:`web.create_app`) on waitress in a background thread and return the
    handle. ``threads`` defaults to the SSE cap plus 8 so the API stays responsive at the cap."""
    cap = int(app.config.get("SSE_CAP", 40))
    threads = threads or cap + 8
    if threads <= cap:
        raise ValueError(f"threads ({threads}) must exceed the SSE cap ({cap})")
    srv = WebServer(app, host, port, threads).start()
    log.info("dashboard on %s (%d threads, %d live streams max)", srv.url, threads, cap)
    return srv
