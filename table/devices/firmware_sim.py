"""The Pico's firmware logic behind a pseudo-terminal, so the real host driver (pyserial) talks to
the same protocol.py/display.py code the board runs. Used by `brisca-table firmware-sim`, by the
demo service (in-process, in a thread) and by the end-to-end tests.

``baud`` throttles both directions to real UART byte timing (10 bits per byte), because a pty
itself moves bytes instantly; ``unplug()``/``replug()`` imitate a pulled USB cable.
"""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from typing import Callable, Optional

from firmware import display as fw_display

RESET = "\x1b[0m"


class FirmwareSim:
    def __init__(self, n_pixels: int = 16, n_displays: int = 2, baud: Optional[int] = 115200,
                 link: Optional[str] = None,
                 on_render: Optional[Callable[["FirmwareSim"], None]] = None,
                 render_interval_s: float = 0.1):
        self.n_pixels = n_pixels
        self.n_displays = n_displays
        self.byte_s = 10.0 / baud if baud else 0.0
        self.link = link          # a symlink kept pointing at the current pty (a fake by-id name)
        self.on_render = on_render
        self.render_interval_s = render_interval_s
        self.display = fw_display.Display(n_pixels, n_displays, name="brisca-sim")
        self.rx_bytes = 0
        self.tx_bytes = 0
        self.boots = 0
        self._lock = threading.RLock()
        self._master: Optional[int] = None
        self._slave: Optional[int] = None
        self._port: Optional[str] = None
        self._t0 = time.monotonic()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    # ---- lifecycle --------------------------------------------------------------------------
    def start(self) -> str:
        """Open the pty, boot the firmware logic, start the thread; returns the port path."""
        self._plug()
        self._thread = threading.Thread(target=self._run, name="firmware-sim", daemon=True)
        self._thread.start()
        return self._port

    @property
    def port(self) -> Optional[str]:
        """The current port path, None while unplugged."""
        return self._port

    def now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _plug(self, reset: bool = True) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)            # no echo, no line discipline: a plain byte pipe like USB CDC
        os.set_blocking(master, False)
        with self._lock:
            if reset:
                self.display = fw_display.Display(self.n_pixels, self.n_displays, name="brisca-sim")
            self._master, self._slave = master, slave
            self._port = os.ttyname(slave)
            self.boots += 1
            self._write(self.display.boot(self.now_ms()))
        if self.link:
            tmp = self.link + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self._port, tmp)
            os.replace(tmp, self.link)

    def unplug(self) -> None:
        """The cable is pulled: the pty disappears and the host's reads fail."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self._port = None
        if self.link and os.path.lexists(self.link):
            os.unlink(self.link)

    def replug(self, reset: bool = True) -> str:
        """The cable goes back in: a new pty (so usually a new name); the board rebooted."""
        if self._master is not None:
            self.unplug()
        self._plug(reset)
        return self._port

    def reboot(self) -> None:
        """The board resets (watchdog, brown-out) without the port going away."""
        with self._lock:
            self.display = fw_display.Display(self.n_pixels, self.n_displays, name="brisca-sim")
            self.boots += 1
            self._write(self.display.boot(self.now_ms()))

    def send_raw(self, data: bytes) -> None:
        """Bytes from the 'board' to the host outside the protocol (noise, a REPL banner)."""
        with self._lock:
            self._write(data)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        self.unplug()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # ---- the firmware loop ------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if not data or self._master is None:
            return
        if self.byte_s:
            time.sleep(len(data) * self.byte_s)   # the bytes take this long on the wire
        try:
            os.write(self._master, data)
            self.tx_bytes += len(data)
        except (BlockingIOError, OSError):
            pass  # nobody reading and the buffer is full: a real UART drops bytes too

    def _run(self) -> None:
        next_render = 0.0
        while not self._stop.is_set():
            fd = self._master
            if fd is None:
                self._stop.wait(0.02)
                continue
            try:
                r, _, _ = select.select([fd], [], [], 0.02)
            except (OSError, ValueError):
                continue  # closed under us by unplug()
            if r:
                with self._lock:
                    if self._master != fd:
                        continue
                    try:
                        data = os.read(fd, 4096)
                    except (BlockingIOError, OSError):
                        data = b""
                    if data:
                        if self.byte_s:
                            time.sleep(len(data) * self.byte_s)
                        self.rx_bytes += len(data)
                        self._write(self.display.feed(data, self.now_ms()))
            if self.on_render is not None and time.monotonic() >= next_render:
                next_render = time.monotonic() + self.render_interval_s
                self.on_render(self)

    # ---- what is shown ----------------------------------------------------------------------
    def snapshot(self) -> dict:
        """What the board would show right now: pixels, digit texts, idle flag."""
        with self._lock:
            now = self.now_ms()
            d = self.display
            return {"pixels": d.pixels(now),
                    "digits": [fw_display.segments_text(s) for s in d.digits(now)],
                    "idle": d.idle(now), "state": None if d.state is None else dict(d.state),
                    "errors": d.errors, "last_error": d.last_error, "frames": d.frames}

    def render_line(self, color: bool = True) -> str:
        """One terminal line: the strip as coloured blocks, then each side's four digits."""
        snap = self.snapshot()
        if color:
            cells = []
            for r, g, b in snap["pixels"]:
                if (r, g, b) == (0, 0, 0):
                    cells.append("\x1b[38;2;60;60;60m\u00b7\u00b7" + RESET)
                else:
                    cells.append(f"\x1b[38;2;{r};{g};{b}m\u2588\u2588" + RESET)
            strip = "".join(cells)
            digits = "  ".join(f"\x1b[1;31;40m {t:>5} {RESET}" for t in snap["digits"])
        else:
            strip = "".join(".." if p == (0, 0, 0) else "##" for p in snap["pixels"])
            digits = "  ".join(f"[{t:>5}]" for t in snap["digits"])
        st = snap["state"] or {}
        extra = "idle" if snap["idle"] else (
            f"trump {st.get('trump') or '-'} turn {st.get('turn') if st.get('turn') is not None else '-'}"
            + ("  ALERT" if st.get("alert") else ""))
        return f"{strip}  {digits}  {extra}"
